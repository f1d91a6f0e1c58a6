import Foundation

#if canImport(CoreGraphics)
@_exported import CoreGraphics
#else
/// An affine transform with CoreGraphics' layout and semantics.
///
/// A point `(x, y)` maps to `(a*x + c*y + tx, b*x + d*y + ty)`: the row vector
/// `[x y 1]` times the matrix `[a b 0; c d 0; tx ty 1]`. Foundation on Linux
/// has no `CGAffineTransform`; on Apple platforms CoreGraphics' own is used.
public struct CGAffineTransform: Equatable, Hashable, Sendable {
    /// The linear part, row by row: x' = a·x + c·y + tx, y' = b·x + d·y + ty.
    public var a: CGFloat
    /// See `a`.
    public var b: CGFloat
    /// See `a`.
    public var c: CGFloat
    /// See `a`.
    public var d: CGFloat
    /// The translation in x, applied after the linear part.
    public var tx: CGFloat
    /// The translation in y, applied after the linear part.
    public var ty: CGFloat

    /// A transform from its six coefficients.
    public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    /// The identity: `CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)`.
    public init() { self.init(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0) }

    /// The identity transform.
    public static let identity = CGAffineTransform()

    /// A translation by `(tx, ty)`.
    public init(translationX tx: CGFloat, y ty: CGFloat) {
        self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty)
    }

    /// A scale by `(sx, sy)` about the origin.
    public init(scaleX sx: CGFloat, y sy: CGFloat) {
        self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// A rotation by `angle` radians about the origin (counter-clockwise in a
    /// y-up space, clockwise on screen where y points down, as in UIKit).
    public init(rotationAngle angle: CGFloat) {
        let s = sin(angle), c = cos(angle)
        self.init(a: c, b: s, c: -s, d: c, tx: 0, ty: 0)
    }

    /// Whether this is exactly the identity.
    public var isIdentity: Bool { self == .identity }

    /// `self` followed by `t2`: a point maps through `self` first, then `t2`
    /// (CoreGraphics' `concatenating`, the matrix product `self * t2`).
    @inlinable
    public func concatenating(_ t2: CGAffineTransform) -> CGAffineTransform {
        CGAffineTransform(
            a: a * t2.a + b * t2.c,
            b: a * t2.b + b * t2.d,
            c: c * t2.a + d * t2.c,
            d: c * t2.b + d * t2.d,
            tx: tx * t2.a + ty * t2.c + t2.tx,
            ty: tx * t2.b + ty * t2.d + t2.ty)
    }

    /// The inverse, or `self` unchanged when the transform is singular (as
    /// CoreGraphics' `inverted()` does). Check `isInvertible` first when the
    /// difference matters.
    public func inverted() -> CGAffineTransform {
        let det = a * d - b * c
        guard det != 0, det.isFinite else { return self }
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        return CGAffineTransform(
            a: ia, b: ib, c: ic, d: id,
            tx: -(tx * ia + ty * ic),
            ty: -(tx * ib + ty * id))
    }

    /// `self` preceded by a translation: CoreGraphics' `translatedBy(x:y:)`.
    public func translatedBy(x: CGFloat, y: CGFloat) -> CGAffineTransform {
        CGAffineTransform(translationX: x, y: y).concatenating(self)
    }

    /// `self` preceded by a scale: CoreGraphics' `scaledBy(x:y:)`.
    public func scaledBy(x: CGFloat, y: CGFloat) -> CGAffineTransform {
        CGAffineTransform(scaleX: x, y: y).concatenating(self)
    }

    /// `self` preceded by a rotation: CoreGraphics' `rotated(by:)`.
    public func rotated(by angle: CGFloat) -> CGAffineTransform {
        CGAffineTransform(rotationAngle: angle).concatenating(self)
    }
}

extension CGPoint {
    /// The point mapped through `t`: `(a*x + c*y + tx, b*x + d*y + ty)`.
    @inlinable
    public func applying(_ t: CGAffineTransform) -> CGPoint {
        CGPoint(x: t.a * x + t.c * y + t.tx, y: t.b * x + t.d * y + t.ty)
    }
}

extension CGSize {
    /// The size mapped through the linear part of `t` (no translation).
    public func applying(_ t: CGAffineTransform) -> CGSize {
        CGSize(width: t.a * width + t.c * height, height: t.b * width + t.d * height)
    }
}

