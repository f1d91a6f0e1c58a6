import Foundation
import Testing

@testable import AXGeometry

/// Rings that meet nowhere are filled from their nesting, without GEOS
/// (`PolygonSet.fillingNested(_:rule:)`): areas and pieces worked out by
/// hand, vertices kept exactly (GEOS's snap rounding would move a third),
/// and sampled points against winding numbers counted independently.
@Suite struct NestedFillTests {
    /// Fills and checks that GEOS finds the result valid.
    private func fill(_ rings: [[CGPoint]], _ rule: FillRule) throws -> PolygonSet {
        try Shapes.validFill(rings, rule)
    }

    /// A square with one inside it: even-odd and opposite windings leave
    /// a frame of 100 − 16; non-zero with one winding fills the square.
    @Test func aSquareInASquare() throws {
        let outer = Shapes.square(x: 0, y: 0, size: 10), inner = Shapes.square(x: 3, y: 3, size: 4)
        let frame = try fill([outer, inner], .evenOdd)
        #expect(frame.area == 84 && frame.polygonCount == 1 && frame.ringCount == 2)
        #expect(!frame.contains(pt(5, 5)) && frame.contains(pt(1, 5)))
        let whole = try fill([outer, inner], .nonZero)
        #expect(whole.area == 100 && whole.ringCount == 1 && whole.contains(pt(5, 5)))
        let opposite = try fill([outer, Shapes.square(x: 3, y: 3, size: 4, clockwise: true)], .nonZero)
        #expect(opposite.area == 84 && opposite.ringCount == 2)
    }

    /// Three nested squares (10, 6, 2, one winding): even-odd makes a frame
    /// and an island, 100 − 36 + 4 = 68 in two pieces; non-zero the square.
    /// The island's ring lies inside a hole, so it is an exterior of its own.
    @Test func threeNestedSquaresMakeAFrameAndAnIsland() throws {
        let rings = [
            Shapes.square(x: 0, y: 0, size: 10), Shapes.square(x: 2, y: 2, size: 6), Shapes.square(x: 4, y: 4, size: 2),
        ]
        let evenOdd = try fill(rings, .evenOdd)
        #expect(evenOdd.area == 68 && evenOdd.polygonCount == 2)
        #expect(evenOdd.contains(pt(1, 1)) && !evenOdd.contains(pt(3, 3)) && evenOdd.contains(pt(5, 5)))
        let nonZero = try fill(rings, .nonZero)
        #expect(nonZero.area == 100 && nonZero.polygonCount == 1 && nonZero.ringCount == 1)
    }

    /// Side by side, and two holes in one square: the holes belong to the
    /// square that holds them.
    @Test func separateRingsAndTwoHoles() throws {
        let apart = try fill([Shapes.square(x: 0, y: 0, size: 2), Shapes.square(x: 5, y: 0, size: 3)], .evenOdd)
        #expect(apart.area == 13 && apart.polygonCount == 2)
        let holes = try fill(
            [
                Shapes.square(x: 0, y: 0, size: 10), Shapes.square(x: 1, y: 1, size: 2),
                Shapes.square(x: 6, y: 6, size: 3),
            ],
            .evenOdd)
        #expect(holes.area == 100 - 4 - 9 && holes.polygonCount == 1 && holes.ringCount == 3)
    }

    /// Off the snap-rounding grid (thirds), the vertices come back exactly
    /// as given: the rings were filled from their nesting, not noded.
    @Test func verticesStayAsGiven() throws {
        let third = 1.0 / 3
        let outer = Shapes.regularPolygon(center: pt(50 + third, 50), radius: 40 + third, sides: 7)
        let inner = Shapes.regularPolygon(center: pt(50 + third, 50), radius: 20 + third, sides: 5)
        let set = try fill([outer, inner], .evenOdd)
        let given = Set(outer + inner)
        let kept = Set(set.polygons.flatMap { $0.flatMap { $0 } })
        #expect(kept == given)
        let area =
            Shapes.regularPolygonArea(radius: 40 + third, sides: 7)
            - Shapes.regularPolygonArea(radius: 20 + third, sides: 5)
        #expect(abs(set.area - area) <= 1e-9 * area)
    }

    /// Random nests of star-shaped rings, each of random winding, in
    /// separate places: every sampled point is in the fill exactly when
    /// its winding number, counted ring by ring, is filled by the rule.
    @Test func randomNestsAgreeWithWindingNumbers() throws {
        var rng = SplitMix64(seed: 0x4E57)
        var checked = 0, inside = 0
        for _ in 0 ..< 60 {
            var rings: [[CGPoint]] = []
            for c in 0 ..< Int.random(in: 1 ... 3, using: &rng) {
                let center = pt(Double(c) * 120 + 60, 60)
                // Radii bands that never overlap: ring k's vertices lie
                // within [40 − 12k, 50 − 12k], its edges beyond 0.99 of the
                // least (24 or more vertices), so above the next band's 38 − 12k.
                for k in 0 ..< Int.random(in: 1 ... 4, using: &rng) {
                    let n = Int.random(in: 24 ... 40, using: &rng)
                    let top = 50 - 12 * Double(k)
                    var ring = (0 ..< n).map { i -> CGPoint in
                        let angle = 2 * Double.pi * Double(i) / Double(n)
                        let r = Double.random(in: top - 10 ... top, using: &rng)
                        return pt(Double(center.x) + r * cos(angle), Double(center.y) + r * sin(angle))
                    }
                    if Bool.random(using: &rng) { ring.reverse() }
                    rings.append(ring)
                }
            }
            for rule in [FillRule.evenOdd, .nonZero] {
                let set = try fill(rings, rule)
                for _ in 0 ..< 200 {
                    let p = pt(Double.random(in: 0 ... 360, using: &rng), Double.random(in: 0 ... 120, using: &rng))
                    let expected = rule.fills(winding: Shapes.winding(p, rings: rings))
                    #expect(set.contains(p) == expected, "\(p) \(rule)")
                    checked += 1
                    if expected { inside += 1 }
                }
            }
        }
        // Not vacuous: both answers were asked for many times.
        #expect(checked == 24_000 && inside > 3_000 && checked - inside > 3_000)
    }
}
