import Foundation

extension PolygonSet {
    /// The tolerance of `largestInscribedCircle(tolerance:)` relative to the
    /// set's size (the longer side of its bounds): 1e-4. A finer tolerance
    /// than this is not searched for, so the search depth does not grow
    /// with the coordinates' magnitude: 0.1 pt on a 1000-pt region, below
    /// the 0.01 pt the audits ask for on anything under 100 pt.
    public static let inscribedCircleRelativeTolerance = 1e-4

    /// The most cells `largestInscribedCircle(tolerance:)` evaluates:
    /// 16,384, each a point-in-set test and a nearest-edge query through the
    /// chain index (milliseconds in all), shared by the pieces of a set. A
    /// disc or a star converges in a few hundred, a rectangle needs none; a
    /// set of thousands of thin pieces, each about as wide as the widest and
    /// none a rectangle, may not, and then gets the best circle found so far.
    public static let maximumInscribedCircleCells = 1 << 14

    /// The most edges near a cell that bound it before it is split (their
    /// pairs are compared: 120 at most); a cell with more nearby is split
    /// on its plain bound.
    static let splitBoundEdges = 16

    /// The largest circle inside the set, to within a tolerance: its centre
    /// is (nearly) the point of the set farthest from the set's boundary.
    /// Nil for the empty set (or one too thin for any interior point to be
    /// found).
    ///
    /// Each polygon of the set is answered alone, widest first (see
    /// `inscribedCircle(tolerance:goal:)`); a rectangle in closed form (its
    /// centre, half its short side). Any other polygon is searched
    /// (polylabel's: square cells, best-first by the largest
    /// radius a cell could hold, `d + h√2` for a centre distance `d` and half
    /// side `h`, tightened before a cell is split by its nearby edges, so
    /// that the midline of a strip is not crawled) starts from one cell
    /// over the bounds and from the middles of the widest spans on 32 scan
    /// lines (and of the spans across them through those middles), and
    /// stops when no cell can
    /// beat the best circle by more than
    /// `max(tolerance, size × inscribedCircleRelativeTolerance)`, or after
    /// `maximumInscribedCircleCells` cells. The circle returned is always
    /// inside: its centre is in the set and its radius the centre's exact
    /// distance to the boundary. Only when the cell budget runs out may it
    /// fall short of the largest by more than the tolerance.
    ///
    /// Coordinates beyond 2^±100 are scaled by a power of two around the
    /// search (exact), so huge or tiny sets get an answer with the same
    /// relative precision.
    ///
    /// - Parameter tolerance: in the set's units; not positive, infinite or
    ///   NaN means 0.01.
    /// - Complexity: O(V log V) to split the set, index the V vertices and
    ///   seed the searches, then at most `maximumInscribedCircleCells` cells
    ///   in all, each O(log V + nearby edges) on typical data. No GEOS.
    public func largestInscribedCircle(tolerance: Double = 0.01) -> (center: CGPoint, radius: Double)? {
        var cells = Self.maximumInscribedCircleCells
        return inscribedCircle(tolerance: tolerance, goal: nil, cells: &cells)
    }

    /// A circle's centre and radius.
    typealias Circle = (center: CGPoint, radius: Double)

    /// `largestInscribedCircle(tolerance:)` and how many cells its search
    /// evaluated: the work the tests bound.
    func largestInscribedCircleCounted(tolerance: Double = 0.01) -> (circle: Circle?, cells: Int) {
        var cells = Self.maximumInscribedCircleCells
        let circle = inscribedCircle(tolerance: tolerance, goal: nil, cells: &cells)
        return (circle, Self.maximumInscribedCircleCells - cells)
    }

    /// Whether a circle of `radius` fits inside the set: the search of
    /// `largestInscribedCircle(tolerance:)`, stopped by the first circle that
    /// large or by the first cell that cannot hold one. So it says yes only
    /// for a circle it found, and no whenever the largest falls short of
    /// `radius` by more than the tolerance; in between, as the full search.
    ///
    /// - Complexity: at most that of `largestInscribedCircle(tolerance:)`,
    ///   and far less where the answer is plain (a wide region, a hairline).
    public func holdsCircle(radius: Double, tolerance: Double = 0.01) -> Bool {
        guard radius > 0 else { return !isEmpty }
        var cells = Self.maximumInscribedCircleCells
        return (inscribedCircle(tolerance: tolerance, goal: radius, cells: &cells)?.radius ?? 0) >= radius
    }

