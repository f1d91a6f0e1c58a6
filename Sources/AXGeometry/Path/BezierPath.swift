import Foundation

/// A path of lines and quadratic and cubic Bézier curves, as UIBezierPath /
/// CGPath hold it, plus the fill rule that decides its inside.
///
/// Coordinates are in whatever space the caller built the path in (for
/// `accessibilityPath`, screen or view bounds space; see the tree format spec).
/// The value is plain data: building is O(1) amortised per element, and
/// `applying(_:)`, `controlPointBounds` and flattening are O(n) in elements.
///
/// The builder methods keep the element list *normalised*: it starts with a
/// `move`, a `closeSubpath` only ends an open subpath, and drawing after a
/// close first moves back to the closed subpath's start (the SVG rule). Code
/// that assigns `elements` directly may break that; every consumer here
/// tolerates it: a drawing element with no current point starts a subpath at
/// its own end point.
public struct BezierPath: Sendable, Hashable {
    /// One path element. Points are in the path's coordinate space.
    public enum Element: Sendable, Hashable {
        /// Starts a new subpath at the point.
        case move(to: CGPoint)
        /// A straight line from the current point.
        case line(to: CGPoint)
        /// A quadratic Bézier curve from the current point.
        case quadCurve(to: CGPoint, control: CGPoint)
        /// A cubic Bézier curve from the current point.
        case curve(to: CGPoint, control1: CGPoint, control2: CGPoint)
        /// Closes the current subpath with a straight line back to its start.
        case closeSubpath

        /// The end point, or `nil` for `closeSubpath`.
        @inline(__always)
        var endPoint: CGPoint? {
            switch self {
            case let .move(p), let .line(p): return p
            case let .quadCurve(p, _): return p
            case let .curve(p, _, _): return p
            case .closeSubpath: return nil
            }
        }
    }

    /// The elements, in drawing order.
    public var elements: [Element]

    /// How overlapping subpaths fill; `.nonZero` by default, as UIBezierPath.
    public var fillRule: FillRule

    /// The empty path, or a path from its elements (taken as they are).
    /// O(1).
    public init(elements: [Element] = [], fillRule: FillRule = .nonZero) {
        self.elements = elements
        self.fillRule = fillRule
    }

    /// The closed rectangle path `UIBezierPath(rect:)` builds: a move to
    /// (minX, minY), lines to (maxX, minY), (maxX, maxY), (minX, maxY), and a
    /// close; clockwise on screen (y down). The rect is standardised first; a
    /// null rect gives the empty path.
    public init(rect: CGRect) {
        self.init()
        if rect.isNull { return }
        let r = rect.standardized
        move(to: CGPoint(x: r.minX, y: r.minY))
        addLine(to: CGPoint(x: r.maxX, y: r.minY))
        addLine(to: CGPoint(x: r.maxX, y: r.maxY))
        addLine(to: CGPoint(x: r.minX, y: r.maxY))
        closeSubpath()
    }

    /// The closed ellipse inscribed in `rect`, as `UIBezierPath(ovalIn:)`:
    /// four cubic quarter arcs starting at (maxX, midY) and running clockwise
    /// on screen (y down) through (midX, maxY), then a close. The rect is
    /// standardised first; a null rect gives the empty path.
    public init(ovalIn rect: CGRect) {
        self.init()
        if rect.isNull { return }
        let r = rect.standardized
        // Written out rather than through the arc code so the four axis
        // points are exact (no cos/sin rounding). kappa = 4/3·tan(π/8).
        let kappa: CGFloat = 0.5522847498307936
        let kx = kappa * r.width / 2, ky = kappa * r.height / 2
        let midX = r.midX, midY = r.midY
        move(to: CGPoint(x: r.maxX, y: midY))
        addCurve(
            to: CGPoint(x: midX, y: r.maxY),
            controlPoint1: CGPoint(x: r.maxX, y: midY + ky), controlPoint2: CGPoint(x: midX + kx, y: r.maxY))
        addCurve(
            to: CGPoint(x: r.minX, y: midY),
            controlPoint1: CGPoint(x: midX - kx, y: r.maxY), controlPoint2: CGPoint(x: r.minX, y: midY + ky))
        addCurve(
            to: CGPoint(x: midX, y: r.minY),
            controlPoint1: CGPoint(x: r.minX, y: midY - ky), controlPoint2: CGPoint(x: midX - kx, y: r.minY))
        addCurve(
            to: CGPoint(x: r.maxX, y: midY),
            controlPoint1: CGPoint(x: midX + kx, y: r.minY), controlPoint2: CGPoint(x: r.maxX, y: midY - ky))
        closeSubpath()
    }

    /// Whether the path has no elements (as `CGPath.isEmpty`). O(1).
    public var isEmpty: Bool { elements.isEmpty }

