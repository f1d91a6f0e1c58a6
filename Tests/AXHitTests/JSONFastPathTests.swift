import Foundation
import Testing

@testable import AXHit

/// The reader's fast paths against their slow equivalents: number conversion
/// against the C library's `strtod` (through `Double(String)`), the number
/// array fast path against token-by-token reading, and the key table against
/// plain string comparison.
@Suite struct JSONFastPathTests {
    /// Every number of `texts` converted by the scanner, read one by one as
    /// top-level values (`next()`), and inside arrays (the array fast path).
    private func converted(_ texts: [String]) throws(TreeError) -> (single: [Double], inArrays: [Double]) {
        var single: [Double] = []
        for text in texts {
            let bytes = Array(text.utf8)
            let result: Result<Double, TreeError> = bytes.withUnsafeBufferPointer { buffer in
                var s = JSONScanner(buffer)
                do throws(TreeError) {
                    guard try s.next() == .number else { return .failure(TreeError(.input, "not a number: \(text)")) }
                    let v = s.doubleValue()
                    guard try s.next() == .end else { return .failure(TreeError(.input, "trailing data: \(text)")) }
                    return .success(v)
                } catch {
                    return .failure(error)
                }
            }
            single.append(try result.get())
        }
        // The same numbers, 8 to an array (the most the fast path takes).
        var inArrays: [Double] = []
        var k = 0
        while k < texts.count {
            let chunk = texts[k ..< min(k + 8, texts.count)]
            let bytes = Array(("[" + chunk.joined(separator: ", ") + "]").utf8)
            let result: Result<[Double], TreeError> = bytes.withUnsafeBufferPointer { buffer in
                var s = JSONScanner(buffer)
                var out = SIMD8<Double>()
                var n = 0
                do throws(TreeError) {
                    guard try s.next() == .beginArray else { return .failure(TreeError(.input, "no array")) }
                    var values: [Double] = []
                    switch try s.readNumbers(into: &out, max: 8, count: &n) {
                    case .closed:
                        for i in 0 ..< n { values.append(out[i]) }
                    case .notFinite:
                        // Stopped at a number out of range: the rest one by one.
                        for i in 0 ..< n { values.append(out[i]) }
                        values.append(s.doubleValue())
                        while true {
                            let t = try s.next()
                            if t == .endArray { break }
                            values.append(s.doubleValue())
                        }
                    case .stopped:
                        return .failure(TreeError(.input, "the fast path stopped on numbers"))
                    }
                    guard try s.next() == .end else { return .failure(TreeError(.input, "trailing data")) }
                    return .success(values)
                } catch {
                    return .failure(error)
                }
            }
            inArrays += try result.get()
            k += 8
        }
        return (single, inArrays)
    }

    private func expectStrtod(_ texts: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (single, inArrays) = try converted(texts)
        #expect(single.count == texts.count && inArrays.count == texts.count, sourceLocation: sourceLocation)
        var failures = 0
        for (i, text) in texts.enumerated() {
            guard let expected = Double(text) else {
                Issue.record("Double(String) rejects \(text)", sourceLocation: sourceLocation)
                continue
            }
            if single[i].bitPattern != expected.bitPattern || inArrays[i].bitPattern != expected.bitPattern {
                failures += 1
                if failures <= 10 {
                    Issue.record(
                        "\(text): \(single[i]) / \(inArrays[i]), strtod \(expected)", sourceLocation: sourceLocation)
                }
            }
        }
        #expect(failures == 0, "\(failures) of \(texts.count) differ", sourceLocation: sourceLocation)
    }

    /// A random JSON number: sign, 1...`maxDigits` digits with a decimal
    /// point anywhere (or none), and maybe an exponent in ±`maxExponent`.
    private func randomDecimal(_ rng: inout SplitMix, maxDigits: Int, maxExponent: Int) -> String {
        var s = rng.next() % 4 == 0 ? "-" : ""
        let digits = 1 + Int(rng.next() % UInt64(maxDigits))
        var ds = (0 ..< digits).map { _ in Character(String(rng.next() % 10)) }
        if ds.count > 1 && ds[0] == "0" { ds[0] = Character(String(1 + rng.next() % 9)) }  // no leading zero
        let point = Int(rng.next() % UInt64(digits + 1))
        if point == 0 || point == digits || rng.next() % 3 == 0 {
            s += String(ds)
        } else {
            s += String(ds[..<point]) + "." + String(ds[point...])
        }
        if rng.next() % 2 == 0 {
            s += rng.next() % 2 == 0 ? "e" : "E"
            let sign = rng.next() % 3
            s += sign == 0 ? "-" : sign == 1 ? "+" : ""
            s += String(rng.next() % UInt64(maxExponent + 1))
        }
        return s
    }

