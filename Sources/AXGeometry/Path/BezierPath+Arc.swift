import Foundation

extension BezierPath {
    /// Adds a circular arc as `UIBezierPath.addArc(withCenter:radius:startAngle:endAngle:clockwise:)`
    /// does: a line from the current point to the arc's start (a move when
    /// there is no current point), then cubic Béziers of at most 90° each.
    ///
    /// Angles are in radians from the positive x axis; a point of the arc is
    /// `center + radius * (cos θ, sin θ)`. `clockwise` means increasing angle,
    /// which is clockwise on screen (y down), as in UIKit. As CoreGraphics (and
    /// the HTML canvas modelled on it): going clockwise, a difference
    /// `endAngle - startAngle` of 2π or more is the full circle, and otherwise
    /// the arc runs from the start angle to the end angle in the given
    /// direction (so 0 to 2π anticlockwise draws nothing). O(1).
    public mutating func addArc(
        withCenter center: CGPoint, radius: CGFloat,
        startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool
    ) {
        let fullTurn = 2 * CGFloat.pi
        let delta = endAngle - startAngle
        var sweep: CGFloat
        if clockwise {
            sweep = delta >= fullTurn ? fullTurn : Self.positiveRemainder(delta, fullTurn)
        } else {
            sweep = -delta >= fullTurn ? -fullTurn : -Self.positiveRemainder(-delta, fullTurn)
        }
        if !sweep.isFinite { sweep = 0 }
        let start = CGPoint(x: center.x + radius * cos(startAngle), y: center.y + radius * sin(startAngle))
        if currentPoint == nil {
            move(to: start)
        } else {
            // After a close this first moves back to the closed subpath's start.
            _ = prepareToDraw()
            if currentPoint != start { addLine(to: start) }
        }
        appendEllipticalArc(
            center: center, radiusX: radius, radiusY: radius, rotation: 0,
            startAngle: startAngle, sweep: sweep, exactEnd: nil)
    }

    /// `x` modulo `m` in `[0, m)`; NaN stays NaN.
    static func positiveRemainder(_ x: CGFloat, _ m: CGFloat) -> CGFloat {
        let r = x - m * (x / m).rounded(.down)
        return r >= m ? 0 : r
    }

    /// Appends the arc of the ellipse `center + R(rotation) * (radiusX cos θ,
    /// radiusY sin θ)` for θ from `startAngle` over `sweep` (radians, signed)
    /// as cubic Béziers of at most 90° each, with the standard control
    /// distance `k = 4/3 tan(Δθ/4)` along the tangents. Assumes the current
    /// point is the arc's start (the first control point is placed from it). `exactEnd`, when given, replaces the last
    /// computed end point so the arc ends exactly where the caller asked.
    ///
    /// When a computed point would not be finite (absurd radii) a straight
    /// line to the end is appended instead, so the path stays usable.
    mutating func appendEllipticalArc(
        center: CGPoint, radiusX rx: CGFloat, radiusY ry: CGFloat,
        rotation: CGFloat, startAngle: CGFloat, sweep: CGFloat,
        exactEnd: CGPoint?
    ) {
        guard sweep != 0, sweep.isFinite, startAngle.isFinite else { return }
        let cosR = cos(rotation), sinR = sin(rotation)
        // Point and derivative of the ellipse at angle t.
        func point(_ t: CGFloat) -> CGPoint {
            let x = rx * cos(t), y = ry * sin(t)
            return CGPoint(x: center.x + cosR * x - sinR * y, y: center.y + sinR * x + cosR * y)
        }
        func tangent(_ t: CGFloat) -> CGPoint {
            let x = -rx * sin(t), y = ry * cos(t)
            return CGPoint(x: cosR * x - sinR * y, y: sinR * x + cosR * y)
        }
        // The small slack keeps a sweep of exactly 90° (up to rounding) one segment.
        let quarters = (abs(sweep) / (CGFloat.pi / 2) - 1e-9).rounded(.up)
        let n = Int(Swift.min(Swift.max(quarters, 1), 4))
        let step = sweep / CGFloat(n)
        let k = 4.0 / 3.0 * tan(step / 4)
        var segments: [Element] = []
        segments.reserveCapacity(n)
        var allFinite = true
        for i in 0 ..< n {
            let a = startAngle + step * CGFloat(i)
            let b = i == n - 1 ? startAngle + sweep : a + step
            // The first segment starts at the actual current point: with a
            // huge radius, centre + radius·cos loses the low digits.
            let p0 = i == 0 ? (currentPoint ?? point(a)) : point(a)
            let d0 = tangent(a)
            var p3 = point(b)
            let d3 = tangent(b)
            if i == n - 1, let exactEnd { p3 = exactEnd }
            let c1 = CGPoint(x: p0.x + k * d0.x, y: p0.y + k * d0.y)
            let c2 = CGPoint(x: p3.x - k * d3.x, y: p3.y - k * d3.y)
            allFinite =
                allFinite && c1.x.isFinite && c1.y.isFinite && c2.x.isFinite && c2.y.isFinite
                && p3.x.isFinite && p3.y.isFinite
            segments.append(.curve(to: p3, control1: c1, control2: c2))
        }
        if allFinite {
            elements.append(contentsOf: segments)
        } else if let end = exactEnd ?? segments.last?.endPoint {
            elements.append(.line(to: end))
        }
    }

