import Foundation

/// Strings and keys: scanned and checked (escapes, UTF-8, control
/// characters), decoded only when they hold escapes, else read in place.
extension JSONScanner {
    // MARK: Strings

    /// Scans a string starting at its opening quote. The common case (no
    /// escapes) only validates and leaves the text in place.
    mutating func scanString() throws(TreeError) {
        position += 1
        let start = position
        textEscaped = false
        while true {
            skipPlainASCII()
            guard position < bytes.count else { break }
            let c = bytes[position]
            if c == UInt8(ascii: "\"") {
                textStart = start
                textEnd = position
                position += 1
                return
            }
            if c == UInt8(ascii: "\\") {
                try scanEscapedString(from: start)
                return
            }
            if c < 0x20 { throw fail("control character \(Self.describe(c)) in a string (escape it)") }
            if c < 0x80 { position += 1 } else { try skipUTF8Sequence() }
        }
        throw fail("the file ends inside a string (truncated?)")
    }

    /// Steps over plain ASCII string bytes 8 at a time: stops at the first
    /// byte that needs a look (a quote, a backslash, a control character or
    /// a non-ASCII byte), or near the end of the input.
    @inline(__always)
    private mutating func skipPlainASCII() {
        guard let base = bytes.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        while position &+ 8 <= bytes.count {
            let w = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self))
            // SWAR: a byte's high bit is set when it is a quote or a backslash
            // (x ^ c is zero), below 0x20, or itself has the high bit.
            let quote = w ^ (ones &* 0x22), backslash = w ^ (ones &* 0x5C)
            let special =
                ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((w &- ones &* 0x20) & ~w) | w
            let found = special & highs
            if found != 0 {
                // The lowest flagged byte is exact (borrows only run upward
                // from a true match): step onto it (byte 0 is the low byte).
                position &+= found.trailingZeroBitCount >> 3
                return
            }
            position &+= 8
        }
    }

    /// Decodes a string with escapes into `scratch`, from its first byte at
    /// `start`; `position` is at the first backslash.
    private mutating func scanEscapedString(from start: Int) throws(TreeError) {
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
    private mutating func skipUTF8Sequence() throws(TreeError) {
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

    /// Calls `body` with the UTF-8 bytes of the last key or string (escapes
    /// decoded).
    @inline(__always)
    func withText<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if textEscaped { return scratch.withUnsafeBufferPointer(body) }
        return body(UnsafeBufferPointer(rebasing: bytes[textStart ..< textEnd]))
    }

    /// The value `table` has for the last key or string, if any.
    @inline(__always)
    func lookup<V>(in table: KeyTable<V>) -> V? {
        if textEscaped { return scratch.withUnsafeBufferPointer { table.lookup($0) } }
        return table.lookup(UnsafeBufferPointer(rebasing: bytes[textStart ..< textEnd]))
    }

    /// The last key or string, decoded.
    var text: String {
        withText { String(decoding: $0, as: UTF8.self) }
    }
}
