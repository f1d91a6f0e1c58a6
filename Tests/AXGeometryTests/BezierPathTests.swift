import Foundation
import Testing

@testable import AXGeometry

@Suite struct BezierPathTests {
    // MARK: Builders

    @Test func builderKeepsSubpathsNormalised() {
        var path = BezierPath()
        #expect(path.isEmpty && path.currentPoint == nil && path.fillRule == .nonZero)
        path.addLine(to: pt(1, 1))  // no current point: starts a subpath there
        path.addLine(to: pt(5, 1))
        path.closeSubpath()
        path.closeSubpath()  // nothing open: no-op
        #expect(path.currentPoint == pt(1, 1))
        path.addQuadCurve(to: pt(9, 9), controlPoint: pt(5, 9))  // after a close: moves back first
        path.addCurve(to: pt(0, 0), controlPoint1: pt(1, 2), controlPoint2: pt(3, 4))
        #expect(
            path.elements == [
                .move(to: pt(1, 1)), .line(to: pt(5, 1)), .closeSubpath,
                .move(to: pt(1, 1)), .quadCurve(to: pt(9, 9), control: pt(5, 9)),
                .curve(to: pt(0, 0), control1: pt(1, 2), control2: pt(3, 4)),
            ])
        #expect(path.currentPoint == pt(0, 0))
    }

    @Test func rectPathRunsClockwiseOnScreen() {
        let path = BezierPath(rect: CGRect(x: 10, y: 20, width: -4, height: 5))  // standardised
        #expect(
            path.elements == [
                .move(to: pt(6, 20)), .line(to: pt(10, 20)), .line(to: pt(10, 25)), .line(to: pt(6, 25)), .closeSubpath,
            ])
        #expect(BezierPath(rect: .null).isEmpty)
    }

    @Test func ovalIsFourQuarterCubics() throws {
        let rect = CGRect(x: 0, y: 0, width: 200, height: 100)
        let path = BezierPath(ovalIn: rect)
        #expect(path.elements.count == 6)
        #expect(path.elements.first == .move(to: pt(200, 50)))
        #expect(path.elements[4].endPoint == pt(200, 50))  // closes exactly where it started
        #expect(path.elements.last == .closeSubpath)
        // Clockwise on screen: the first quarter ends at the bottom (midX, maxY).
        #expect(path.elements[1].endPoint == pt(100, 100))
        #expect(path.elements[2].endPoint == pt(0, 50))
        #expect(path.elements[3].endPoint == pt(100, 0))
        // Each quarter's midpoint lies on the ellipse (within the cubic's 2.7e-4 error).
        var start = pt(200, 50)
        for e in path.elements[1 ... 4] {
            guard case let .curve(p, c1, c2) = e else { continue }
            let m = cubicPoint(start, c1, c2, p, 0.5)
            let u = (m.x - 100) / 100, v = (m.y - 50) / 50
            #expect(abs(u * u + v * v - 1) < 1e-3)
            start = p
        }
        // Standard quarter: control at k = 0.5522847498 of the radius along the tangent.
        guard case let .curve(_, c1, c2) = path.elements[1] else {
            Issue.record("no curve")
            return
        }
        #expect(near(c1, pt(200, 50 + 0.5522847498307936 * 50), 1e-9))
        #expect(near(c2, pt(100 + 0.5522847498307936 * 100, 100), 1e-9))
        #expect(path.controlPointBounds == rect)
    }

    @Test func addArcFollowsUIKitAngles() throws {
        // Clockwise (increasing angle): 0 to π/2 is one quarter through the lower right on screen.
        var quarter = BezierPath()
        quarter.addArc(withCenter: pt(0, 0), radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        #expect(quarter.elements.count == 2 && quarter.elements[0] == .move(to: pt(10, 0)))
        guard case let .curve(end, c1, c2) = quarter.elements[1] else {
            Issue.record("no curve")
            return
        }
        #expect(near(end, pt(0, 10), 1e-12))
        let mid = cubicPoint(pt(10, 0), c1, c2, end, 0.5)
        #expect(near(mid, pt(10 * sqrt(0.5), 10 * sqrt(0.5)), 1e-2) && abs(distance(mid, .zero) - 10) < 1e-2)

        // Anticlockwise the other way round: 270° through (0,-10).
        var long = BezierPath()
        long.addArc(withCenter: pt(0, 0), radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        #expect(long.elements.count == 4)
        #expect(near(try #require(long.elements[1].endPoint), pt(0, -10), 1e-12))

        // As CoreGraphics: 0 to 2π clockwise is the full circle, anticlockwise nothing.
        var full = BezierPath()
        full.addArc(withCenter: pt(5, 5), radius: 2, startAngle: 0, endAngle: 2 * .pi, clockwise: true)
        #expect(full.elements.count == 5)
        #expect(near(try #require(full.elements.last?.endPoint), pt(7, 5), 1e-12))
        var none = BezierPath()
        none.addArc(withCenter: pt(5, 5), radius: 2, startAngle: 0, endAngle: 2 * .pi, clockwise: false)
        #expect(none.elements == [.move(to: pt(7, 5))])

        // With a current point, a line joins it to the arc's start.
        var joined = BezierPath()
        joined.move(to: pt(0, 0))
        joined.addArc(withCenter: pt(20, 0), radius: 10, startAngle: .pi, endAngle: 0, clockwise: true)
        #expect(joined.elements[0] == .move(to: pt(0, 0)))
        guard case let .line(lineEnd) = joined.elements[1] else {
            Issue.record("no line")
            return
        }
        #expect(near(lineEnd, pt(10, 0), 1e-12))
        #expect(near(try #require(joined.elements.last?.endPoint), pt(30, 0), 1e-12))
        #expect(joined.elements.count == 4)
    }

    // MARK: Geometry

    @Test func applyingMapsEveryControlPointExactly() throws {
        let path = try BezierPath(svgPathData: "M1 2L3 4Q5 6 7 8C9 10 11 12 13 14Z")
        // Rotation by 90° written exactly: (x,y) -> (-y, x), then moved by (100, 0).
        let t = CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 100, ty: 0)
        var evenOdd = path
        evenOdd.fillRule = .evenOdd
        let mapped = evenOdd.applying(t)
        #expect(
            mapped
                == BezierPath(
                    elements: try BezierPath(
                        svgPathData:
                            "M98 1L96 3Q94 5 92 7C90 9 88 11 86 13Z"
                    ).elements, fillRule: .evenOdd))
        // Applying twice is applying the concatenation.
        let t2 = CGAffineTransform(a: 2, b: 0.5, c: -1, d: 3, tx: 7, ty: -4)
        let twice = path.applying(t).applying(t2), once = path.applying(t.concatenating(t2))
        for (a, b) in zip(twice.elements, once.elements) {
            #expect(near(a.endPoint ?? .zero, b.endPoint ?? .zero, 1e-12))
        }
    }

    @Test func controlPointBoundsIncludesControls() throws {
        let path = try BezierPath(svgPathData: "M0 0C10 -5 20 30 5 5")
        #expect(path.controlPointBounds == CGRect(x: 0, y: -5, width: 20, height: 35))
        #expect(BezierPath().controlPointBounds.isNull)
    }

    // MARK: Serialization

    @Test func svgPathDataUsesShortestNumbers() throws {
        let path = try BezierPath(svgPathData: "M10 10 L20 .5Q1e-5-1e20 0.1-0C1 2 3 4 5 6z")
        #expect(path.svgPathData == "M10 10L20 0.5Q1e-5 -1e20 0.1 0C1 2 3 4 5 6Z")
        #expect(BezierPath.svgNumber(1.0 / 3) == "0.3333333333333333")
        #expect(BezierPath.svgNumber(-2.5e-300) == "-2.5e-300")
        #expect(BezierPath.svgNumber(123456789012345678) == "1.2345678901234568e17")
        #expect(BezierPath().svgPathData == "")
    }

    @Test func svgPathDataRoundTrips() throws {
        var rng = SplitMix64(seed: 2024)
        func coordinate() -> CGFloat {
            // Mixed magnitudes, so every number form is exercised.
            let v = rng.double(in: -1 ... 1) * pow(10, rng.double(in: -8 ... 20).rounded())
            return rng.int(below: 4) == 0 ? v.rounded() : v
        }
        func point() -> CGPoint { CGPoint(x: coordinate(), y: coordinate()) }
        for _ in 0 ..< 300 {
            var path = BezierPath()
            for _ in 0 ..< rng.int(below: 12) {
                switch rng.int(below: 7) {
                case 0: path.move(to: point())
                case 1: path.addLine(to: point())
                case 2: path.addQuadCurve(to: point(), controlPoint: point())
                case 3: path.addCurve(to: point(), controlPoint1: point(), controlPoint2: point())
                case 4: path.closeSubpath()
                case 5:
                    path.addArc(
                        withCenter: point(), radius: abs(coordinate()),
                        startAngle: rng.double(in: -7 ... 7), endAngle: rng.double(in: -7 ... 7),
                        clockwise: rng.int(below: 2) == 0)
                default:
                    path.elements.append(
                        contentsOf: BezierPath(ovalIn: CGRect(origin: point(), size: CGSize(width: 3, height: 4)))
                            .elements)
                }
            }
            let text = path.svgPathData
            #expect(try BezierPath(svgPathData: text) == path, "\(text)")
        }
    }
}
