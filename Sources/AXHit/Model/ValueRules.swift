import Foundation

/// The values tree-format.md constrains, checked in one place for every way a
/// node enters a tree: the builder (`Node.validate()`), the `axhit/1`
/// reader and the importers. Each check answers what is wrong in words, or
/// nil, so that each caller puts its own location (file, line, node, key) on
/// the error without a throw on the good path.
enum ValueRules {
    /// Why `[x, y, width, height]` is not a rect of the format (a number
    /// that is not finite, a negative size), or nil.
    @inline(__always)
    static func rectProblem(x: Double, y: Double, width: Double, height: Double) -> String? {
        if !(x.isFinite && y.isFinite && width.isFinite && height.isFinite) {
            for (name, v) in [("x", x), ("y", y), ("width", width), ("height", height)] where !v.isFinite {
                return "\(name) is not a finite number"
            }
        }
        if width < 0 { return "width is negative" }
        if height < 0 { return "height is negative" }
        // Its far edges must exist too: every later computation adds them.
        if !(x + width).isFinite { return "x + width overflows (not a finite number)" }
        if !(y + height).isFinite { return "y + height overflows (not a finite number)" }
        return nil
    }

    /// See `rectProblem(x:y:width:height:)`.
    @inline(__always)
    static func rectProblem(_ r: CGRect) -> String? {
        rectProblem(
            x: Double(r.origin.x), y: Double(r.origin.y), width: Double(r.size.width), height: Double(r.size.height))
    }

    /// Why `p` is not a point of the format (not finite), or nil.
    static func pointProblem(_ p: CGPoint) -> String? {
        p.x.isFinite && p.y.isFinite ? nil : "is not a finite point"
    }

    /// Why `t` is not a transform of the format (an entry not finite), or nil.
    static func transformProblem(_ t: CGAffineTransform) -> String? {
        // Test first, name the culprit only on failure: no allocation per node.
        if t.a.isFinite && t.b.isFinite && t.c.isFinite && t.d.isFinite && t.tx.isFinite && t.ty.isFinite { return nil }
        for (name, v) in [("a", t.a), ("b", t.b), ("c", t.c), ("d", t.d), ("tx", t.tx), ("ty", t.ty)] where !v.isFinite
        {
            return "\(name) is not a finite number"
        }
        return nil
    }

    /// Why `alpha` is not an opacity of the format (outside 0...1), or nil.
    @inline(__always)
    static func alphaProblem(_ alpha: Double) -> String? {
        alpha >= 0 && alpha <= 1 ? nil : "must be between 0 and 1, got \(alpha)"
    }

    /// Why `scale` is not a screen scale or density (finite and > 0), or nil.
    static func scaleProblem(_ scale: Double) -> String? {
        scale.isFinite && scale > 0 ? nil : "must be a finite number > 0, got \(scale)"
    }

    /// Why `path` is not an `accessibilityPath` AXHit takes (it flattens, at
    /// the format's tolerance, to more points than
    /// `BezierPath.maximumFlattenedPoints`), or nil. O(segments); nothing
    /// is flattened.
    static func pathProblem(_ path: BezierPath) -> String? { pathProblem(points: pathPoints(path)) }

    /// `pathProblem(_:)` for a path that flattens to `points` points (a
    /// reader that also sums them counts once).
    static func pathProblem(points: Int) -> String? {
        guard points > BezierPath.maximumFlattenedPoints else { return nil }
        return
            "the path flattens to \(points) points, more than the \(BezierPath.maximumFlattenedPoints) AXHit takes (BezierPath.maximumFlattenedPoints)"
    }

    /// The points `path` flattens to at the format's tolerance (an upper
    /// bound). O(segments).
    static func pathPoints(_ path: BezierPath) -> Int {
        path.flattenedPointCount(tolerance: BezierPath.defaultFlatteningTolerance)
    }

    /// The message for paths that flatten to more than
    /// `ElementTree.pathPointBudget` points together.
    static func pathBudgetProblem(_ budget: Int) -> String {
        "the paths flatten to more than \(budget) points together, the budget of this tree "
            + "(ElementTree.maximumPathPoints: 64 per node plus what each path element flattens to, "
            + "up to 64 an element; at least 2,097,152)"
    }

    /// The keys of view properties, which element nodes do not have.
    static let viewOnlyKeys = [
        "frame", "bounds", "transform", "clipsToBounds", "isHidden", "alpha",
        "isUserInteractionEnabled", "isWindow", "accessibilityElements",
    ]
}