    /// The point the next element starts from, or `nil` when there is none
    /// (an empty path). After a close it is the closed subpath's start, as in
    /// UIBezierPath. O(1), except O(subpath length) right after a close.
    public var currentPoint: CGPoint? {
        guard let last = elements.last else { return nil }
        if let p = last.endPoint { return p }
        return subpathStart(before: elements.count - 1)
    }

    /// The start of the subpath that the element at `index` belongs to: the
    /// last `move` before it, or the end point of the first element of the
    /// subpath when it has no `move`.
    func subpathStart(before index: Int) -> CGPoint? {
        var j = index - 1
        var start: CGPoint?
        while j >= 0 {
            let e = elements[j]
            if case let .move(p) = e { return p }
            if case .closeSubpath = e { break }
            start = e.endPoint ?? start
            j -= 1
        }
        return start
    }

    /// Whether the last element leaves a subpath open (so a close or a
    /// drawing element continues it).
    var hasOpenSubpath: Bool {
        guard let last = elements.last else { return false }
        if case .closeSubpath = last { return false }
        return true
    }

    /// Before a drawing element: after a close, moves back to the closed
    /// subpath's start (SVG and CGPath both continue from there). Returns
    /// whether there is a current point to draw from.
    @inline(__always)
    mutating func prepareToDraw() -> Bool {
        guard let last = elements.last else { return false }
        if case .closeSubpath = last {
            guard let start = subpathStart(before: elements.count - 1) else { return false }
            elements.append(.move(to: start))
        }
        return true
    }

    // MARK: Building, as UIBezierPath

    /// Starts a new subpath at `point`. O(1) amortised.
    public mutating func move(to point: CGPoint) {
        elements.append(.move(to: point))
    }

    /// Adds a straight line from the current point to `point`. With no
    /// current point (an empty path) it starts a subpath at `point` instead
    /// (CGPath would log and ignore the call). O(1) amortised.
    public mutating func addLine(to point: CGPoint) {
        elements.append(prepareToDraw() ? .line(to: point) : .move(to: point))
    }

    /// Adds a quadratic Bézier curve from the current point to `endPoint`.
    /// With no current point it starts a subpath at `endPoint` instead.
    /// O(1) amortised.
    public mutating func addQuadCurve(to endPoint: CGPoint, controlPoint: CGPoint) {
        elements.append(
            prepareToDraw()
                ? .quadCurve(to: endPoint, control: controlPoint)
                : .move(to: endPoint))
    }

    /// Adds a cubic Bézier curve from the current point to `endPoint`.
    /// With no current point it starts a subpath at `endPoint` instead.
    /// O(1) amortised.
    public mutating func addCurve(to endPoint: CGPoint, controlPoint1: CGPoint, controlPoint2: CGPoint) {
        elements.append(
            prepareToDraw()
                ? .curve(to: endPoint, control1: controlPoint1, control2: controlPoint2)
                : .move(to: endPoint))
    }

    /// Closes the open subpath (a straight line back to its start). Does
    /// nothing when no subpath is open. O(1) amortised.
    public mutating func closeSubpath() {
        if hasOpenSubpath { elements.append(.closeSubpath) }
    }

    // MARK: Geometry

    /// The path with every point (end points and control points alike) mapped
    /// exactly through `t`; the fill rule is kept. Because Bézier curves are
    /// affine-invariant this is the exact image of the path. O(n).
    public func applying(_ t: CGAffineTransform) -> BezierPath {
        var out = self
        out.elements = elements.map { e in
            switch e {
            case let .move(p): return .move(to: p.applying(t))
            case let .line(p): return .line(to: p.applying(t))
            case let .quadCurve(p, c): return .quadCurve(to: p.applying(t), control: c.applying(t))
            case let .curve(p, c1, c2):
                return .curve(to: p.applying(t), control1: c1.applying(t), control2: c2.applying(t))
            case .closeSubpath: return .closeSubpath
            }
        }
        return out
    }

    /// The smallest rect holding every point of every element, control
    /// points included (as `CGPath.boundingBox`), in the path's space. It
    /// contains the path; `.null` for a path with no points. (Coordinates
    /// spanning more than the largest double give an infinite size.) O(n).
    public var controlPointBounds: CGRect {
        var minX = CGFloat.infinity, minY = CGFloat.infinity
        var maxX = -CGFloat.infinity, maxY = -CGFloat.infinity
        var any = false
        @inline(__always) func add(_ p: CGPoint) {
            any = true
            minX = Swift.min(minX, p.x)
            maxX = Swift.max(maxX, p.x)
            minY = Swift.min(minY, p.y)
            maxY = Swift.max(maxY, p.y)
        }
        for e in elements {
            switch e {
            case let .move(p), let .line(p): add(p)
            case let .quadCurve(p, c):
                add(p)
                add(c)
            case let .curve(p, c1, c2):
                add(p)
                add(c1)
                add(c2)
            case .closeSubpath: break
            }
        }
        guard any else { return .null }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