    /// `largestInscribedCircle(tolerance:)`, or with a `goal` the search of
    /// `holdsCircle(radius:tolerance:)`, taking its cells from `cells`.
    ///
    /// The largest circle lies in one polygon (they share no edge), so a
    /// set of several is searched piece by piece, widest bounds first, with
    /// one cell budget: a piece whose bounds are no wider than the best
    /// circle so far cannot beat it, nor can any after it.
    private func inscribedCircle(
        tolerance: Double, goal: Double?, cells: inout Int
    ) -> (center: CGPoint, radius: Double)? {
        if isEmpty { return nil }
        // The whole set's relative floor holds for every piece.
        let tolerance = max(
            tolerance > 0 && tolerance.isFinite ? tolerance : 0.01,
            Double(max(bounds.width, bounds.height)) * Self.inscribedCircleRelativeTolerance)
        guard polygonCount > 1 else { return pieceCircle(tolerance: tolerance, goal: goal, cells: &cells) }
        func halfShortSide(_ set: PolygonSet) -> Double { Double(min(set.bounds.width, set.bounds.height)) / 2 }
        let pieces = polygons.map { PolygonSet(polygons: [$0]) }.sorted { halfShortSide($0) > halfShortSide($1) }
        var best: (center: CGPoint, radius: Double)?
        for piece in pieces {
            if let best, halfShortSide(piece) <= best.radius || best.radius >= goal ?? .infinity { break }
            if let c = piece.pieceCircle(tolerance: tolerance, goal: goal, cells: &cells),
                c.radius > best?.radius ?? 0
            {
                best = c
            }
        }
        return best
    }

    /// The circle of one polygon (or of a set searched whole): in closed
    /// form for a rectangle, else the search, on a copy scaled by a power of
    /// two where the coordinates are extreme.
    private func pieceCircle(tolerance: Double, goal: Double?, cells: inout Int) -> (center: CGPoint, radius: Double)? {
        let bounds = self.bounds
        // A rectangle (often what a union of cells dissolves to) has its
        // answer in closed form; the search would crawl its whole midline,
        // a plateau of equal distances, cell by cell down to the tolerance.
        if isBoundsRectangle {
            return (CGPoint(x: bounds.midX, y: bounds.midY), Double(min(bounds.width, bounds.height)) / 2)
        }
        let magnitude = Double(max(abs(bounds.minX), abs(bounds.maxX), abs(bounds.minY), abs(bounds.maxY)))
        guard magnitude > 0x1p100 || magnitude < 0x1p-100 else {
            return inscribedCircleSearch(tolerance: tolerance, goal: goal, cells: &cells)
        }
        // The chain index keeps boxes as `Float` (beyond 2^127 infinite, so
        // nothing would be pruned) and squared distances overflow past
        // 2^511: search a copy scaled by 2^-k, exactly, and scale back.
        let k = magnitude.exponent
        func scale(_ p: CGPoint, _ by: Int) -> CGPoint {
            CGPoint(x: Self.scaled(p.x, by: by), y: Self.scaled(p.y, by: by))
        }
        let scaled = PolygonSet(polygons: polygons.map { $0.map { $0.map { scale($0, -k) } } })
        guard
            let circle = scaled.inscribedCircleSearch(
                tolerance: Self.scaled(tolerance, by: -k), goal: goal.map { Self.scaled($0, by: -k) }, cells: &cells)
        else { return nil }
        return (scale(circle.center, k), Self.scaled(circle.radius, by: k))
    }

    /// Whether the set is exactly its bounds: one ring, every vertex on the
    /// bounds' edges and all four corners among them. (A simple ring whose
    /// vertices lie on a convex curve visits them in order around it, so it
    /// is their hull: here, the bounds.) O(vertices).
    var isBoundsRectangle: Bool {
        guard ringCount == 1 else { return false }
        let b = bounds
        var corners = 0
        for p in ring(0).dropLast() {
            let onX = p.x == b.minX || p.x == b.maxX, onY = p.y == b.minY || p.y == b.maxY
            guard onX || onY else { return false }
            if onX && onY { corners += 1 }
        }
        return corners == 4
    }

