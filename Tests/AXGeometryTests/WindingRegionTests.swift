import Foundation
import Testing

@testable import AXGeometry

@Suite struct WindingRegionTests {
    /// Stripes in a region's record (the index under test must have several).
    private func stripeCount(_ r: WindingRegion) -> Int { Int(r.record[5].bitPattern & 0xffff_ffff) }

    /// A 64-gon of radius 10 around a 64-gon of radius 4 (128 edges, so
    /// several stripes), the inner one running the same way or reversed.
    private func donut(innerReversed: Bool, rule: FillRule) -> WindingRegion {
        let outer = Shapes.regularPolygon(radius: 10, sides: 64)
        let inner = Shapes.regularPolygon(radius: 4, sides: 64, clockwise: innerReversed)
        return WindingRegion(rings: [outer, inner], rule: rule)
    }

    @Test func donutHoleDependsOnRuleAndDirection() {
        let same = donut(innerReversed: false, rule: .nonZero)
        #expect(stripeCount(same) > 4)
        // Both rings around the centre count twice: filled non-zero only.
        #expect(same.contains(CGPoint(x: 0, y: 0)))
        #expect(same.contains(CGPoint(x: 0, y: 2)))
        #expect(!donut(innerReversed: false, rule: .evenOdd).contains(CGPoint(x: 0, y: 0)))
        #expect(!donut(innerReversed: false, rule: .evenOdd).contains(CGPoint(x: 0, y: 2)))
        // A reversed hole cancels: empty under both rules.
        #expect(!donut(innerReversed: true, rule: .nonZero).contains(CGPoint(x: 0, y: 2)))
        #expect(!donut(innerReversed: true, rule: .evenOdd).contains(CGPoint(x: 0, y: 2)))
        // The band between the rings is filled under every combination; beyond it nothing.
        for reversed in [false, true] {
            for rule in [FillRule.nonZero, .evenOdd] {
                let r = donut(innerReversed: reversed, rule: rule)
                for p in [CGPoint(x: 7, y: 0), CGPoint(x: 0, y: -7), CGPoint(x: -5, y: 5)] { #expect(r.contains(p)) }
                for p in [CGPoint(x: 11, y: 0), CGPoint(x: 9.99, y: 9.99), CGPoint(x: 0, y: -10.5)] {
                    #expect(!r.contains(p))
                }
            }
        }
    }

    /// A staircase: row `[k, k + 1)` spans `0 <= x < 64 - k`, for k in 0..<64.
    /// 130 edges give 16 stripes of height 4, so every fourth step's
    /// horizontal edge lies exactly on a stripe boundary.
    private static let staircase: [CGPoint] = {
        var ring = [CGPoint(x: 0, y: 0)]
        for k in 0 ..< 64 {
            ring.append(CGPoint(x: 64 - k, y: k))
            ring.append(CGPoint(x: 64 - k, y: k + 1))
        }
        ring.append(CGPoint(x: 0, y: 64))
        return ring
    }()

    @Test func horizontalEdgesOnStripeBoundariesFollowTheClosedOpenRule() {
        for rule in [FillRule.nonZero, .evenOdd] {
            let r = WindingRegion(rings: [Self.staircase], rule: rule)
            #expect(stripeCount(r) == 16)
            #expect(r.record[2] + 1 / r.record[4] == 4)  // the boundary between stripes 0 and 1
            for y in stride(from: 0.0, through: 64, by: 0.5) {
                for x in stride(from: -0.5, through: 64.5, by: 0.25) {
                    let inside = y < 64 && x >= 0 && x < 64 - floor(y)
                    #expect(r.contains(CGPoint(x: x, y: y)) == inside, "(\(x), \(y))")
                }
            }
            // Just below a boundary step the row below still reaches further.
            #expect(r.contains(CGPoint(x: 60.5, y: 4.0.nextDown)))
            #expect(!r.contains(CGPoint(x: 60.5, y: 4)))
        }
    }

    @Test func agreesWithEveryEdgeScannedOnStripeBoundaries() {
        var rng = SplitMix64(seed: 7)
        let star = (0 ..< 90).map { k -> CGPoint in
            let a = 2 * Double.pi * Double(k) / 90, r = k % 2 == 0 ? 30.0 : 12 + rng.double(in: 0 ... 8)
            return CGPoint(x: r * cos(a), y: r * sin(a))
        }
        let loops = [star, Shapes.regularPolygon(center: CGPoint(x: 3, y: -2), radius: 9, sides: 40)]
        for rule in [FillRule.nonZero, .evenOdd] {
            let r = WindingRegion(rings: loops, rule: rule)
            let count = stripeCount(r)
            #expect(count > 4)
            let minY = r.record[2], scale = r.record[4]
            var ys = (0 ... count).map { minY + Double($0) / scale }
            ys += ys.map(\.nextUp) + ys.map(\.nextDown) + loops.joined().map { Double($0.y) }
            for y in ys {
                for _ in 0 ..< 40 {
                    let p = CGPoint(x: rng.double(in: -32 ... 32), y: y)
                    #expect(r.contains(p) == rule.fills(winding: Self.bruteWinding(loops, p)), "\(p)")
                }
            }
        }
    }

    /// The winding number over every edge of the closed rings, by the
    /// documented crossing rule.
    private static func bruteWinding(_ rings: [[CGPoint]], _ p: CGPoint) -> Int {
        var w = 0
        for ring in rings {
            for i in ring.indices {
                let a = ring[i], b = ring[(i + 1) % ring.count]
                guard (a.y <= p.y) != (b.y <= p.y) else { continue }
                if p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) { w += b.y > a.y ? 1 : -1 }
            }
        }
        return w
    }

