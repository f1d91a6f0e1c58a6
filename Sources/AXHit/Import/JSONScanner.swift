import Foundation

/// A pull tokenizer for JSON (RFC 8259) over UTF-8 bytes.
///
/// Each `next()` returns one token and checks the grammar as it goes (commas,
/// colons, matching brackets, one top-level value, nothing after it), so a
/// consumer that skips what it does not know still gets a full validation.
/// Strings are checked for valid UTF-8, control characters and escapes
/// (`\uXXXX` surrogate pairs must pair up); numbers are checked against the
/// JSON grammar and converted only on request. Containers are tracked on an
/// explicit stack, so nesting is bounded only by memory.
///
/// Every token records the byte offset it starts at (`tokenOffset`). Lines
/// are not counted while scanning: `line(at:)` counts the newlines before an
/// offset when an error needs it (strings cannot hold raw newlines, so every
/// newline before a token is whitespace).
///
/// The scanner borrows `bytes`: it must not outlive the buffer. Errors are
/// `TreeError`s with a line and no node or key.
struct JSONScanner {
    /// What `next()` found.
    enum Token: UInt8 {
        case beginObject, endObject, beginArray, endArray
        /// An object key; its text is in `text`, and the value follows.
        case key
        case string, number, `true`, `false`, null
        /// The end of the input, after the one top-level value.
        case end
    }

    /// What the grammar allows next.
    private enum State: UInt8 {
        case value, valueOrEnd, keyOrEnd, key, afterValue, done
    }

    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    /// Where the last token starts.
    private(set) var tokenOffset = 0
    private var state = State.value
    // Open containers as a bit stack (1 for an object): the first 64 levels
    // in a word, deeper ones in an array, so that the common shallow
    // push and pop touch no array (no uniqueness check per bracket).
    private var nesting = 0
    private var objectBits: UInt64 = 0
    private var deepObjectBits: [UInt64] = []
    /// Whether the innermost open container is an object.
    private var inObject = false
    // The last string or key: a slice of `bytes`, or `scratch` when it had escapes.
    private var textStart = 0
    private var textEnd = 0
    var textEscaped = false
    var scratch: [UInt8] = []
    // The last number: a slice of `bytes`, already checked against the grammar,
    // and its value as read during the check: up to 19 significant digits
    // (`mantissa`, exact in a UInt64) times ten to `exponent`; `inexact` when
    // nonzero digits were dropped.
    private var numberStart = 0
    private var numberEnd = 0
    private var mantissa: UInt64 = 0
    private var exponent = 0
    private var negative = false
    private var inexact = false

