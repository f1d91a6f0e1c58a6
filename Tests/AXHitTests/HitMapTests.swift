import Foundation
import Testing

@testable import AXHit

@Suite struct HitMapTests {
    /// The distance from `p` to the nearest edge of any region of `map`.
    static func distanceToEdges(_ p: CGPoint, _ map: [MapRegion]) -> Double {
        var best = Double.infinity
        for r in map {
            for polygon in r.polygons {
                for ring in polygon {
                    best = min(best, ReferenceHitTests.distance(p, toRing: Array(ring.dropLast())))
                }
            }
        }
        return best
    }

    /// The trees: UIKit views, iOS snapshots and Android dumps.
    static func tree(_ seed: UInt64) throws -> ElementTree {
        switch seed % 3 {
        case 0:
            // Axis-aligned, as every dump is: TalkBack's focus map cuts the
            // screen along bounds, exact where no view turns.
            var tree = try ExploreTests.androidTree(seed: seed)
            for id in tree.preOrder where tree.kind(of: id) == .view && tree[id]!.transform != .identity {
                var n = tree[id]!
                n.transform = .identity
                try tree.update(id, to: n)
            }
            return tree
        case 1:
            var tree = try RandomTrees.make(seed: seed, nodes: 250, wide: seed % 2 == 0)
            tree.source = .snapshot
            return tree
        default:
            var tree = try RandomTrees.make(seed: seed, nodes: 250, wide: seed % 2 == 0)
            // Some views refuse touches.
            var rng = SeededRandom(seed: seed)
            for id in tree.preOrder where tree.kind(of: id) == .view && rng.chance(0.1) {
                var n = tree[id]!
                n.isUserInteractionEnabled = false
                try tree.update(id, to: n)
            }
            return tree
        }
    }

