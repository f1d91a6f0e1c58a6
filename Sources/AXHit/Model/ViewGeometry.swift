import Foundation

/// The one formula that places a view in its parent (tree-format.md,
/// "Converting to the screen"), for every layer that maps points: the tree,
/// the engine's query records, touch, screen space and analysis.
enum ViewGeometry {
    /// The map from a view's bounds space to its parent's:
    /// `p ↦ center + T(p - boundsMid)`, with `center` the frame's midpoint,
    /// `boundsMid` the bounds' midpoint (scroll offset included) and `T` the
    /// transform, applied about the center.
    @inline(__always)
    static func boundsToParent(frame f: CGRect, bounds b: CGRect, transform t: CGAffineTransform) -> CGAffineTransform {
        let cx = f.midX, cy = f.midY, bx = b.midX, by = b.midY
        return CGAffineTransform(
            a: t.a, b: t.b, c: t.c, d: t.d,
            tx: cx + t.tx - (t.a * bx + t.c * by),
            ty: cy + t.ty - (t.b * bx + t.d * by))
    }

    /// `boundsToParent(frame:bounds:transform:)` for the identity transform
    /// (the common case): a translation, no multiplications.
    @inline(__always)
    static func boundsToParent(frame f: CGRect, bounds b: CGRect) -> CGAffineTransform {
        CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: f.midX - b.midX, ty: f.midY - b.midY)
    }

    /// The bounds a view has when none are given: `[0, 0, frame.size]`.
    @inline(__always)
    static func defaultBounds(of frame: CGRect) -> CGRect { CGRect(origin: .zero, size: frame.size) }
}
