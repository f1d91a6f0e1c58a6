import AXGeometry
import Foundation

/// The `accessibilityPath` of every element that has one, flattened once
/// into winding regions, so that a query tests a point by its winding
/// number without GEOS or allocation. (Whole-screen analysis, which needs
/// valid polygons, resolves paths through GEOS itself.)
///
/// The regions are `WindingRecord`s packed into a `WindingRegionStore`: a
/// query reads a node's slot and summary, and near the path a few cache
/// lines of one record, rather than copying a struct of arrays (a retain and
/// release each) and chasing an edge index into vertices.
///
/// A path written in screen space is kept in screen space. A path written in
/// view space is kept in that view's bounds space (its own for a view node,
/// its container's for an element node) and the query maps the point in, so
/// scrolling or moving an ancestor leaves it untouched. It is flattened with
/// the tolerance divided by the view's largest stretch to the screen at fill
/// time, so that it stays within the tolerance on screen.
struct ElementShapes: Sendable {
    /// A node's filled path, borrowed from the store.
    struct Shape {
        let region: WindingRegionStore.Region
        /// Whether `region` is in screen space (else in the view space the
        /// path was written in).
        @inline(__always) var inScreenSpace: Bool { region.tag }
    }

    /// One path to fill: the node, the path in its own space, and the
    /// flattening tolerance in that space.
    struct Job: Sendable {
        var node: NodeID
        var path: BezierPath
        var inScreenSpace: Bool
        var tolerance: CGFloat
    }

    private var store: WindingRegionStore

    /// Jobs filled between two copies into the store.
    static let jobsPerRound = 4096

    init(capacity: Int) { store = WindingRegionStore(capacity: capacity) }

    mutating func grow(to capacity: Int) { store.grow(to: capacity) }

    /// Bytes held: the flattened paths, and four per node once any node
    /// has one.
    var memoryBytes: Int { store.memoryBytes }

    /// The filled path of `id`, or nil when it has none.
    @inline(__always)
    func shape(of id: NodeID) -> Shape? {
        store.region(id.index).map { Shape(region: $0) }
    }

    /// Clears the shape of `id`: `set(id, nil)`, as callers wrote it when a
    /// shape could be set here too (now that goes through `fill`).
    mutating func set(_ id: NodeID, _ shape: Never?) {
        store.set(id.index, nil)
    }

    /// Flattens every job's path into its region, on all cores, and stores
    /// the results. O(points) per path; no GEOS. Jobs go in rounds, so that
    /// only a round's records wait, unpacked, to be copied into the store.
    ///
    /// A path is checked against `BezierPath.maximumFlattenedPoints` when it
    /// enters a tree (`ValueRules.pathProblem`, at the screen's tolerance);
    /// one written in a view scaled up so far that its finer tolerance goes
    /// over the budget fills nothing (it is hit nowhere) rather than
    /// allocating without bound. So does every path past `pointBudget`
    /// (`ElementTree.pathPointBudget`), counting what the store holds (two
    /// words a point, conservatively) and each job's flattened points in
    /// order.
    mutating func fill(_ jobs: [Job], pointBudget: Int) {
        var points = store.liveWords / 2
        let admitted = jobs.map { job -> Bool in
            points += job.path.flattenedPointCount(tolerance: job.tolerance)
            return points <= pointBudget
        }
        let round = Self.jobsPerRound
        for start in stride(from: 0, to: jobs.count, by: round) {
            let end = min(jobs.count, start + round)
            let records = parallelMap(end - start, minimumChunk: 16, makeWorker: {}) { _, i in
                let job = jobs[start + i]
                let rings =
                    admitted[start + i]
                    ? (try? job.path.flattened(
                        tolerance: job.tolerance, maximumPoints: BezierPath.maximumFlattenedPoints)) ?? [] : []
                return WindingRecord.make(rings: rings, rule: job.path.fillRule, tag: job.inScreenSpace)
            }
            store.set(jobs[start ..< end].map(\.node.index), records)
        }
    }
}