    /// At points away from every edge, the one region holding the point
    /// names what `hit` (focus) or `touch` (touch) answers there, and no
    /// two regions hold it.
    @Test func mapsAgreeWithHitAndTouchPointByPoint() throws {
        var checked = 0, answered = [0, 0], mismatches = 0, regions = 0
        for seed in 1 ... 18 as ClosedRange<UInt64> {
            let tester = HitTester(try Self.tree(seed))
            let maps = [try tester.focusMap(), try tester.touchMap()]
            regions += maps[0].count + maps[1].count
            var rng = SeededRandom(seed: seed &* 6151)
            for _ in 0 ..< 600 {
                let p = CGPoint(x: rng.number(-30 ... 230), y: rng.number(-30 ... 230))
                for (m, map) in maps.enumerated() {
                    guard Self.distanceToEdges(p, map) > 1e-6 else { continue }
                    let holders = map.filter { $0.contains(p) }
                    let expected = m == 0 ? tester.hit(p) : tester.touch(p)
                    checked += 1
                    if expected != nil { answered[m] += 1 }
                    if holders.count > 1 || holders.first?.node != expected {
                        mismatches += 1
                        if mismatches <= 5 {
                            Issue.record(
                                "seed \(seed), map \(m), \(p): regions \(holders.map { tester.tree.id(of: $0.node) }), expected \(expected.map(tester.tree.id) ?? "nil")"
                            )
                        }
                    }
                }
            }
        }
        #expect(mismatches == 0)
        #expect(
            checked > 15_000 && answered[0] > 800 && answered[1] > 2500 && regions > 120,
            "\(checked) checked, \(answered) answered, \(regions) regions")
    }

    /// Rect minus rects without GEOS: the same points as the definition,
    /// and the same area as GEOS's difference.
    @Test func rectilinearDifferenceIsExact() throws {
        var rng = SeededRandom(seed: 77)
        var withHoles = 0, pieces = 0
        for _ in 0 ..< 300 {
            func rect() -> CGRect {
                // Coordinates on a coarse grid, so that edges line up and touch.
                CGRect(
                    x: Double(Int.random(in: 0 ... 10, using: &rng)) * 10,
                    y: Double(Int.random(in: 0 ... 10, using: &rng)) * 10,
                    width: Double(Int.random(in: 1 ... 6, using: &rng)) * 10,
                    height: Double(Int.random(in: 1 ... 6, using: &rng)) * 10)
            }
            let r = CGRect(x: 0, y: 0, width: 100, height: 100)
            let covers = (0 ..< Int.random(in: 0 ... 12, using: &rng)).map { _ in rect() }
            let polygons = try #require(Region.rectilinear(r, minus: covers))
            let map = MapRegion(node: .none, polygons: polygons)
            if polygons.contains(where: { $0.count > 1 }) { withHoles += 1 }
            pieces += polygons.count
            for _ in 0 ..< 200 {
                let p = CGPoint(x: rng.number(-5 ... 105), y: rng.number(-5 ... 105))
                guard Self.distanceToEdges(p, [map]) > 1e-9 else { continue }
                let expected = r.contains(p) && !covers.contains { $0.contains(p) }
                #expect(map.contains(p) == expected, "\(covers), \(p)")
            }
            let geos = try PolygonSet(rect: r).subtracting(
                try RegionBuilder().union(covers.map { PolygonSet(rect: $0) }))
            #expect(abs(map.area - geos.area) < 1e-9, "\(covers)")
            // Valid as GEOS reads it: its own area matches after a round trip.
            let rebuilt = try PolygonSet.filling(rings: polygons.flatMap { $0 }, rule: .evenOdd)
            #expect(abs(rebuilt.area - map.area) < 1e-9)
        }
        #expect(withHoles > 20 && pieces > 300)
    }

    /// Rects united without GEOS: the same points as the definition, the
    /// same area as GEOS's union, valid as GEOS reads it; and `Region`
    /// takes this way (and the difference's) only when every operand is a
    /// rect, answering a lone rectangle as a rect.
    /// What of a turned quad (or a rect) turned covers leave, by slabs
    /// without GEOS, against GEOS's difference; a cover that is not convex
    /// goes to GEOS.
    @Test func convexCoversLeaveTheAreaGEOSLeaves() throws {
        var rng = SeededRandom(seed: 79)
        let builder = try RegionBuilder()
        func quad() -> Region {
            let t = CGAffineTransform(
                translationX: Double.random(in: 0 ... 30, using: &rng), y: Double.random(in: 0 ... 30, using: &rng)
            ).rotated(by: Double.random(in: -3.2 ... 3.2, using: &rng))
            return Region.quad(
                CGRect(
                    x: Double.random(in: -10 ... 10, using: &rng), y: Double.random(in: -10 ... 10, using: &rng),
                    width: Double.random(in: 2 ... 30, using: &rng), height: Double.random(in: 2 ... 30, using: &rng)),
                t)
        }
        var partly = 0
        for round in 0 ..< 200 {
            let mine = round % 4 == 0 ? Region.rect(of: CGRect(x: 0, y: 0, width: 30, height: 30)) : quad()
            let covers = (0 ..< Int.random(in: 1 ... 10, using: &rng)).map { _ in quad() }
            let left = try mine.uncoveredArea(by: covers, builder)
            let geos = try builder.subtracting(covers.map(\.polygonSet), from: mine.polygonSet).area
            #expect(abs(left - geos) <= 1e-9 * max(1, mine.area), "round \(round): \(left) against \(geos)")
            if geos > 1 && geos < mine.area - 1 { partly += 1 }
        }
        #expect(partly > 50, "\(partly) partly covered")
        // An L-shaped cover is not convex: GEOS answers, the same.
        let square = Region.rect(of: CGRect(x: 0, y: 0, width: 10, height: 10))
        let ell = Region.polygons(
            PolygonSet(simpleRing: [
                CGPoint(x: 0, y: 0), CGPoint(x: 20, y: 0), CGPoint(x: 20, y: 5), CGPoint(x: 5, y: 5),
                CGPoint(x: 5, y: 20), CGPoint(x: 0, y: 20),
            ]))
        #expect(abs(try square.uncoveredArea(by: [ell], builder) - 25) < 1e-9)
    }

    @Test func rectilinearUnionIsExact() throws {
        var rng = SeededRandom(seed: 78)
        var withHoles = 0, pieces = 0
        let builder = try RegionBuilder()
        for _ in 0 ..< 300 {
            let rects = (0 ..< Int.random(in: 1 ... 12, using: &rng)).map { _ in
                CGRect(
                    x: Double(Int.random(in: 0 ... 10, using: &rng)) * 10,
                    y: Double(Int.random(in: 0 ... 10, using: &rng)) * 10,
                    width: Double(Int.random(in: 1 ... 6, using: &rng)) * 10,
                    height: Double(Int.random(in: 1 ... 6, using: &rng)) * 10)
            }
            let polygons = try #require(Region.rectilinearUnion(rects))
            let map = MapRegion(node: .none, polygons: polygons)
            if polygons.contains(where: { $0.count > 1 }) { withHoles += 1 }
            pieces += polygons.count
            for _ in 0 ..< 200 {
                let p = CGPoint(x: rng.number(-5 ... 165), y: rng.number(-5 ... 165))
                guard Self.distanceToEdges(p, [map]) > 1e-9 else { continue }
                #expect(map.contains(p) == rects.contains { $0.contains(p) }, "\(rects), \(p)")
            }
            let geos = try builder.union(rects.map { PolygonSet(rect: $0) })
            #expect(abs(map.area - geos.area) < 1e-9, "\(rects)")
            let rebuilt = try PolygonSet.filling(rings: polygons.flatMap { $0 }, rule: .evenOdd)
            #expect(abs(rebuilt.area - map.area) < 1e-9)
            // Through Region: the same area, a rect when it is one.
            let united = try Region.union(rects.map { Region.rect(of: $0) }, builder)
            #expect(abs(united.area - geos.area) < 1e-9)
        }
        #expect(withHoles > 5 && pieces > 300)
        // Four bars around a square: one polygon with a hole, area 4 × 20 × 10.
        let frame = [
            CGRect(x: 0, y: 0, width: 30, height: 10), CGRect(x: 20, y: 0, width: 10, height: 30),
            CGRect(x: 0, y: 20, width: 30, height: 10), CGRect(x: 0, y: 0, width: 10, height: 30),
        ]
        let ring = try Region.union(frame.map { Region.rect(of: $0) }, builder)
        #expect(ring.area == 800 && ring.asRect == nil && ring.polygonSet.polygonCount == 1)
        #expect(!ring.contains(CGPoint(x: 15, y: 15)) && ring.contains(CGPoint(x: 5, y: 15)))
        // Two halves of one rectangle: the rectangle, as a rect.
        let halves = [CGRect(x: 0, y: 0, width: 10, height: 20), CGRect(x: 10, y: 0, width: 15, height: 20)]
        #expect(
            try Region.union(halves.map { Region.rect(of: $0) }, builder).asRect
                == CGRect(x: 0, y: 0, width: 25, height: 20))
        // A rect less a band across it: two rects' worth, traced.
        let cut = try Region.rect(of: CGRect(x: 0, y: 0, width: 100, height: 50)).subtracting(
            [.rect(of: CGRect(x: 40, y: -10, width: 20, height: 70))], builder)
        #expect(cut.area == 4000 && cut.polygonSet.polygonCount == 2)
        // A turned cover is not a rect: GEOS answers, with the same area rule.
        let turned = Region.quad(CGRect(x: 0, y: 0, width: 10, height: 10), CGAffineTransform(rotationAngle: .pi / 4))
        #expect(
            Region.rect(of: CGRect(x: -100, y: -100, width: 200, height: 200)).rectilinearDifference([turned]) == nil)
    }
}
