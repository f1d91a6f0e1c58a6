import Foundation
import Testing

@testable import AXHit

@Suite struct ExploreTests {
    /// A random polyline of `count` points in the trees' area.
    static func polyline(_ rng: inout SeededRandom, count: Int) -> [CGPoint] {
        var p = CGPoint(x: rng.number(-20 ... 220), y: rng.number(-20 ... 220))
        var out = [p]
        for _ in 1 ..< count {
            // Often axis-aligned (along edges of unrotated views), else anywhere.
            switch Int.random(in: 0 ..< 4, using: &rng) {
            case 0: p.x += rng.number(-80 ... 80)
            case 1: p.y += rng.number(-80 ... 80)
            default: p = CGPoint(x: rng.number(-20 ... 220), y: rng.number(-20 ... 220))
            }
            out.append(p)
        }
        return out
    }

    /// A random tree read by Android's rules: windows, actions, labels.
    static func androidTree(seed: UInt64) throws -> ElementTree {
        var tree = try RandomTrees.make(seed: seed, nodes: 200, wide: seed % 2 == 0)
        tree.platform = .android
        tree.source = .snapshot
        var rng = SeededRandom(seed: seed &+ 99)
        for id in tree.preOrder {
            var n = tree[id]!
            if rng.chance(0.3) { n.actions = .click }
            if rng.chance(0.3) { n.accessibilityLabel = "l" }
            if n.kind == .view && tree.parent(of: id) == tree.root && rng.chance(0.5) { n.isWindow = true }
            try tree.update(id, to: n)
        }
        return tree
    }

    /// Every stretch answers what `hit` answers at points well inside it,
    /// the stretches chain from the first point to the last, and
    /// consecutive ones differ.
    @Test func agreesWithHitAlongThePath() throws {
        var stretches = 0, answered = 0, samples = 0, mismatches = 0
        for seed in 1 ... 24 as ClosedRange<UInt64> {
            let tree =
                seed > 18
                ? try Self.androidTree(seed: seed) : try RandomTrees.make(seed: seed, nodes: 300, wide: seed % 2 == 0)
            let tester = HitTester(tree)
            var rng = SeededRandom(seed: seed &* 4099)
            for _ in 0 ..< 20 {
                let line = Self.polyline(&rng, count: Int.random(in: 2 ... 8, using: &rng))
                let result = try tester.explore(line)
                #expect(result.first?.from == line.first && result.last?.to == line.last)
                for (s, t) in zip(result, result.dropFirst()) {
                    #expect(s.to == t.from)
                    #expect(s.element != t.element)
                }
                stretches += result.count
                answered += result.filter { $0.element != nil }.count
                // Sample each stretch away from its ends (its pieces follow
                // the polyline, from where the previous one ended).
                var cursor = (0, 0.0)
                for s in result {
                    for p in Self.pointsAlong(line, from: s.from, to: s.to, cursor: &cursor, step: 0.7, margin: 1e-6) {
                        samples += 1
                        if tester.hit(p) != s.element {
                            mismatches += 1
                            if mismatches <= 5 {
                                Issue.record(
                                    "seed \(seed), \(p): hit \(tester.hit(p).map(tree.id) ?? "nil"), stretch \(s.element.map(tree.id) ?? "nil")"
                                )
                            }
                        }
                    }
                }
            }
        }
        #expect(mismatches == 0)
        #expect(stretches > 1000 && answered > 500 && samples > 100_000)
    }

