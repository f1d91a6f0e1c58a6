import Foundation

/// Attribute values and text: stepped over and checked as the scanner
/// meets them (references, UTF-8, control characters), and a value
/// decoded when it is read.
extension XMLScanner {
    /// Scans an attribute value from `position` to its closing quote (left
    /// at `position`). Returns whether it needs decoding.
    mutating func scanValue(quote: UInt8) throws(TreeError) -> Bool {
        let n = bytes.count
        var needsDecoding = false
        while true {
            skipPlain(quote: quote)
            guard position < n else { throw error("unexpected end of input (truncated?)", at: n) }
            let b = bytes[position]
            switch b {
            case quote: return needsDecoding
            case Self.lt: throw error("'<' in an attribute value", at: position)
            case Self.amp:
                try checkReference()
                needsDecoding = true
            case 0x09, 0x0A, 0x0D:
                needsDecoding = true
                position += 1
            case 0x80...:
                try skipUTF8Sequence()
            case ..<0x20:
                throw error("invalid character", at: position)
            default:
                position += 1
            }
        }
    }

    /// Steps over text content up to the next `<` (left at `position`).
    mutating func skipText() throws(TreeError) {
        let n = bytes.count
        while position < n {
            skipPlain(quote: Self.lt)
            guard position < n else { return }
            let b = bytes[position]
            switch b {
            case Self.lt: return
            case Self.amp: try checkReference()
            case 0x09, 0x0A, 0x0D: position += 1
            case 0x80...: try skipUTF8Sequence()
            case ..<0x20: throw error("invalid character", at: position)
            default: position += 1
            }
        }
    }

    /// Steps over plain ASCII bytes, 8 at a time: stops at the first byte
    /// that needs a look (`quote`, `<`, `&`, a control character or a
    /// non-ASCII byte) or at the end of the input.
    @inline(__always)
    private mutating func skipPlain(quote: UInt8) {
        let n = bytes.count
        guard let base = bytes.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let q = ones &* UInt64(quote), l = ones &* UInt64(Self.lt), a = ones &* UInt64(Self.amp)
        // The high bit of each byte that is zero. A borrow can flag a byte
        // above a zero byte, never one below: the lowest flag is exact.
        @inline(__always) func zeros(_ v: UInt64) -> UInt64 { (v &- ones) & ~v & highs }
        while position &+ 8 <= n {
            let w = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self))
            // Below 0x20 (the same borrow argument), at or above 0x80, or one
            // of the three stop bytes.
            let stops = (((w &- ones &* 0x20) & ~w) | w) & highs | zeros(w ^ q) | zeros(w ^ l) | zeros(w ^ a)
            if stops != 0 {
                position &+= stops.trailingZeroBitCount >> 3
                return
            }
            position &+= 8
        }
        while position < n {
            let b = bytes[position]
            if b < 0x20 || b >= 0x80 || b == quote || b == Self.lt || b == Self.amp { return }
            position &+= 1
        }
    }

    /// Checks the entity or character reference at `position` (its `&`)
    /// and steps over it.
    private mutating func checkReference() throws(TreeError) {
        let at = position
        let (_, end) = try reference(at: at)
        position = end
    }

    /// The character an entity or character reference at `at` (its `&`)
    /// stands for, and the offset after its `;`.
    private func reference(at: Int) throws(TreeError) -> (UInt32, Int) {
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
    /// (Unicode table 3-7: no overlong forms, no surrogates, nothing above
    /// U+10FFFF).
    mutating func skipUTF8Sequence() throws(TreeError) {
        let length: Int
        do {
            length = try UTF8Sequence.length(in: bytes, at: position)
        } catch {
            throw TreeError(.input, "not UTF-8 (byte \(position))", file: file, line: line(at: position))
        }
        // U+FFFE and U+FFFF are not XML characters.
        if bytes[position] == 0xEF && bytes[position + 1] == 0xBF && bytes[position + 2] >= 0xBE {
            throw error("invalid character", at: position)
        }
        position += length
    }
}