    /// Appends an SVG elliptical arc (`A`) from `p1` (the current point) to
    /// `p2`, converting from SVG's endpoint parameterisation to the centre
    /// one as in SVG 1.1 implementation notes F.6.5, with out-of-range radii
    /// handled as F.6.6: negative radii count as positive, a zero radius makes
    /// a straight line, radii too small to reach are scaled up until they just
    /// do. Identical end points (an omitted arc) are the caller's to skip.
    /// `xAxisRotation` is in degrees, as in the path data.
    mutating func appendSVGArc(
        from p1: CGPoint, to p2: CGPoint, radiusX: CGFloat, radiusY: CGFloat,
        xAxisRotation: CGFloat, largeArc: Bool, sweep: Bool
    ) {
        var rx = abs(radiusX), ry = abs(radiusY)
        guard rx > 0, ry > 0 else {
            elements.append(.line(to: p2))
            return
        }
        // Reduce first so a huge rotation keeps its precision.
        let phi = xAxisRotation.truncatingRemainder(dividingBy: 360) * .pi / 180
        let cosPhi = cos(phi), sinPhi = sin(phi)
        // Halving each term first cannot overflow where the difference could.
        let dx2 = p1.x / 2 - p2.x / 2, dy2 = p1.y / 2 - p2.y / 2
        let x1p = cosPhi * dx2 + sinPhi * dy2
        let y1p = -sinPhi * dx2 + cosPhi * dy2
        // In units of the radii, a = x1'/rx and b = y1'/ry, F.6.5.2 and
        // F.6.6.2 read without the fourth powers that overflow for large
        // coordinates; h = √Λ = hypot(a, b) also avoids squaring's underflow
        // for radii vastly larger than the chord.
        var a = x1p / rx, b = y1p / ry
        let h = hypot(a, b)
        guard h > 0, h.isFinite else {
            // The end points are too close for these radii to bend the path,
            // or the radii are too small to represent: a line either way.
            elements.append(.line(to: p2))
            return
        }
        let na = a / h, nb = b / h
        // s = ±√(1 - Λ): the centre's offset, as a fraction of the radii,
        // along the chord's normal (F.6.5.2's coefficient times h).
        var s: CGFloat = 0
        if h >= 1 {
            // F.6.6.3: scale the radii up until they just reach; the centre
            // is then the chord's midpoint.
            rx *= h
            ry *= h
            a = na
            b = nb
        } else {
            s = Swift.max(0, 1 - h * h).squareRoot()
            if largeArc == sweep { s = -s }
        }
        let cxp = s * rx * nb, cyp = -s * ry * na
        let center = CGPoint(
            x: cosPhi * cxp - sinPhi * cyp + (p1.x / 2 + p2.x / 2),
            y: sinPhi * cxp + cosPhi * cyp + (p1.y / 2 + p2.y / 2))
        // Unit-circle vectors from the centre to the start and end (F.6.5.5-6).
        let ux = a - s * nb, uy = b + s * na
        let vx = -a - s * nb, vy = -b + s * na
        let theta1 = atan2(uy, ux)
        var dTheta = atan2(ux * vy - uy * vx, ux * vx + uy * vy)
        if !sweep && dTheta > 0 { dTheta -= 2 * .pi }
        if sweep && dTheta < 0 { dTheta += 2 * .pi }
        guard rx.isFinite, ry.isFinite, center.x.isFinite, center.y.isFinite,
            theta1.isFinite, dTheta.isFinite, dTheta != 0
        else {
            elements.append(.line(to: p2))
            return
        }
        appendEllipticalArc(
            center: center, radiusX: rx, radiusY: ry, rotation: phi,
            startAngle: theta1, sweep: dTheta, exactEnd: p2)
    }
}
