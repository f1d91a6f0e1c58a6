import Foundation
import Testing

@testable import AXHit

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Ids and labels of random hostile text (terminal escapes, controls, quotes,
/// backslashes, line separators, non-characters, right-to-left marks) through
/// every verb's output: JSON Lines parse back and name the same ids (and
/// `speak`'s the same speech), the text forms carry no control character,
/// the picture (whose tooltips say the labels) is well-formed XML, and
/// `export` reads back.
@Suite struct CLIOutputPropertyTests {
    static let pieces = [
        "a", "Z", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{7}", "\u{1B}[2J", "\u{1B}]52;c;SGVsbG8=\u{7}",
        "\u{7F}", "\u{85}", "\u{9B}", "\u{2028}", "\u{2029}", "\u{202E}", "\u{FEFF}", "\u{FFFE}", "\u{FFFF}",
        "é", "€", "😀", "\u{10FFFF}", "<", ">", "&", "'", "]]>", "#", "{", "}",
    ]

    static func hostile(_ rng: inout SeededRandom, _ k: Int) -> String {
        let n = Int(rng.next() % 6) + 1
        return (0 ..< n).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined() + "#\(k)"
    }

    static func tree(seed: UInt64) throws -> ElementTree {
        var rng = SeededRandom(seed: seed)
        var tree = ElementTree()
        tree.screenBounds = CGRect(x: 0, y: 0, width: 300, height: 600)
        let root = try tree.append(
            .view(hostile(&rng, 0), frame: CGRect(x: 0, y: 0, width: 300, height: 600)), under: .none)
        for k in 1 ..< 40 {
            var v = Node.view(
                hostile(&rng, k),
                frame: CGRect(x: rng.number(0 ... 250), y: rng.number(0 ... 550), width: 40, height: 30))
            v.isAccessibilityElement = true
            v.accessibilityLabel = hostile(&rng, k)
            v.accessibilityTraits = rng.chance(0.5) ? .button : []
            try tree.append(v, under: root)
        }
        return tree
    }

    /// Whether `text` has a character a terminal would act on.
    static func hasControls(_ text: String) -> Bool {
        text.unicodeScalars.contains { u in
            (u.value < 0x20 && u != "\n") || (0x7F ... 0x9F).contains(u.value) || u.value == 0x2028 || u.value == 0x2029
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func everyVerbsOutputParsesBack(seed: UInt64) throws {
        let tree = try Self.tree(seed: seed)
        let ids = Set(tree.preOrder.map(tree.id(of:)))
        let scratch = try CLIScratch()
        let path = try scratch.write("hostile.json", tree.axhitJSON())
        let points = try scratch.write(
            "points", (0 ..< 200).map { "\($0 % 300) \($0 * 3 % 600)" }.joined(separator: "\n"))
        var named = 0

        for args in [
            ["hit", path, "--points", points], ["activate", path], ["audit", path, "--json", "--fail-on", "never"],
            ["order", path], ["speak", path],
            ["map", path, "--focus"], ["map", path, "--touch"],
        ] {
            let run = try #require(try scratch.run(args))
            #expect(run.status == 0, "\(args[0]): \(run.stderr)")
            for line in run.stdout.split(separator: "\n") {
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                let object2 = try #require(object, "\(args[0]) printed a line that is not a JSON object: \(line)")
                for key in ["element", "view", "receiver", "related"] {
                    if let id = object2[key] as? String {
                        #expect(ids.contains(id), "\(args[0]): \(key) \(id.debugDescription) names no node")
                        named += 1
                    }
                }
            }
        }
        // What speak says parses back to the library's speech, character for character.
        var engine = HitTester(tree)
        let spoken = try #require(try scratch.run(["speak", path]))
        #expect(spoken.stdout.split(separator: "\n").count == (try engine.transcript()).count)
        for (line, s) in zip(spoken.stdout.split(separator: "\n"), try engine.transcript()) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["speech"] as? String == s.description, "\(line)")
            #expect(object["hint"] as? String == s.hint, "\(line)")
        }
        let text = try #require(try scratch.run(["audit", path]))
        #expect(!Self.hasControls(text.stdout), "audit's text carries control characters")
        let svg = try #require(try scratch.run(["render", path, "-o", "-"]))
        #expect(svg.status == 0 && XMLParser(data: Data(svg.stdout.utf8)).parse(), "the picture is not well-formed XML")
        let export = try #require(try scratch.run(["export", path, "-o", "-"]))
        let back = try ElementTree(axhitJSON: Data(export.stdout.utf8))
        #expect(Set(back.preOrder.map(back.id(of:))) == ids)
        // Errors name hostile ids escaped, on one line.
        let missing = try #require(try scratch.run(["activate", path, "--element", "\u{1B}]52;c;x\u{7}\nnope"]))
        #expect(missing.status == 1 && missing.stderrLines.count == 1 && !Self.hasControls(missing.stderr))
        let unspoken = try #require(try scratch.run(["speak", path, "--element", "\u{1B}]52;c;x\u{7}\nnope"]))
        #expect(unspoken.status == 1 && unspoken.stderrLines.count == 1 && !Self.hasControls(unspoken.stderr))
        #expect(unspoken.stdout.isEmpty)
        #expect(named > 200)  // not vacuous: the outputs named many hostile ids
    }
}
