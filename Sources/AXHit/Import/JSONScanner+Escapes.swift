import Foundation

/// Strings that need more than a look: escapes decoded into `scratch`, and
/// multi-byte UTF-8 sequences checked.
extension JSONScanner {
    /// Decodes a string with escapes into `scratch`, from its first byte at
    /// `start`; `position` is at the first backslash.
    mutating func scanEscapedString(from start: Int) throws(TreeError) {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start ..< position]))
        textEscaped = true
        while position < bytes.count {
            let c = bytes[position]
            if c == UInt8(ascii: "\"") {
                position += 1
                return
            }
            if c == UInt8(ascii: "\\") {
                try scanEscape()
            } else if c < 0x20 {
                throw fail("control character \(Self.describe(c)) in a string (escape it)")
            } else if c < 0x80 {
                scratch.append(c)
                position += 1
            } else {
                let s = position
                try skipUTF8Sequence()
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[s ..< position]))
            }
        }
        throw fail("the file ends inside a string (truncated?)")
    }

    /// Decodes one escape at `position` (a backslash) into `scratch`.
    private mutating func scanEscape() throws(TreeError) {
        guard position + 1 < bytes.count else { throw fail("the file ends inside a string (truncated?)") }
        let e = bytes[position + 1]
        position += 2
        switch e {
        case UInt8(ascii: "\""): scratch.append(0x22)
        case UInt8(ascii: "\\"): scratch.append(0x5C)
        case UInt8(ascii: "/"): scratch.append(0x2F)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try hex4()
            var scalar = UInt32(unit)
            if (0xD800 ... 0xDBFF).contains(unit) {
                // A high surrogate must be followed by an escaped low one.
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                    bytes[position + 1] == UInt8(ascii: "u")
                else {
                    throw fail(
                        "lone surrogate \\u\(Self.hex(unit)) in a string (a high surrogate needs a low one after it)")
                }
                position += 2
                let low = try hex4()
                guard (0xDC00 ... 0xDFFF).contains(low) else {
                    throw fail(
                        "lone surrogate \\u\(Self.hex(unit)) in a string (followed by \\u\(Self.hex(low)), not a low surrogate)"
                    )
                }
                scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            } else if (0xDC00 ... 0xDFFF).contains(unit) {
                throw fail("lone surrogate \\u\(Self.hex(unit)) in a string (a low surrogate without a high one)")
            }
            UTF8Sequence.append(scalar, to: &scratch)
        default:
            // At the backslash: the byte after it may be a raw newline,
            // which must not count as a line already passed.
            throw fail("invalid escape \\\(Self.describeBare(e)) in a string", at: position - 2)
        }
    }

    private mutating func hex4() throws(TreeError) -> UInt16 {
        var v: UInt16 = 0
        for _ in 0 ..< 4 {
            guard position < bytes.count else { throw fail("the file ends inside a string (truncated?)") }
            let c = bytes[position]
            let d: UInt8
            switch c {
            case UInt8(ascii: "0") ... UInt8(ascii: "9"): d = c - UInt8(ascii: "0")
            case UInt8(ascii: "a") ... UInt8(ascii: "f"): d = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A") ... UInt8(ascii: "F"): d = c - UInt8(ascii: "A") + 10
            default: throw fail("invalid \\u escape in a string: \(Self.describe(c)) is not a hex digit")
            }
            v = v << 4 | UInt16(d)
            position += 1
        }
        return v
    }

    /// Checks one multi-byte UTF-8 sequence at `position` (`UTF8Sequence`)
    /// and steps over it.
    mutating func skipUTF8Sequence() throws(TreeError) {
        do {
            position += try UTF8Sequence.length(in: bytes, at: position)
        } catch {
            let lead = bytes[position]
            switch error {
            case .badLead: throw fail("invalid UTF-8 in a string (byte \(Self.hexByte(lead)))")
            case .truncated: throw fail("invalid UTF-8 in a string (truncated sequence)")
            case .badSecond:
                throw fail(
                    "invalid UTF-8 in a string (bytes \(Self.hexByte(lead)) \(Self.hexByte(bytes[position + 1])))")
            case .badContinuation(let k):
                throw fail("invalid UTF-8 in a string (byte \(Self.hexByte(bytes[position + k])))")
            }
        }
    }
}