    /// A scanner at the start of `bytes`. A UTF-8 byte order mark is skipped
    /// (RFC 8259 lets a parser ignore one).
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { position = 3 }
    }

    /// How many containers are open: 1 inside the top-level object.
    var depth: Int { nesting }

    private mutating func push(object: Bool) {
        let bit: UInt64 = 1 << UInt64(nesting & 63)
        if nesting < 64 {
            if object { objectBits |= bit } else { objectBits &= ~bit }
        } else {
            let word = (nesting - 64) >> 6
            if word == deepObjectBits.count { deepObjectBits.append(0) }
            if object { deepObjectBits[word] |= bit } else { deepObjectBits[word] &= ~bit }
        }
        nesting += 1
        inObject = object
    }

    /// Closes the innermost container; whether it was an object.
    private mutating func pop() -> Bool {
        let was = inObject
        nesting -= 1
        if nesting == 0 {
            inObject = false
        } else {
            let level = nesting - 1
            let bit: UInt64 = 1 << UInt64(level & 63)
            inObject = (level < 64 ? objectBits : deepObjectBits[(level - 64) >> 6]) & bit != 0
        }
        return was
    }

    // MARK: Tokens

    /// The next token.
    ///
    /// - Complexity: O(length of the token and the whitespace before it).
    /// - Throws: `TreeError` (with the line) for anything that is not JSON:
    ///   a grammar error, a truncated file, invalid UTF-8, a bad escape, a
    ///   control character in a string, or anything after the top-level value.
    mutating func next() throws(TreeError) -> Token {
        while true {
            skipWhitespace()
            tokenOffset = position
            guard position < bytes.count else {
                if state == .done { return .end }
                if state == .value && nesting == 0 { throw fail("the file is empty") }
                throw fail("the file ends unexpectedly (truncated?)")
            }
            let c = bytes[position]
            switch state {
            case .done:
                throw fail("unexpected \(Self.describe(c)) after the end of the JSON value")
            case .afterValue:
                if c == UInt8(ascii: ",") {
                    position += 1
                    state = inObject ? .key : .value
                    continue
                }
                if (inObject && c == UInt8(ascii: "}")) || (!inObject && c == UInt8(ascii: "]")) {
                    position += 1
                    return close()
                }
                throw fail("expected ',' or '\(inObject ? "}" : "]")', found \(Self.describe(c))")
            case .key, .keyOrEnd:
                if c == UInt8(ascii: "\"") {
                    try scanString()
                    skipWhitespace()
                    guard position < bytes.count else { throw fail("the file ends unexpectedly (truncated?)") }
                    guard bytes[position] == UInt8(ascii: ":") else {
                        throw fail("expected ':' after a key, found \(Self.describe(bytes[position]))")
                    }
                    position += 1
                    state = .value
                    return .key
                }
                if state == .keyOrEnd && c == UInt8(ascii: "}") {
                    position += 1
                    return close()
                }
                throw fail("expected a key (a string in double quotes), found \(Self.describe(c))")
            case .value, .valueOrEnd:
                if state == .valueOrEnd && c == UInt8(ascii: "]") {
                    position += 1
                    return close()
                }
                return try scanValue(c)
            }
        }
    }

    private mutating func close() -> Token {
        let wasObject = pop()
        state = nesting == 0 ? .done : .afterValue
        return wasObject ? .endObject : .endArray
    }

    private mutating func scalarDone() {
        state = nesting == 0 ? .done : .afterValue
    }

    private mutating func scanValue(_ c: UInt8) throws(TreeError) -> Token {
        switch c {
        case UInt8(ascii: "{"):
            position += 1
            push(object: true)
            state = .keyOrEnd
            return .beginObject
        case UInt8(ascii: "["):
            position += 1
            push(object: false)
            state = .valueOrEnd
            return .beginArray
        case UInt8(ascii: "\""):
            try scanString()
            scalarDone()
            return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0") ... UInt8(ascii: "9"):
            try scanNumber()
            scalarDone()
            return .number
        case UInt8(ascii: "t"):
            try scanLiteral("true")
            return .true
        case UInt8(ascii: "f"):
            try scanLiteral("false")
            return .false
        case UInt8(ascii: "n"):
            try scanLiteral("null")
            return .null
        default:
            throw fail("expected a value, found \(Self.describe(c))")
        }
    }

    private mutating func scanLiteral(_ word: StaticString) throws(TreeError) {
        let n = word.utf8CodeUnitCount
        let w = UnsafeBufferPointer(start: word.utf8Start, count: n)
        for k in 0 ..< n where position + k >= bytes.count || bytes[position + k] != w[k] {
            throw fail("invalid literal (expected \(word))")
        }
        position += n
        scalarDone()
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        while position < bytes.count {
            let c = bytes[position]
            // One compare rejects every byte above ' ' (most tokens start right away).
            guard c <= 0x20 && (c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D) else { return }
            position += 1
        }
    }

    // MARK: Strings

    /// Scans a string starting at its opening quote. The common case (no
    /// escapes) only validates and leaves the text in place.
    private mutating func scanString() throws(TreeError) {
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

    // MARK: Numbers

    /// How `readNumbers(into:max:count:)` stopped.
    enum NumbersEnd {
        /// At the array's `]`, consumed.
        case closed
        /// Before something else (not consumed): `next()` takes it from
        /// there, as if every number had been read through it.
        case stopped
        /// After a number that is not finite (the last token; `numberText`
        /// has it).
        case notFinite
    }

    /// A fast path for an array of numbers whose `[` was the last token:
    /// reads elements into `out[count...]` while they are numbers, as
    /// `next()` would (same checks, same errors, same state after), without
    /// a token round trip per element. Stops at the `]`, or before anything
    /// else: another kind of value, a number beyond `max`, a grammar error
    /// (left for `next()` to report), or the end of the input.
    mutating func readNumbers(into out: inout SIMD8<Double>, max: Int, count: inout Int) throws(TreeError) -> NumbersEnd
    {
        while true {
            skipWhitespace()
            guard position < bytes.count else { return .stopped }
            let c = bytes[position]
            if c == UInt8(ascii: "]") && !inObject && (state == .valueOrEnd || state == .afterValue) {
                tokenOffset = position
                position += 1
                _ = close()
                return .closed
            }
            if state == .afterValue {
                guard c == UInt8(ascii: ",") else { return .stopped }
                position += 1
                state = .value
                continue
            }
            guard c == UInt8(ascii: "-") || isDigit(c), count < max, count < 8 else { return .stopped }
            tokenOffset = position
            try scanNumber()
            scalarDone()
            let v = doubleValue()
            guard v.isFinite else { return .notFinite }
            out[count] = v
            count += 1
        }
    }

    /// Scans a number per the JSON grammar:
    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, reading its
    /// digits into `mantissa` and `exponent` on the way (one pass).
    private mutating func scanNumber() throws(TreeError) {
        let start = position
        let end = bytes.count
        var m: UInt64 = 0
        var digits = 0  // significant digits in `m`
        var e = 0
        var dropped = false
        negative = bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        guard position < end, isDigit(bytes[position]) else {
            throw fail("invalid number: expected a digit after '-'")
        }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            while position < end {
                let d = bytes[position] &- UInt8(ascii: "0")
                if d >= 10 { break }
                if digits < 19 {
                    m = m &* 10 &+ UInt64(d)
                    digits += 1
                } else {
                    e += 1
                    if d != 0 { dropped = true }
                }
                position += 1
            }
        }
        if position < end && bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard position < end, isDigit(bytes[position]) else {
                throw fail("invalid number: expected a digit after '.'")
            }
            // Only once `m` has a significant digit: leading zeros (0.000…)
            // are not significant, which the loop below accounts for.
            if m != 0 { e -= eightDigits(&m, &digits) }
            while position < end {
                let d = bytes[position] &- UInt8(ascii: "0")
                if d >= 10 { break }
                if digits < 19 {
                    m = m &* 10 &+ UInt64(d)
                    if m != 0 { digits += 1 }  // leading zeros of 0.000… are not significant
                    e -= 1
                } else if d != 0 {
                    dropped = true
                }
                position += 1
            }
        }
        if position < end && (bytes[position] | 0x20) == UInt8(ascii: "e") {
            position += 1
            var expNegative = false
            if position < end && (bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")) {
                expNegative = bytes[position] == UInt8(ascii: "-")
                position += 1
            }
            guard position < end, isDigit(bytes[position]) else {
                throw fail("invalid number: expected a digit in the exponent")
            }
            var x = 0
            while position < end {
                let d = bytes[position] &- UInt8(ascii: "0")
                if d >= 10 { break }
                // Saturate: anything this large over- or underflows anyway.
                if x < 1_000_000 { x = x * 10 + Int(d) }
                position += 1
            }
            e += expNegative ? -x : x
        }
        numberStart = start
        numberEnd = position
        mantissa = m
        exponent = e
        inexact = dropped
    }

    @inline(__always) private func isDigit(_ c: UInt8) -> Bool { c &- UInt8(ascii: "0") < 10 }

    /// Takes the digits at `position` 8 at a time (SWAR) while all 8 are
    /// digits and `m` keeps them exactly (at most 19 significant digits);
    /// returns how many it took. Long mantissas (17-digit shortest forms of
    /// fractional coordinates) are most of a number's bytes.
    @inline(__always)
    private mutating func eightDigits(_ m: inout UInt64, _ digits: inout Int) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        var taken = 0
        while digits &+ 8 <= 19 && position &+ 8 <= bytes.count {
            let w = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self))
            // All 8 bytes in '0'...'9': high nibbles 3, and adding 6 leaves them 3.
            let highs: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
            guard (w & highs) | (((w &+ 0x0606_0606_0606_0606) & highs) >> 4) == 0x3333_3333_3333_3333 else { break }
            // The 8 digits (byte 0 most significant) as one number, by
            // pairs, quads, then the whole.
            var v = w & 0x0F0F_0F0F_0F0F_0F0F
            v = (v &* 2561) >> 8
            v = ((v & 0x00FF_00FF_00FF_00FF) &* 6_553_601) >> 16
            v = ((v & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) >> 32
            m = m &* 100_000_000 &+ v
            digits &+= 8
            position &+= 8
            taken &+= 8
        }
        return taken
    }

    /// The last number's text, as written.
    var numberText: String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[numberStart ..< numberEnd]), as: UTF8.self)
    }

    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// The last number as the nearest double (correctly rounded); ±infinity
    /// when it overflows.
    ///
    /// Three tiers, each correctly rounded:
    /// 1. Clinger's fast path: a mantissa up to 2^53 and a power of ten up
    ///    to 10^22 are both exact doubles, so one IEEE multiply or divide
    ///    rounds correctly (integers and short decimals).
    /// 2. On x86-64, the same in 80-bit extended precision: any mantissa of
    ///    up to 19 digits and 10^0...10^27 are exact there, so the one
    ///    operation is correctly rounded to 64 bits; rounding that to 53 bits
    ///    is then correct unless it lies exactly halfway between two doubles
    ///    (any other rounding would have to cross a representable halfway
    ///    point, which the nearest 64-bit value cannot). This covers the
    ///    17-digit shortest forms of fractional coordinates.
    /// 3. Everything else (more than 19 digits, large exponents, the
    ///    halfway cases) goes to the C library's correctly rounded `strtod`
    ///    through `Double(String)`.
    ///
    /// Always inlined: a call would pass this (large) scanner by copy.
    @inline(__always)
    func doubleValue() -> Double {
        if mantissa == 0 && !inexact { return negative ? -0.0 : 0.0 }
        if !inexact && mantissa <= 1 << 53 && exponent >= -22 && exponent <= 22 {
            var v = Double(mantissa)
            v = exponent < 0 ? v / Self.powersOfTen[-exponent] : v * Self.powersOfTen[exponent]
            return negative ? -v : v
        }
        #if arch(x86_64) && !os(Windows) && !os(Android)
        if !inexact && exponent >= -27 && exponent <= 27 {
            let m = Float80(mantissa)
            let r = exponent < 0 ? m / Self.powersOfTen80[-exponent] : m * Self.powersOfTen80[exponent]
            if r.significandBitPattern & 0x7FF != 0x400 {
                let v = Double(r)
                return negative ? -v : v
            }
        }
        #endif
        return Self.strtod(UnsafeBufferPointer(rebasing: bytes[numberStart ..< numberEnd]), negative: negative)
    }

    /// The C library's conversion of `text`. Static, and given only what it
    /// needs: a method call would pass the whole scanner by copy.
    @inline(never)
    private static func strtod(_ text: UnsafeBufferPointer<UInt8>, negative: Bool) -> Double {
        Double(String(decoding: text, as: UTF8.self)) ?? (negative ? -.infinity : .infinity)
    }

    #if arch(x86_64) && !os(Windows) && !os(Android)
    /// 10^0 ... 10^27, each exact in Float80 (5^27 < 2^64).
    private static let powersOfTen80: [Float80] = {
        var p: [Float80] = [1]
        for _ in 1 ... 27 { p.append(p[p.count - 1] * 10) }
        return p
    }()
    #endif

    /// The last number as an unsigned 64-bit integer, if its value is exactly
    /// a non-negative integer below 2^64 (`8`, `8.0`, `8e0` and `-0` all
    /// qualify; `8.5`, `-1` and `1e20` do not). Exact: no detour through
    /// floating point.
    func exactUInt64() -> UInt64? {
        var i = numberStart
        let end = numberEnd
        var negative = false
        if bytes[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        // Where the digits are (integer part, then fraction part).
        let intStart = i
        while i < end && isDigit(bytes[i]) { i += 1 }
        let intEnd = i
        var fracStart = i, fracEnd = i
        if i < end && bytes[i] == UInt8(ascii: ".") {
            i += 1
            fracStart = i
            while i < end && isDigit(bytes[i]) { i += 1 }
            fracEnd = i
        }
        var exponent = 0
        if i < end {
            i += 1
            var expNegative = false
            if bytes[i] == UInt8(ascii: "-") {
                expNegative = true
                i += 1
            } else if bytes[i] == UInt8(ascii: "+") {
                i += 1
            }
            while i < end {
                if exponent < 1_000_000 { exponent = exponent * 10 + Int(bytes[i] &- UInt8(ascii: "0")) }
                i += 1
            }
            if expNegative { exponent = -exponent }
        }
        // The value is D × 10^(exponent − fraction digits), D the digits run
        // together; drop D's trailing zeros into the exponent.
        let allDigits = (intEnd - intStart) + (fracEnd - fracStart)
        func digit(_ k: Int) -> UInt64 {  // k-th digit of D
            let n = intEnd - intStart
            return UInt64((k < n ? bytes[intStart + k] : bytes[fracStart + k - n]) &- UInt8(ascii: "0"))
        }
        var last = allDigits
        while last > 0 && digit(last - 1) == 0 { last -= 1 }
        var first = 0
        while first < last && digit(first) == 0 { first += 1 }
        if first == last { return 0 }  // zero, whatever its sign
        if negative { return nil }
        let scale = exponent - (fracEnd - fracStart) + (allDigits - last)
        if scale < 0 { return nil }
        var value: UInt64 = 0
        for k in first ..< last {
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(digit(k))
            if o1 || o2 { return nil }
            value = s
        }
        for _ in 0 ..< min(scale, 20) {
            let (m, o) = value.multipliedReportingOverflow(by: 10)
            if o { return nil }
            value = m
        }
        return scale > 20 ? nil : value
    }
}
