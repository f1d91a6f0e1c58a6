import CommandLineSupport
import Foundation
import Testing

@testable import AXHit

/// `axhit hit` on points files as scripts write them: every number reads as
/// the platform's own parse reads it, is printed in its shortest form that
/// reads back the same, and the answers of a file larger than one window
/// come out in input order, each the library's.
@Suite struct CLIPointsTests {
    static let document = """
        {"format": "axhit/1", "root": {"id": "window", "frame": [0, 0, 100, 100], "children": [
          {"id": "a", "frame": [0, 0, 50, 50], "isAccessibilityElement": true},
          {"id": "b", "frame": [50, 0, 50, 50], "isAccessibilityElement": true},
          {"id": "c", "frame": [0, 50, 100, 50], "isAccessibilityElement": true}
        ]}}
        """

    /// The numbers of a line's `"point":[x,y]` and their text. (Read with
    /// Swift's `Double(_:)`: Foundation's JSON reader on Linux may miss the
    /// nearest double of a 17-digit number by an ulp.)
    static func printedPoint(_ line: Substring) throws -> (x: Double, y: Double, text: [Substring]) {
        _ = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        let start = try #require(line.range(of: "\"point\":[")).upperBound
        let end = try #require(line[start...].firstIndex(of: "]"))
        let text = line[start ..< end].split(separator: ",")
        try #require(text.count == 2, "\(line)")
        return (try #require(Double(text[0])), try #require(Double(text[1])), text)
    }

    /// The shortest text that reads back as `v`, as Swift prints it.
    static func shortest(_ v: Double) -> String {
        if v == 0 { return "0" }
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        var s = "\(v)"
        if s.hasSuffix(".0") { s.removeLast(2) }
        return s
    }

    /// Decimals of every length (up to 19 digits, so both the digit path
    /// and the C library's are taken), signs, exponents, bare points.
    @Test func numbersReadAndPrintExactly() throws {
        var rng = SeededRandom(seed: 41)
        var texts = [
            "0.1", "52.40", "+3", ".5", "5.", "-0", "1e1", "2E-1", "0x10", "0.00001", "0.0001", "12345.6789",
            "123456789012345678", "0.1234567890123456789", "1.00000000000000000000001", "999999999999999.9",
            "9007199254740993", "-0.000099", "1e-300", "1.7976931348623157e308", "4.9e-324", "  7",
        ]
        for _ in 0 ..< 3_000 {
            let digits = Int(rng.next() % 19) + 1
            var text = (0 ..< digits).map { _ in String(rng.next() % 10) }.joined()
            let point = Int(rng.next() % UInt64(digits + 1))
            if point < digits { text.insert(".", at: text.index(text.startIndex, offsetBy: point)) }
            if rng.chance(0.3) { text = "-" + text }
            texts.append(text)
        }
        let scratch = try CLIScratch()
        let tree = try scratch.write("tree.json", Self.document)
        // Each number as x, with a fixed y, separated as either form allows.
        let lines = texts.enumerated().map { k, t in k % 2 == 0 ? "\(t) 3" : "\(t),\t3" }
        let points = try scratch.write("points.txt", lines.joined(separator: "\n") + "\n")
        let run = try #require(try scratch.run(["hit", tree, "--points", points]))
        #expect(run.status == 0, "\(run.stderr)")
        let out = run.stdout.split(separator: "\n")
        try #require(out.count == texts.count)
        for (text, line) in zip(texts, out) {
            let expected = try #require(Double(text.trimmingCharacters(in: .whitespaces)), "\(text)")
            let printed = try Self.printedPoint(line)
            #expect(printed.x.bitPattern == (expected == 0 ? 0 : expected).bitPattern, "\(text) -> \(line)")
            #expect(printed.y == 3)
            #expect(printed.text[0] == Self.shortest(expected), "\(text) -> \(line)")
        }
    }

    /// More points than one window holds: every line in input order, each
    /// answering what the library answers at that point.
    @Test func largeFilesAnswerInInputOrder() throws {
        let tree = try ElementTree(contentsOf: Data(Self.document.utf8), file: "t")
        let engine = HitTester(tree)
        // 2,048 points of a walk over the screen (every element and the
        // outside), each with the line the library's answer makes.
        var inputs: [String] = [], outputs: [String] = [], answers = Set<String>()
        for k in 0 ..< 2_048 {
            let x = Double(k % 64) * 1.7 - 3, y = Double(k / 64) * 3.3 - 1.5
            let id = engine.hit(CGPoint(x: x, y: y)).map { tree.id(of: $0) }
            answers.insert(id ?? "null")
            inputs.append("\(x) \(y)\n")
            outputs.append(
                "{\"point\":[\(Self.shortest(x)),\(Self.shortest(y))],\"element\":\(id.map { "\"\($0)\"" } ?? "null")}\n"
            )
        }
        // Not vacuous: every answer occurs.
        #expect(answers == ["a", "b", "c", "null"])
        // Cycled in a scrambled order over several windows (2^18 points each).
        let count = 1_100_000
        var text: [UInt8] = [], expected: [UInt8] = []
        for k in 0 ..< count {
            let j = (k &* 1_237) % inputs.count
            text.append(contentsOf: inputs[j].utf8)
            expected.append(contentsOf: outputs[j].utf8)
        }
        let scratch = try CLIScratch()
        let treeFile = try scratch.write("tree.json", Self.document)
        let points = try scratch.write("points.txt", Data(text))
        let run = try #require(try scratch.run(["hit", treeFile, "--points", points]))
        #expect(run.status == 0, "\(run.stderr)")
        let out = Array(run.stdout.utf8)
        guard out != expected else { return }
        let first = zip(out, expected).prefix { $0 == $1 }.count
        let line = out[..<first].filter { $0 == UInt8(ascii: "\n") }.count + 1
        Issue.record("line \(line) differs (\(out.count) bytes printed, \(expected.count) expected)")
    }
}

