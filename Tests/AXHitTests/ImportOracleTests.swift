import Foundation
import Testing

@testable import AXHit

/// The importers against the oracle (scripts/oracle: a Python reading of the
/// spec, written without the engine): for every corpus screen, the tree's
/// exposed set is the oracle's `exposed` list in
/// Tests/Fixtures/expectations/<name>.json, which also checks the ids.
private let expectations: URL = Corpus.directory.deletingLastPathComponent().appendingPathComponent("expectations")

private struct Expectation: Decodable {
    /// A point whose answer the oracle's author worked out by hand from the
    /// spec (and the oracle recomputed).
    struct Hit: Decodable {
        var point: [Double]
        var element: String?
    }

    var file: String
    var platform: String
    var exposed: [String]
    var hits: [Hit]
}

/// Every corpus screen with an expectation file (all but the old
/// WebDriverAgent JSON, which the oracle does not read), by corpus path.
private let screens: [String] = Corpus.files.compactMap { url in
    let name = url.deletingPathExtension().lastPathComponent
    let path = expectations.appendingPathComponent(name + ".json").path
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    return url.deletingLastPathComponent().lastPathComponent + "/" + url.lastPathComponent
}

private func load(_ path: String, options: ImportOptions = .init()) throws -> ElementTree {
    try ElementTree(
        contentsOf: Data(contentsOf: Corpus.directory.appendingPathComponent(path)), file: path, options: options)
}

@Suite struct ImportOracleTests {
    @Test func everyReadableScreenHasAnExpectation() {
        // 36 screens in ios/ and android/, less the WebDriverAgent JSON.
        #expect(screens.count == 35)
    }

    @Test(arguments: screens)
    func exposedSetIsTheOracles(_ path: String) throws {
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let expected = try JSONDecoder().decode(
            Expectation.self, from: Data(contentsOf: expectations.appendingPathComponent(name + ".json")))
        #expect(expected.file == path)
        let tree = try load(path)
        #expect(tree.platform.rawValue == expected.platform)
        #expect(tree.source == .snapshot)
        let space = ScreenSpace(tree)
        let exposed = Set(tree.preOrder.filter { space.isExposed($0) }.map { tree.id(of: $0) })
        let want = Set(expected.exposed)
        #expect(
            exposed == want,
            "extra: \(exposed.subtracting(want).sorted()), missing: \(want.subtracting(exposed).sorted())")
    }

    /// The hand-checked points: through the engine, they check what the
    /// importer decides about order (drawing order, windows back to front,
    /// the flat idb list) and about frames.
    @Test(arguments: screens)
    func handCheckedHitsAreTheOracles(_ path: String) throws {
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let expected = try JSONDecoder().decode(
            Expectation.self, from: Data(contentsOf: expectations.appendingPathComponent(name + ".json")))
        let tree = try load(path)
        let tester = HitTester(tree)
        #expect(!expected.hits.isEmpty)
        for hit in expected.hits {
            let p = CGPoint(x: hit.point[0], y: hit.point[1])
            #expect(tester.hit(p).map { tree.id(of: $0) } == hit.element, "\(p)")
        }
    }
}
