import Foundation

extension BezierPath {
    /// The tolerance the spec asks for when a caller names none: no point of
    /// a flattened polygon is farther than 0.05 points from the true curve.
    public static let defaultFlatteningTolerance: CGFloat = 0.05

    /// The smallest tolerance a fill takes (`PolygonSet.filling(path:tolerance:)`
    /// and its batch and builder forms), in the path's units (points for a
    /// screen path): 1e-6. A millionth of a point is far below anything a
    /// screen shows; a finer one mostly asks a curve for more points than
    /// the fill budgets allow, an error that would blame the path for what
    /// is a mistyped number, so it is refused as the tolerance it is.
    public static let minimumFillTolerance: CGFloat = 1e-6

    /// The most segments one curve is split into. A curve that would need
    /// more (coordinates around 1e9 or larger at the default tolerance, or
    /// non-finite ones) gets this many, so hostile input cannot make
    /// flattening loop or allocate without bound per curve; the tolerance is
    /// then not guaranteed for that curve.
    public static let maximumSegmentsPerCurve = 1 << 16

    /// The point budget for flattening untrusted paths (pass it to
    /// `flattened(tolerance:maximumPoints:)`): 4,194,304, 64 MiB of points.
    /// A real screen's paths have hundreds to thousands; one subpath of
    /// 300,000 curves flattens to about 1.2M at the default tolerance and is
    /// still answered, but 300 curves with coordinates near 1e9, each at
    /// `maximumSegmentsPerCurve`, would make 20M points (320 MB) from 6 KB
    /// of path data.
    public static let maximumFlattenedPoints = 1 << 22

    /// The path as polygon rings, one per subpath in order, in the path's
    /// coordinate space.
    ///
    /// Each ring lists the subpath's points with curves replaced by chords;
    /// it is implicitly closed (the closing edge back to the first point is
    /// not repeated: the consumer closes it), whether or not the subpath
    /// ended with `closeSubpath`, since every fill treats an open subpath as
    /// closed. Consecutive equal points are merged. Rings of one or two
    /// points (a lone `move`, a single line) are kept; the consumer decides
    /// what degenerate rings mean.
    ///
    /// Each curve is split into `n` chords at uniform parameter steps, with
    /// `n` the smallest count that keeps every point of every chord within
    /// `tolerance` of the curve (and the reverse) by the bound
    /// `|B(t) - chord(t)| <= h²/8 · max|B''|` for a step `h = 1/n`:
    /// a quadratic has `B'' = 2(p0 - 2p1 + p2)`, so
    /// `n = ⌈√(|p0 - 2p1 + p2| / (4·tol))⌉`; a cubic has
    /// `|B''| <= 6·max(|p0 - 2p1 + p2|, |p1 - 2p2 + p3|)`, so
    /// `n = ⌈√(3·max / (4·tol))⌉` (Wang's formula). Segment count grows as
    /// `1/√tol`; a straight curve with evenly spaced controls is one chord.
    /// Each curve is capped at `maximumSegmentsPerCurve` chords.
    ///
    /// - Parameter tolerance: the largest allowed distance, in the path's
    ///   units; a value that is not positive (or NaN) means
    ///   `defaultFlatteningTolerance`.
    /// - Complexity: O(elements + output points) time and space; nothing
    ///   bounds the output but the per-curve cap (use
    ///   `flattened(tolerance:maximumPoints:)` on untrusted paths).
    public func flattened(tolerance: CGFloat = BezierPath.defaultFlatteningTolerance) -> [[CGPoint]] {
        let tol = Self.effectiveTolerance(tolerance)
        var rings: [[CGPoint]] = []
        var ring: [CGPoint] = []
        var inSubpath = false
        var hasCurrentPoint = false
        var current = CGPoint.zero
        var subpathStart = CGPoint.zero

        @inline(__always) func add(_ p: CGPoint) {
            if ring.last != p { ring.append(p) }
        }
        func finishRing() {
            guard inSubpath else { return }
            // The closing edge is implicit, so a final return to the start is dropped.
            if ring.count > 1, ring[ring.count - 1] == ring[0] { ring.removeLast() }
            if !ring.isEmpty { rings.append(ring) }
            ring = []
            inSubpath = false
        }
        func startRing(at p: CGPoint) {
            finishRing()
            ring = [p]
            inSubpath = true
            hasCurrentPoint = true
            current = p
            subpathStart = p
        }
        /// Before drawing to `end`: whether there is a point to draw from.
        /// After a close that is the closed subpath's start; with no current
        /// point at all, the element starts a subpath at its end instead.
        func beginDrawing(to end: CGPoint) -> Bool {
            if inSubpath { return true }
            if hasCurrentPoint {
                startRing(at: current)
                return true
            }
            startRing(at: end)
            return false
        }

        for e in elements {
            switch e {
            case let .move(p):
                startRing(at: p)
            case let .line(p):
                if beginDrawing(to: p) {
                    add(p)
                    current = p
                }
            case let .quadCurve(p, c):
                if beginDrawing(to: p) {
                    Self.flattenQuad(
                        current, c, p, segments: Self.quadSegmentCount(current, c, p, tolerance: tol),
                        into: &ring)
                    current = p
                }
            case let .curve(p, c1, c2):
                if beginDrawing(to: p) {
                    Self.flattenCubic(
                        current, c1, c2, p,
                        segments: Self.cubicSegmentCount(current, c1, c2, p, tolerance: tol), into: &ring)
                    current = p
                }
            case .closeSubpath:
                if inSubpath {
                    finishRing()
                    current = subpathStart
                }
            }
        }
        finishRing()
        return rings
    }