    /// The search of `inscribedCircle(tolerance:goal:)`, for coordinates
    /// within 2^±100, taking its cells from `cells`.
    private func inscribedCircleSearch(
        tolerance: Double, goal: Double?, cells: inout Int
    ) -> (center: CGPoint, radius: Double)? {
        let chains = EdgeChains(vertices: vertices, ringStarts: ringStarts)
        let box = bounds
        let size = Double(max(box.width, box.height))
        let tolerance = max(tolerance, size * Self.inscribedCircleRelativeTolerance)
        var evaluated = 0

        /// A square cell: centre, half side, signed distance of the centre
        /// to the boundary (negative outside), the edge that distance was
        /// measured to (-1: none within the bound), and the most any point
        /// of the cell can have.
        struct Cell {
            var x: Double, y: Double, half: Double, distance: Double, edge: Int
            var potential: Double { distance + half * 2.0.squareRoot() }
        }
        /// The cell at (x, y), given a bound on its centre's distance to the
        /// boundary (the distance is 1-Lipschitz, so a parent's distance
        /// plus the step to the child will do) and an edge likely nearest
        /// (its parent's), measured first so that the search prunes from
        /// the start by a distance near the answer.
        func cell(_ x: Double, _ y: Double, _ half: Double, within bound: Double, trying hint: Int = -1) -> Cell {
            evaluated += 1
            let p = CGPoint(x: x, y: y)
            let (d, edge) = chains.nearestEdge(to: p, notBeyond: bound, trying: hint >= 0 ? hint : nil)
            // Exteriors run counterclockwise and holes clockwise, so the set
            // is left of every edge: beside its nearest edge's middle, a
            // point is inside when left of it. Nearest to a vertex (two
            // edges as near), ask `contains`, whose cost grows with the
            // edges in the point's stripe.
            let inside = edge.flatMap { chains.side(of: p, strictlyBeside: $0) }.map { $0 > 0 } ?? contains(p)
            return Cell(x: x, y: y, half: half, distance: inside ? d : -d, edge: edge ?? -1)
        }

        // Any vertex is on the boundary, so its distance bounds the root's.
        // (Bounds get a relative and an absolute margin against rounding: a
        // bound a hair too small would hide the nearest edge.)
        let cx = Double(box.midX), cy = Double(box.midY)
        let v0 = vertices[0]
        let root = cell(
            cx, cy, size / 2,
            within: ((Double(v0.x) - cx) * (Double(v0.x) - cx)
                + (Double(v0.y) - cy) * (Double(v0.y) - cy)).squareRoot() * 1.0001 + tolerance)
        var best = root
        // Seeds: the middles of the widest spans on scan lines, and of the
        // spans across those (a scan line cuts a strip anywhere; the span
        // across finds its middle). A span's middle is at most half its
        // width from the boundary.
        let rings = (0 ..< ringCount).map { Array(ring($0)) }
        var crossings: [Double] = []
        for seed in Self.scanLineCandidates(rings).prefix(4) {
            var seeds = [seed]
            for vertical in [false, true] {
                let (x, y) = (Double(seed.point.x), Double(seed.point.y))
                let along = vertical ? y : x
                let spans = Self.insideSpans(rings, at: vertical ? x : y, vertical: vertical, crossings: &crossings)
                if let span = spans.first(where: { $0.lo <= along && along <= $0.hi }), span.hi > span.lo {
                    let mid = (span.lo + span.hi) / 2
                    seeds.append((span.hi - span.lo, vertical ? CGPoint(x: x, y: mid) : CGPoint(x: mid, y: y)))
                }
            }
            for s in seeds {
                let c = cell(Double(s.point.x), Double(s.point.y), 0, within: s.width / 2 * 1.0001 + tolerance)
                if c.distance > best.distance { best = c }
            }
        }

        // A cell's potential, `d + h√2`, assumes the boundary could be
        // anywhere. Along a strip between parallel edges every point of the
        // midline is as far from the boundary, and cell centres, on a
        // lattice, never land on it: on that bound alone the search splits
        // cells along the whole midline down to the tolerance. So before a
        // cell is split, its nearby edges bound it better: a point's
        // distance to the boundary is at most its distance to any edge, and
        // so at most the mean of its distances to any two; each of those is
        // convex in the point, so over the cell it peaks at a corner.
        // Between two parallel edges the mean is the same everywhere. And
        // the point halfway between the centre's nearest points on the two
        // edges that bound it best (on the midline, for parallel edges) is
        // tried as a circle: the best circle reaches the midline, and the
        // midline's cells end.
        var near: [Int] = []
        var toCorners: [Double] = []
        func splitBound(_ c: Cell) -> (bound: Double, candidate: (point: CGPoint, within: Double)?) {
            near.removeAll(keepingCapacity: true)
            let p = CGPoint(x: c.x, y: c.y)
            let reach = abs(c.distance) + 2 * c.half * 2.0.squareRoot()
            guard
                chains.edges(near: p, within: reach * 1.0001 + tolerance, limit: Self.splitBoundEdges, into: &near)
            else { return (c.potential, nil) }
            toCorners.removeAll(keepingCapacity: true)
            var bound = c.potential
            for e in near {
                var farthest = 0.0
                for (dx, dy) in [(-1.0, -1.0), (1, -1), (-1, 1), (1, 1)] {
                    let corner = CGPoint(x: c.x + dx * c.half, y: c.y + dy * c.half)
                    let d = EdgeChains.distance(corner, vertices[e], vertices[e + 1])
                    toCorners.append(d)
                    farthest = max(farthest, d)
                }
                bound = min(bound, farthest)
            }
            var pair: (Int, Int)?, pairBound = Double.infinity
            for i in 0 ..< near.count {
                for j in i + 1 ..< near.count {
                    var mean = 0.0
                    for k in 0 ..< 4 { mean = max(mean, (toCorners[4 * i + k] + toCorners[4 * j + k]) / 2) }
                    if mean < pairBound {
                        pairBound = mean
                        pair = (near[i], near[j])
                    }
                }
            }
            bound = min(bound, pairBound)
            // Only a pair that bounds the cell (nearly) best is worth a try.
            guard let (e, f) = pair, pairBound <= bound + tolerance else { return (bound, nil) }
            let a = Self.nearestPoint(p, vertices[e], vertices[e + 1])
            let b = Self.nearestPoint(p, vertices[f], vertices[f + 1])
            let q = CGPoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
            return (bound, (q, EdgeChains.distance(q, vertices[e], vertices[e + 1])))
        }

        // With a goal: done once a circle reaches it, or once no cell can.
        let reached = goal ?? .infinity, hopeless = goal ?? -.infinity
        var queue = MaxHeap<Cell> { $0.potential < $1.potential }
        queue.push(root)
        defer { cells -= evaluated }
        while best.distance < reached, let top = queue.pop(), evaluated < cells {
            // Cells come out by potential, so none left can do better.
            if top.potential - best.distance <= tolerance || top.potential < hopeless { break }
            let (bound, candidate) = splitBound(top)
            if let q = candidate, bound - best.distance > tolerance {
                // Its distance to the boundary is at most that to one edge.
                let c = cell(Double(q.point.x), Double(q.point.y), 0, within: q.within * 1.0001 + tolerance)
                if c.distance > best.distance { best = c }
            }
            if bound - best.distance <= tolerance || bound < hopeless { continue }
            let half = top.half / 2
            let within = abs(top.distance) + half * 2.0.squareRoot() * 1.0001 + tolerance
            for (dx, dy) in [(-1.0, -1.0), (1, -1), (-1, 1), (1, 1)] {
                let child = cell(top.x + dx * half, top.y + dy * half, half, within: within, trying: top.edge)
                if child.distance > best.distance { best = child }
                if child.potential - best.distance > tolerance { queue.push(child) }
            }
        }
        guard best.distance > 0 else { return nil }
        return (CGPoint(x: best.x, y: best.y), best.distance)
    }
}

