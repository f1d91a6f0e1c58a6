import Foundation
import Testing

@testable import AXGeometry

@Suite struct PolygonSetTests {
    private let square = Shapes.square(x: 0, y: 0, size: 10)

    @Test func wktOfSquaresIsExact() {
        #expect(PolygonSet(simpleRing: square).wkt == "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0))")
        // Clockwise input is stored reversed, with the positive-area orientation.
        #expect(PolygonSet(simpleRing: square.reversed()).wkt == "POLYGON ((0 10, 0 0, 10 0, 10 10, 0 10))")
        let two = PolygonSet(polygons: [
            [Shapes.square(x: 0, y: 0, size: 1)], [Shapes.square(x: 2.5, y: -3, size: 0.5)],
        ])
        #expect(two.wkt == "MULTIPOLYGON (((0 0, 1 0, 1 1, 0 1, 0 0)), ((2.5 -3, 3 -3, 3 -2.5, 2.5 -2.5, 2.5 -3)))")
        let holed = PolygonSet(polygons: [[square, Shapes.square(x: 2, y: 2, size: 2)]])
        #expect(holed.wkt == "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 2 4, 4 4, 4 2, 2 2))")
        #expect(holed.area == 96)
        #expect(PolygonSet.empty.wkt == "POLYGON EMPTY")
    }

    @Test func wktNumbersAreShortestRoundTrip() {
        #expect(PolygonSet.wktNumber(-0.0) == "0")
        #expect(PolygonSet.wktNumber(0.1) == "0.1")
        #expect(PolygonSet.wktNumber(-12.25) == "-12.25")
        #expect(PolygonSet.wktNumber(1e15) == "1000000000000000")
        #expect(Double(PolygonSet.wktNumber(1.0 / 3.0)) == 1.0 / 3.0)
        #expect(Double(PolygonSet.wktNumber(1e-7)) == 1e-7)
    }

    @Test func wktRoundTripsThroughGEOS() throws {
        let context = try GEOSContext()
        let holed = PolygonSet(polygons: [
            [square, Shapes.square(x: 2, y: 2, size: 2)],
            [Shapes.square(x: 20, y: 0.1, size: 1.0 / 3.0)],
        ])
        let back = try context.polygonSet(context.geometry(wkt: holed.wkt))
        #expect(back == holed)
        // GEOS's writer (16 decimals) is not round-trip, so compare its text
        // only where both are exact.
        let dyadic = PolygonSet(polygons: [
            [square, Shapes.square(x: 2, y: 2, size: 2)],
            [Shapes.square(x: 20, y: 0.5, size: 0.25)],
        ])
        #expect(try context.wkt(context.geometry(dyadic)) == dyadic.wkt)
    }

    @Test func simpleRingBasics() {
        let set = PolygonSet(simpleRing: square)
        #expect(set.area == 100)
        #expect(set.bounds == CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(set.polygonCount == 1)
        #expect(set.polygons == [[square + [square[0]]]])
        #expect(!set.isEmpty)
    }