    /// An upper bound on the number of points `flattened(tolerance:)`
    /// returns, over all rings: one per `move` and `line`, per curve the
    /// chords it is split into, and one for each ring restarted by drawing
    /// after a close. Merged repeats (and a last point back at the start)
    /// make the true count smaller. With `eachElementAtMost`, each element
    /// counts at most that many (a budget's share that a few huge curves
    /// cannot inflate).
    ///
    /// - Complexity: O(elements); allocates nothing.
    public func flattenedPointCount(
        tolerance: CGFloat = BezierPath.defaultFlatteningTolerance, eachElementAtMost cap: Int = .max
    ) -> Int {
        let tol = Self.effectiveTolerance(tolerance)
        var count = 0
        var current: CGPoint?
        var subpathStart = CGPoint.zero
        var inSubpath = false
        // Mirrors `flattened`'s `beginDrawing`: after a close a drawing
        // element first restarts a ring at the current point (one more
        // point); with no current point at all it only starts a ring at its
        // end.
        func draw(to end: CGPoint, chords: (CGPoint) -> Int) {
            if !inSubpath {
                inSubpath = true
                count += 1
                guard current != nil else {
                    current = end
                    subpathStart = end
                    return
                }
            }
            if let from = current { count += chords(from) }
            current = end
        }
        for e in elements {
            let before = count
            defer { count = before + min(count - before, cap) }
            switch e {
            case let .move(p):
                count += 1
                current = p
                subpathStart = p
                inSubpath = true
            case let .line(p):
                draw(to: p) { _ in 1 }
            case let .quadCurve(p, c):
                draw(to: p) { Self.quadSegmentCount($0, c, p, tolerance: tol) }
            case let .curve(p, c1, c2):
                draw(to: p) { Self.cubicSegmentCount($0, c1, c2, p, tolerance: tol) }
            case .closeSubpath:
                if inSubpath {
                    inSubpath = false
                    current = subpathStart
                }
            }
        }
        return count
    }

    /// `flattened(tolerance:)`, refused before any point is made when it
    /// could make more than `maximumPoints` points (by
    /// `flattenedPointCount(tolerance:)`, an upper bound).
    ///
    /// - Complexity: O(elements + output points), output points at most
    ///   `maximumPoints`.
    /// - Throws: `GeometryError.overBudget(.flattenedPoints, ...)` naming the
    ///   count and the budget.
    public func flattened(
        tolerance: CGFloat = BezierPath.defaultFlatteningTolerance,
        maximumPoints: Int
    ) throws(GeometryError) -> [[CGPoint]] {
        let count = flattenedPointCount(tolerance: tolerance)
        guard count <= maximumPoints else {
            throw .overBudget(.flattenedPoints, count: count, limit: maximumPoints)
        }
        return flattened(tolerance: tolerance)
    }

