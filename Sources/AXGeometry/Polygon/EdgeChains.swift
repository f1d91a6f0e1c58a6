import Foundation

/// Closed rings cut into monotone chains, with a packed R-tree over the
/// chains' boxes: bounded crossing counts, winding numbers and distances to
/// the edges, each touching only the chains near the question.
///
/// A *monotone chain* is a run of consecutive edges of one ring along which
/// neither x nor y ever reverses (GEOS's noder uses the same chains). The box
/// of any run of a chain's edges is the box of the run's two end points, so
/// two chains are compared by bisection in O(log) per meeting place rather
/// than edge by edge, and a horizontal line crosses a chain at most once.
/// Chains are also cut every `maximumChainEdges` edges, so that the tree,
/// not a walk along a long chain's big box, does the pruning.
///
/// Rings are stored as `PolygonSet` stores them: vertices back to back, each
/// ring closed (first point repeated last), ring `r` at
/// `vertices[ringStarts[r] ..< ringStarts[r + 1]]`; edge `e` runs from
/// `vertices[e]` to `vertices[e + 1]`. Coordinates must be finite, and within
/// `Float`'s range for the index to prune (the fill works at 2^30 or below).
///
/// Building is O(E) time and about 60 bytes per chain; queries allocate
/// nothing.
struct EdgeChains {
    /// One chain: edges `first ..< end` (vertices `first ... end`) of the
    /// ring whose edges are `ringFirst ..< ringEnd`.
    struct Chain {
        var first: Int
        var end: Int
        var ringFirst: Int
        var ringEnd: Int
    }

    /// The most edges in one chain.
    static let maximumChainEdges = 32

    let vertices: [CGPoint]
    let chains: [Chain]
    let tree: PackedRTree
    /// The smallest and largest x of any vertex: where rays can stop.
    let minX: Double, maxX: Double

    /// Chains over closed rings stored flat (see the type's notes). Rings
    /// with fewer than two vertices have no edges and no chains.
    init(vertices: [CGPoint], ringStarts: [Int]) {
        var chains: [Chain] = []
        var minX = Double.infinity, maxX = -Double.infinity
        for p in vertices {
            minX = min(minX, Double(p.x))
            maxX = max(maxX, Double(p.x))
        }
        for r in 0 ..< max(0, ringStarts.count - 1) {
            let ringFirst = ringStarts[r], ringEnd = ringStarts[r + 1] - 1
            guard ringEnd > ringFirst else { continue }
            var first = ringFirst
            var dx = 0.0, dy = 0.0  // the chain's directions so far (0: not yet known)
            for e in ringFirst ..< ringEnd {
                let ex = Double(vertices[e + 1].x - vertices[e].x), ey = Double(vertices[e + 1].y - vertices[e].y)
                if e - first == Self.maximumChainEdges
                    || (ex != 0 && dx != 0 && (ex > 0) != (dx > 0)) || (ey != 0 && dy != 0 && (ey > 0) != (dy > 0))
                {
                    chains.append(Chain(first: first, end: e, ringFirst: ringFirst, ringEnd: ringEnd))
                    first = e
                    dx = 0
                    dy = 0
                }
                if ex != 0 { dx = ex }
                if ey != 0 { dy = ey }
            }
            chains.append(Chain(first: first, end: ringEnd, ringFirst: ringFirst, ringEnd: ringEnd))
        }
        self.vertices = vertices
        self.chains = chains
        self.minX = minX
        self.maxX = maxX
        tree = PackedRTree(count: chains.count) { [vertices] c in
            Self.box(vertices, chains[c].first, chains[c].end)
        }
    }

    /// Chains over rings given as closed point lists (each ring's last point
    /// equals its first), as `PolygonSet.closedRings` makes them.
    init(closedRings: [[CGPoint]]) {
        var vertices: [CGPoint] = []
        var starts = [0]
        vertices.reserveCapacity(closedRings.reduce(0) { $0 + $1.count })
        for ring in closedRings {
            vertices += ring
            starts.append(vertices.count)
        }
        self.init(vertices: vertices, ringStarts: starts)
    }

