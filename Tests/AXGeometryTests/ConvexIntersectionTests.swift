import Foundation
import Testing

@testable import AXGeometry

/// Convex polygons cut by clipping, against GEOS's intersection and the
/// definition (a point is in both).
@Suite struct ConvexIntersectionTests {
    @Test func whichSetsAreConvex() {
        #expect(PolygonSet(simpleRing: [pt(0, 0), pt(10, 0), pt(5, 8)]).isConvexPolygon)
        // Either way round, and with a straight run's extra vertex.
        #expect(PolygonSet(simpleRing: [pt(0, 0), pt(0, 10), pt(10, 10), pt(10, 5), pt(10, 0)]).isConvexPolygon)
        #expect(
            !PolygonSet(simpleRing: [pt(0, 0), pt(20, 0), pt(20, 10), pt(10, 10), pt(10, 20), pt(0, 20)])
                .isConvexPolygon)
        let holed = PolygonSet(polygons: [
            [Shapes.square(x: 0, y: 0, size: 100), Shapes.square(x: 40, y: 40, size: 20)]
        ])
        #expect(!holed.isConvexPolygon)
        let two = PolygonSet(polygons: [[Shapes.square(x: 0, y: 0, size: 10)], [Shapes.square(x: 20, y: 0, size: 10)]])
        #expect(!two.isConvexPolygon && !PolygonSet.empty.isConvexPolygon)
    }

    /// The union's area by slabs: hand cases, then random heaps of turned
    /// quads (sharing edges, nested, apart) against GEOS's union.
    @Test func unionAreaOfConvexPolygons() throws {
        let square = PolygonSet(rect: CGRect(x: -1, y: -1, width: 2, height: 2))
        #expect(PolygonSet.unionArea(ofConvex: []) == 0)
        #expect(PolygonSet.unionArea(ofConvex: [square]) == 4)
        // Half over: 1.5 squares; the same one twice: one.
        let half = PolygonSet(rect: CGRect(x: 0, y: -1, width: 2, height: 2))
        #expect(abs(PolygonSet.unionArea(ofConvex: [square, half]) - 6) < 1e-12)
        #expect(abs(PolygonSet.unionArea(ofConvex: [square, square]) - 4) < 1e-12)
        // The square and itself turned 45° about its centre: they share a
        // regular octagon of inradius 1, 8 tan(π/8) = 8(√2 - 1).
        let turned = PolygonSet(
            rect: CGRect(x: -1, y: -1, width: 2, height: 2), transform: CGAffineTransform(rotationAngle: .pi / 4))
        let octagram = 8 - 8 * (2.0.squareRoot() - 1)
        #expect(abs(PolygonSet.unionArea(ofConvex: [square, turned]) - octagram) < 1e-12)
        // Edge to edge, and apart: the sum.
        let right = PolygonSet(rect: CGRect(x: 1, y: -1, width: 2, height: 2))
        let far = PolygonSet(rect: CGRect(x: 50, y: 50, width: 3, height: 1))
        #expect(abs(PolygonSet.unionArea(ofConvex: [square, right, far]) - 11) < 1e-12)

        let builder = try RegionBuilder()
        var random = SplitMix64(seed: 45)
        for round in 0 ..< 300 {
            let count = 1 + round % 12
            let quads = (0 ..< count).map { _ in
                let t = CGAffineTransform(translationX: random.double(in: 0 ... 40), y: random.double(in: 0 ... 40))
                    .rotated(
                        by: round % 3 == 0
                            ? Double(random.double(in: 0 ... 4).rounded()) * .pi / 2 : random.double(in: -3.2 ... 3.2))
                return PolygonSet(
                    rect: CGRect(
                        x: random.double(in: -10 ... 10).rounded(), y: random.double(in: -10 ... 10).rounded(),
                        width: random.double(in: 1 ... 30).rounded(.up),
                        height: random.double(in: 1 ... 30).rounded(.up)),
                    transform: t)
            }
            let geos = try builder.union(quads).area
            let slabs = PolygonSet.unionArea(ofConvex: quads)
            #expect(abs(slabs - geos) <= 1e-9 * max(1, geos), "round \(round): \(slabs) against \(geos)")
        }
    }

    @Test func turnedQuadsAgreeWithGEOS() throws {
        let builder = try RegionBuilder()
        var random = SplitMix64(seed: 49)
        var shared = 0, apart = 0
        for _ in 0 ..< 400 {
            func quad() -> PolygonSet {
                let t = CGAffineTransform(translationX: random.double(in: 0 ... 60), y: random.double(in: 0 ... 60))
                    .rotated(by: random.double(in: -3.2 ... 3.2))
                    .scaledBy(x: random.double(in: 0.5 ... 2), y: random.double(in: 0.5 ... 2))
                return PolygonSet(
                    rect: CGRect(
                        x: random.double(in: -10 ... 10), y: random.double(in: -10 ... 10),
                        width: random.double(in: 5 ... 40), height: random.double(in: 5 ... 40)),
                    transform: t)
            }
            let a = quad(), b = quad()
            #expect(a.isConvexPolygon && b.isConvexPolygon)
            let clipped = a.convexIntersection(b)
            let geos = try builder.intersection(a, b)
            #expect(abs(clipped.area - geos.area) <= 1e-9 * max(1, a.area), "\(a.wkt) ∩ \(b.wkt)")
            if clipped.isEmpty { apart += 1 } else { shared += 1 }
            #expect(clipped.isEmpty || clipped.isConvexPolygon)
            for _ in 0 ..< 40 {
                let p = random.point(in: -80 ... 160)
                let inBoth = a.contains(p) && b.contains(p)
                // Off the edges by a margin, where rounding cannot decide.
                let margin = Shapes.distanceToEdges(p, rings: a.polygons[0] + b.polygons[0])
                if margin > 1e-6 { #expect(clipped.contains(p) == inBoth) }
            }
        }
        #expect(shared > 100 && apart > 50, "shared \(shared), apart \(apart)")
        // A quad inside a rect's edge: touching along it shares no area.
        let left = PolygonSet(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
        let right = PolygonSet(rect: CGRect(x: 10, y: 0, width: 10, height: 10))
        #expect(left.convexIntersection(right).isEmpty)
        let diamond = PolygonSet(simpleRing: [pt(5, 0), pt(10, 5), pt(5, 10), pt(0, 5)])
        #expect(abs(left.convexIntersection(diamond).area - 50) < 1e-12)
    }
}
