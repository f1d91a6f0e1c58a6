import Foundation

/// The filled `accessibilityPath` of every element that has one, as plain
/// polygons: flattened and fill-rule-resolved once (through GEOS), so that a
/// query tests a point without GEOS or allocation.
///
/// A path written in screen space is kept in screen space. A path written in
/// view space is kept in that view's bounds space (its own for a view node,
/// its container's for an element node) and the query maps the point in, so
/// scrolling or moving an ancestor leaves it untouched. It is flattened with
/// the tolerance divided by the view's largest stretch to the screen at fill
/// time, so that it stays within the tolerance on screen.
struct ElementShapes: Sendable {
    struct Shape: Sendable {
        var region: PolygonSet
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
            shapes[Int(old)] = Shape(region: .empty, inScreenSpace: true)
            freeShapes.append(old)
            slots[id.index] = -1
        }
    }

    /// Fills every job, on all cores (one GEOS context per worker), and
    /// stores the results.
    ///
    /// - Throws: `TreeError` naming the node and key `accessibilityPath`
    ///   when GEOS cannot fill a path.
    mutating func fill(_ jobs: [Job], names: (NodeID) -> String) throws(TreeError) {
        guard !jobs.isEmpty else { return }
        let results = PolygonSet.filling(paths: jobs.map { ($0.path, $0.tolerance) })
        for (job, result) in zip(jobs, results) {
            switch result {
            case let .success(region):
                set(job.node, Shape(region: region, inScreenSpace: job.inScreenSpace))
            case let .failure(error):
                throw TreeError("\(error)", node: names(job.node), key: "accessibilityPath")
            }
        }
    }
}
