import Foundation
import Testing

@testable import AXGeometry

@Suite struct SVGPathParserTests {
    typealias E = BezierPath.Element

    // MARK: Commands

    @Test func absoluteMoveLineClose() {
        #expect(parse("M10 20L30 40Z")?.elements == [.move(to: pt(10, 20)), .line(to: pt(30, 40)), .closeSubpath])
    }

    @Test func relativeLinesAndAxisLines() {
        // (10,20) +(5,5) -> (15,25); h5 -> (20,25); v-10 -> (20,15); H0 -> (0,15); V3 -> (0,3).
        #expect(
            parse("m10 20l5 5h5v-10H0V3")?.elements == [
                .move(to: pt(10, 20)), .line(to: pt(15, 25)), .line(to: pt(20, 25)),
                .line(to: pt(20, 15)), .line(to: pt(0, 15)), .line(to: pt(0, 3)),
            ])
    }

    @Test func implicitRepeatsAfterMoveAreLines() {
        #expect(
            parse("M0 0 10 10 20 0")?.elements == [.move(to: pt(0, 0)), .line(to: pt(10, 10)), .line(to: pt(20, 0))])
        // After m the pairs are relative lines: (1,1) then (1,1)+(2,2).
        #expect(parse("m1 1 2 2")?.elements == [.move(to: pt(1, 1)), .line(to: pt(3, 3))])
        #expect(
            parse("M0 0h1 2 3")?.elements == [
                .move(to: pt(0, 0)), .line(to: pt(1, 0)), .line(to: pt(3, 0)), .line(to: pt(6, 0)),
            ])
    }

    @Test func implicitRepeatedCurves() {
        #expect(
            parse("M0 0C1 1 2 2 3 3 4 4 5 5 6 6")?.elements == [
                .move(to: pt(0, 0)),
                .curve(to: pt(3, 3), control1: pt(1, 1), control2: pt(2, 2)),
                .curve(to: pt(6, 6), control1: pt(4, 4), control2: pt(5, 5)),
            ])
        // Relative: each repeat is relative to the end of the previous curve.
        #expect(
            parse("M1 1c1 0 1 1 2 2 1 0 1 1 2 2")?.elements == [
                .move(to: pt(1, 1)),
                .curve(to: pt(3, 3), control1: pt(2, 1), control2: pt(2, 2)),
                .curve(to: pt(5, 5), control1: pt(4, 3), control2: pt(4, 4)),
            ])
        #expect(parse("M0 0q1 2 3 4")?.elements == [.move(to: pt(0, 0)), .quadCurve(to: pt(3, 4), control: pt(1, 2))])
    }

    @Test func oddNumberForms() {
        // ".5.5" is two numbers; "-5-5" too; relative from (.5,.5).
        #expect(parse("M.5.5l-5-5")?.elements == [.move(to: pt(0.5, 0.5)), .line(to: pt(-4.5, -4.5))])
        #expect(parse("M+3-2")?.elements == [.move(to: pt(3, -2))])
        #expect(parse("M1e-3 2E+2")?.elements == [.move(to: pt(0.001, 200))])
        #expect(parse("M5.5.5 1.2 3.")?.elements == [.move(to: pt(5.5, 0.5)), .line(to: pt(1.2, 3))])
        #expect(parse("M5. .5")?.elements == [.move(to: pt(5, 0.5))])
        #expect(parse("M0.1 0.3")?.elements == [.move(to: pt(0.1, 0.3))])
        #expect(parse("M-0 007")?.elements == [.move(to: pt(0, 7))])
    }

    @Test func separatorsAnywhereTheGrammarAllows() {
        #expect(
            parse("  \n\tM 1 , 2  L3,4\r\n 5 ,6 \u{0C}")?.elements == [
                .move(to: pt(1, 2)), .line(to: pt(3, 4)), .line(to: pt(5, 6)),
            ])
        #expect(parse("M1,2,3,4")?.elements == [.move(to: pt(1, 2)), .line(to: pt(3, 4))])
    }

    @Test func emptyDataIsTheEmptyPath() {
        #expect(parse("")?.isEmpty == true)
        #expect(parse(" \n\t ")?.isEmpty == true)
    }

    @Test func numbersMatchTheStandardLibrary() {
        // The fast path must round exactly like Double(String) on every form.
        var rng = SplitMix64(seed: 42)
        for _ in 0 ..< 3000 {
            var text = rng.int(below: 2) == 0 ? "" : "-"
            let intDigits = rng.int(below: 22), fracDigits = rng.int(below: 22)
            for _ in 0 ..< intDigits { text += String(rng.int(below: 10)) }
            if fracDigits > 0 || intDigits == 0 {
                text += "."
                for _ in 0 ..< Swift.max(fracDigits, 1) { text += String(rng.int(below: 10)) }
            }
            if rng.int(below: 3) == 0 { text += "e" + String(rng.int(below: 60) - 30) }
            let expected = Double(text) ?? .nan
            guard let path = parse("M\(text) 0"), case let .move(p)? = path.elements.first else {
                Issue.record("did not parse \(text)")
                continue
            }
            #expect(Double(p.x).bitPattern == expected.bitPattern, "\(text)")
        }
    }

    // MARK: Subpaths and Z

    @Test func drawingAfterCloseStartsAtSubpathStart() {
        // After z the current point is (10,10); l5 5 draws from there in a new subpath.
        #expect(
            parse("M10 10l10 0l0 10zl5 5")?.elements == [
                .move(to: pt(10, 10)), .line(to: pt(20, 10)), .line(to: pt(20, 20)), .closeSubpath,
                .move(to: pt(10, 10)), .line(to: pt(15, 15)),
            ])
        #expect(
            parse("M0 0L1 0Z M5 5L6 6")?.elements == [
                .move(to: pt(0, 0)), .line(to: pt(1, 0)), .closeSubpath, .move(to: pt(5, 5)), .line(to: pt(6, 6)),
            ])
        // m after z is relative to the subpath start too.
        #expect(parse("M10 10L20 20zm1 1")?.elements.last == .move(to: pt(11, 11)))
        #expect(parse("M0 0L1 0ZZz")?.elements == [.move(to: pt(0, 0)), .line(to: pt(1, 0)), .closeSubpath])
    }

    // MARK: Reflections (hand-computed)

    @Test func smoothCubicReflectsPreviousSecondControl() {
        // c1 = 2*(20,20) - (20,10) = (20,30).
        #expect(
            parse("M0 0C10 0 20 10 20 20S30 40 40 40")?.elements.last
                == .curve(to: pt(40, 40), control1: pt(20, 30), control2: pt(30, 40)))
        #expect(
            parse("M0 0c10 0 20 10 20 20s10 20 20 20")?.elements.last
                == .curve(to: pt(40, 40), control1: pt(20, 30), control2: pt(30, 40)))
        // S after S reflects the previous S's second control: 2*(40,40) - (30,40) = (50,40).
        #expect(
            parse("M0 0C10 0 20 10 20 20S30 40 40 40S60 50 60 60")?.elements.last
                == .curve(to: pt(60, 60), control1: pt(50, 40), control2: pt(60, 50)))
    }

    @Test func smoothCubicWithoutPreviousCubicUsesCurrentPoint() {
        #expect(
            parse("M0 0L10 0S20 10 30 0")?.elements.last
                == .curve(to: pt(30, 0), control1: pt(10, 0), control2: pt(20, 10)))
        // A quadratic is not a cubic: no reflection.
        #expect(
            parse("M0 0Q5 5 10 0S20 5 30 0")?.elements.last
                == .curve(to: pt(30, 0), control1: pt(10, 0), control2: pt(20, 5)))
        #expect(
            parse("M0 0S20 10 30 0")?.elements.last
                == .curve(to: pt(30, 0), control1: pt(0, 0), control2: pt(20, 10)))
    }

    @Test func smoothQuadReflectsPreviousControl() {
        // T control = 2*(20,0) - (10,20) = (30,-20); next = 2*(40,0) - (30,-20) = (50,20).
        #expect(
            parse("M0 0Q10 20 20 0T40 0T60 0")?.elements == [
                .move(to: pt(0, 0)), .quadCurve(to: pt(20, 0), control: pt(10, 20)),
                .quadCurve(to: pt(40, 0), control: pt(30, -20)), .quadCurve(to: pt(60, 0), control: pt(50, 20)),
            ])
        #expect(parse("M0 0q10 20 20 0t20 0")?.elements.last == .quadCurve(to: pt(40, 0), control: pt(30, -20)))
        #expect(parse("M0 0L10 0T20 0")?.elements.last == .quadCurve(to: pt(20, 0), control: pt(10, 0)))
        #expect(parse("M0 0C1 1 2 2 10 0T20 0")?.elements.last == .quadCurve(to: pt(20, 0), control: pt(10, 0)))
    }

    // MARK: Arcs

    @Test func arcFlagsWithoutSeparators() throws {
        // From (0,0) to (1,1), r = 1, large 0, sweep 0: centre (1,0), a 90° arc from angle π to π/2.
        let path = try #require(parse("M0 0a1 1 0 001 1"))
        #expect(path == parse("M0 0A1,1,0,0,0,1,1"))
        #expect(path.elements.count == 2)
        guard case let .curve(to, c1, c2)? = path.elements.last else {
            Issue.record("not a curve")
            return
        }
        #expect(to == pt(1, 1))
        let mid = cubicPoint(pt(0, 0), c1, c2, to, 0.5)
        #expect(abs(distance(mid, pt(1, 0)) - 1) < 1e-3)
        // The midpoint of this arc lies at angle 3π/4 about (1,0).
        #expect(near(mid, pt(1 - sqrt(0.5), sqrt(0.5)), 1e-3))
        // Flags packed against a following coordinate: "a1 1 0 1 1 1 1" written "a1 1 0 111 1".
        #expect(parse("M0 0a1 1 0 111 1") == parse("M0 0a1 1 0 1 1 1 1"))
    }

    @Test func semicircleHandChecked() throws {
        // (0,0) to (100,0), r = 50, sweep 1 (increasing angle, clockwise on screen):
        // centre (50,0), from angle π through 3π/2 (the point (50,-50)) to 2π.
        let path = try #require(parse("M0 0A50 50 0 0 1 100 0"))
        #expect(path.elements.count == 3)
        let k = 4.0 / 3.0 * tan(Double.pi / 8) * 50
        guard case let .curve(to1, a1, a2) = path.elements[1], case let .curve(to2, b1, b2) = path.elements[2] else {
            Issue.record("expected two cubics")
            return
        }
        #expect(near(to1, pt(50, -50), 1e-9))
        #expect(to2 == pt(100, 0))
        // Control points on the tangents, k·r from the ends.
        #expect(near(a1, pt(0, -k), 1e-9) && near(a2, pt(50 - k, -50), 1e-9))
        #expect(near(b1, pt(50 + k, -50), 1e-9) && near(b2, pt(100, -k), 1e-9))
        for (p0, c1, c2, p3) in [(pt(0, 0), a1, a2, to1), (to1, b1, b2, to2)] {
            let mid = cubicPoint(p0, c1, c2, p3, 0.5)
            #expect(abs(distance(mid, pt(50, 0)) / 50 - 1) < 1e-3)
        }
    }

    @Test func radiiTooSmallAreScaledUp() throws {
        // r = 1 cannot span 100: scaled to 50 (F.6.6), the semicircle above.
        let small = try #require(parse("M0 0A1 1 0 0 1 100 0"))
        let exact = try #require(parse("M0 0A50 50 0 0 1 100 0"))
        #expect(small.elements.count == exact.elements.count)
        for (a, b) in zip(small.elements, exact.elements) {
            guard case let .curve(p, c1, c2) = a, case let .curve(q, d1, d2) = b else { continue }
            #expect(near(p, q, 1e-9) && near(c1, d1, 1e-9) && near(c2, d2, 1e-9))
        }
        // Negative radii count as positive (F.6.6.1).
        #expect(parse("M0 0A-50 -50 0 0 1 100 0") == exact)
    }

    @Test func degenerateArcs() {
        // A zero radius is a straight line; equal end points omit the arc.
        #expect(parse("M0 0A0 5 0 0 1 10 10")?.elements == [.move(to: pt(0, 0)), .line(to: pt(10, 10))])
        #expect(parse("M5 5A10 10 0 0 1 5 5")?.elements == [.move(to: pt(5, 5))])
        #expect(parse("M5 5a10 10 0 0 1 0 0L6 6")?.elements == [.move(to: pt(5, 5)), .line(to: pt(6, 6))])
    }

    @Test func largeArcFlagTakesTheLongWay() throws {
        // Same chord and radius, large arc: 270° in three segments.
        let path = try #require(parse("M0 0A1 1 0 1 0 1 1"))
        #expect(path.elements.count == 4)
        #expect(path.elements.last?.endPoint == pt(1, 1))
        // Large arc with sweep 0 picks the other centre (0,1); every segment end lies on that circle.
        for e in path.elements {
            if let p = e.endPoint { #expect(abs(distance(p, pt(0, 1)) - 1) < 1e-9) }
        }
    }

    @Test func rotatedEllipseArcLiesOnTheEllipse() throws {
        let c = pt(100, 50), rx: CGFloat = 30, ry: CGFloat = 10, phi = 30.0 * Double.pi / 180
        func onEllipse(_ t: CGFloat) -> CGPoint {
            let x = rx * cos(t), y = ry * sin(t)
            return pt(c.x + cos(phi) * x - sin(phi) * y, c.y + sin(phi) * x + cos(phi) * y)
        }
        // |((p - c) rotated by -φ) / (rx, ry)|² - 1
        func residual(_ p: CGPoint) -> CGFloat {
            let dx = p.x - c.x, dy = p.y - c.y
            let u = cos(phi) * dx + sin(phi) * dy, v = -sin(phi) * dx + cos(phi) * dy
            return (u / rx) * (u / rx) + (v / ry) * (v / ry) - 1
        }
        let a = onEllipse(0.3), b = onEllipse(2.0)
        // 1.7 rad in the increasing direction is the small arc: large 0, sweep 1.
        // The complement (large 1, sweep 0) runs on the same ellipse.
        for flags in ["0 1", "1 0"] {
            let path = try #require(parse("M\(a.x) \(a.y)A30 10 30 \(flags) \(b.x) \(b.y)"))
            #expect(path.elements.last?.endPoint == b)
            var previous = a
            for e in path.elements.dropFirst() {
                guard case let .curve(p, c1, c2) = e else {
                    Issue.record("not a curve")
                    continue
                }
                #expect(abs(residual(p)) < 1e-9)
                for t in stride(from: 0.1, to: 1.0, by: 0.1) {
                    #expect(abs(residual(cubicPoint(previous, c1, c2, p, t))) < 2e-3)
                }
                previous = p
            }
            for ring in path.flattened() { for p in ring { #expect(abs(residual(p)) < 2e-3) } }
        }
        // The small arc passes through the ellipse point at the middle angle.
        let small = try #require(parse("M\(a.x) \(a.y)A30 10 30 0 1 \(b.x) \(b.y)"))
        let ring = small.flattened(tolerance: 0.001)[0]
        #expect(distance(onEllipse(1.15), toPolyline: ring) < 0.01)
    }

    // MARK: Errors

    @Test func syntaxErrorsNameOffsetAndExpectation() {
        #expect(parseError("M 10") == .pathSyntax(offset: 4, expected: "number", found: "end of data"))
        #expect(parseError("L 1 2") == .pathSyntax(offset: 0, expected: "moveto command (M or m)", found: "\"L\""))
        #expect(parseError("  z") == .pathSyntax(offset: 2, expected: "moveto command (M or m)", found: "\"z\""))
        #expect(parseError("M 1 2 X") == .pathSyntax(offset: 6, expected: "command or number", found: "\"X\""))
        #expect(parseError("M 1e 2") == .pathSyntax(offset: 4, expected: "exponent digits", found: "\" \""))
        #expect(parseError("M 1 2,") == .pathSyntax(offset: 6, expected: "number", found: "end of data"))
        #expect(parseError("M 1 2, L 3 4") == .pathSyntax(offset: 7, expected: "number", found: "\"L\""))
        #expect(parseError("M 1 2 L,3 4") == .pathSyntax(offset: 7, expected: "number", found: "\",\""))
        #expect(parseError("M 1,,2") == .pathSyntax(offset: 4, expected: "number", found: "\",\""))
        #expect(parseError("M1 2Z 3") == .pathSyntax(offset: 6, expected: "command", found: "\"3\""))
        #expect(parseError("M -") == .pathSyntax(offset: 3, expected: "digit", found: "end of data"))
        #expect(parseError("M .x") == .pathSyntax(offset: 3, expected: "digit", found: "\"x\""))
        #expect(parseError("M0 0A1 1 0 2 0 3 3") == .pathSyntax(offset: 11, expected: "flag (0 or 1)", found: "\"2\""))
        #expect(parseError("M0 0L1 2 é") == .pathSyntax(offset: 9, expected: "command or number", found: "\"é\""))
        #expect(parseError("M1 2\u{0}") == .pathSyntax(offset: 4, expected: "command or number", found: "\"\\0\""))
    }

    @Test func errorOffsetsCountUnicodeScalars() {
        // Multi-byte scalars are reported whole, at their scalar offset.
        #expect(parseError("éM0 0") == .pathSyntax(offset: 0, expected: "moveto command (M or m)", found: "\"é\""))
        #expect(parseError("M0 0 😀") == .pathSyntax(offset: 5, expected: "command or number", found: "\"😀\""))
    }

    @Test func nonFiniteNumbers() {
        #expect(parseError("M1e999 0") == .nonFiniteCoordinate(offset: 1))
        #expect(parseError("M0 0L1 -1e400") == .nonFiniteCoordinate(offset: 7))
        // Finite numbers whose relative sum overflows.
        #expect(parseError("M1e308 0l1e308 0") == .nonFiniteCoordinate(offset: 9))
        #expect(parseError("M0 1e308h1 v1e308") == .nonFiniteCoordinate(offset: 12))
        // Tiny numbers underflow to zero, which is fine.
        #expect(parse("M1e-999 0")?.elements == [.move(to: pt(0, 0))])
        #expect(parse("M1e99999999999999999999999-1e-99999999999999999") == nil)
    }

    @Test func neverTrapsOnRandomData() {
        // Random strings over the grammar's alphabet: each either parses or throws.
        let alphabet = Array("MmLlHhVvCcSsQqTtAaZz0123456789.,+-eE \n01é".unicodeScalars)
        var rng = SplitMix64(seed: 7)
        var parsed = 0
        for _ in 0 ..< 20_000 {
            var s = String.UnicodeScalarView()
            if rng.int(below: 2) == 0 { s.append("M") }
            for _ in 0 ..< rng.int(below: 40) { s.append(alphabet[rng.int(below: alphabet.count)]) }
            let text = String(s)
            guard let path = parse(text) else { continue }
            parsed += 1
            // Whatever parses, serializes back to the same elements.
            #expect(parse(path.svgPathData) == path, "\(text)")
            _ = path.flattened()
        }
        #expect(parsed > 100)
    }

    @Test func parsedCoordinatesAreAlwaysFinite() {
        // Extreme tokens: whatever parses holds only finite coordinates
        // (overflowing sums throw; arcs that would overflow become lines).
        let tokens = [
            "M", "m", "A", "a", "C", "c", "Q", "q", "S", "s", "T", "t", "L", "l", "H", "v", "Z",
            "0", "1", "-1", "1e308", "-1e308", "1e-308", "5e-324", "0.5", ".5", "3", "1e300", "1e-300",
            ",", " ", "1.7976931348623157e308", "1", "0", "2", "1e308", "-1e308", "1e300",
        ]
        var rng = SplitMix64(seed: 99)
        var parsed = 0
        for _ in 0 ..< 20_000 {
            var text = "M"
            for _ in 0 ..< rng.int(below: 30) {
                text += tokens[rng.int(below: tokens.count)]
                if rng.int(below: 2) == 0 { text += " " }
            }
            guard let path = parse(text) else { continue }
            parsed += 1
            for e in path.elements {
                let points: [CGPoint]
                switch e {
                case let .move(p), let .line(p): points = [p]
                case let .quadCurve(p, c): points = [p, c]
                case let .curve(p, c1, c2): points = [p, c1, c2]
                case .closeSubpath: points = []
                }
                #expect(points.allSatisfy { $0.x.isFinite && $0.y.isFinite }, "\(text)")
            }
            let bounds = path.controlPointBounds
            if bounds.isNull || Swift.max(abs(bounds.minX), abs(bounds.maxX), abs(bounds.minY), abs(bounds.maxY)) < 1e4
            {
                _ = path.flattened()
            }
        }
        #expect(parsed > 100)
    }
}
