import AXHit
import Foundation

/// A path-heavy screen: a grid of tiles, each an accessible view whose
/// `accessibilityPath` (in view space) has 32 cubic curves: a wavy blob
/// filled non-zero, or a ring (outer and inner 16-curve loops) filled
/// even-odd, alternating. A few path shapes are shared between tiles (the
/// array storage is shared too), so memory stays that of the tree.
struct PathsWorkload: Workload {
    let name = "paths"
    let summary = "tiles with 32-curve accessibilityPaths, non-zero and even-odd"
    // Every path is flattened (and filled through GEOS) at build time; a
    // million of them is minutes of build, so the default sizes stop here.
    let maxElements = 100_001

    func generate(elements: Int, seed: UInt64, options: WorkloadOptions) throws -> GeneratedScreen {
        var rng = SplitMix64(seed: seed)
        let tile = 100.0
        let shapes = (0 ..< 8).map { k in
            k % 2 == 0
                ? Self.blob(center: CGPoint(x: 50, y: 50), radius: 44, curves: 32, rng: &rng)
                : Self.ring(center: CGPoint(x: 50, y: 50), outer: 46, inner: 22, curvesEach: 16, rng: &rng)
        }
        let n = max(1, elements - 1)
        let columns = max(1, Int(Double(n).squareRoot().rounded(.up)))
        let rows = (n + columns - 1) / columns
        let width = Double(columns) * tile, height = Double(rows) * tile
        var b = TreeBuilder(capacity: n + 1)
        let window = try b.view(CGRect(x: 0, y: 0, width: width, height: height), under: .none)
        for i in 0 ..< n {
            let frame = CGRect(x: Double(i % columns) * tile, y: Double(i / columns) * tile, width: tile, height: tile)
            let shape = shapes[rng.below(shapes.count)]
            try b.view(frame, under: window, accessible: true) {
                $0.accessibilityPath = AccessibilityPath(shape, coordinateSpace: .view)
            }
        }
        return GeneratedScreen(tree: b.tree, queryArea: CGRect(x: 0, y: 0, width: width, height: height))
    }

    /// A closed loop of `curves` cubic Béziers around `center`, its radius
    /// wobbling per vertex.
    static func loop(
        into path: inout BezierPath, center: CGPoint, radius: Double, curves: Int,
        clockwise: Bool, rng: inout SplitMix64
    ) {
        let step = (clockwise ? 1.0 : -1.0) * 2 * Double.pi / Double(curves)
        func at(_ k: Int, _ r: Double) -> CGPoint {
            CGPoint(x: center.x + r * cos(Double(k) * step), y: center.y + r * sin(Double(k) * step))
        }
        let radii = (0 ..< curves).map { _ in radius * rng.uniform(0.8, 1.0) }
        path.move(to: at(0, radii[0]))
        for k in 1 ... curves {
            let r0 = radii[(k - 1) % curves], r1 = radii[k % curves]
            let c1 = CGPoint(
                x: center.x + r0 * 1.05 * cos((Double(k) - 0.66) * step),
                y: center.y + r0 * 1.05 * sin((Double(k) - 0.66) * step))
            let c2 = CGPoint(
                x: center.x + r1 * 1.05 * cos((Double(k) - 0.33) * step),
                y: center.y + r1 * 1.05 * sin((Double(k) - 0.33) * step))
            path.addCurve(to: at(k % curves, r1), controlPoint1: c1, controlPoint2: c2)
        }
        path.closeSubpath()
    }

    static func blob(center: CGPoint, radius: Double, curves: Int, rng: inout SplitMix64) -> BezierPath {
        var p = BezierPath(fillRule: .nonZero)
        loop(into: &p, center: center, radius: radius, curves: curves, clockwise: true, rng: &rng)
        return p
    }

    /// Both loops run the same way: only even-odd makes the hole.
    static func ring(
        center: CGPoint, outer: Double, inner: Double, curvesEach: Int, rng: inout SplitMix64
    ) -> BezierPath {
        var p = BezierPath(fillRule: .evenOdd)
        loop(into: &p, center: center, radius: outer, curves: curvesEach, clockwise: true, rng: &rng)
        loop(into: &p, center: center, radius: inner, curves: curvesEach, clockwise: true, rng: &rng)
        return p
    }
}