    @Test func randomDecimalsMatchStrtod() throws {
        var rng = SplitMix(seed: 7)
        var texts: [String] = []
        for _ in 0 ..< 30_000 { texts.append(randomDecimal(&rng, maxDigits: 8, maxExponent: 30)) }
        // Long mantissas: 15...19 digits (the 80-bit path), 20...30 (strtod).
        for _ in 0 ..< 30_000 { texts.append(randomDecimal(&rng, maxDigits: 30, maxExponent: 30)) }
        // Wide exponents: overflow, underflow and denormals.
        for _ in 0 ..< 20_000 { texts.append(randomDecimal(&rng, maxDigits: 20, maxExponent: 340)) }
        try expectStrtod(texts)
    }

    @Test func shortestFormsAndDenormalsMatchStrtod() throws {
        var rng = SplitMix(seed: 11)
        var texts: [String] = []
        for _ in 0 ..< 20_000 {
            // Random bit patterns (every binade, denormals included) and
            // coordinates on a 1/3-point grid, in their shortest forms.
            let v = Double(bitPattern: rng.next())
            if v.isFinite { texts.append("\(v)") }
            texts.append("\(Double(Int(rng.next() % 3_000_000) - 1_500_000) / 3)")
            texts.append("\(Double(bitPattern: rng.next() % (1 << 52)))")  // denormal
        }
        texts += [
            "4.9406564584124654e-324", "2.4703282292062327e-324", "2.4703282292062328e-324",
            "2.2250738585072011e-308", "2.2250738585072012e-308", "1.7976931348623157e308",
            "1.7976931348623159e308", "0.0000000000000000000000000000001", "123456789012345678.5e-5",
        ]
        try expectStrtod(texts)
    }

    /// Numbers exactly halfway between two doubles (ties go to even), and
    /// just off halfway. (The random tests above are the ones that catch an
    /// 80-bit quotient trusted on a halfway point.)
    @Test func halfwayCasesMatchStrtod() throws {
        var rng = SplitMix(seed: 13)
        var texts: [String] = []
        for _ in 0 ..< 5_000 {
            // An odd integer in [2^53, 2^54) is halfway between two doubles;
            // so is it divided by 2^j (a finite decimal: times 5^j / 10^j).
            let n = (1 << 53) | (rng.next() % (1 << 53)) | 1
            texts.append(String(n))
            let j = Int(rng.next() % 12)
            var digits = [UInt8](String(n).utf8).map { Int($0) - 48 }  // n * 5^j, exactly, in decimal
            for _ in 0 ..< j {
                var carry = 0
                for k in digits.indices.reversed() {
                    let x = digits[k] * 5 + carry
                    digits[k] = x % 10
                    carry = x / 10
                }
                while carry > 0 {
                    digits.insert(carry % 10, at: 0)
                    carry /= 10
                }
            }
            let text = digits.map(String.init).joined()
            let point = text.count - j
            texts.append(j == 0 ? text : String(text.prefix(point)) + "." + String(text.suffix(j)))
            texts.append(text + "e-\(j)")
            // Just off the halfway point, within 19 digits.
            if text.count <= 17 {
                let scaled = text + "00"
                for delta in ["01", "99"] {
                    let near = delta == "01" ? text + delta : Self.decrement(scaled)
                    texts.append(near + "e-\(j + 2)")
                }
            }
        }
        try expectStrtod(texts)
    }

    /// `digits` (a decimal integer, no sign) minus one.
    private static func decrement(_ digits: String) -> String {
        var d = Array(digits.utf8)
        var k = d.count - 1
        while k >= 0 {
            if d[k] > UInt8(ascii: "0") {
                d[k] -= 1
                break
            }
            d[k] = UInt8(ascii: "9")
            k -= 1
        }
        return String(decoding: d, as: UTF8.self)
    }