    @Test func gridSettlesTheCellsAwayFromTheRingAndAgreesOnItsLines() {
        let loops = [
            Shapes.regularPolygon(center: CGPoint(x: 50, y: 50), radius: 40, sides: 340),
            Shapes.regularPolygon(center: CGPoint(x: 50, y: 50), radius: 15, sides: 90),
        ]
        for rule in [FillRule.nonZero, .evenOdd] {
            let r = WindingRegion(rings: loops, rule: rule)
            let s = r.record.count - WindingRecord.summaryWords
            var codes = [0, 0, 0]
            for k in 0 ..< (WindingRecord.gridSize * WindingRecord.gridSize) {
                codes[Int(r.record[s + 3 + k >> 5].bitPattern >> UInt64((k & 31) * 2) & 3)] += 1
            }
            // Of 400 cells of 4 × 4 over the 80 × 80 box, the disc of radius 40
            // (non-zero: about 314 cells' area) or the band (even-odd: about
            // 270) less the ~130 cells the two circles cross leave over a
            // hundred settled filled; the corners (about 86) dozens empty.
            #expect(codes[Int(WindingRecord.filledCell)] >= (rule == .nonZero ? 150 : 100))
            #expect(codes[Int(WindingRecord.emptyCell)] >= 30)
            // On the grid's own lines and just beside them, as every edge says.
            let origin = r.record[s].bitPattern, scale = r.record[s + 1].bitPattern
            let ox = Double(Float(bitPattern: UInt32(truncatingIfNeeded: origin)))
            let sx = Double(Float(bitPattern: UInt32(truncatingIfNeeded: scale)))
            let lines = (0 ... WindingRecord.gridSize).map { ox + Double($0) / sx }
            let coordinates =
                lines + lines.map(\.nextUp) + lines.map(\.nextDown) + stride(from: 0.5, to: 100, by: 3.1).map { $0 }
            for x in coordinates {
                for y in coordinates {
                    let p = CGPoint(x: x, y: y)
                    #expect(r.contains(p) == rule.fills(winding: Self.bruteWinding(loops, p)), "\(p)")
                }
            }
        }
    }

