import Foundation

/// Numbers: checked against the JSON grammar as they are scanned, their
/// digits read on the way, and converted on request (the nearest double,
/// an exact integer); and a fast path for arrays of numbers.
extension JSONScanner {
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
    mutating func scanNumber() throws(TreeError) {
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