extension CLIPointsTests {
    /// Ids of every length around what a line keeps in place (a quoted id
    /// of 15 bytes and of 16), ids that need escapes, and one longer than
    /// the room a line writer makes at a time: each printed as JSON quotes
    /// it, at every answer, the first and the repeated alike.
    @Test func idsOfEveryLengthPrintAsQuoted() throws {
        var ids = (1 ... 20).map { String(repeating: "x", count: $0) }
        ids += ["quote\"d", "back\\slash", "tab\tbed", "é-accent", "line\u{2028}sep"]
        ids.append(String(repeating: "long", count: 100_000))
        // One element per id, each a 10 × 10 square on a row.
        let children = ids.enumerated().map { k, id in
            "{\"id\": \(JSONText.string(id)), \"frame\": [\(k * 10), 0, 10, 10], \"isAccessibilityElement\": true}"
        }
        let document = """
            {"format": "axhit/1", "root": {"id": "window", "frame": [0, 0, \(ids.count * 10), 10], "children": [
            \(children.joined(separator: ",\n"))]}}
            """
        // Each element's centre, three times over in a scrambled order.
        let order = (0 ..< 3 * ids.count).map { ($0 &* 7) % ids.count }
        let scratch = try CLIScratch()
        let tree = try scratch.write("tree.json", document)
        let points = try scratch.write("points.txt", order.map { "\($0 * 10 + 5) 5\n" }.joined())
        let run = try #require(try scratch.run(["hit", tree, "--points", points]))
        #expect(run.status == 0, "\(run.stderr)")
        let expected = order.map { "{\"point\":[\($0 * 10 + 5),5],\"element\":\(JSONText.string(ids[$0]))}" }
        let out = run.stdout.split(separator: "\n").map(String.init)
        try #require(out.count == expected.count)
        for (k, (line, want)) in zip(out, expected).enumerated() where line != want {
            Issue.record("line \(k + 1): \(line.prefix(80)) instead of \(want.prefix(80))")
        }
    }