extension CGRect {
    /// The axis-aligned bounding box of the rect's four corners mapped through
    /// `t`, as CoreGraphics' `CGRect.applying`. Null and infinite rects are
    /// returned unchanged. Allocation-free: hit-testing calls it per element.
    @inlinable
    public func applying(_ t: CGAffineTransform) -> CGRect {
        if isNullFast || isInfiniteFast { return self }
        let (x0, y0, x1, y1) = edges
        // Each corner as CGPoint.applying computes it: a*x + c*y + tx.
        let px0 = t.a * x0 + t.c * y0 + t.tx, px1 = t.a * x1 + t.c * y0 + t.tx
        let px2 = t.a * x1 + t.c * y1 + t.tx, px3 = t.a * x0 + t.c * y1 + t.tx
        let py0 = t.b * x0 + t.d * y0 + t.ty, py1 = t.b * x1 + t.d * y0 + t.ty
        let py2 = t.b * x1 + t.d * y1 + t.ty, py3 = t.b * x0 + t.d * y1 + t.ty
        let minX = Swift.min(Swift.min(px0, px1), Swift.min(px2, px3))
        let maxX = Swift.max(Swift.max(px0, px1), Swift.max(px2, px3))
        let minY = Swift.min(Swift.min(py0, py1), Swift.min(py2, py3))
        let maxY = Swift.max(Swift.max(py0, py1), Swift.max(py2, py3))
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
#endif

extension CGAffineTransform {
    /// The determinant `a*d - b*c`: zero for a singular transform (a view
    /// scaled to zero), negative for a mirroring one.
    public var determinant: CGFloat { a * d - b * c }

    /// Whether the transform has a finite, non-zero determinant.
    public var isInvertible: Bool {
        let det = determinant
        return det != 0 && det.isFinite
    }
}

extension CGRect {
    /// The four corners, each mapped through `t`, in the order
    /// (minX, minY), (maxX, minY), (maxX, maxY), (minX, maxY): counter-clockwise
    /// on screen (y down) for a transform with positive determinant.
    public func corners(through t: CGAffineTransform) -> [CGPoint] {
        let r = standardized
        return [
            CGPoint(x: r.minX, y: r.minY).applying(t),
            CGPoint(x: r.maxX, y: r.minY).applying(t),
            CGPoint(x: r.maxX, y: r.maxY).applying(t),
            CGPoint(x: r.minX, y: r.maxY).applying(t),
        ]
    }

    /// The smallest rect that holds every point, or `.null` for none.
    public static func boundingBox(of points: [CGPoint]) -> CGRect {
        guard let first = points.first else { return .null }
        var minX = first.x, maxX = first.x, minY = first.y, maxY = first.y
        for p in points.dropFirst() {
            minX = Swift.min(minX, p.x)
            maxX = Swift.max(maxX, p.x)
            minY = Swift.min(minY, p.y)
            maxY = Swift.max(maxY, p.y)
        }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// Whether `p` lies in the rect under the closed-open rule of
    /// `CGRectContainsPoint`: `minX <= x < maxX` and `minY <= y < maxY`.
    /// An empty rect contains no point.
    @inlinable @inline(__always)
    public func containsClosedOpen(_ p: CGPoint) -> Bool {
        // The edges of the standardized rect; a null rect's are NaN.
        let (minX, minY, maxX, maxY) = edges
        return p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }

    // Foundation's `minX`, `isNull`, … are calls into Foundation on Linux
    // (tens of instructions each); queries test rects millions of times, so
    // these read the stored fields inline.

    /// `(minX, minY, maxX, maxY)` as Foundation gives them for a finite
    /// rect (standardized), read from the stored fields; all NaN for
    /// `CGRect.null`.
    @inlinable
    package var edges: (minX: CGFloat, minY: CGFloat, maxX: CGFloat, maxY: CGFloat) {
        let x = origin.x, y = origin.y, w = size.width, h = size.height
        if isNullFast { return (.nan, .nan, .nan, .nan) }
        return (w < 0 ? x + w : x, h < 0 ? y + h : y, w < 0 ? x : x + w, h < 0 ? y : y + h)
    }

    /// `isNull`, from the stored fields: the null rect's origin is infinite.
    @inlinable
    package var isNullFast: Bool { origin.x == .infinity || origin.y == .infinity }

    /// `isInfinite`, from the stored fields.
    @inlinable
    package var isInfiniteFast: Bool {
        origin.x == -CGFloat.greatestFiniteMagnitude / 2 && origin.y == -CGFloat.greatestFiniteMagnitude / 2
            && size.width == .greatestFiniteMagnitude && size.height == .greatestFiniteMagnitude
    }
}
