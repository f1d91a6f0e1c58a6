import Foundation

/// A y-stripe edge index over closed rings stored flat (as tidwall/tg's
/// "ystripes"): the bounding box's height is cut into equal stripes, and each
/// stripe lists the non-horizontal edges whose half-open y-span `[minY, maxY)`
/// meets it. A point query then tests only the edges of its own stripe.
///
/// Edge `e` runs from `vertices[e]` to `vertices[e + 1]` of the owning
/// `PolygonSet` (rings are stored closed, so that pair never spans two rings).
/// Built whole in `init`; queries allocate nothing.
struct EdgeStripes: Sendable {
    /// The y of the bottom of stripe 0.
    let minY: Double
    /// Stripes per unit of y: stripe of `y` is `Int((y - minY) * scale)`.
    let scale: Double
    /// Stripe `s` lists `edges[stripeStarts[s] ..< stripeStarts[s + 1]]`.
    let stripeStarts: [Int32]
    /// Edge ids (indexes of the edge's first vertex), grouped by stripe.
    let edges: [Int32]

    static let empty = EdgeStripes(minY: 0, scale: 0, stripeStarts: [0], edges: [])

    private init(minY: Double, scale: Double, stripeStarts: [Int32], edges: [Int32]) {
        self.minY = minY
        self.scale = scale
        self.stripeStarts = stripeStarts
        self.edges = edges
    }

    var stripeCount: Int { stripeStarts.count - 1 }

    /// The stripe holding `y`, for `y` within the indexed height. Monotone in
    /// `y` (one formula for building and querying), so an edge registered
    /// from the stripe of its lower end to that of its upper end is found by
    /// every query point within its span.
    @inline(__always)
    func stripe(of y: Double) -> Int {
        let s = (y - minY) * scale
        // The guard keeps Int(_:) from trapping on NaN or out-of-range values.
        guard s > 0 else { return 0 }
        let last = stripeCount - 1
        return s < Double(last) ? Int(s) : last
    }

    /// Indexes every non-horizontal edge `vertices[e] -> vertices[e + 1]`
    /// where `e` and `e + 1` are in the same ring (`ringStarts` as in
    /// `PolygonSet`). O(E + S + entries) time and memory; the stripe count is
    /// halved until the entries stay within a small multiple of the edges, so
    /// tall edges (a comb's teeth) cannot blow up memory.
    init(vertices: [CGPoint], ringStarts: [Int], minY: Double, maxY: Double) {
        var ids: [Int32] = []
        for r in 0 ..< max(0, ringStarts.count - 1) {
            let lo = ringStarts[r], hi = ringStarts[r + 1]
            guard hi - lo >= 2 else { continue }
            for e in lo ..< (hi - 1) where vertices[e].y != vertices[e + 1].y {
                ids.append(Int32(truncatingIfNeeded: e))
            }
        }
        guard !ids.isEmpty else {
            self = .empty
            return
        }
        // A height that overflows (coordinates near ±1e308) gets one stripe
        // holding every edge: slow but right.
        let height = maxY - minY
        let usable = height > 0 && height.isFinite
        // About two edges per stripe for a round shape; few stripes for quads.
        var count = usable ? min(max(ids.count / 2, 1), 1 << 16) : 1
        let budget = 8 * ids.count + 64
        while true {
            let candidate = EdgeStripes(
                minY: minY, scale: usable ? Double(count) / height : 0,
                stripeStarts: Array(repeating: 0, count: count + 1), edges: [])
            var total = 0
            for e in ids {
                let (a, b) = candidate.span(of: Int(e), in: vertices)
                total += b - a + 1
            }
            if total <= budget || count == 1 {
                self = EdgeStripes.fill(candidate, ids: ids, vertices: vertices, total: total)
                return
            }
            count = max(1, count / 2)
        }
    }

    /// The first and last stripe an edge's y-span meets.
    @inline(__always)
    private func span(of e: Int, in vertices: [CGPoint]) -> (Int, Int) {
        let y0 = Double(vertices[e].y), y1 = Double(vertices[e + 1].y)
        return (stripe(of: min(y0, y1)), stripe(of: max(y0, y1)))
    }

    /// Counting sort of the edges into the candidate's stripes.
    private static func fill(_ shape: EdgeStripes, ids: [Int32], vertices: [CGPoint], total: Int) -> EdgeStripes {
        let n = shape.stripeCount
        var starts = [Int32](repeating: 0, count: n + 1)
        for e in ids {
            let (a, b) = shape.span(of: Int(e), in: vertices)
            for s in a ... b { starts[s + 1] += 1 }
        }
        for s in 0 ..< n { starts[s + 1] += starts[s] }
        var cursor = starts
        var edges = [Int32](repeating: 0, count: total)
        for e in ids {
            let (a, b) = shape.span(of: Int(e), in: vertices)
            for s in a ... b {
                edges[Int(cursor[s])] = e
                cursor[s] += 1
            }
        }
        return EdgeStripes(minY: shape.minY, scale: shape.scale, stripeStarts: starts, edges: edges)
    }
}