    /// Blank and comment lines in every piece of a file read on all cores
    /// (pieces of at least 64 KiB): skipped, with the points after them in
    /// input order and a bad line still named by its line in the file.
    @Test func blankAndCommentLinesAcrossPieces() throws {
        let scratch = try CLIScratch()
        let tree = try scratch.write("tree.json", Self.document)
        var lines: [String] = [], expected: [String] = []
        for k in 0 ..< 60_000 {
            switch k % 7 {
            case 3: lines.append("")
            case 5: lines.append("# a comment \(k)")
            default:
                // x walks over a (x < 50), b and the outside; y over the top row.
                let x = Double(k % 120) - 5
                lines.append("\(x) 10")
                let id = x >= 0 && x < 50 ? "\"a\"" : x >= 50 && x < 100 ? "\"b\"" : "null"
                expected.append("{\"point\":[\(Self.shortest(x)),10],\"element\":\(id)}")
            }
        }
        let points = try scratch.write("points.txt", lines.joined(separator: "\n") + "\n")
        let run = try #require(try scratch.run(["hit", tree, "--points", points]))
        #expect(run.status == 0, "\(run.stderr)")
        let out = run.stdout.split(separator: "\n").map(String.init)
        #expect(out.count == expected.count)
        #expect(out == expected)
        // Not vacuous: the file is read in more than one piece.
        #expect(lines.joined(separator: "\n").utf8.count > 4 << 16)

        // A bad line after them, near the end, is named by its line.
        lines[59_990] = "1 2 3"
        let bad = try scratch.write("bad.txt", lines.joined(separator: "\n") + "\n")
        let failed = try #require(try scratch.run(["hit", tree, "--points", bad]))
        expectOneErrorLine(failed, file: bad, line: 59_991, node: nil, key: nil)
    }

    /// A file saved with a UTF-8 byte order mark (as Windows editors save
    /// one) reads as the same file without it, from a file or standard
    /// input; a mark anywhere else is still not a point.
    @Test func aByteOrderMarkAtTheStartIsSkipped() throws {
        let scratch = try CLIScratch()
        let tree = try scratch.write("tree.json", Self.document)
        let expected = """
            {"point":[1,2],"element":"a"}
            {"point":[60,10],"element":"b"}

            """
        for body in ["1 2\n60 10\n", "# x y\n1 2\r\n60,10"] {
            let points = try scratch.write("bom.txt", "\u{FEFF}" + body)
            let run = try #require(try scratch.run(["hit", tree, "--points", points]))
            #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
            #expect(run.stdout == expected)
            let piped = try #require(
                try scratch.run(["hit", tree, "--points", "-"], stdin: Data(("\u{FEFF}" + body).utf8)))
            #expect(piped.status == 0 && piped.stdout == expected, "\(piped.stderr)")
        }
        let late = try scratch.write("late.txt", "1 2\n\u{FEFF}60 10\n")
        let refused = try #require(try scratch.run(["hit", tree, "--points", late]))
        expectOneErrorLine(refused, file: late, line: 2, node: nil, key: nil)
        // Only the mark is skipped: a file of nothing else has no points.
        let alone = try scratch.write("alone.txt", "\u{FEFF}")
        let empty = try #require(try scratch.run(["hit", tree, "--points", alone]))
        #expect(empty.status == 0 && empty.stdout.isEmpty, "\(empty.stderr)")
    }
}

/// How the tools share items among cores (`consecutiveRuns`): for every
/// count and number of cores, runs that are consecutive, none empty, no
/// more than the cores, covering every item once.
@Suite struct ConsecutiveRunsTests {
    @Test func everyCountAndCoreCount() {
        for count in 0 ... 300 {
            for parts in 1 ... 64 {
                let runs = consecutiveRuns(count, parts: parts)
                #expect(runs.count <= parts)
                #expect(runs.allSatisfy { !$0.isEmpty }, "\(count) items, \(parts) parts")
                #expect(runs.first?.lowerBound ?? 0 == 0)
                #expect(runs.last?.upperBound ?? 0 == count)
                #expect(zip(runs, runs.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
            }
        }
        #expect(consecutiveRuns(10, parts: 8) == [0 ..< 2, 2 ..< 4, 4 ..< 6, 6 ..< 8, 8 ..< 10])
        #expect(consecutiveRuns(5, parts: 0) == [0 ..< 5])
    }
}
