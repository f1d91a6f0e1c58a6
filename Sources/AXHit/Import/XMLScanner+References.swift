import Foundation

/// Entity and character references: what one stands for, and attribute
/// values decoded.
extension XMLScanner {
    /// The character an entity or character reference at `at` (its `&`)
    /// stands for, and the offset after its `;`.
    func reference(at: Int) throws(TreeError) -> (UInt32, Int) {
        let n = bytes.count
        var p = at + 1
        // The reference's name or number, up to its `;`: letters, digits
        // and `#`, and short (a longer name is undeclared anyway).
        var end = p
        while end < n && end - p <= 10 {
            let b = bytes[end] | 0x20
            guard
                (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
                    || bytes[end] == UInt8(ascii: "#")
            else { break }
            end += 1
        }
        guard end < n else { throw error("unexpected end of input (truncated?)", at: n) }
        guard bytes[end] == UInt8(ascii: ";") else { throw error("entity reference without ';'", at: at) }
        let body = slice(p, end)
        if body.first == UInt8(ascii: "#") {
            p += 1
            var value: UInt32 = 0
            let hex = p < end && (bytes[p] == UInt8(ascii: "x"))
            if hex { p += 1 }
            guard p < end else { throw error("invalid character reference", at: at) }
            while p < end {
                let b = bytes[p]
                let d: UInt32
                switch b {
                case UInt8(ascii: "0") ... UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
                case UInt8(ascii: "a") ... UInt8(ascii: "f") where hex: d = UInt32(b - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A") ... UInt8(ascii: "F") where hex: d = UInt32(b - UInt8(ascii: "A") + 10)
                default: throw error("invalid character reference", at: at)
                }
                value = value &* (hex ? 16 : 10) &+ d
                guard value <= 0x10FFFF else { throw error("invalid character", at: at) }
                p += 1
            }
            // XML's Char production: tab, newline, carriage return, and the
            // rest from U+0020 up, without surrogates, U+FFFE and U+FFFF.
            let valid =
                value == 0x09 || value == 0x0A || value == 0x0D || (value >= 0x20 && value <= 0xD7FF)
                || (value >= 0xE000 && value <= 0xFFFD) || (value >= 0x10000 && value <= 0x10FFFF)
            guard valid else { throw error("invalid character", at: at) }
            return (value, end + 1)
        }
        switch body.count {
        case 2 where body[1] == UInt8(ascii: "t") && (body[0] == UInt8(ascii: "l") || body[0] == UInt8(ascii: "g")):
            return (body[0] == UInt8(ascii: "l") ? 0x3C : 0x3E, end + 1)
        case 3 where body.elementsEqual("amp".utf8): return (0x26, end + 1)
        case 4 where body.elementsEqual("quot".utf8): return (0x22, end + 1)
        case 4 where body.elementsEqual("apos".utf8): return (0x27, end + 1)
        default: throw error("undeclared entity", at: at)
        }
    }

    /// Attribute `a`'s value with references replaced and literal tab,
    /// newline and carriage return normalized to spaces (`\r\n` to one).
    func decodedValue(_ a: Attribute) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(a.valueEnd - a.valueStart)
        var p = a.valueStart
        while p < a.valueEnd {
            let b = bytes[p]
            switch b {
            case Self.amp:
                // Checked while scanning: it cannot fail here.
                guard let (scalar, end) = try? reference(at: p) else { return out }
                UTF8Sequence.append(scalar, to: &out)
                p = end
            case 0x0D:
                out.append(0x20)
                p += p + 1 < a.valueEnd && bytes[p + 1] == 0x0A ? 2 : 1
            case 0x09, 0x0A:
                out.append(0x20)
                p += 1
            default:
                out.append(b)
                p += 1
            }
        }
        return out
    }

    /// Steps over the multi-byte UTF-8 sequence at `position`, checking it
}
