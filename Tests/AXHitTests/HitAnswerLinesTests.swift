import Foundation
import Testing

@testable import AXHit

/// `HitTester.writeAnswers(for:policy:to:)`: the lines `axhit hit` prints,
/// checked against lines written out by hand, across windows and runs of
/// points, with a sink that fails.
@Suite struct HitAnswerLinesTests {
    /// Three elements: a quarter, a quarter whose id needs escapes, and a
    /// bottom half whose quoted id is too long to keep in its slot.
    static let document = #"""
        {"format": "axhit/1", "root": {"id": "window", "frame": [0, 0, 100, 100], "children": [
          {"id": "a", "frame": [0, 0, 50, 50], "isAccessibilityElement": true},
          {"id": "say \"b\"", "frame": [50, 0, 50, 50], "isAccessibilityElement": true},
          {"id": "a-rather-long-identifier", "frame": [0, 50, 100, 50], "isAccessibilityElement": true}
        ]}}
        """#

    /// Points and their lines, by hand: frames are closed-open, `-0` prints
    /// as `0`, numbers in their shortest form (Swift's beyond four decimals).
    static let cases: [(CGPoint, String)] = [
        (CGPoint(x: 10, y: 10), #"{"point":[10,10],"element":"a"}"#),
        (CGPoint(x: 60, y: 10), #"{"point":[60,10],"element":"say \"b\""}"#),
        (CGPoint(x: 10, y: 60), #"{"point":[10,60],"element":"a-rather-long-identifier"}"#),
        (CGPoint(x: 150, y: 10), #"{"point":[150,10],"element":null}"#),
        (CGPoint(x: 0.5, y: 99.25), #"{"point":[0.5,99.25],"element":"a-rather-long-identifier"}"#),
        (CGPoint(x: -0.0, y: 3), #"{"point":[0,3],"element":"a"}"#),
        (CGPoint(x: 50, y: 0), #"{"point":[50,0],"element":"say \"b\""}"#),
        (CGPoint(x: 1e20, y: 5), #"{"point":[1e+20,5],"element":null}"#),
        (CGPoint(x: 0.1, y: 0.2), #"{"point":[0.1,0.2],"element":"a"}"#),
        (CGPoint(x: 1.0 / 3, y: 100), #"{"point":[0.3333333333333333,100],"element":null}"#),
        (CGPoint(x: -1, y: -1), #"{"point":[-1,-1],"element":null}"#),
        (CGPoint(x: 99.99999, y: 49.99999), #"{"point":[99.99999,49.99999],"element":"say \"b\""}"#),
    ]

    static func engine() throws -> HitTester {
        HitTester(try ElementTree(contentsOf: Data(document.utf8), file: "t"))
    }

    /// The text `writeAnswers` gives, with the pieces `sink` was handed.
    static func written(
        _ engine: HitTester, _ points: [CGPoint], policy: HitPolicy = .frame, window: Int? = nil, cores: Int? = nil
    ) -> (text: String, pieces: [String]) {
        var pieces: [String] = []
        let sink = { (bytes: UnsafeRawBufferPointer) in pieces.append(String(decoding: bytes, as: UTF8.self)) }
        if let window {
            engine.writeAnswers(for: points, policy: policy, windowPoints: window, cores: cores, to: sink)
        } else {
            engine.writeAnswers(for: points, policy: policy, to: sink)
        }
        return (pieces.joined(), pieces)
    }

    /// `count` of the cases in a scrambled order, cycled.
    static func scrambled(_ count: Int) -> [Int] { (0 ..< count).map { ($0 &* 7 &+ $0 / 5) % cases.count } }

    @Test func eachPointGetsItsLine() throws {
        let engine = try Self.engine()
        for policy in [HitPolicy.frame, .shape] {
            let (text, pieces) = Self.written(engine, Self.cases.map(\.0), policy: policy)
            #expect(text == Self.cases.map { $0.1 + "\n" }.joined(), "\(policy)")
            #expect(pieces.allSatisfy { $0.hasSuffix("\n") }, "whole lines at a time")
        }
    }

    /// Windows of a few points, three runs a window: every line in input
    /// order, each handed over whole, one piece per run; a count that fills
    /// its windows exactly, and one point alone.
    @Test func manyPointsAcrossWindowsKeepTheirOrder() throws {
        let engine = try Self.engine()
        for (count, window) in [(5_000, 97), (12, 4), (1, 8), (600, 1_000)] {
            let order = Self.scrambled(count)
            let (text, pieces) = Self.written(engine, order.map { Self.cases[$0].0 }, window: window, cores: 3)
            #expect(text == order.map { Self.cases[$0].1 + "\n" }.joined(), "\(count) points, windows of \(window)")
            #expect(pieces.allSatisfy { $0.hasSuffix("\n") })
            // A piece per run: up to three a window.
            let windows = consecutiveRuns(count, parts: (count + window - 1) / window)
            #expect(pieces.count == windows.reduce(0) { $0 + consecutiveRuns($1.count, parts: 3).count })
            #expect(pieces.count > windows.count || count == 1)
        }
        // The default window and cores give the same text.
        let order = Self.scrambled(5_000)
        let text = Self.written(engine, order.map { Self.cases[$0].0 }).text
        #expect(text == order.map { Self.cases[$0].1 + "\n" }.joined())
    }

    @Test func noPointsWriteNothing() throws {
        var calls = 0
        try Self.engine().writeAnswers(for: []) { _ in calls += 1 }
        #expect(calls == 0)
    }

    struct Refused: Error, Equatable {}

    /// A sink that fails on its third piece: the error comes out of the
    /// call, nothing is handed over after it, and what was is the text's
    /// start.
    @Test func aFailingSinkEndsTheWriting() throws {
        let engine = try Self.engine()
        let order = Self.scrambled(1_000)
        var received: [UInt8] = [], calls = 0
        #expect(throws: Refused.self) {
            try engine.writeAnswers(for: order.map { Self.cases[$0].0 }, policy: .frame, windowPoints: 10, cores: 2) {
                calls += 1
                if calls == 3 { throw Refused() }
                received += $0
            }
        }
        #expect(calls == 3)
        let expected = order.map { Self.cases[$0].1 + "\n" }.joined()
        #expect(received.count > 0 && expected.utf8.starts(with: received))
        #expect(received.last == UInt8(ascii: "\n"))
    }

    /// Enough frame queries get a screen grid on a copy: the engine that
    /// was asked keeps its own tiles, and the lines are its answers'.
    @Test func manyQueriesGetAGridOnACopy() throws {
        let tree = try ScreenTilesTests.cellsTree(
            rows: 40, columns: 10, pitch: CGSize(width: 80, height: 60), size: CGSize(width: 76, height: 56),
            inset: 2)
        let engine = HitTester(tree)
        #expect(!engine.hasScreenGrid)
        var rng = SeededRandom(seed: 5)
        let points = (0 ..< 1_000).map { _ in CGPoint(x: rng.number(-5 ... 805), y: rng.number(-5 ... 2405)).rounded }
        #expect(engine.prepared(forQueries: points.count, policy: .frame)?.hasScreenGrid == true)
        let lines = points.map { p in
            let id = engine.hit(p).map { "\"\(tree.id(of: $0))\"" } ?? "null"
            return "{\"point\":[\(Int(p.x)),\(Int(p.y))],\"element\":\(id)}\n"
        }
        #expect(Set(lines.map { $0.hasSuffix("null}\n") }) == [true, false], "both kinds of answers")
        #expect(Self.written(engine, points, window: 64, cores: 2).text == lines.joined())
        #expect(!engine.hasScreenGrid)
    }

    /// A screen grid with stale areas (an update since it was built) and
    /// too few points to build another answers as it is: preparing does not
    /// hand back the same engine over and over (which recursed without end).
    @Test func aStaleGridAnswersFewPoints() throws {
        let tree = try ScreenTilesTests.cellsTree(
            rows: 40, columns: 10, pitch: CGSize(width: 80, height: 60), size: CGSize(width: 76, height: 56),
            inset: 2)
        var engine = HitTester(tree)
        let built = engine.buildScreenGrid()
        #expect(built)
        // c5.5 (x 402 ..< 478, y 302 ..< 358) moves 20 pt right, under c5.6 from 482.
        let cell = try #require(tree.node(withID: "c5.5"))
        var moved = try #require(engine.tree[cell])
        moved.frame.origin.x += 20
        try engine.update(cell, to: moved)
        #expect(engine.hasScreenGrid && !engine.staleAreas.isEmpty)
        let points = [CGPoint(x: 410, y: 330), CGPoint(x: 480, y: 330), CGPoint(x: 490, y: 330), CGPoint(x: 40, y: 30)]
        let ids: [String?] = [nil, "c5.5", "c5.6", "c0.0"]
        for policy in [HitPolicy.frame, .shape] {
            #expect(engine.prepared(forQueries: points.count, policy: policy) == nil)
            #expect(engine.hit(points, policy: policy).map { $0.map { tree.id(of: $0) } } == ids)
            let lines = zip(points, ids).map { p, id in
                "{\"point\":[\(Int(p.x)),\(Int(p.y))],\"element\":\(id.map { "\"\($0)\"" } ?? "null")}\n"
            }
            #expect(Self.written(engine, points, policy: policy).text == lines.joined())
        }
    }
}

extension CGPoint {
    /// Both coordinates rounded to whole points.
    fileprivate var rounded: CGPoint { CGPoint(x: x.rounded(), y: y.rounded()) }
}