    /// `tolerance`, or the default for a value that is not positive (or NaN).
    @inline(__always)
    static func effectiveTolerance(_ tolerance: CGFloat) -> CGFloat {
        tolerance > 0 ? tolerance : defaultFlatteningTolerance
    }

    /// Chords for the quadratic `p0 p1 p2`: `⌈√(|p0 - 2p1 + p2| / (4·tol))⌉`.
    @inline(__always)
    static func quadSegmentCount(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, tolerance: CGFloat) -> Int {
        let dd = length(p0.x - 2 * p1.x + p2.x, p0.y - 2 * p1.y + p2.y)
        return segmentCount((dd / (4 * tolerance)).squareRoot())
    }

    /// Chords for the cubic `p0 p1 p2 p3` (Wang's formula):
    /// `⌈√(3·max(|p0 - 2p1 + p2|, |p1 - 2p2 + p3|) / (4·tol))⌉`.
    @inline(__always)
    static func cubicSegmentCount(
        _ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint,
        tolerance: CGFloat
    ) -> Int {
        let d1 = length(p0.x - 2 * p1.x + p2.x, p0.y - 2 * p1.y + p2.y)
        let d2 = length(p1.x - 2 * p2.x + p3.x, p1.y - 2 * p2.y + p3.y)
        return segmentCount((3 * Swift.max(d1, d2) / (4 * tolerance)).squareRoot())
    }

    /// `⌈x⌉` clamped to `1...maximumSegmentsPerCurve`; NaN gives 1.
    @inline(__always)
    static func segmentCount(_ x: CGFloat) -> Int {
        guard !x.isNaN else { return 1 }
        let n = x.rounded(.up)
        if n >= CGFloat(maximumSegmentsPerCurve) { return maximumSegmentsPerCurve }
        return n < 1 ? 1 : Int(n)
    }

    @inline(__always)
    static func length(_ x: CGFloat, _ y: CGFloat) -> CGFloat { (x * x + y * y).squareRoot() }

    /// Appends the end points of `n` equal-parameter chords of the
    /// quadratic `p0 p1 p2` (not `p0` itself), skipping points equal to the
    /// ring's last. Plain appends, no `reserveCapacity(count + n)`: reserving
    /// the exact size reallocates the ring on every curve, which made one
    /// subpath of 300,000 curves quadratic (112 s); appends grow it
    /// geometrically.
    static func flattenQuad(
        _ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint,
        segments n: Int, into ring: inout [CGPoint]
    ) {
        let inv = 1 / CGFloat(n)
        for i in 1 ..< n {
            // Bernstein form at each step, not forward differences: no drift.
            let t = CGFloat(i) * inv, mt = 1 - t
            let a = mt * mt, b = 2 * mt * t, c = t * t
            let p = CGPoint(x: a * p0.x + b * p1.x + c * p2.x, y: a * p0.y + b * p1.y + c * p2.y)
            if ring.last != p { ring.append(p) }
        }
        if ring.last != p2 { ring.append(p2) }
    }

    /// Appends the end points of `n` equal-parameter chords of the cubic
    /// `p0 p1 p2 p3` (not `p0` itself), skipping points equal to the ring's
    /// last; plain appends, as `flattenQuad`.
    static func flattenCubic(
        _ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint,
        segments n: Int, into ring: inout [CGPoint]
    ) {
        let inv = 1 / CGFloat(n)
        for i in 1 ..< n {
            let t = CGFloat(i) * inv, mt = 1 - t
            let a = mt * mt * mt, b = 3 * mt * mt * t, c = 3 * mt * t * t, d = t * t * t
            let p = CGPoint(
                x: a * p0.x + b * p1.x + c * p2.x + d * p3.x,
                y: a * p0.y + b * p1.y + c * p2.y + d * p3.y)
            if ring.last != p { ring.append(p) }
        }
        if ring.last != p3 { ring.append(p3) }
    }
}
