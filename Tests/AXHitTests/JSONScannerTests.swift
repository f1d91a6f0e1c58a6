import Foundation
import Testing

@testable import AXHit

/// The tokenizer on its own: strings, numbers, grammar.
@Suite struct JSONScannerTests {
    /// Every token of `text`, with the decoded text of strings and keys.
    private func tokens(_ text: String) throws(TreeError) -> [String] {
        let bytes = Array(text.utf8)
        let result: Result<[String], TreeError> = bytes.withUnsafeBufferPointer { buffer in
            var s = JSONScanner(buffer)
            var out: [String] = []
            do throws(TreeError) {
                while true {
                    let t = try s.next()
                    switch t {
                    case .end: return .success(out)
                    case .key: out.append("key:" + s.text)
                    case .string: out.append("string:" + s.text)
                    case .number: out.append("number:" + s.numberText)
                    default: out.append("\(t)")
                    }
                }
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The numbers of a JSON array, as the scanner converts them.
    private func numbers(_ text: String) throws(TreeError) -> [Double] {
        let bytes = Array(text.utf8)
        let result: Result<[Double], TreeError> = bytes.withUnsafeBufferPointer { buffer in
            var s = JSONScanner(buffer)
            var out: [Double] = []
            do throws(TreeError) {
                while true {
                    let t = try s.next()
                    if t == .end { return .success(out) }
                    if t == .number { out.append(s.doubleValue()) }
                }
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private func mask(_ text: String) -> UInt64?? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer -> UInt64?? in
            var s = JSONScanner(buffer)
            guard (try? s.next()) == .number else { return nil }
            return .some(s.exactUInt64())
        }
    }

    private func failure(_ text: String) -> TreeError? {
        do {
            _ = try tokens(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func structure() throws {
        #expect(
            try tokens(#" {"a": [1, true, false, null, {}], "b": []} "#) == [
                "beginObject", "key:a", "beginArray", "number:1", "true", "false", "null",
                "beginObject", "endObject", "endArray", "key:b", "beginArray", "endArray", "endObject",
            ])
        #expect(try tokens("\u{FEFF}[]") == ["beginArray", "endArray"])  // a byte order mark is skipped
        #expect(try tokens("\"top\"") == ["string:top"])
    }

    @Test func escapes() throws {
        #expect(try tokens(#"["\"\\\/\b\f\n\r\t"]"#) == ["beginArray", "string:\"\\/\u{8}\u{C}\n\r\t", "endArray"])
        #expect(
            try tokens(#"["\u00e9\u00E9 \u20AC \ud83d\ude00 \u0000"]"#)
                == ["beginArray", "string:éé € 😀 \u{0}", "endArray"])
        #expect(try tokens("[\"raw é😀 text\"]") == ["beginArray", "string:raw é😀 text", "endArray"])
        #expect(try tokens(#"{"\u0069d": 1}"#) == ["beginObject", "key:id", "number:1", "endObject"])
    }

    @Test(arguments: [
        (#"["\q"]"#, "invalid escape"),
        (#"["\ud800"]"#, "lone surrogate"),
        (#"["\ud800x"]"#, "lone surrogate"),
        (#"["\ud800\u0041"]"#, "lone surrogate"),
        (#"["\udc00"]"#, "lone surrogate"),
        (#"["\u12G4"]"#, "hex digit"),
        ("[\"tab\there\"]", "control character"),
        ("[\"line\nbreak\"]", "control character"),
        ("[\"open", "ends inside a string"),
        ("[01]", "expected ','"),
        ("[1.]", "invalid number"),
        ("[-]", "invalid number"),
        ("[.5]", "expected a value"),
        ("[+1]", "expected a value"),
        ("[1e]", "invalid number"),
        ("[1,]", "expected a value"),
        (#"{"a":1,}"#, "expected a key"),
        (#"{"a" 1}"#, "expected ':'"),
        (#"{a: 1}"#, "expected a key"),
        ("[tru]", "invalid literal"),
        ("[1] [2]", "after the end"),
        ("[1", "ends unexpectedly"),
        ("[1}", "expected ','"),
        ("", "empty"),
        ("  \n ", "empty"),
        ("'a'", "expected a value"),
        ("NaN", "expected a value"),
    ])
    func malformed(text: String, message: String) {
        let e = failure(text)
        #expect(e != nil)
        #expect(e?.message.contains(message) == true, "\(String(describing: e))")
        #expect(e?.message.hasPrefix("invalid JSON") == true)
    }

    @Test func invalidUTF8() {
        for bad: [UInt8] in [
            [0xC3, 0x28],  // bad continuation
            [0xC0, 0x80],  // overlong
            [0xE0, 0x80, 0x80],  // overlong
            [0xED, 0xA0, 0x80],  // encoded surrogate
            [0xF4, 0x90, 0x80, 0x80],  // above U+10FFFF
            [0xFF],
            [0xE2, 0x82],  // truncated
        ] {
            let bytes: [UInt8] = Array("[\"".utf8) + bad + Array("\"]".utf8)
            let result: TreeError? = bytes.withUnsafeBufferPointer { buffer in
                var s = JSONScanner(buffer)
                do throws(TreeError) {
                    while try s.next() != .end {}
                    return nil
                } catch {
                    return error
                }
            }
            #expect(result?.message.contains("invalid UTF-8") == true, "\(bad): \(String(describing: result))")
        }
    }

    @Test func lines() {
        #expect(failure("[\n1,\n\n2 x]")?.line == 4)
        #expect(failure("[\r\n1,\r\n]")?.line == 3)
    }

    /// Conversion is correctly rounded: it matches the C library's strtod
    /// (through `Double(String)`) on hard cases and on shortest forms.
    @Test func numbersRoundCorrectly() throws {
        let texts = [
            "0", "-0", "1", "-1", "0.1", "0.2", "0.30000000000000004", "1e23", "1E23", "8.98846567431158e307",
            "1.7976931348623157e308", "2.2250738585072011e-308", "2.2250738585072014e-308", "5e-324",
            "4.9406564584124654e-324", "9007199254740993", "9007199254740992", "123456789012345678901234567890",
            "0.000000000000000000000000000001", "1.00000000000000011102230246251565404236316680908203125",
            "1.00000000000000011102230246251565404236316680908203124", "7.3177701707893310e+15", "1e-7",
            "3.14159265358979323846", "100000000000000000000000", "1e22", "1e-22", "123.456e-2", "0e999",
        ]
        let parsed = try numbers("[" + texts.joined(separator: ",") + "]")
        for (text, value) in zip(texts, parsed) {
            let expected = try #require(Double(text))
            #expect(value.bitPattern == expected.bitPattern, "\(text)")
        }
        // Shortest forms of seeded random doubles read back exactly.
        var rng = SplitMix(seed: 42)
        var values: [Double] = []
        for _ in 0 ..< 2000 {
            let v = Double(bitPattern: rng.next())
            if v.isFinite { values.append(v) }
            values.append(Double(rng.next() % 100_000) / 1000)
        }
        let back = try numbers("[" + values.map(\.description).joined(separator: ",") + "]")
        #expect(back.map(\.bitPattern) == values.map(\.bitPattern))
        #expect(try numbers("[1e999, -1e999]") == [.infinity, -.infinity])
    }

    @Test func integerMasks() {
        #expect(mask("0") == .some(0))
        #expect(mask("-0") == .some(0))
        #expect(mask("8") == .some(8))
        #expect(mask("8.0") == .some(8))
        #expect(mask("8e0") == .some(8))
        #expect(mask("1e2") == .some(100))
        #expect(mask("1.5e1") == .some(15))
        #expect(mask("18446744073709551615") == .some(UInt64.max))
        #expect(mask("1844674407370955161.5e1") == .some(UInt64.max))
        #expect(mask("18446744073709551616") == .some(nil))
        #expect(mask("1e20") == .some(nil))
        #expect(mask("1e999") == .some(nil))
        #expect(mask("8.5") == .some(nil))
        #expect(mask("-1") == .some(nil))
        #expect(mask("1e-1") == .some(nil))
        #expect(mask("0.0e-5") == .some(0))
    }
}

/// A tiny seeded generator (SplitMix64), so tests see the same data every run.
struct SplitMix: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
