import Foundation
import Testing

@testable import AXGeometry

@Suite struct FlatteningTests {
    // MARK: Rings

    @Test func oneRingPerSubpathWithoutClosingPoint() throws {
        let path = try BezierPath(svgPathData: "M0 0L10 0L10 10Z M20 20L30 20L30 30L20 20")
        #expect(
            path.flattened() == [
                [pt(0, 0), pt(10, 0), pt(10, 10)],
                [pt(20, 20), pt(30, 20), pt(30, 30)],
            ])
    }

    @Test func duplicatesMergedDegenerateRingsKept() throws {
        #expect(try BezierPath(svgPathData: "M0 0L0 0L5 0L5 0L5 5").flattened() == [[pt(0, 0), pt(5, 0), pt(5, 5)]])
        #expect(try BezierPath(svgPathData: "M1 1").flattened() == [[pt(1, 1)]])
        #expect(try BezierPath(svgPathData: "M1 1M2 2L3 3").flattened() == [[pt(1, 1)], [pt(2, 2), pt(3, 3)]])
        #expect(try BezierPath(svgPathData: "M1 1L1 1Z").flattened() == [[pt(1, 1)]])
        #expect(BezierPath().flattened().isEmpty)
    }

    @Test func drawingAfterCloseStartsANewRingAtTheStart() throws {
        let rings = try BezierPath(svgPathData: "M0 0L10 0L0 10ZL-10 0L0 -10").flattened()
        #expect(rings == [[pt(0, 0), pt(10, 0), pt(0, 10)], [pt(0, 0), pt(-10, 0), pt(0, -10)]])
        // Hand-assigned elements without a move: the first element starts the ring at its end.
        let raw = BezierPath(elements: [.line(to: pt(5, 5)), .line(to: pt(6, 6)), .closeSubpath, .line(to: pt(7, 7))])
        #expect(raw.flattened() == [[pt(5, 5), pt(6, 6)], [pt(5, 5), pt(7, 7)]])
    }

    // MARK: Tolerance

    @Test(arguments: [0.05, 0.5, 0.005] as [CGFloat])
    func randomQuadsStayWithinTolerance(tolerance: CGFloat) {
        var rng = SplitMix64(seed: 11)
        for _ in 0 ..< 40 {
            let p0 = rng.point(in: -300 ... 300), p1 = rng.point(in: -300 ... 300), p2 = rng.point(in: -300 ... 300)
            var path = BezierPath()
            path.move(to: p0)
            path.addQuadCurve(to: p2, controlPoint: p1)
            let rings = path.flattened(tolerance: tolerance)
            #expect(rings.count == 1)
            // The ring is open here: the closing edge is not part of the curve.
            let polyline = rings[0]
            #expect(polyline.first == p0 && polyline.last == p2)
            var worst: CGFloat = 0
            for i in 0 ... 1000 {
                let q = quadPoint(p0, p1, p2, CGFloat(i) / 1000)
                worst = Swift.max(worst, distance(q, toPolyline: polyline))
            }
            #expect(worst <= tolerance + 1e-9)
        }
    }

    @Test(arguments: [0.05, 0.5, 0.005] as [CGFloat])
    func randomCubicsStayWithinTolerance(tolerance: CGFloat) {
        var rng = SplitMix64(seed: 12)
        for _ in 0 ..< 40 {
            let p0 = rng.point(in: -300 ... 300), p1 = rng.point(in: -300 ... 300)
            let p2 = rng.point(in: -300 ... 300), p3 = rng.point(in: -300 ... 300)
            var path = BezierPath()
            path.move(to: p0)
            path.addCurve(to: p3, controlPoint1: p1, controlPoint2: p2)
            let polyline = path.flattened(tolerance: tolerance)[0]
            #expect(polyline.first == p0 && polyline.last == p3)
            var worst: CGFloat = 0
            for i in 0 ... 1000 {
                let q = cubicPoint(p0, p1, p2, p3, CGFloat(i) / 1000)
                worst = Swift.max(worst, distance(q, toPolyline: polyline))
            }
            #expect(worst <= tolerance + 1e-9)
            // The other direction: every chord's midpoint is near the curve too.
            let dense = (0 ... 4000).map { cubicPoint(p0, p1, p2, p3, CGFloat($0) / 4000) }
            for i in 1 ..< polyline.count {
                let mid = pt((polyline[i - 1].x + polyline[i].x) / 2, (polyline[i - 1].y + polyline[i].y) / 2)
                #expect(distance(mid, toPolyline: dense) <= tolerance + 0.05)
            }
        }
    }

    @Test func fullCircleFromTwoArcsStaysOnTheCircle() throws {
        let c = pt(100, 200), r: CGFloat = 40
        let path = try BezierPath(svgPathData: "M60 200A40 40 0 1 0 140 200A40 40 0 1 0 60 200Z")
        let rings = path.flattened()
        #expect(rings.count == 1)
        let ring = rings[0]
        #expect(ring.count > 16)
        // Vertices lie on the cubics, which stay within 2.7e-4·r of the circle;
        // chords dip inside by at most the tolerance.
        for (i, p) in ring.enumerated() {
            #expect(abs(distance(p, c) - r) <= 3e-4 * r)
            let q = ring[(i + 1) % ring.count]
            let mid = pt((p.x + q.x) / 2, (p.y + q.y) / 2)
            #expect(r - distance(mid, c) <= BezierPath.defaultFlatteningTolerance + 3e-4 * r)
        }
    }

    // MARK: Segment counts

    @Test func straightCubicIsOneSegment() {
        var path = BezierPath()
        path.move(to: pt(0, 0))
        path.addCurve(to: pt(30, 60), controlPoint1: pt(10, 20), controlPoint2: pt(20, 40))
        #expect(path.flattened() == [[pt(0, 0), pt(30, 60)]])
        var quad = BezierPath()
        quad.move(to: pt(0, 0))
        quad.addQuadCurve(to: pt(10, 0), controlPoint: pt(5, 0))
        #expect(quad.flattened() == [[pt(0, 0), pt(10, 0)]])
    }

    @Test func segmentsGrowAsInverseSquareRootOfTolerance() {
        var path = BezierPath()
        path.move(to: pt(0, 0))
        path.addCurve(to: pt(300, 0), controlPoint1: pt(0, 300), controlPoint2: pt(300, 300))
        let coarse = path.flattened(tolerance: 0.05)[0].count - 1
        let fine = path.flattened(tolerance: 0.005)[0].count - 1
        let ratio = Double(fine) / Double(coarse)
        #expect(abs(ratio - sqrt(10)) < 0.1, "\(coarse) -> \(fine)")
    }

    @Test func quarterCircleUsesNearTheMinimumChordCount() {
        // The fewest chords of a quarter circle with sagitta <= tol: each chord spans
        // at most 2·acos(1 - tol/r). The bound used should be within 1.5x of that.
        let r: CGFloat = 100, tol: CGFloat = 0.05
        var path = BezierPath()
        path.addArc(withCenter: .zero, radius: r, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        let chords = path.flattened(tolerance: tol)[0].count - 1
        let minimum = Int(((CGFloat.pi / 2) / (2 * acos(1 - tol / r))).rounded(.up))
        #expect(chords >= minimum && Double(chords) <= 1.5 * Double(minimum), "\(chords) vs \(minimum)")
    }

    // MARK: Hostile input

    @Test func hugeAndNonFiniteCoordinatesTerminate() {
        var huge = BezierPath()
        huge.move(to: pt(0, 0))
        huge.addCurve(to: pt(1, 1), controlPoint1: pt(1e300, -1e300), controlPoint2: pt(-1e300, 1e300))
        let ring = huge.flattened()[0]
        #expect(ring.count <= BezierPath.maximumSegmentsPerCurve + 1)
        var nan = BezierPath()
        nan.move(to: pt(0, 0))
        nan.addQuadCurve(to: pt(.nan, 1), controlPoint: pt(.infinity, 0))
        nan.addCurve(to: pt(1, 1), controlPoint1: pt(.nan, .nan), controlPoint2: pt(0, 0))
        #expect(nan.flattened().count == 1)
        // A nonsense tolerance means the default.
        #expect(huge.flattened(tolerance: 0) == huge.flattened())
        #expect(huge.flattened(tolerance: -.nan) == huge.flattened())
    }

    // MARK: Linear work and the point budget

    /// Issue #16: one subpath of 300,000 curves took 112 s to hit-test,
    /// because each curve reserved the ring's exact new size (a
    /// reallocation per curve). Each curve here, `(x,0) (x+1,1) (x+2,1)
    /// (x+3,0)`, has both second differences `(0, -1)`, so Wang's formula
    /// gives `⌈√(3·1 / (4·0.05))⌉ = ⌈√15⌉ = 4` chords: 1 + 4 × 300,000 points.
    /// A quadratic flattener takes minutes here, not a fraction of a second.
    @Test func threeHundredThousandCurvesInOneSubpathFlattenToFourPointsEach() {
        let curves = 300_000
        var path = BezierPath()
        path.move(to: pt(0, 0))
        for k in 0 ..< curves {
            let x = CGFloat(3 * k)
            path.addCurve(to: pt(x + 3, 0), controlPoint1: pt(x + 1, 1), controlPoint2: pt(x + 2, 1))
        }
        #expect(path.flattenedPointCount() == 1 + 4 * curves)
        let rings = path.flattened()
        #expect(rings.count == 1)
        #expect(rings[0].count == 1 + 4 * curves)
        // The last curve's chord ends are points 4k + 1 ... 4k + 4; its
        // middle one is B(1/2) = (x + 1.5, 0.75).
        let x = CGFloat(3 * (curves - 1))
        #expect(near(rings[0][4 * curves - 2], pt(x + 1.5, 0.75)))
        #expect(rings[0].last == pt(x + 3, 0))
    }

    @Test func pointCountIsWhatFlatteningMakesWithoutRepeats() throws {
        for d in [
            "", "M1 1", "M0 0L10 0L10 10Z", "M0 0Q50 100 100 0ZL-10 0", "M0 0C0 100 100 100 100 0L50 -50Z",
            "M0 0A40 40 0 1 1 80 0A40 40 0 1 1 0 1ZM200 200h10v10z",
        ] {
            let path = try BezierPath(svgPathData: d)
            #expect(path.flattenedPointCount() == path.flattened().reduce(0) { $0 + $1.count }, "\(d)")
        }
        // A subpath that returns to its start drops that last point.
        #expect(try BezierPath(svgPathData: "M0 0L1 0L1 1L0 0").flattenedPointCount() == 4)
        #expect(try BezierPath(svgPathData: "M0 0L1 0L1 1L0 0").flattened() == [[pt(0, 0), pt(1, 0), pt(1, 1)]])
        // Elements with no current point start a ring at their end, one point.
        let raw = BezierPath(elements: [
            .curve(to: pt(5, 5), control1: pt(0, 9), control2: pt(9, 0)), .line(to: pt(6, 6)),
            .closeSubpath, .quadCurve(to: pt(7, 7), control: pt(7, 7)),
        ])
        #expect(raw.flattenedPointCount() == raw.flattened().reduce(0) { $0 + $1.count })
        // Merged repeats make the count an upper bound.
        #expect(try BezierPath(svgPathData: "M0 0L0 0L1 1").flattenedPointCount() == 3)
    }

    @Test func overThePointBudgetIsRefusedBeforeFlattening() throws {
        // 65 curves at the per-curve cap: 1 + 65 × 65,536 points, over the
        // 4,194,304 budget; counting costs 65 steps, not 4M points.
        var path = BezierPath()
        path.move(to: pt(0, 0))
        for _ in 0 ..< 65 { path.addCurve(to: pt(0, 0), controlPoint1: pt(1e12, 1e12), controlPoint2: pt(-1e12, 1e12)) }
        let count = 1 + 65 * BezierPath.maximumSegmentsPerCurve
        #expect(
            throws: GeometryError.overBudget(.flattenedPoints, count: count, limit: BezierPath.maximumFlattenedPoints)
        ) {
            try path.flattened(maximumPoints: BezierPath.maximumFlattenedPoints)
        }
        #expect(throws: GeometryError.overBudget(.flattenedPoints, count: 4, limit: 3)) {
            try BezierPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1)).flattened(maximumPoints: 3)
        }
        #expect(
            try BezierPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1)).flattened(maximumPoints: 4)
                == [[pt(0, 0), pt(1, 0), pt(1, 1), pt(0, 1)]])
        let error = GeometryError.overBudget(.flattenedPoints, count: count, limit: BezierPath.maximumFlattenedPoints)
        #expect(
            error.description == "path too complex: it flattens to 4259841 points, over the budget of 4194304 "
                + "(BezierPath.maximumFlattenedPoints)")
    }
}

@Suite struct HostileArcTests {
    @Test func hugeRadiusArcOverATinyChordStaysSmall() throws {
        // A radius of 1e300 over a chord of 1 is a straight line to any precision.
        let path = try BezierPath(svgPathData: "M0 0A1e300 1e300 0 0 1 1 0")
        let rings = path.flattened()
        #expect(rings.count == 1)
        #expect(rings[0].count <= 4)
        for p in rings[0] { #expect(distance(p, toSegment: pt(0, 0), pt(1, 0)) < 1e-6) }
        let tiny = try BezierPath(svgPathData: "M0 0A1e-300 1e-300 0 0 1 1 0")  // scaled up: a semicircle of radius 0.5
        for p in tiny.flattened()[0] { #expect(abs(distance(p, pt(0.5, 0)) - 0.5) < 1e-3) }
    }
}
