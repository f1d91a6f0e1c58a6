import Foundation
import Testing

@testable import AXGeometry

@Suite struct FillingTests {
    /// Fills and checks that GEOS finds the result valid.
    private func fill(_ rings: [[CGPoint]], _ rule: FillRule) throws -> PolygonSet {
        try Shapes.validFill(rings, rule)
    }

    // MARK: pentagram

    /// Vertices of the regular pentagram {5/2} with circumradius R, drawn as
    /// one self-intersecting ring (every second vertex of a pentagon).
    private func pentagram(radius: Double) -> [CGPoint] {
        let pentagon = Shapes.regularPolygon(radius: radius, sides: 5, phase: Double.pi / 2)
        return [0, 2, 4, 1, 3].map { pentagon[$0] }
    }

    /// The inner pentagon's circumradius r = R cos 72° / cos 36° (= R/φ²).
    /// Star = decagon of alternating radii R, r: 10 · ½ R r sin 36°.
    /// Inner pentagon: (5/2) r² sin 72°.
    private func pentagramAreas(radius R: Double) -> (star: Double, inner: Double) {
        let deg = Double.pi / 180
        let r = R * cos(72 * deg) / cos(36 * deg)
        return (5 * R * r * sin(36 * deg), 2.5 * r * r * sin(72 * deg))
    }

    @Test func pentagramNonZeroFillsTheWholeStar() throws {
        let set = try fill([pentagram(radius: 100)], .nonZero)
        let (star, _) = pentagramAreas(radius: 100)
        #expect(approximately(set.area, star))
        #expect(set.polygonCount == 1)
        #expect(set.contains(.zero))
        #expect(set.contains(CGPoint(x: 0, y: 90)))
        #expect(!set.contains(CGPoint(x: 60, y: 60)))
    }

    @Test func pentagramEvenOddLeavesTheInnerPentagonEmpty() throws {
        let set = try fill([pentagram(radius: 100)], .evenOdd)
        let (star, inner) = pentagramAreas(radius: 100)
        #expect(approximately(set.area, star - inner))
        #expect(!set.contains(.zero))
        #expect(set.contains(CGPoint(x: 0, y: 90)))
    }

    // MARK: donut

    @Test(arguments: [false, true])
    func donutInnerRingSameDirection(evenOdd: Bool) throws {
        let outer = Shapes.regularPolygon(radius: 10, sides: 64)
        let inner = Shapes.regularPolygon(radius: 5, sides: 64)
        let set = try fill([outer, inner], evenOdd ? .evenOdd : .nonZero)
        let outerArea = Shapes.regularPolygonArea(radius: 10, sides: 64)
        let innerArea = Shapes.regularPolygonArea(radius: 5, sides: 64)
        if evenOdd {
            #expect(approximately(set.area, outerArea - innerArea))
            #expect(!set.contains(.zero))
        } else {
            // Winding 2 inside the inner ring: the whole disc is filled.
            #expect(approximately(set.area, outerArea))
            #expect(set.contains(.zero))
        }
        #expect(set.contains(CGPoint(x: 7.5, y: 0)))
    }

    @Test(arguments: [false, true])
    func donutInnerRingOppositeDirection(evenOdd: Bool) throws {
        let outer = Shapes.regularPolygon(radius: 10, sides: 64)
        let inner = Shapes.regularPolygon(radius: 5, sides: 64, clockwise: true)
        let set = try fill([outer, inner], evenOdd ? .evenOdd : .nonZero)
        let expected =
            Shapes.regularPolygonArea(radius: 10, sides: 64) - Shapes.regularPolygonArea(radius: 5, sides: 64)
        #expect(approximately(set.area, expected))
        #expect(!set.contains(.zero))
        #expect(set.contains(CGPoint(x: -7.5, y: 0)))
        #expect(set.polygonCount == 1)
    }

    // MARK: overlapping squares: A = [0,10]², B = [5,15]², overlap 25

    @Test func overlappingSquaresSameDirection() throws {
        let rings = [Shapes.square(x: 0, y: 0, size: 10), Shapes.square(x: 5, y: 5, size: 10)]
        let nonZero = try fill(rings, .nonZero)
        #expect(approximately(nonZero.area, 175))
        #expect(nonZero.contains(CGPoint(x: 7, y: 7)))
        #expect(nonZero.polygonCount == 1)
        let evenOdd = try fill(rings, .evenOdd)
        #expect(approximately(evenOdd.area, 150))
        #expect(!evenOdd.contains(CGPoint(x: 7, y: 7)))
        #expect(evenOdd.contains(CGPoint(x: 2, y: 2)))
        #expect(evenOdd.contains(CGPoint(x: 12, y: 12)))
    }

    @Test func overlappingSquaresOppositeDirection() throws {
        let rings = [Shapes.square(x: 0, y: 0, size: 10), Shapes.square(x: 5, y: 5, size: 10, clockwise: true)]
        for rule in [FillRule.nonZero, .evenOdd] {
            let set = try fill(rings, rule)
            #expect(approximately(set.area, 150))
            #expect(!set.contains(CGPoint(x: 7, y: 7)))
            #expect(set.contains(CGPoint(x: 12, y: 2 + 10)))
        }
    }