    @Test func hugeCoordinatesGiveDefinedAnswers() {
        // The height overflows to infinity: one stripe, still exact.
        let corners = [
            CGPoint(x: -1e308, y: -1e308), CGPoint(x: 1e308, y: -1e308), CGPoint(x: 1e308, y: 1e308),
            CGPoint(x: -1e308, y: 1e308),
        ]
        let big = WindingRegion(rings: [corners], rule: .nonZero)
        #expect(stripeCount(big) == 1)
        #expect(big.contains(CGPoint(x: 0, y: 0)))
        #expect(big.contains(CGPoint(x: -1e308, y: -1e308)))
        #expect(big.contains(CGPoint(x: 4e307, y: -9e307)))
        #expect(!big.contains(CGPoint(x: 1e308, y: 0)))
        #expect(!big.contains(CGPoint(x: 0, y: 1e308)))
        #expect(!big.contains(CGPoint(x: 1.5e308, y: 0)))
        let e300 = WindingRegion(rings: [Shapes.regularPolygon(radius: 1e300, sides: 48)], rule: .evenOdd)
        #expect(e300.contains(CGPoint(x: 0, y: 0)))
        #expect(e300.contains(CGPoint(x: 0, y: 0.9e300)))
        #expect(!e300.contains(CGPoint(x: 0.8e300, y: 0.8e300)))
        for p in [
            CGPoint(x: CGFloat.nan, y: 0), CGPoint(x: 0, y: CGFloat.infinity), CGPoint(x: -CGFloat.infinity, y: 0),
        ] {
            #expect(!big.contains(p))
            #expect(!e300.contains(p))
        }
    }

    @Test func emptyAndDegenerateRingsFillNothing() {
        let empty = WindingRegion(rings: [], rule: .nonZero)
        #expect(!empty.contains(.zero))
        #expect(empty.bounds.isNull)
        let junk = WindingRegion(
            rings: [[CGPoint(x: 1, y: 1)], [CGPoint(x: 0, y: 0), CGPoint(x: CGFloat.nan, y: 5), CGPoint(x: 5, y: 5)]],
            rule: .evenOdd)
        #expect(!junk.contains(CGPoint(x: 1, y: 1)))
        #expect(junk.rings.isEmpty)
        // A zero-height ring has no crossing anywhere.
        let flat = WindingRegion(rings: [[CGPoint(x: 0, y: 3), CGPoint(x: 9, y: 3)]], rule: .nonZero)
        #expect(!flat.contains(CGPoint(x: 4, y: 3)))
    }

    @Test func tallEdgesDoNotBlowUpTheIndex() {
        // A comb: 200 teeth, each two edges the full height, would sit in every stripe.
        var ring: [CGPoint] = [CGPoint(x: 0, y: 0)]
        for k in 0 ..< 200 {
            ring += [
                CGPoint(x: 2 * k, y: 100), CGPoint(x: 2 * k + 1, y: 100), CGPoint(x: 2 * k + 1, y: 1),
                CGPoint(x: 2 * k + 2, y: 1),
            ]
        }
        ring.append(CGPoint(x: 400, y: 0))
        let comb = WindingRegion(rings: [ring], rule: .nonZero)
        // Points stored stay within about three per edge (two words each).
        #expect(comb.record.count <= 2 * (3 * ring.count + 64) + 7 + stripeCount(comb) + 16)
        #expect(comb.contains(CGPoint(x: 0.5, y: 50)))
        #expect(!comb.contains(CGPoint(x: 1.5, y: 50)))
        #expect(comb.contains(CGPoint(x: 1.5, y: 0.5)))
    }

    @Test func aFlatSubpathOfManyCurvesIndexesInLinearWork() {
        // Issue #16: one subpath of 300,000 curves, back and forth over a
        // band 0.75 high, took 157 s to hit-test: every edge spans every
        // stripe the first layout tried, and each candidate was laid out in
        // full before being halved. Halving on the stripe count alone takes
        // a fraction of a second; 100,000 curves here keep the test quick
        // (the old way: minutes).
        var path = BezierPath()
        path.move(to: CGPoint(x: 0, y: 0))
        for k in 0 ..< 100_000 {
            let x = CGFloat(k % 1000) * 0.3
            path.addCurve(
                to: CGPoint(x: x + 0.3, y: 0), controlPoint1: CGPoint(x: x + 0.1, y: 1),
                controlPoint2: CGPoint(x: x + 0.2, y: 1))
        }
        let rings = path.flattened()
        let region = WindingRegion(rings: rings, rule: .nonZero)
        let edges = rings[0].count
        #expect(region.record.count <= 2 * (3 * edges + 64) + 7 + stripeCount(region) + 16)
        for p in [CGPoint(x: 10.05, y: 0.1), CGPoint(x: 10.15, y: 0.74), CGPoint(x: 100, y: 5), CGPoint(x: -1, y: 0.5)]
        {
            #expect(region.contains(p) == FillRule.nonZero.fills(winding: Shapes.winding(p, rings: rings)), "\(p)")
        }
    }
}