extension PolygonSet {
    /// The point of segment `ab` nearest to `p`.
    static func nearestPoint(_ p: CGPoint, _ a: CGPoint, _ b: CGPoint) -> CGPoint {
        let dx = Double(b.x - a.x), dy = Double(b.y - a.y)
        let length2 = dx * dx + dy * dy
        let t = length2 > 0 ? min(1, max(0, (Double(p.x - a.x) * dx + Double(p.y - a.y) * dy) / length2)) : 0
        return CGPoint(x: Double(a.x) + t * dx, y: Double(a.y) + t * dy)
    }
}

/// A binary heap whose `pop` returns the largest element by `less`.
struct MaxHeap<Element> {
    private var items: [Element] = []
    private let less: (Element, Element) -> Bool

    init(by less: @escaping (Element, Element) -> Bool) { self.less = less }

    /// O(log n).
    mutating func push(_ e: Element) {
        items.append(e)
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard less(items[parent], items[i]) else { break }
            items.swapAt(parent, i)
            i = parent
        }
    }

    /// The largest element, removed; nil when empty. O(log n).
    mutating func pop() -> Element? {
        guard let last = items.popLast() else { return nil }
        guard !items.isEmpty else { return last }
        let top = items[0]
        items[0] = last
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < items.count, less(items[m], items[l]) { m = l }
            if r < items.count, less(items[m], items[r]) { m = r }
            if m == i { break }
            items.swapAt(i, m)
            i = m
        }
        return top
    }
}
