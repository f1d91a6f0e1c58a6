import Foundation
import Testing

@testable import AXGeometry

/// From SVG path data to the filled region, end to end, against closed forms.
@Suite struct PathFillingTests {
    static func region(_ d: String, _ rule: FillRule = .nonZero) throws -> PolygonSet {
        var path = try BezierPath(svgPathData: d)
        path.fillRule = rule
        return try PolygonSet.filling(rings: path.flattened(), rule: rule)
    }

    @Test func circleFromTwoArcsHasAreaPiRSquared() throws {
        let r = try Self.region("M 150 100 A 50 50 0 1 1 50 100 A 50 50 0 1 1 150 100 Z")
        let exact = Double.pi * 50 * 50
        #expect(abs(r.area - exact) / exact < 0.002)
        #expect(r.contains(CGPoint(x: 100, y: 100)))
        #expect(!r.contains(CGPoint(x: 60, y: 60)))  // inside the box, outside the circle
    }

    @Test func quadraticHumpFillsTwoThirdsOfItsBox() throws {
        // Peak height 50 over a base of 100: 2/3 of the 100 x 50 box. The
        // chords lie inside the convex hump, each within the 0.05 tolerance
        // of it, so the area falls short by less than 0.05 x the arc length
        // (about 148).
        let r = try Self.region("M 0 0 Q 50 100 100 0 Z")
        let exact = 2.0 / 3.0 * 100 * 50
        #expect(r.area < exact && exact - r.area < 0.05 * 148)
        #expect(abs(r.area - exact) / exact < 0.002)
        // A finer tolerance comes closer.
        var fine = try BezierPath(svgPathData: "M 0 0 Q 50 100 100 0 Z")
        fine.fillRule = .nonZero
        let fineRegion = try PolygonSet.filling(rings: fine.flattened(tolerance: 0.001), rule: .nonZero)
        #expect(exact - fineRegion.area < 0.001 * 148)
    }

    @Test func pentagramUnderBothRules() throws {
        // Outer radius R; the inner pentagon's radius is R cos72°/cos36°.
        let big = 100.0
        let points = (0 ..< 5).map { k -> CGPoint in
            let a = (-90.0 + 144.0 * Double(k)) * Double.pi / 180
            return CGPoint(x: big * cos(a), y: big * sin(a))
        }
        let d =
            "M \(points[0].x) \(points[0].y) " + points.dropFirst().map { "L \($0.x) \($0.y)" }.joined(separator: " ")
            + " Z"
        let small = big * cos(72 * Double.pi / 180) / cos(36 * Double.pi / 180)
        let star = 5 * big * small * sin(36 * Double.pi / 180)
        let pentagon = 2.5 * small * small * sin(72 * Double.pi / 180)
        let nonZero = try Self.region(d, .nonZero)
        let evenOdd = try Self.region(d, .evenOdd)
        #expect(abs(nonZero.area - star) / star < 1e-9)
        #expect(abs(evenOdd.area - (star - pentagon)) / star < 1e-9)
        #expect(nonZero.contains(.zero))
        #expect(!evenOdd.contains(.zero))
    }

    @Test(arguments: [true, false])
    func donutWithArcs(innerRunsTheOtherWay: Bool) throws {
        let sweep = innerRunsTheOtherWay ? 0 : 1
        let d =
            "M 150 100 A 50 50 0 1 1 50 100 A 50 50 0 1 1 150 100 Z "
            + "M 120 100 A 20 20 0 1 \(sweep) 80 100 A 20 20 0 1 \(sweep) 120 100 Z"
        let disc = Double.pi * 2500, hole = Double.pi * 400
        let evenOdd = try Self.region(d, .evenOdd)
        #expect(abs(evenOdd.area - (disc - hole)) / disc < 0.003)
        let nonZero = try Self.region(d, .nonZero)
        let expected = innerRunsTheOtherWay ? disc - hole : disc
        #expect(abs(nonZero.area - expected) / disc < 0.003)
        #expect(nonZero.contains(CGPoint(x: 100, y: 100)) == !innerRunsTheOtherWay)
    }

    @Test func degeneratePathsFillNothing() throws {
        for d in ["", "M 5 5", "M 0 0 L 10 10", "M 0 0 L 10 0 L 20 0 Z", "M 1 1 Z M 2 2 Z"] {
            #expect(try Self.region(d).isEmpty, "\(d)")
        }
        #expect(try Self.region("M 5 5").wkt == "POLYGON EMPTY")
    }

    @Test func hugePathsGetAnAnswer() throws {
        let r = try Self.region("M 0 0 L 1e300 0 L 1e300 1e300 Z")
        #expect(r.contains(CGPoint(x: 9e299, y: 1e299)))
        #expect(!r.contains(CGPoint(x: 1e299, y: 9e299)))
        // A simple ring is its own fill: its vertices exactly, scaled down
        // and back by a power of two.
        #expect(r.wkt == "POLYGON ((0 0, 1e+300 0, 1e+300 1e+300, 0 0))")
        // Crossing itself, it is noded by GEOS at a working scale: the
        // bow tie's two triangles meet at (5e299, 5e299), to GEOS's grid.
        let bowTie = try Self.region("M 0 0 L 1e300 0 L 0 1e300 L 1e300 1e300 Z")
        #expect(bowTie.polygonCount == 2)
        #expect(bowTie.contains(CGPoint(x: 5e299, y: 1e299)) && bowTie.contains(CGPoint(x: 5e299, y: 9e299)))
        #expect(!bowTie.contains(CGPoint(x: 1e299, y: 5e299)))
    }

    @Test func aSimpleRingIsItsOwnFill() throws {
        // Stars with rays at increasing angles never meet themselves: each
        // is its own fill under both rules, vertex for vertex (exteriors
        // counterclockwise), with its shoelace area.
        var random = SplitMix64(seed: 48)
        for _ in 0 ..< 50 {
            let n = 3 + random.int(below: 60)
            let ring = (0 ..< n).map { k -> CGPoint in
                let angle = 2 * Double.pi * (Double(k) + random.double(in: 0 ... 0.9)) / Double(n)
                let r = random.double(in: 5 ... 100)
                return CGPoint(x: 200 + r * cos(angle), y: 300 + r * sin(angle))
            }
            let area = abs(PolygonSet.signedArea(ring + [ring[0]]))
            for rule in [FillRule.nonZero, .evenOdd] {
                let fill = try PolygonSet.filling(rings: [ring], rule: rule)
                #expect(fill.polygonCount == 1 && abs(fill.area - area) <= 1e-9 * area)
                #expect(Set(fill.polygons[0][0]) == Set(ring))
            }
        }
        // A spike turning straight back over an edge is not simple: GEOS
        // nodes it, and the spike, enclosing nothing, goes.
        let spiked = try Self.region("M 0 0 L 10 0 L 10 10 L 10 5 L 0 10 Z")
        #expect(spiked.area == 75 && !spiked.polygons[0][0].contains(CGPoint(x: 10, y: 10)))
        // Two rings, even apart, still go through GEOS (nesting decides).
        let donut = try Self.region("M 0 0 L 30 0 L 30 30 L 0 30 Z M 10 10 L 10 20 L 20 20 L 20 10 Z")
        #expect(donut.area == 800 && donut.polygons[0].count == 2)
    }

    @Test func openSubpathIsFilledAsIfClosed() throws {
        #expect(try Self.region("M 0 0 L 10 0 L 10 10 L 0 10").area == 100)
    }
}
