import Foundation

/// The `accessibilityPath` of every element that has one, flattened once
/// into winding regions (`WindingRegion`), so that a query tests a point by
/// its winding number without GEOS or allocation. (Whole-screen analysis,
/// which needs valid polygons, resolves paths through GEOS itself.)
///
/// A path written in screen space is kept in screen space. A path written in
/// view space is kept in that view's bounds space (its own for a view node,
/// its container's for an element node) and the query maps the point in, so
/// scrolling or moving an ancestor leaves it untouched. It is flattened with
/// the tolerance divided by the view's largest stretch to the screen at fill
/// time, so that it stays within the tolerance on screen.
struct ElementShapes: Sendable {
    struct Shape: Sendable {
        var region: WindingRegion
        /// Whether `region` is in screen space (else in the view space the
        /// path was written in).
        var inScreenSpace: Bool
    }

    /// One path to fill: the node, the path in its own space, and the
    /// flattening tolerance in that space.
    struct Job: Sendable {
        var node: NodeID
        var path: BezierPath
        var inScreenSpace: Bool
        var tolerance: CGFloat
    }

    private var slots: [Int32] = []
    private var shapes: [Shape] = []
    private var freeShapes: [Int32] = []

    init(capacity: Int) { slots = Array(repeating: -1, count: capacity) }

    mutating func grow(to capacity: Int) {
        if slots.count < capacity { slots.append(contentsOf: repeatElement(-1, count: capacity - slots.count)) }
    }

    /// The filled path of `id`, or nil when it has none.
    @inline(__always)
    func shape(of id: NodeID) -> Shape? {
        let s = slots[id.index]
        return s >= 0 ? shapes[Int(s)] : nil
    }

    /// Sets or clears the shape of `id`.
    mutating func set(_ id: NodeID, _ shape: Shape?) {
        let old = slots[id.index]
        if let shape {
            if old >= 0 { shapes[Int(old)] = shape; return }
            if let free = freeShapes.popLast() {
                shapes[Int(free)] = shape
                slots[id.index] = free
            } else {
                slots[id.index] = Int32(shapes.count)
                shapes.append(shape)
            }
        } else if old >= 0 {
            shapes[Int(old)] = Shape(region: WindingRegion(rings: [], rule: .nonZero), inScreenSpace: true)
            freeShapes.append(old)
            slots[id.index] = -1
        }
    }

    /// Flattens every job's path into its region, on all cores, and stores
    /// the results. O(points) per path; no GEOS.
    mutating func fill(_ jobs: [Job]) {
        guard !jobs.isEmpty else { return }
        let regions = parallelMap(jobs.count, minimumChunk: 64, makeWorker: {}) { _, i in
            WindingRegion(rings: jobs[i].path.flattened(tolerance: jobs[i].tolerance), rule: jobs[i].path.fillRule)
        }
        for (job, region) in zip(jobs, regions) {
            set(job.node, Shape(region: region, inScreenSpace: job.inScreenSpace))
        }
    }
}
