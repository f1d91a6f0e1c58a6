import Foundation
import Testing

@testable import AXGeometry

/// The largest inscribed circle against radii computed by hand, and its
/// budgets on slivers, many pieces and extreme magnitudes.
@Suite struct InscribedCircleTests {
    /// Checks what holds whether or not the search converged: the centre is
    /// inside and the radius is its distance to the boundary.
    private func circle(_ set: PolygonSet, tolerance: Double = 0.01) throws -> (center: CGPoint, radius: Double) {
        let circle = try #require(set.largestInscribedCircle(tolerance: tolerance))
        #expect(set.contains(circle.center))
        let rings = set.polygons.flatMap { $0 }
        let d = Shapes.distanceToEdges(circle.center, rings: rings)
        #expect(abs(d - circle.radius) <= 1e-9 * max(1, d))
        return circle
    }

    @Test func rectangleHalfItsShortSide() throws {
        let c = try circle(PolygonSet(rect: CGRect(x: 0, y: 0, width: 30, height: 10)))
        #expect(abs(c.radius - 5) <= 0.01)
        #expect(abs(c.center.y - 5) <= 0.01)
    }

    @Test func aRectangleRingIsAnsweredInClosedForm() throws {
        // A 1000 × 40 strip with extra vertices along its edges (as a union
        // of cells leaves them): its centre and half its short side, exactly,
        // where the search would stop anywhere on the midline.
        let strip = PolygonSet(simpleRing: [
            pt(0, 0), pt(250, 0), pt(1000, 0), pt(1000, 40), pt(600, 40), pt(0, 40), pt(0, 20),
        ])
        #expect(strip.isBoundsRectangle)
        let c = try circle(strip)
        #expect(c.center == pt(500, 20) && c.radius == 20)
        // Three of the corners make a triangle, not the rectangle; an L has a
        // vertex off the bounds' edges; two rectangles are two rings.
        #expect(!PolygonSet(simpleRing: [pt(0, 0), pt(10, 0), pt(10, 10)]).isBoundsRectangle)
        #expect(
            !PolygonSet(simpleRing: [pt(0, 0), pt(20, 0), pt(20, 10), pt(10, 10), pt(10, 20), pt(0, 20)])
                .isBoundsRectangle)
        let two = PolygonSet(polygons: [
            [[pt(0, 0), pt(10, 0), pt(10, 10), pt(0, 10)]], [[pt(20, 0), pt(30, 0), pt(30, 10), pt(20, 10)]],
        ])
        #expect(!two.isBoundsRectangle)
    }

    @Test func aSetOfPiecesIsAnsweredByItsBestPiece() throws {
        // An L in bounds 20 × 20 (largest radius 10(2 − √2) ≈ 5.858), a
        // 12 × 12 square (6) and a strip 11 × 100 (5.5). The L's bounds are
        // widest, but the square holds the largest circle, exactly.
        let l = [pt(0, 0), pt(20, 0), pt(20, 10), pt(10, 10), pt(10, 20), pt(0, 20)]
        let square = [pt(100, 0), pt(112, 0), pt(112, 12), pt(100, 12)]
        let strip = [pt(200, 0), pt(211, 0), pt(211, 100), pt(200, 100)]
        let set = PolygonSet(polygons: [[l], [strip], [square]])
        let c = try circle(set)
        #expect(c.center == pt(106, 6) && c.radius == 6)
        #expect(set.holdsCircle(radius: 6) && !set.holdsCircle(radius: 6.05))
        // Without the square, the L's circle wins over the strip's 5.5.
        let c2 = try circle(PolygonSet(polygons: [[strip], [l]]))
        let r = 10 * (2 - 2.0.squareRoot())
        #expect(c2.radius <= r + 1e-9 && r - c2.radius <= 0.01)
    }

    @Test func holdsCircleAnswersTheLargestCircleQuestion() throws {
        // The L of lShapeTouchesTwoWallsAndTheInnerCorner: largest radius
        // 10(2 − √2) ≈ 5.858.
        let l = PolygonSet(simpleRing: [pt(0, 0), pt(20, 0), pt(20, 10), pt(10, 10), pt(10, 20), pt(0, 20)])
        #expect(l.holdsCircle(radius: 5.8))
        #expect(!l.holdsCircle(radius: 5.9))
        #expect(l.holdsCircle(radius: 5))
        #expect(!l.holdsCircle(radius: 11))
        // A hairline 390 × 1 holds a circle of 0.5 and nothing wider.
        let hairline = PolygonSet(simpleRing: [pt(0, 0), pt(390, 0), pt(390, 1), pt(200, 1), pt(0, 1)])
        #expect(hairline.holdsCircle(radius: 0.5) && !hairline.holdsCircle(radius: 0.51))
        // A comb of 2-wide teeth on a 1-tall spine (not a rectangle): a
        // tooth's circle has radius 1, found by the search.
        // (Radius 1 at best: in a tooth, or where a tooth meets the spine,
        // a centre 1 above the spine's floor is 1 from the inner corners.)
        var comb = [pt(0, 0), pt(100, 0), pt(100, 1)]
        for x in stride(from: 96.0, through: 0, by: -4) { comb += [pt(x + 2, 1), pt(x + 2, 11), pt(x, 11), pt(x, 1)] }
        comb.append(pt(0, 1))
        let teeth = PolygonSet(simpleRing: comb)
        #expect(!teeth.isBoundsRectangle)
        #expect(teeth.holdsCircle(radius: 0.99) && !teeth.holdsCircle(radius: 1.02))
        #expect(!PolygonSet.empty.holdsCircle(radius: 1))
    }

    @Test func aStripThatIsNotARectangleIsNotCrawled() throws {
        // 1000 × 10 with a 2 × 2 notch in its floor: every point of the
        // midline away from the notch is 5 from the boundary. On `d + h√2`
        // alone the search split cells along the whole midline down to the
        // tolerance (the 16,384-cell budget, spent, short of the answer);
        // the mean distance to the two long edges, 5 everywhere between
        // them, ends it once a circle on the midline is found. What is left
        // is the square cells' way down to the strip, some 20 per 10 × 10
        // of it.
        let notched = PolygonSet(simpleRing: [
            pt(0, 0), pt(500, 0), pt(500, 2), pt(502, 2), pt(502, 0), pt(1000, 0), pt(1000, 10), pt(0, 10),
        ])
        let (found, cells) = notched.largestInscribedCircleCounted()
        let c = try #require(found)
        #expect(c.radius <= 5 + 1e-9 && 5 - c.radius <= 0.01)
        #expect(notched.contains(c.center))
        #expect(cells <= 3000, "cells: \(cells)")
        // A cross of two strips 10 wide: the circle at the middle touches
        // the four inner corners, radius 5√2; the arms' midlines (5) are
        // not crawled either.
        var cross: [CGPoint] = []
        for (x, y) in [(95.0, 0.0), (105, 0), (105, 95), (200, 95), (200, 105), (105, 105), (105, 200), (95, 200)] {
            cross.append(pt(x, y))
        }
        cross += [pt(95, 105), pt(0, 105), pt(0, 95), pt(95, 95)]
        let (crossFound, crossCells) = PolygonSet(simpleRing: cross).largestInscribedCircleCounted()
        let r = 5 * 2.0.squareRoot()
        let cc = try #require(crossFound)
        #expect(cc.radius <= r + 1e-9 && r - cc.radius <= 0.01)
        #expect(crossCells <= 600, "cells: \(crossCells)")
    }

    @Test func pixelShapesAgreeWithAFineGrid() throws {
        // Random unions of grid cells (rectilinear, with holes and pieces
        // touching at corners), against the best of a 0.25-spaced grid of
        // points: the search's circle is at least as large, less the
        // tolerance (and no larger than the grid's best plus its spacing's
        // reach, 0.25/√2).
        var random = SplitMix64(seed: 45)
        var checked = 0
        for _ in 0 ..< 24 {
            let n = 6
            var faces: [[[CGPoint]]] = []
            for j in 0 ..< n {
                for i in 0 ..< n where random.next() % 3 != 0 {
                    let x = Double(i) * 4, y = Double(j) * 4
                    faces.append([[pt(x, y), pt(x + 4, y), pt(x + 4, y + 4), pt(x, y + 4), pt(x, y)]])
                }
            }
            let set = PolygonSet.dissolving(faces: faces)
            guard !set.isEmpty else { continue }
            let rings = set.polygons.flatMap { $0 }
            var gridBest = 0.0
            for yi in 0 ... 4 * 4 * n {
                for xi in 0 ... 4 * 4 * n {
                    let p = pt(Double(xi) * 0.25, Double(yi) * 0.25)
                    if set.contains(p) { gridBest = max(gridBest, Shapes.distanceToEdges(p, rings: rings)) }
                }
            }
            let c = try circle(set)
            #expect(c.radius >= gridBest - 0.01)
            #expect(c.radius <= gridBest + 0.25 / 2.0.squareRoot() + 1e-9)
            checked += 1
        }
        #expect(checked >= 18)
    }

    @Test func regularPolygonItsApothem() throws {
        let n = 256
        let set = PolygonSet(simpleRing: Shapes.regularPolygon(center: pt(7, -3), radius: 50, sides: n))
        let c = try circle(set, tolerance: 0.001)
        let apothem = 50 * cos(Double.pi / Double(n))
        #expect(c.radius <= apothem + 1e-9 && apothem - c.radius <= 0.001)
    }

    @Test func lShapeTouchesTwoWallsAndTheInnerCorner() throws {
        // [0,20]×[0,10] ∪ [0,10]×[0,20]: a circle at (r, r) touching x = 0,
        // y = 0 and the corner (10, 10) has √2(10 − r) = r, r = 10(2 − √2).
        // Asked for 1e-4, searched to the relative floor, 20 × 1e-4.
        let set = PolygonSet(simpleRing: [pt(0, 0), pt(20, 0), pt(20, 10), pt(10, 10), pt(10, 20), pt(0, 20)])
        let c = try circle(set, tolerance: 0.0001)
        let r = 10 * (2 - 2.0.squareRoot())
        #expect(c.radius <= r + 1e-9 && r - c.radius <= 20 * PolygonSet.inscribedCircleRelativeTolerance)
    }

    @Test func squareWithAHoleUsesACorner() throws {
        // 100 × 100 less the middle 20 × 20: between the walls (a strip 40
        // wide) a circle has 20; in a corner, touching two walls and the
        // hole's corner (40, 40), √2(40 − r) = r, r = 40(2 − √2) ≈ 23.4.
        let set = PolygonSet(polygons: [[Shapes.square(x: 0, y: 0, size: 100), Shapes.square(x: 40, y: 40, size: 20)]])
        let c = try circle(set)
        let r = 40 * (2 - 2.0.squareRoot())
        #expect(c.radius <= r + 1e-9 && r - c.radius <= 0.01)
    }

    @Test func emptySetHasNone() {
        #expect(PolygonSet.empty.largestInscribedCircle() == nil)
        // A nonsense tolerance means the default.
        let unit = PolygonSet(rect: CGRect(x: 0, y: 0, width: 1, height: 1))
        for tolerance in [0, -1, .nan, .infinity] as [Double] {
            #expect(abs((unit.largestInscribedCircle(tolerance: tolerance)?.radius ?? 0) - 0.5) <= 0.01)
        }
    }

    @Test func aLongSliverNeedsFewCells() throws {
        // GEOS 3.11 starts from a grid of square cells as wide as the short
        // side: a million of them here. The search starts from one.
        let c = try circle(PolygonSet(rect: CGRect(x: 0, y: 0, width: 1e6, height: 1)))
        #expect(abs(c.radius - 0.5) <= 0.01)
    }

    @Test func theToleranceGrowsWithTheRegion() throws {
        // 1e6 across: searched to 1e-4 × 1e6 = 100, whatever was asked.
        let c = try circle(PolygonSet(rect: CGRect(x: 0, y: 0, width: 1e6, height: 5e5)), tolerance: 1e-12)
        #expect(c.radius <= 2.5e5 && 2.5e5 - c.radius <= 100)
    }

    @Test func manyEqualPiecesStayWithinTheCellBudget() throws {
        // 3,000 strips 1 wide: every strip's middle ties, so the cells run
        // out before the search can prove its answer. The circle is still
        // inside (checked by `circle`), and the seeds (a scan line's widest
        // span, then the span across it) start it at a strip's middle.
        let strips = (0 ..< 3000).map {
            [
                [
                    pt(Double($0) * 2, 0), pt(Double($0) * 2 + 1, 0), pt(Double($0) * 2 + 1, 100),
                    pt(Double($0) * 2, 100),
                ]
            ]
        }
        let c = try circle(PolygonSet(polygons: strips))
        #expect(c.radius <= 0.5 + 1e-12 && c.radius >= 0.5 - 0.01)
    }

    @Test(arguments: [1e300, 1e-300, 1e60, 1e-60])
    func extremeMagnitudesScale(scale: Double) throws {
        let set = PolygonSet(rect: CGRect(x: 0, y: 0, width: 30 * scale, height: 10 * scale))
        let c = try #require(set.largestInscribedCircle())
        #expect(abs(c.radius / scale - 5) <= 0.01)
        #expect(set.contains(c.center))
    }
}
