import AXGeometry
import Foundation

/// Writes JSON values as text, one object per line: the tools' machine
/// output. Numbers are printed as plain JSON numbers in their shortest form
/// that reads back to the same Double (`10`, not `10.0`).
public enum JSONText {
    /// A JSON number for `v`: shortest round-trip digits, integers without a
    /// fraction, `-0` as `0`; `null` for a non-finite value (JSON has none).
    public static func number(_ v: Double) -> String {
        var bytes: [UInt8] = []
        appendNumber(v, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `number(v)` to `out` as UTF-8 (the rule is `writeNumber`'s).
    public static func appendNumber(_ v: Double, to out: inout [UInt8]) {
        var text: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &text) { buffer in
            // Through a buffer pointer: one copy (a slice would go a byte at a time).
            let count = writeNumber(v, to: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self))
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0 ..< count]))
        }
    }

    /// The most bytes `writeNumber` writes (Swift's longest form of a
    /// Double, `-2.2250738585072014e-308`, has 24).
    public static let maximumNumberLength = JSONBytes.maximumNumberLength

    /// Writes `number(v)` at `out`, which has room for
    /// `maximumNumberLength` bytes, and returns how many it wrote. The rule
    /// lives in AXGeometry's `JSONBytes`, which the library's answer lines
    /// write with too: a value with at most four decimals (most screen
    /// coordinates) from its integer digits, the shortest text that reads
    /// back to it; anything else as Swift's shortest round-trip form.
    public static func writeNumber(_ v: Double, to out: UnsafeMutablePointer<UInt8>) -> Int {
        JSONBytes.writeNumber(v, to: out)
    }

    /// Writes `literal`'s UTF-8 bytes at `out`, which has room for them,
    /// and returns how many: a key or a keyword of a line written in place.
    @inlinable
    public static func write(_ literal: StaticString, to out: UnsafeMutablePointer<UInt8>) -> Int {
        literal.withUTF8Buffer { bytes in
            if let base = bytes.baseAddress { out.update(from: base, count: bytes.count) }
            return bytes.count
        }
    }

    /// A JSON string literal for `s`, with every character JSON requires
    /// escaped, and also U+FEFF (some readers, Foundation's on Linux among
    /// them, drop it from strings) and the Unicode line separators U+2028
    /// and U+2029 (which break JavaScript), so that every id reads back
    /// whole (AXGeometry's `JSONBytes`, as the library's lines quote ids).
    public static func string(_ s: String) -> String { JSONBytes.string(s) }

    /// Appends `string(s)` to `out` as UTF-8: the bytes of `s` as they are
    /// when none needs escaping (most ids), else its escaped form.
    public static func appendString(_ s: String, to out: inout [UInt8]) { JSONBytes.appendString(s, to: &out) }

    /// `[x, y]` as a JSON array.
    public static func point(_ x: Double, _ y: Double) -> String { "[\(number(x)),\(number(y))]" }

    /// Appends `point(x, y)` to `out` as UTF-8.
    public static func appendPoint(_ x: Double, _ y: Double, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        appendNumber(x, to: &out)
        out.append(UInt8(ascii: ","))
        appendNumber(y, to: &out)
        out.append(UInt8(ascii: "]"))
    }

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

    /// Appends `bytes` as they are (lines made elsewhere, such as
    /// `HitTester.writeAnswers(for:policy:to:)`'s, each ending in a newline).
    public func write(bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 1 << 16 else {
            buffer.append(contentsOf: bytes)
            if buffer.count >= 1 << 16 { flush() }
            return
        }
        // Large enough to go out as it is, after what is buffered.
        flush()
        let code = StandardOutput.writeAll(1, bytes)
        if code != 0 { failure(code) }
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
