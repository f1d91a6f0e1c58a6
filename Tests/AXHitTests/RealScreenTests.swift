import Foundation
import Testing

@testable import AXHit

/// Real screens held to answers worked out from the spec and the dump alone,
/// without the engine: `scripts/oracle/oracle.py` (an independent plain
/// implementation of tree-format.md's platform rules) wrote
/// `Tests/Fixtures/expectations/*.json`, and every hit point in them was
/// checked by hand (each says why in its `note`; `scripts/oracle/NOTES.md`
/// gives the readings where the spec is silent).
///
/// For each screen: the exposed set, every exposed element's activation
/// status and receiver, TalkBack's order (Android), and the element `hit`
/// answers at each chosen point (frame policy; Android points in pixels).
@Suite struct RealScreenTests {
    struct Expectation: Decodable {
        struct Activation: Decodable {
            var element: String
            var status: String
            var receiver: String?
        }
        struct Hit: Decodable {
            var point: [Double]
            var element: String?
            var note: String
        }
        var file: String
        var platform: String
        var exposed: [String]
        var activations: [Activation]
        /// Android: TalkBack's swipe order (the oracle writes it for Android only).
        var order: [String]?
        var hits: [Hit]
    }

    static let directory = Corpus.directory.deletingLastPathComponent().appendingPathComponent("expectations")

    /// Every expectation file (never none: the test must not pass vacuously).
    static let names: [String] = {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted()
        precondition(names.count >= 10, "expected the oracle's expectation files in \(directory.path)")
        return names
    }()

    static func load(_ name: String) throws -> (Expectation, ScreenAnalysis) {
        let data = try Data(contentsOf: directory.appendingPathComponent(name))
        let expectation = try JSONDecoder().decode(Expectation.self, from: data)
        let source = Corpus.directory.appendingPathComponent(expectation.file)
        let tree = try ElementTree(contentsOf: try Data(contentsOf: source), file: expectation.file)
        return (expectation, try ScreenAnalysis(HitTester(tree), visibility: false))
    }

    @Test(arguments: names)
    func screenMatchesTheOracle(_ name: String) throws {
        let (expected, analysis) = try Self.load(name)
        let tree = analysis.tree
        #expect(tree.platform.rawValue == expected.platform)

        // The exposed set.
        let exposed = Set(analysis.elements.map { tree.id(of: $0.element) })
        #expect(exposed.subtracting(expected.exposed).sorted() == [], "exposed, but not by the spec")
        #expect(Set(expected.exposed).subtracting(exposed).sorted() == [], "not exposed, but should be")

        // Every exposed element's activation.
        #expect(!expected.activations.isEmpty)
        for a in expected.activations {
            guard let id = tree.node(withID: a.element), let got = analysis.analysis(of: id) else {
                Issue.record("\(a.element) is not an exposed element")
                continue
            }
            #expect(got.status.rawValue == a.status, "\(a.element)")
            #expect(got.receiver.map(tree.id(of:)) == a.receiver, "\(a.element)")
        }

        // TalkBack's order.
        if let order = expected.order {
            var tester = analysis.tester
            #expect(try tester.navigationOrder().map(tree.id(of:)) == order, "order")
        }

        // The hand-checked points.
        #expect(expected.hits.count >= 8)
        for h in expected.hits {
            let p = CGPoint(x: h.point[0], y: h.point[1])
            let got = analysis.tester.hit(p).map(tree.id(of:))
            #expect(got == h.element, "at \(h.point): \(h.note)")
        }
    }
}
