import Foundation

/// JSON text as UTF-8 bytes: the one home of the number rule and the string
/// escaping that every JSON line shares, kept in the lowest module so that
/// the library's answer lines (`HitTester.writeAnswers(for:policy:to:)`) and
/// the tools' `JSONText` (CommandLineSupport, their public face of it) print
/// the same bytes. Numbers are plain JSON numbers in their shortest form
/// that reads back to the same Double (`10`, not `10.0`).
package enum JSONBytes {
    /// The most bytes `writeNumber` writes (Swift's longest form of a
    /// Double, `-2.2250738585072014e-308`, has 24).
    package static let maximumNumberLength = 32

    /// Writes the JSON number for `v` at `out`, which has room for
    /// `maximumNumberLength` bytes, and returns how many it wrote: shortest
    /// round-trip digits, integers without a fraction, `-0` as `0`; `null`
    /// for a non-finite value (JSON has none).
    ///
    /// A value with at most `fixedDigits` decimals (most screen coordinates)
    /// is written from its integer digits, with no String made: the digits
    /// `m` of `v · 10^k`, tried for k = 0, 1, 2, ..., are taken at the first
    /// k where m / 10^k is exactly `v` again (a correctly rounded division
    /// of two exact values: what a reader's parse of the text gives), which
    /// is the shortest such text. Anything else is Swift's own shortest
    /// round-trip form.
    package static func writeNumber(_ v: Double, to out: UnsafeMutablePointer<UInt8>) -> Int {
        guard v.isFinite else { return write("null", to: out) }
        let magnitude = abs(v)
        // m below 2^53 and 10^k are exact doubles.
        if magnitude < 1e15 && (magnitude >= 1e-4 || v == 0) {
            var scale = 1.0
            for k in 0 ... fixedDigits {
                let m = (magnitude * scale).rounded()
                if m / scale == magnitude && m < 9e15 {
                    let sign = v < 0 ? 1 : 0
                    if v < 0 { out[0] = UInt8(ascii: "-") }
                    return sign + writeDecimal(UInt64(m), fractionDigits: k, to: out + sign)
                }
                scale *= 10
            }
        }
        var s = "\(v)"
        // Swift prints 1e-05 and 1e+20; JSON accepts both forms.
        if s.hasSuffix(".0") { s.removeLast(2) }
        var count = 0
        for b in s.utf8.prefix(maximumNumberLength) {
            out[count] = b
            count += 1
        }
        return count
    }

    /// Writes `literal`'s UTF-8 bytes at `out`, which has room for them,
    /// and returns how many.
    static func write(_ literal: StaticString, to out: UnsafeMutablePointer<UInt8>) -> Int {
        literal.withUTF8Buffer { bytes in
            if let base = bytes.baseAddress { out.update(from: base, count: bytes.count) }
            return bytes.count
        }
    }

    /// Decimals `writeNumber` writes from integer digits; more go through
    /// Swift's formatting.
    static let fixedDigits = 4

    /// Writes `m / 10^fractionDigits` in plain decimal notation (`0.05`,
    /// `12`) at `out` and returns how many bytes.
    private static func writeDecimal(_ m: UInt64, fractionDigits: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        // Digits right to left into a fixed buffer: 2^64 has 20.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        return withUnsafeMutableBytes(of: &digits) { buffer in
            var n = m, i = buffer.count
            repeat {
                i -= 1
                buffer[i] = UInt8(ascii: "0") + UInt8(n % 10)
                n /= 10
                if buffer.count - i == fractionDigits {
                    i -= 1
                    buffer[i] = UInt8(ascii: ".")
                }
            } while n > 0 || buffer.count - i <= fractionDigits
            // A fraction-only value gets its leading zero ("0.5").
            if buffer[i] == UInt8(ascii: ".") {
                i -= 1
                buffer[i] = UInt8(ascii: "0")
            }
            let count = buffer.count - i
            UnsafeMutableRawPointer(out).copyMemory(from: buffer.baseAddress! + i, byteCount: count)
            return count
        }
    }

    /// A JSON string literal for `s`, with every character JSON requires
    /// escaped, and also U+FEFF (some readers, Foundation's on Linux among
    /// them, drop it from strings) and the Unicode line separators U+2028
    /// and U+2029 (which break JavaScript), so that every id reads back whole.
    package static func string(_ s: String) -> String {
        // Most text (ids, WKT, names) needs no escape: one pass says so.
        guard needsEscape(s) else { return "\"" + s + "\"" }
        var out = "\""
        out.reserveCapacity(s.utf8.count + 2)
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20 || u.value == 0xFEFF || u.value == 0x2028 || u.value == 0x2029:
                out +=
                    "\\u" + String(repeating: "0", count: 4 - String(u.value, radix: 16).count)
                    + String(u.value, radix: 16)
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }

    /// Appends `string(s)` to `out` as UTF-8: the bytes of `s` as they are
    /// when none needs escaping (most ids), else its escaped form.
    package static func appendString(_ s: String, to out: inout [UInt8]) {
        guard !needsEscape(s) else { return out.append(contentsOf: string(s).utf8) }
        out.append(UInt8(ascii: "\""))
        out.append(contentsOf: s.utf8)
        out.append(UInt8(ascii: "\""))
    }

    /// Whether `s` may hold a character `string` escapes: a control
    /// character, a quote or a backslash, or a lead byte (0xE2, 0xEF) of
    /// U+2028, U+2029 or U+FEFF, which `string` then decides.
    @inline(__always)
    private static func needsEscape(_ s: String) -> Bool {
        s.utf8.contains {
            $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == 0xE2 || $0 == 0xEF
        }
    }
}