    /// The box of vertices `i ... j` of one chain: that of its two ends.
    @inline(__always)
    static func box(_ v: [CGPoint], _ i: Int, _ j: Int) -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let a = v[i], b = v[j]
        return (Double(min(a.x, b.x)), Double(min(a.y, b.y)), Double(max(a.x, b.x)), Double(max(a.y, b.y)))
    }

    // MARK: Crossings

    /// What a bounded crossing count found.
    enum CrossingCount: Equatable {
        /// Every pair was examined: `crossings` pairs of edges meet.
        case complete(crossings: Int)
        /// More than the crossing limit meet.
        case tooManyCrossings(atLeast: Int)
        /// More than the work limit of box-overlapping pairs (of chains and
        /// of runs within them) had to be examined.
        case tooMuchWork(atLeast: Int)
    }

    /// Counts the pairs of edges that meet (cross, touch or overlap), other
    /// than the two edges on either side of each vertex, stopping as soon as
    /// more than `crossingLimit` are found or more than `workLimit`
    /// box-overlapping pairs (of chains, then of the halves bisection makes
    /// of them) have been examined.
    ///
    /// - Complexity: O(C log C + min(W, workLimit)) for C chains and W the
    ///   overlapping pairs the full count would examine: about
    ///   O((E + k) log E) for k crossings when chains that come close
    ///   also meet.
    func countCrossings(crossingLimit: Int, workLimit: Int) -> CrossingCount {
        var counter = CrossingCounter(vertices: vertices, crossingLimit: crossingLimit, workLimit: workLimit)
        for (i, a) in chains.enumerated() {
            let b = Self.box(vertices, a.first, a.end)
            tree.forEach(intersecting: CGRect(x: b.minX, y: b.minY, width: b.maxX - b.minX, height: b.maxY - b.minY)) {
                j in
                // Every overlapping pair is met twice (once from each side):
                // both count as work, only the second is compared.
                guard counter.spend() else { return false }
                if Int(j) < i {
                    let c = chains[Int(j)]
                    counter.meet(a.first, a.end, c.first, c.end, ring: a)
                }
                return !counter.stopped
            }
            if counter.stopped { break }
        }
        if counter.work > workLimit { return .tooMuchWork(atLeast: counter.work) }
        if counter.crossings > crossingLimit { return .tooManyCrossings(atLeast: counter.crossings) }
        return .complete(crossings: counter.crossings)
    }

    /// The state of one bounded count (a struct with mutating methods, so
    /// the recursion pays no closure-capture overhead).
    private struct CrossingCounter {
        let vertices: [CGPoint]
        let crossingLimit: Int, workLimit: Int
        var crossings = 0, work = 0
        var stopped = false

        init(vertices: [CGPoint], crossingLimit: Int, workLimit: Int) {
            self.vertices = vertices
            self.crossingLimit = crossingLimit
            self.workLimit = workLimit
        }

        /// Counts one unit of work; false (and stopped) past the limit.
        mutating func spend() -> Bool {
            work += 1
            if work > workLimit { stopped = true }
            return !stopped
        }

        /// Edges `a0 ..< a1` of one chain against edges `b0 ..< b1` of
        /// another, by halving the longer run while the boxes overlap.
        /// `ring` is the first chain's (edges of other rings are never
        /// neighbours).
        mutating func meet(_ a0: Int, _ a1: Int, _ b0: Int, _ b1: Int, ring: Chain) {
            guard !stopped, spend() else { return }
            let v = vertices
            let ba = EdgeChains.box(v, a0, a1), bb = EdgeChains.box(v, b0, b1)
            guard ba.minX <= bb.maxX, bb.minX <= ba.maxX, ba.minY <= bb.maxY, bb.minY <= ba.maxY else { return }
            if a1 - a0 == 1 && b1 - b0 == 1 {
                if !EdgeChains.adjacent(a0, b0, ring) && EdgeChains.segmentsMeet(v[a0], v[a1], v[b0], v[b1]) {
                    crossings += 1
                    if crossings > crossingLimit { stopped = true }
                }
                return
            }
            if a1 - a0 >= b1 - b0 {
                let m = (a0 + a1) / 2
                meet(a0, m, b0, b1, ring: ring)
                meet(m, a1, b0, b1, ring: ring)
            } else {
                let m = (b0 + b1) / 2
                meet(a0, a1, b0, m, ring: ring)
                meet(a0, a1, m, b1, ring: ring)
            }
        }
    }

    /// Whether edges `a` and `b` (of the same ring when `ring` says so) are
    /// neighbours along it, sharing the vertex between them.
    @inline(__always)
    static func adjacent(_ a: Int, _ b: Int, _ ring: Chain) -> Bool {
        if abs(a - b) == 1 { return true }  // consecutive indexes are always one ring's
        let lo = min(a, b), hi = max(a, b)
        return lo == ring.ringFirst && hi == ring.ringEnd - 1
    }

    /// Whether closed segments `ab` and `cd` share a point.
    @inline(__always)
    static func segmentsMeet(_ a: CGPoint, _ b: CGPoint, _ c: CGPoint, _ d: CGPoint) -> Bool {
        let o1 = orientation(a, b, c), o2 = orientation(a, b, d)
        let o3 = orientation(c, d, a), o4 = orientation(c, d, b)
        if o1 * o2 < 0 && o3 * o4 < 0 { return true }
        return (o1 == 0 && within(c, a, b)) || (o2 == 0 && within(d, a, b))
            || (o3 == 0 && within(a, c, d)) || (o4 == 0 && within(b, c, d))
    }

    /// The sign of the turn `a → b → c` (-1, 0, 1).
    @inline(__always)
    static func orientation(_ a: CGPoint, _ b: CGPoint, _ c: CGPoint) -> Double {
        let v = Double(b.x - a.x) * Double(c.y - a.y) - Double(b.y - a.y) * Double(c.x - a.x)
        return v > 0 ? 1 : v < 0 ? -1 : 0
    }

    /// Whether `p`, collinear with `ab`, lies within its box.
    @inline(__always)
    static func within(_ p: CGPoint, _ a: CGPoint, _ b: CGPoint) -> Bool {
        min(a.x, b.x) <= p.x && p.x <= max(a.x, b.x) && min(a.y, b.y) <= p.y && p.y <= max(a.y, b.y)
    }

    // MARK: Point queries

    /// The winding number of `p` (Sunday's rule): each edge crossing the
    /// horizontal line through `p` with `p` on its left counts +1 going up,
    /// -1 going down. The ray runs to the nearer side of the vertices' x
    /// range; towards -x the signs flip (a closed ring crosses the whole
    /// line as often up as down).
    ///
    /// - Complexity: O(log C + chains whose box the ray meets, times the
    ///   log of their length): a chain is monotone in y, so the one edge of
    ///   it that can cross the line is found by binary search.
    func winding(at p: CGPoint) -> Int {
        let px = Double(p.x), py = Double(p.y)
        guard minX <= px, px <= maxX else { return 0 }
        let leftward = px - minX < maxX - px
        var winding = 0
        let v = vertices
        let ray =
            leftward
            ? CGRect(x: minX, y: py, width: px - minX, height: 0)
            : CGRect(x: px, y: py, width: maxX - px, height: 0)
        tree.forEach(intersecting: ray) { c in
            guard let e = crossing(chains[Int(c)], py) else { return true }
            let a = v[e], b = v[e + 1]
            let side = Double(b.x - a.x) * (py - Double(a.y)) - (px - Double(a.x)) * Double(b.y - a.y)
            let upward = Double(a.y) <= py
            if leftward {
                if upward { if side < 0 { winding -= 1 } } else if side > 0 { winding += 1 }
            } else {
                if upward { if side > 0 { winding += 1 } } else if side < 0 { winding -= 1 }
            }
            return true
        }
        return winding
    }

    /// The ring (an index into `ringStarts`, as given to `init`) with the
    /// edge that a ray from `p` towards -x meets first, not counting ring
    /// `excluded` or edges through `p`; nil when it meets none.
    ///
    /// - Complexity: as `winding(at:)`, for the ray towards -x.
    func ringMetLeft(of p: CGPoint, ringStarts: [Int], excluding excluded: Int) -> Int? {
        let px = Double(p.x), py = Double(p.y)
        guard minX < px else { return nil }
        var nearest = -Double.infinity, edge: Int?
        let v = vertices
        tree.forEach(intersecting: CGRect(x: minX, y: py, width: px - minX, height: 0)) { c in
            let chain = chains[Int(c)]
            guard chain.ringFirst != ringStarts[excluded], let e = crossing(chain, py) else { return true }
            let a = v[e], b = v[e + 1]
            let x = Double(a.x) + (py - Double(a.y)) / Double(b.y - a.y) * Double(b.x - a.x)
            if x < px, x > nearest {
                nearest = x
                edge = e
            }
            return true
        }
        guard let edge else { return nil }
        // The ring r with ringStarts[r] <= edge < ringStarts[r + 1].
        var lo = 0, hi = ringStarts.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if ringStarts[mid] <= edge { lo = mid } else { hi = mid }
        }
        return lo
    }

    /// The edge of `chain` that crosses the horizontal line at `y` (one end
    /// at or below `y`, the other above, as the crossing rule counts them),
    /// if any. A chain is monotone in y, so it has at most one, found by
    /// binary search in O(log length).
    @inline(__always)
    func crossing(_ chain: Chain, _ y: Double) -> Int? {
        let v = vertices
        var lo = chain.first, hi = chain.end
        let below = Double(v[lo].y) <= y
        guard below != (Double(v[hi].y) <= y) else { return nil }
        // Invariant: vertex lo is on the `below` side, vertex hi is not.
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if (Double(v[mid].y) <= y) == below { lo = mid } else { hi = mid }
        }
        return lo
    }

    /// The distance from `p` to the nearest edge when that is less than
    /// `bound`, else `bound` (an upper bound the caller knows, such as the
    /// distance to any vertex): only chains within `bound` are looked at.
    ///
    /// - Complexity: O(log C + chains whose box is within `bound` of `p`,
    ///   times the log of their length) on typical data.
    func distance(to p: CGPoint, notBeyond bound: Double) -> Double {
        nearestEdge(to: p, notBeyond: bound).distance
    }

    /// `distance(to:notBeyond:)` and the edge at that distance (nil when
    /// none is nearer than `bound`). `hint`, an edge likely nearest, is
    /// measured first, so that the search prunes by a distance near the
    /// answer from the start; the answer is the same without it (but for
    /// which of two edges as near is named).
    func nearestEdge(to p: CGPoint, notBeyond bound: Double, trying hint: Int? = nil) -> (distance: Double, edge: Int?)
    {
        let px = Double(p.x), py = Double(p.y)
        var best = bound
        var edge: Int?
        // An edge likely nearest, measured first: the search then prunes by
        // a distance near the answer, and looks only for a strictly nearer one.
        if let h = hint {
            let d = Self.distance(p, vertices[h], vertices[h + 1])
            if d < best {
                best = d
                edge = h
            }
        }
        tree.forEach(intersecting: CGRect(x: px - best, y: py - best, width: 2 * best, height: 2 * best)) { c in
            let first = chains[Int(c)].first, end = chains[Int(c)].end
            if Self.gap(vertices, first, end, px, py) < best * best {
                Self.nearest(vertices, first, end, px, py, &best, &edge)
            }
            return true
        }
        return (best, edge)
    }

    /// Appends to `out` the edges within `radius` of `p`; false (with `out`
    /// then holding more than `limit`) as soon as more than `limit` are.
    ///
    /// - Complexity: as `nearestEdge(to:notBeyond:)` with `radius` for the
    ///   bound, stopping after `limit + 1` edges.
    func edges(near p: CGPoint, within radius: Double, limit: Int, into out: inout [Int]) -> Bool {
        let px = Double(p.x), py = Double(p.y)
        var fits = true
        tree.forEach(intersecting: CGRect(x: px - radius, y: py - radius, width: 2 * radius, height: 2 * radius)) {
            c in
            fits = Self.gather(vertices, chains[Int(c)].first, chains[Int(c)].end, px, py, radius, limit, &out)
            return fits
        }
        return fits
    }

    /// `edges(near:within:limit:into:)` over edges `i ..< j` of a chain,
    /// halving the run while its box is within `radius`.
    private static func gather(
        _ v: [CGPoint], _ i: Int, _ j: Int, _ px: Double, _ py: Double, _ radius: Double, _ limit: Int,
        _ out: inout [Int]
    ) -> Bool {
        let b = box(v, i, j)
        let gx = max(b.minX - px, 0, px - b.maxX), gy = max(b.minY - py, 0, py - b.maxY)
        guard gx * gx + gy * gy <= radius * radius else { return true }
        if j - i == 1 {
            guard distance(CGPoint(x: px, y: py), v[i], v[j]) <= radius else { return true }
            out.append(i)
            return out.count <= limit
        }
        let m = (i + j) / 2
        return gather(v, i, m, px, py, radius, limit, &out) && gather(v, m, j, px, py, radius, limit, &out)
    }

    /// Lowers `best` to the distance from (px, py) to edges `i ..< j` of a
    /// chain where nearer (and sets `edge`), for a run whose box is nearer
    /// than `best`: halving it (a diagonal chain's box holds many points far
    /// from it), the nearer half first, so that `best` falls before the
    /// other half is judged.
    private static func nearest(
        _ v: [CGPoint], _ i: Int, _ j: Int, _ px: Double, _ py: Double,
        _ best: inout Double, _ edge: inout Int?
    ) {
        if j - i == 1 {
            let d = distance(CGPoint(x: px, y: py), v[i], v[j])
            if d < best {
                best = d
                edge = i
            }
            return
        }
        let m = (i + j) / 2
        let low = gap(v, i, m, px, py), high = gap(v, m, j, px, py)
        if low <= high {
            if low < best * best { nearest(v, i, m, px, py, &best, &edge) }
            if high < best * best { nearest(v, m, j, px, py, &best, &edge) }
        } else {
            if high < best * best { nearest(v, m, j, px, py, &best, &edge) }
            if low < best * best { nearest(v, i, m, px, py, &best, &edge) }
        }
    }

    /// The squared distance from (px, py) to the box of edges `i ..< j` of
    /// a chain.
    @inline(__always)
    private static func gap(_ v: [CGPoint], _ i: Int, _ j: Int, _ px: Double, _ py: Double) -> Double {
        let b = box(v, i, j)
        let gx = max(b.minX - px, 0, px - b.maxX), gy = max(b.minY - py, 0, py - b.maxY)
        return gx * gx + gy * gy
    }

    /// Which side of edge `e` the point is on when its nearest point on the
    /// edge lies strictly between the ends: +1 left, -1 right; nil when the
    /// nearest point is an end (where another edge may be as near) or the
    /// point is on the edge's line.
    func side(of p: CGPoint, strictlyBeside e: Int) -> Int? {
        let a = vertices[e], b = vertices[e + 1]
        let dx = Double(b.x - a.x), dy = Double(b.y - a.y)
        let qx = Double(p.x - a.x), qy = Double(p.y - a.y)
        let along = qx * dx + qy * dy
        guard along > 0, along < dx * dx + dy * dy else { return nil }
        let cross = dx * qy - dy * qx
        return cross > 0 ? 1 : cross < 0 ? -1 : nil
    }

    /// The distance from `p` to the closed segment `ab`.
    @inline(__always)
    static func distance(_ p: CGPoint, _ a: CGPoint, _ b: CGPoint) -> Double {
        let px = Double(p.x), py = Double(p.y), ax = Double(a.x), ay = Double(a.y)
        let dx = Double(b.x) - ax, dy = Double(b.y) - ay
        let length2 = dx * dx + dy * dy
        let t = length2 > 0 ? min(1, max(0, ((px - ax) * dx + (py - ay) * dy) / length2)) : 0
        let ex = ax + t * dx - px, ey = ay + t * dy - py
        return (ex * ex + ey * ey).squareRoot()
    }
}
