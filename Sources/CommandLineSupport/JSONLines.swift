import Foundation

/// Writes JSON values as text, one object per line: the tools' machine
/// output. Numbers are printed as plain JSON numbers in their shortest form
/// that reads back to the same Double (`10`, not `10.0`).
public enum JSONText {
    /// A JSON number for `v`: shortest round-trip digits, integers without a
    /// fraction, `-0` as `0`; `null` for a non-finite value (JSON has none).
    public static func number(_ v: Double) -> String {
        guard v.isFinite else { return "null" }
        if v == 0 { return "0" }
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        var s = "\(v)"
        // Swift prints 1e-05 and 1e+20; JSON accepts both forms.
        if s.hasSuffix(".0") { s.removeLast(2) }
        return s
    }

    /// A JSON string literal for `s`, with every character JSON requires
    /// escaped, and also U+FEFF (some readers, Foundation's on Linux among
    /// them, drop it from strings) and the Unicode line separators U+2028
    /// and U+2029 (which break JavaScript), so that every id reads back whole.
    public static func string(_ s: String) -> String {
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

    /// `[x, y]` as a JSON array.
    public static func point(_ x: Double, _ y: Double) -> String { "[\(number(x)),\(number(y))]" }

    /// `[a, b, ...]` as a JSON array of numbers.
    public static func numbers(_ vs: [Double]) -> String { "[" + vs.map(number).joined(separator: ",") + "]" }
}

/// Buffered standard output for JSON Lines: one write per 64 KiB, not per
/// line. Every write is checked: a failure (a reader that went away, a full
/// disk, a closed descriptor) goes to `failure`, which ends the tool.
public final class OutputBuffer {
    private var buffer: [UInt8] = []
    private let failure: (Int32) -> Never

    /// An empty buffer whose failed writes go to `failure` (with the `errno`).
    public init(failure: @escaping (Int32) -> Never) {
        self.failure = failure
        buffer.reserveCapacity(1 << 16)
    }

    /// Appends `line` and a newline, flushing when the buffer is full.
    public func writeLine(_ line: String) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Appends `text` as it is.
    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes out what is buffered.
    public func flush() {
        guard !buffer.isEmpty else { return }
        let code = buffer.withUnsafeBytes { StandardOutput.writeAll(1, $0) }
        buffer.removeAll(keepingCapacity: true)
        if code != 0 { failure(code) }
    }
}