    @Test func degenerateSimpleRingsAreEmpty() {
        #expect(PolygonSet(simpleRing: []).isEmpty)
        #expect(PolygonSet(simpleRing: [CGPoint(x: 1, y: 1)]).isEmpty)
        #expect(PolygonSet(simpleRing: [CGPoint(x: 0, y: 0), CGPoint(x: 1, y: 1), CGPoint(x: 2, y: 2)]).isEmpty)
        #expect(
            PolygonSet(simpleRing: [CGPoint(x: 0, y: 0), CGPoint(x: 1, y: 0), CGPoint(x: Double.nan, y: 1)]).isEmpty)
        #expect(PolygonSet(rect: CGRect(x: 0, y: 0, width: 10, height: 0)).isEmpty)
        #expect(
            PolygonSet(
                rect: CGRect(x: 0, y: 0, width: 10, height: 10),
                transform: CGAffineTransform(scaleX: 0, y: 1)
            ).isEmpty)
        #expect(PolygonSet.empty.bounds.isNull)
        #expect(!PolygonSet.empty.contains(.zero))
    }

    @Test func boundaryRuleIsClosedOpenForRects() {
        let set = PolygonSet(rect: CGRect(x: 0, y: 0, width: 10, height: 20))
        for p in [CGPoint(x: 0, y: 0), CGPoint(x: 0, y: 19.999), CGPoint(x: 9.999, y: 0), CGPoint(x: 5, y: 10)] {
            #expect(set.contains(p), "\(p)")
            #expect(CGRect(x: 0, y: 0, width: 10, height: 20).containsClosedOpen(p))
        }
        for p in [
            CGPoint(x: 10, y: 5), CGPoint(x: 5, y: 20), CGPoint(x: -0.001, y: 5), CGPoint(x: 10, y: 20),
            CGPoint(x: Double.nan, y: 5), CGPoint(x: 5, y: Double.infinity),
        ] {
            #expect(!set.contains(p), "\(p)")
        }
    }

    @Test func rotatedRectIsExact() {
        let t = CGAffineTransform(translationX: 100, y: 50).rotated(by: Double.pi / 6)
        let set = PolygonSet(rect: CGRect(x: 0, y: 0, width: 40, height: 20), transform: t)
        #expect(approximately(set.area, 800))
        #expect(set.contains(CGPoint(x: 20, y: 10).applying(t)))
        #expect(!set.contains(CGPoint(x: 41, y: 10).applying(t)))
        #expect(!set.contains(CGPoint(x: 20, y: -1).applying(t)))
    }

    @Test func applyingMapsEveryVertex() {
        let set = PolygonSet(polygons: [[square, Shapes.square(x: 2, y: 2, size: 2)]])
        let scaled = set.applying(CGAffineTransform(scaleX: 2, y: 3))
        #expect(scaled.area == set.area * 6)
        #expect(scaled.contains(CGPoint(x: 2, y: 3)))
        #expect(!scaled.contains(CGPoint(x: 6, y: 9)))
        let mirrored = set.applying(CGAffineTransform(scaleX: -1, y: 1))
        #expect(mirrored.area == set.area)
        #expect(mirrored.contains(CGPoint(x: -1, y: 1)))
        #expect(!mirrored.contains(CGPoint(x: -3, y: 3)))
        #expect(mirrored.bounds == CGRect(x: -10, y: 0, width: 10, height: 10))
        #expect(set.applying(.identity) == set)
        #expect(set.applying(CGAffineTransform(scaleX: 0, y: 0)).isEmpty)
        #expect(set.applying(CGAffineTransform(scaleX: 1e308, y: 1e308)).isEmpty)
    }

    @Test func equalSetsHashAlike() {
        // Equality is structural: the same closed rings, however given.
        let a = PolygonSet(simpleRing: square), b = PolygonSet(simpleRing: square + [square[0], square[0]])
        #expect(a == b)
        #expect(Set([a, b]).count == 1)
        #expect(a != PolygonSet(simpleRing: Shapes.square(x: 0, y: 0, size: 11)))
    }

    @Test func manyEdgesUseManyStripes() {
        let circle = Shapes.regularPolygon(center: CGPoint(x: 50, y: 50), radius: 40, sides: 1000)
        let set = PolygonSet(simpleRing: circle)
        #expect(set.stripes.stripeCount > 100)
        // A stripe holds a few edges, not all of them.
        let widest =
            (0 ..< set.stripes.stripeCount).map {
                set.stripes.stripeStarts[$0 + 1] - set.stripes.stripeStarts[$0]
            }.max() ?? 0
        #expect(widest < 40)
    }

    /// Containment with the stripe index against brute-force even-odd over
    /// the same rings, for simple star-shaped rings, holes and combs (whose
    /// long teeth exercise the stripe budget).
    @Test func containmentAgreesWithBruteForce() {
        var rng = SplitMix64(seed: 42)
        var shapes: [[[CGPoint]]] = []
        for _ in 0 ..< 20 {
            let n = Int.random(in: 3 ... 400, using: &rng)
            let ring = (0 ..< n).map { k -> CGPoint in
                let angle = 2 * Double.pi * Double(k) / Double(n)
                let r = Double.random(in: 10 ... 50, using: &rng)
                return CGPoint(x: 50 + r * cos(angle), y: 50 + r * sin(angle))
            }
            shapes.append([ring, Shapes.regularPolygon(center: CGPoint(x: 50, y: 50), radius: 5, sides: 17)])
        }
        var comb: [CGPoint] = [CGPoint(x: 0, y: 0), CGPoint(x: 100, y: 0)]
        for tooth in stride(from: 99, through: 1, by: -2) {
            comb += [
                CGPoint(x: Double(tooth), y: 100), CGPoint(x: Double(tooth - 1), y: 100),
                CGPoint(x: Double(tooth - 1), y: 1), CGPoint(x: Double(tooth - 2), y: 1),
            ]
        }
        comb.removeLast()
        shapes.append([comb])
        for rings in shapes {
            let set = PolygonSet(polygons: [rings])
            #expect(set.stripes.edges.count <= 8 * set.vertices.count + 64)
            for _ in 0 ..< 500 {
                let p = CGPoint(
                    x: Double.random(in: -5 ... 105, using: &rng), y: Double.random(in: -5 ... 105, using: &rng))
                guard Shapes.distanceToEdges(p, rings: rings) > 1e-9 else { continue }
                #expect(set.contains(p) == (Shapes.winding(p, rings: rings) & 1 != 0), "\(p)")
            }
        }
    }
}