    /// Points every `step` along `line` between `from` and `to` (both on it,
    /// at or after `cursor`, which moves to `to`), at least `margin`
    /// (relative) inside.
    static func pointsAlong(
        _ line: [CGPoint], from: CGPoint, to: CGPoint, cursor: inout (Int, Double), step: Double,
        margin: Double
    ) -> [CGPoint] {
        // Locate both ends as (segment, t), then walk.
        // The first place of `p` at or after `start` (strictly after, for
        // the end of a stretch: one that ends where it starts has looped).
        func locate(_ p: CGPoint, after start: (Int, Double), strictly: Bool = false) -> (Int, Double)? {
            for k in start.0 ..< line.count - 1 {
                let a = line[k], b = line[k + 1]
                let dx = Double(b.x - a.x), dy = Double(b.y - a.y)
                let len2 = dx * dx + dy * dy
                let t = len2 > 0 ? (Double(p.x - a.x) * dx + Double(p.y - a.y) * dy) / len2 : 0
                if k == start.0 && (strictly ? t <= start.1 + 1e-12 : t < start.1 - 1e-12) { continue }
                if t >= -1e-12 && t <= 1 + 1e-12 && abs(Double(a.x) + t * dx - Double(p.x)) < 1e-7
                    && abs(Double(a.y) + t * dy - Double(p.y)) < 1e-7
                {
                    return (k, t)
                }
            }
            return nil
        }
        // A stretch whose ends are one point, or two a rounding apart (a
        // path that doubles back over an edge), has looped: its end is
        // strictly after its start.
        let looped = abs(Double(from.x - to.x)) < 1e-9 && abs(Double(from.y - to.y)) < 1e-9
        guard let s = locate(from, after: cursor), let e = locate(to, after: s, strictly: looped) else {
            Issue.record("stretch \(from) → \(to) is not on the polyline after \(cursor)")
            return []
        }
        cursor = e
        var out: [CGPoint] = []
        for k in s.0 ... e.0 {
            let a = line[k], b = line[k + 1]
            let t0 = k == s.0 ? s.1 : 0, t1 = k == e.0 ? e.1 : 1
            let length = Double((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
            guard length > 0, t1 - t0 > 2 * margin else { continue }
            let n = max(1, Int(length * (t1 - t0) / step))
            for i in 0 ... n {
                let t = t0 + margin + (t1 - t0 - 2 * margin) * Double(i) / Double(n)
                out.append(HitTester.point(a, b, t))
            }
        }
        return out
    }

    /// On axis-aligned trees, a horizontal path's breakpoints are the
    /// frames' and bounds' x edges: computed here independently, each
    /// piece's answer from the reference's `hit` at its midpoint.
    @Test func exactBreakpointsOnAxisAlignedTrees() throws {
        var compared = 0
        for seed in 1 ... 30 as ClosedRange<UInt64> {
            var tree = try RandomTrees.make(seed: seed &+ 500, nodes: 200, wide: seed % 2 == 0)
            for id in tree.preOrder where tree.kind(of: id) == .view && tree[id]!.transform != .identity {
                var n = tree[id]!
                n.transform = .identity
                try tree.update(id, to: n)
            }
            let tester = HitTester(tree)
            let reference = ReferenceHitTest(tree)
            var rng = SeededRandom(seed: seed)
            for _ in 0 ..< 10 {
                let y = rng.number(0 ... 200), x0 = rng.number(-30 ... 50), x1 = rng.number(150 ... 230)
                var edges: Set<Double> = [x0, x1]
                for (k, n) in reference.nodes.enumerated() {
                    var rects = [reference.accessibilityFrame(k)]
                    if n.kind == .view { rects.append(n.effectiveBounds.applying(reference.toScreen[k])) }
                    for r in rects where r.minX > x0 && r.minX < x1 { edges.insert(r.minX) }
                    for r in rects where r.maxX > x0 && r.maxX < x1 { edges.insert(r.maxX) }
                }
                let xs = edges.sorted()
                var expected: [(String?, Double, Double)] = []
                for (l, r) in zip(xs, xs.dropFirst()) {
                    let answer = reference.hit(CGPoint(x: (l + r) / 2, y: y), policy: .frame) { _, _ in nil }
                    if let last = expected.last, last.0 == answer {
                        expected[expected.count - 1].2 = r
                    } else {
                        expected.append((answer, l, r))
                    }
                }
                let got = try tester.explore([CGPoint(x: x0, y: y), CGPoint(x: x1, y: y)])
                #expect(got.count == expected.count, "seed \(seed), y \(y)")
                for (g, e) in zip(got, expected) {
                    #expect(g.element.map(tree.id) == e.0)
                    #expect(abs(g.from.x - e.1) < 1e-9 && abs(g.to.x - e.2) < 1e-9, "seed \(seed): \(g) vs \(e)")
                    #expect(g.from.y == y && g.to.y == y)
                }
                compared += expected.count
            }
        }
        #expect(compared > 500)
    }

    @Test func aPathOfOnePointRepeatedGivesItsHit() throws {
        let tree = try RandomTrees.make(seed: 3, nodes: 200)
        let tester = HitTester(tree)
        var rng = SeededRandom(seed: 11)
        for _ in 0 ..< 200 {
            let p = CGPoint(x: rng.number(0 ... 200), y: rng.number(0 ... 200))
            let got = try tester.explore([p, p, p])
            #expect(got == [ExploreStretch(element: tester.hit(p), from: p, to: p)])
        }
    }

    @Test func rejectsShortOrNonFinitePaths() {
        let tester = HitTester(ElementTree())
        #expect(throws: TreeError.self) { try tester.explore([CGPoint(x: 1, y: 1)]) }
        #expect(throws: TreeError.self) { try tester.explore([CGPoint(x: 1, y: 1), CGPoint(x: CGFloat.nan, y: 1)]) }
    }
}