    @Test func identicalRingsTwiceOppositeCancelUnderNonZero() throws {
        let a = Shapes.square(x: 0, y: 0, size: 10)
        #expect(try fill([a, a.reversed()], .nonZero).isEmpty)
        #expect(try fill([a, a], .evenOdd).isEmpty)
        #expect(approximately(try fill([a, a], .nonZero).area, 100))
    }

    // MARK: degenerate and odd rings

    @Test func bowTieIsTwoTriangles() throws {
        let ring = [CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 10), CGPoint(x: 10, y: 0), CGPoint(x: 0, y: 10)]
        for rule in [FillRule.nonZero, .evenOdd] {
            let set = try fill([ring], rule)
            // Left triangle (0,0),(5,5),(0,10) and right (10,0),(5,5),(10,10): 25 each.
            #expect(approximately(set.area, 50))
            #expect(set.polygonCount == 2)
            #expect(set.contains(CGPoint(x: 2, y: 5)))
            #expect(set.contains(CGPoint(x: 8, y: 5)))
            #expect(!set.contains(CGPoint(x: 5, y: 2)))
        }
    }

    @Test func openPolylineIsFilledAsClosed() throws {
        let ring = [CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 0), CGPoint(x: 10, y: 10)]
        let set = try fill([ring], .nonZero)
        #expect(approximately(set.area, 50))
        #expect(set.contains(CGPoint(x: 8, y: 2)))
        #expect(!set.contains(CGPoint(x: 2, y: 8)))
    }

    @Test func explicitlyClosedAndRepeatedPointsAreHarmless() throws {
        let ring = [
            CGPoint(x: 0, y: 0), CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 0), CGPoint(x: 10, y: 0),
            CGPoint(x: 10, y: 10), CGPoint(x: 0, y: 10), CGPoint(x: 0, y: 0),
        ]
        let set = try fill([ring], .evenOdd)
        #expect(approximately(set.area, 100))
        // One closed ring of four corners, whatever vertex GEOS starts at.
        #expect(set.vertices.count == 5)
    }

    @Test func degenerateInputIsEmpty() throws {
        let point = [CGPoint(x: 3, y: 4)]
        let segment = [CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 10)]
        let collinear = [CGPoint(x: 0, y: 0), CGPoint(x: 5, y: 5), CGPoint(x: 10, y: 10)]
        let backAndForth = [CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 0), CGPoint(x: 10, y: 10), CGPoint(x: 10, y: 0)]
        let samePoint = [CGPoint(x: 1, y: 1), CGPoint(x: 1, y: 1), CGPoint(x: 1, y: 1)]
        for rule in [FillRule.nonZero, .evenOdd] {
            #expect(try PolygonSet.filling(rings: [], rule: rule) == .empty)
            #expect(try PolygonSet.filling(rings: [[]], rule: rule) == .empty)
            for ring in [point, segment, collinear, backAndForth, samePoint] {
                let set = try PolygonSet.filling(rings: [ring], rule: rule)
                #expect(set.isEmpty)
                #expect(set.area == 0)
                #expect(set.wkt == "POLYGON EMPTY")
            }
        }
    }

    @Test func degenerateRingsBesideARealOneAreIgnored() throws {
        let rings = [
            [CGPoint(x: 3, y: 3)], Shapes.square(x: 0, y: 0, size: 4),
            [CGPoint(x: 1, y: 1), CGPoint(x: 3, y: 3)],
        ]
        let set = try fill(rings, .evenOdd)
        #expect(approximately(set.area, 16))
        #expect(set.contains(CGPoint(x: 1, y: 2)))
    }

    // MARK: huge and tiny coordinates

    @Test func hugeAndTinyCoordinatesKeepTheirRelativePrecision() throws {
        for scale in [1e15, 1e100, 1e300, 1e-100, 1e-300] {
            let big = try fill([Shapes.square(x: -scale, y: -scale, size: 2 * scale)], .nonZero)
            // 4e600 is beyond Double: the area is then infinite, honestly.
            #expect(
                approximately(big.area, 4 * scale * scale, relative: 1e-9) || (scale > 1e200 && big.area == .infinity),
                "\(scale)")
            #expect(abs(big.bounds.width - 2 * scale) <= 2 * scale * 1e-12)
            #expect(big.contains(.zero))
            #expect(!big.contains(CGPoint(x: 1.5 * scale, y: 0)))
        }
        // At 1e15 the snapping grid is 2^(49−44) = 32 units: a square on that
        // grid keeps its exact area, one smaller than a cell collapses.
        let far = try fill([Shapes.square(x: 1e15 - 4096, y: 1e15 - 4096, size: 4096)], .nonZero)
        #expect(far.area == 4096 * 4096)
        #expect(far.contains(CGPoint(x: 1e15 - 4, y: 1e15 - 4)))
        #expect(try fill([Shapes.square(x: 1e15 - 8, y: 1e15 - 8, size: 8)], .nonZero).isEmpty)
    }

    @Test func nonFiniteCoordinatesThrow() {
        let notANumber = [CGPoint(x: 0, y: 0), CGPoint(x: 1, y: 0), CGPoint(x: 0, y: Double.nan)]
        #expect(throws: GeometryError.coordinateOutOfRange(ring: 0, point: 2)) {
            try PolygonSet.filling(rings: [notANumber], rule: .evenOdd)
        }
        #expect(throws: GeometryError.coordinateOutOfRange(ring: 0, point: 0)) {
            try PolygonSet.filling(rings: [[CGPoint(x: Double.infinity, y: 0)]], rule: .evenOdd)
        }
    }

    @Test func tinyShapesKeepTheirArea() throws {
        // Near the origin the snapping grid scales down with the shape.
        let tiny = try fill([Shapes.square(x: 0, y: 0, size: 1e-9)], .nonZero)
        #expect(approximately(tiny.area, 1e-18, relative: 1e-9))
        // At (1, 1) the grid is 2⁻⁴⁴ ≈ 5.7e-14: a 1e-9 square moves its
        // sides by at most half a cell.
        let offset = try fill([Shapes.square(x: 1, y: 1, size: 1e-9)], .nonZero)
        #expect(approximately(offset.area, 1e-18, relative: 1e-3))
        // A sliver triangle whose apex is 1e-9 off a base 10 long.
        let sliver = try fill([[CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 0), CGPoint(x: 5, y: 1e-9)]], .evenOdd)
        #expect(approximately(sliver.area, 5e-9, relative: 1e-3))
        // Below the grid (2⁻⁴¹ ≈ 4.5e-13 at magnitude 10) a sliver collapses.
        let collapsed = try fill([[CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 0), CGPoint(x: 5, y: 1e-14)]], .evenOdd)
        #expect(collapsed.isEmpty)
    }

    // MARK: random self-intersecting rings against brute force and GEOS

    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func randomRingsAgreeWithWindingAndGEOS(rule: FillRule) throws {
        var rng = SplitMix64(seed: rule == .nonZero ? 0x5EED_0001 : 0x5EED_0002)
        let context = try GEOSContext()
        var compared = 0
        for _ in 0 ..< 40 {
            let ringCount = Int.random(in: 1 ... 3, using: &rng)
            let rings = (0 ..< ringCount).map { _ in
                Shapes.randomRing(points: Int.random(in: 3 ... 12, using: &rng), in: 0 ... 100, using: &rng)
            }
            let set = try PolygonSet.filling(rings: rings, rule: rule, context: context)
            let geometry = try context.geometry(set)
            #expect(try context.isValid(geometry))
            for _ in 0 ..< 100 {
                let p = CGPoint(
                    x: Double.random(in: -10 ... 110, using: &rng), y: Double.random(in: -10 ... 110, using: &rng))
                guard Shapes.distanceToEdges(p, rings: rings) > 1e-6 else { continue }
                let expected = rule.fills(winding: Shapes.winding(p, rings: rings))
                #expect(set.contains(p) == expected, "point \(p) in \(rings)")
                #expect(try context.contains(geometry, context.point(p)) == expected)
                compared += 1
            }
        }
        #expect(compared > 3_500)
    }

    /// Rings on a coarse grid with sub-ulp jitter: many coincident vertices,
    /// overlapping and nearly overlapping edges, the cases float noding gets
    /// wrong.
    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func nearlyCoincidentRingsAgreeWithWinding(rule: FillRule) throws {
        var rng = SplitMix64(seed: 7)
        let context = try GEOSContext()
        var compared = 0
        for _ in 0 ..< 300 {
            let rings = (0 ..< Int.random(in: 1 ... 4, using: &rng)).map { _ in
                (0 ..< Int.random(in: 1 ... 9, using: &rng)).map { _ in
                    CGPoint(
                        x: Double(Int.random(in: 0 ... 6, using: &rng)) * 1e6
                            + Double.random(in: -1e-9 ... 1e-9, using: &rng),
                        y: Double(Int.random(in: 0 ... 6, using: &rng)) * 1e6
                            + Double.random(in: -1e-9 ... 1e-9, using: &rng))
                }
            }
            let set = try PolygonSet.filling(rings: rings, rule: rule, context: context)
            #expect(try context.isValid(context.geometry(set)))
            for _ in 0 ..< 50 {
                let p = CGPoint(
                    x: Double.random(in: -1e6 ... 7e6, using: &rng), y: Double.random(in: -1e6 ... 7e6, using: &rng))
                guard Shapes.distanceToEdges(p, rings: rings) > 1e-3 else { continue }
                #expect(set.contains(p) == rule.fills(winding: Shapes.winding(p, rings: rings)), "\(p) in \(rings)")
                compared += 1
            }
        }
        #expect(compared > 14_000)
    }

    @Test func oneContextServesManyFills() throws {
        let context = try GEOSContext()
        for k in 1 ... 20 {
            let set = try PolygonSet.filling(
                rings: [Shapes.square(x: 0, y: 0, size: Double(k))],
                rule: .nonZero, context: context)
            #expect(approximately(set.area, Double(k * k)))
        }
    }
}