    /// Keys are matched on their decoded text, escapes and all, and a key
    /// that shares length and hashed bytes with a known one is not taken
    /// for it.
    @Test func escapedKeysAndLookalikes() throws {
        let tree = try loadTree(
            document(
                children: #"""
                    {"\u0069d": "v", "fr\u0061me": [1, 2, 3, 4], "accessibility\u004cabel": "L", "fXaXe": [9, 9, 9, 9]},
                    {"id": "e", "kind": "\u0065lement", "accessibilityTraits": ["\u0062utton"]}
                    """#))
        let v = try #require(tree.node(withID: "v"))
        #expect(tree[v]!.frame == CGRect(x: 1, y: 2, width: 3, height: 4))
        #expect(tree[v]!.accessibilityLabel == "L")
        let e = try #require(tree.node(withID: "e"))
        #expect(tree.kind(of: e) == .element)
        #expect(tree[e]!.accessibilityTraits == .button)
        // A lookalike of "frame" alone is an unknown key: the view has no frame.
        let error = readError(document(children: #"{"id": "w", "fXaXe": [1, 2, 3, 4]}"#))
        #expect(error?.key == "frame")
        #expect(error?.message == "required key is missing (views need a frame)")
    }

    @Test func keyTableFindsExactlyItsNames() {
        // Names alike in length and in the bytes hashed (first, middle, last).
        let names = ["aXcYe", "aZcWe", "abcde", "a", "", "accessibilityFrameInContainerSpace", "id", "kind"]
        let table = KeyTable(names.enumerated().map { ($0.element, $0.offset) })
        func find(_ s: String) -> Int? { Array(s.utf8).withUnsafeBufferPointer { table.lookup($0) } }
        for (i, name) in names.enumerated() { #expect(find(name) == i, "\(name)") }
        for other in ["aQcQe", "abcdf", "b", "ids", "kin", "accessibilityFrameInContainerSpacf", "Kind"] {
            #expect(find(other) == nil, "\(other)")
        }
        let empty = KeyTable<Int>([])
        #expect(Array("x".utf8).withUnsafeBufferPointer { empty.lookup($0) } == nil)
    }

    /// A number array that is not all numbers stops the fast path where
    /// token-by-token reading takes over, with the same errors.
    @Test func numberArrayFallsBackWithTheSameErrors() {
        #expect(
            readError(document(children: #"{"id": "a", "frame": [0, 0, 1, true]}"#))?.message
                == "expected a number, found a boolean")
        #expect(
            readError(document(children: #"{"id": "a", "frame": [0, 0, 1, 1, 1]}"#))?.message
                == "expected 4 numbers, found more")
        #expect(
            readError(document(children: #"{"id": "a", "frame": [0, 0, 1,]}"#))?.message
                .contains("invalid JSON: expected a value, found ']'") == true)
        #expect(readError(document(children: "{\"id\": \"a\", \"frame\": [0, 0,\n 1, 01]}"))?.line == 3)
        #expect(
            readError(document(children: #"{"id": "a", "frame": [0, 0, 1, -]}"#))?.message
                .contains("invalid number") == true)
        let e = readError(document(children: "{\"id\": \"a\", \"frame\": [0,\n -1e400, 1, 1]}"))
        #expect(e?.message == "number -1e400 is out of range (not finite)")
        #expect(e?.line == 3)
        #expect(e?.node == "a")
    }

    /// An element node's container-space frame read before its children,
    /// with `kind` after them: once rejected as a view's (the node was
    /// appended as a view, the default, and validated then), now read.
    /// With `kind: view` given first the error is as before.
    @Test func containerSpaceFrameBeforeChildrenWithLateKind() throws {
        let tree = try loadTree(
            document(
                children: """
                    {"id": "x", "accessibilityFrameInContainerSpace": [0, 0, 1, 1], "children": [
                      {"id": "x1", "kind": "element"}
                    ], "kind": "element"}
                    """))
        let x = try #require(tree.node(withID: "x"))
        #expect(tree.kind(of: x) == .element)
        #expect(tree[x]!.accessibilityFrameInContainerSpace == CGRect(x: 0, y: 0, width: 1, height: 1))
        let e = readError(
            document(
                children: """
                    {"id": "v", "kind": "view", "frame": [0, 0, 1, 1], "accessibilityFrameInContainerSpace": [0, 0, 1, 1], "children": [
                      {"id": "v1", "kind": "element"}
                    ]}
                    """))
        #expect(e?.message == "view nodes have no accessibilityFrameInContainerSpace (an element property)")
        #expect(e?.node == "v" && e?.key == "accessibilityFrameInContainerSpace" && e?.line == 2)
    }
}