@Suite struct WindingRegionStoreTests {
    private static let square = Shapes.square(x: 0, y: 0, size: 10)

    private func record(_ ring: [CGPoint], tag: Bool = false) -> [Double] {
        WindingRecord.make(rings: [ring], rule: .nonZero, tag: tag)
    }

    @Test func keysHoldTheirOwnRegions() {
        var store = WindingRegionStore(capacity: 4)
        store.set(1, record(Self.square, tag: true))
        store.set(
            [2, 3], [record(Shapes.square(x: 20, y: 0, size: 5)), WindingRecord.make(rings: [], rule: .evenOdd)])
        #expect(store.region(0) == nil)
        #expect(store.region(1)?.contains(CGPoint(x: 5, y: 5)) == true)
        #expect(store.region(1)?.tag == true)
        #expect(store.region(2)?.tag == false)
        #expect(store.region(2)?.contains(CGPoint(x: 5, y: 5)) == false)
        #expect(store.region(2)?.contains(CGPoint(x: 22, y: 2)) == true)
        #expect(store.region(3)?.contains(CGPoint(x: 0, y: 0)) == false)
        store.set(1, nil)
        #expect(store.region(1) == nil)
        store.grow(to: 10)
        store.set(9, record(Self.square))
        #expect(store.region(9)?.contains(CGPoint(x: 9.5, y: 0)) == true)
    }

    @Test func slotsComeWithTheFirstRegion() {
        var store = WindingRegionStore(capacity: 1000)
        store.grow(to: 2000)
        // Nothing per key until some key has a region: an empty entry buffer alone.
        #expect(store.memoryBytes < 1000)
        for key in [0, 999, 1999] { #expect(store.region(key) == nil) }
        store.set(1999, nil)
        store.set(1500, record(Self.square))
        #expect(store.memoryBytes >= 2000 * 4)
        #expect(store.region(1500)?.contains(CGPoint(x: 5, y: 5)) == true)
        #expect(store.region(1999) == nil)
        store.grow(to: 3000)
        store.set(2999, record(Shapes.square(x: 50, y: 0, size: 2)))
        #expect(store.region(2999)?.contains(CGPoint(x: 51, y: 1)) == true)
        #expect(store.region(1500)?.contains(CGPoint(x: 5, y: 5)) == true)
    }

    @Test func aCopyKeepsItsRegionsWhileTheOriginalChanges() {
        var store = WindingRegionStore(capacity: 2)
        store.set(0, record(Self.square))
        let snapshot = store
        store.set(0, record(Shapes.square(x: 100, y: 100, size: 1)))
        store.set(1, record(Self.square))
        #expect(snapshot.region(0)?.contains(CGPoint(x: 5, y: 5)) == true)
        #expect(snapshot.region(1) == nil)
        #expect(store.region(0)?.contains(CGPoint(x: 5, y: 5)) == false)
        #expect(store.region(0)?.contains(CGPoint(x: 100.5, y: 100.5)) == true)
    }

    @Test func replacingOverAndOverRepacksAndKeepsAnswers() {
        var store = WindingRegionStore(capacity: 50)
        let big = Shapes.regularPolygon(radius: 10, sides: 400)  // a few thousand words a record
        for round in 0 ..< 40 {
            for key in 0 ..< 50 {
                let dx = Double(round * 100 + key)
                store.set(key, WindingRecord.make(rings: [big.map { CGPoint(x: $0.x + dx, y: $0.y) }], rule: .nonZero))
            }
        }
        // Dead records never outweigh live ones for long.
        #expect(store.memoryBytes < 6 * 50 * WindingRecord.make(rings: [big], rule: .nonZero).count * 8 + (1 << 16))
        for key in 0 ..< 50 {
            let dx = Double(39 * 100 + key)
            #expect(store.region(key)?.contains(CGPoint(x: dx, y: 0)) == true)
            #expect(store.region(key)?.contains(CGPoint(x: dx - 100, y: 0)) == false)
        }
    }
}
