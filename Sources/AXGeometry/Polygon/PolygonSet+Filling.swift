import Foundation

extension PolygonSet {
    /// The coordinate magnitude GEOS works at: larger (or much smaller)
    /// input is scaled by an exact power of two into this range and the
    /// result scaled back, so any finite coordinates get an answer with the
    /// same relative precision (the snapping grid is relative anyway).
    static let workingMagnitude: Double = 0x1p30

    /// The most edges a fill takes (points of all rings, each closed):
    /// 262,144. A circle flattened to exactly this many takes 1.6 s and
    /// 111 MB through `axhit shape` (most of it GEOS's noding and the WKT);
    /// a screen's paths have hundreds to thousands of edges.
    public static let maximumFillEdges = 1 << 18

    /// The most pairs of edges that may cross or touch in one fill: 20,000.
    /// Each crossing adds a vertex to the noded linework and about one face
    /// to classify, and the answer can be as large as the crossings (a grid
    /// of strips has a hole at nearly every one), so this bounds time,
    /// memory and output size together. Near the budget, 70 + 70 crossing
    /// strips (19,741 crossings) fill in 1.0 s and 74 MB with 1.7 MB of WKT
    /// through `axhit shape`, 160 looping cubics (20,559) in about 2 s, and
    /// a comb crossing its closing edge 19,999 times in 2.2 s (crossings
    /// found in order along one line, GEOS's worst order: 14 s before
    /// `scrambledPieces(of:)`).
    /// Real shapes (icons, glyphs, rounded rects) cross themselves a
    /// handful of times.
    public static let maximumFillCrossings = 20_000

    /// The most box-overlapping pairs (of monotone edge chains, and of the
    /// halves bisection makes of them) a fill's crossing count may examine:
    /// 4,194,304, about 0.1 s. GEOS's noder examines much the same pairs,
    /// and its snap rounding visits every vertex in each segment's box, so
    /// edges that pass close to many others without crossing them (long
    /// chords over a dense curve, nested arcs) are refused here rather than
    /// noded for seconds or minutes. Ordinary shapes need a few per chain.
    public static let maximumFillCandidatePairs = 1 << 22

    /// The region a path's rings fill under `rule`, as a valid polygon set.
    ///
    /// Each ring is a point list in any one coordinate space (for
    /// hit-testing, screen points), implicitly closed (the last point is not
    /// repeated, though it may be); an open subpath is filled as if closed,
    /// as every fill is. Rings may repeat points, self-intersect, and overlap
    /// each other in either direction. Rings with fewer than 3 distinct
    /// points enclose nothing and are dropped; if nothing encloses any area
    /// (no rings, a point, a line, zero area) the result is `.empty`.
    ///
    /// Method: the inner vertices of straight runs (within half a
    /// snap-rounding cell of a line) are dropped (`straightened`); the edges
    /// are cut into monotone chains and their crossings counted (refused
    /// above the budgets). One ring that meets itself nowhere (no crossing,
    /// no spike) is its own fill, as it is, under either rule; rings that
    /// meet nowhere nest, and their fill follows from the nesting
    /// (`fillingNested(_:rule:)`: a ring icon, a glyph's counters). Otherwise all
    /// ring linework is snap-rounded, noded
    /// (in scrambled pieces, `scrambledPieces(of:)`) and polygonized by
    /// GEOS into faces; each face's winding number is computed at an
    /// interior point against the (straightened) rings; the faces the rule
    /// fills are dissolved by cancelling the edges two of them share and
    /// linking the rest into rings (`dissolving(faces:)`). Snap rounding uses
    /// a grid of 2^(e−44), where 2^e ≤ the largest coordinate magnitude (256
    /// ulps of it; 3e-11 to 6e-11 for screen coordinates in the hundreds to
    /// low thousands): the result's vertices lie on that grid, and features
    /// thinner than a cell or two may collapse and be dropped (a simple
    /// ring's vertices stay where they were).
    ///
    /// Huge or tiny coordinates (1e300, 1e-300) are scaled by a power of two
    /// around GEOS, which is exact: the answer keeps the same relative
    /// precision at every scale.
    ///
    /// Budgets: at most `maximumFillEdges` edges, `maximumFillCrossings`
    /// pairs of edges that cross or touch, and `maximumFillCandidatePairs`
    /// close pairs examined while counting them, each checked before GEOS
    /// runs.
    ///
    /// Complexity: O((E + k) log E) for E edges and k crossings when edges
    /// that come close also cross (at most the candidate-pair budget of
    /// counting otherwise), plus the winding tests: one ray per face through
    /// the chain index. Space O(E + k). Creates and frees its own GEOS
    /// context; nothing is printed.
    ///
    /// - Throws: `GeometryError.coordinateOutOfRange` for a coordinate that
    ///   is not finite; `GeometryError.overBudget` naming the budget and the
    ///   count when one is exceeded; `GeometryError.geos` if GEOS fails.
    public static func filling(rings: [[CGPoint]], rule: FillRule) throws -> PolygonSet {
        let closed = try closedRings(rings)
        if closed.isEmpty { return .empty }
        let context = try GEOSContext()
        return try filling(closedRings: closed, rule: rule, context: context)
    }

    /// The region `path` fills by its own fill rule, flattened within
    /// `tolerance` (as `BezierPath.flattened(tolerance:)`): what
    /// `filling(rings:rule:)` gives for its rings, except that a path that
    /// would flatten to more than `maximumFillEdges` points is refused
    /// before it is flattened.
    ///
    /// - Complexity: O(elements), then as `filling(rings:rule:)`.
    /// - Throws: `GeometryError.toleranceBelowMinimum` for a tolerance below
    ///   `BezierPath.minimumFillTolerance` (0, negatives and NaN included),
    ///   before anything is counted; `GeometryError.overBudget(.fillEdges, ...)`
    ///   for a path that flattens to too many points, else as
    ///   `filling(rings:rule:)`.
    public static func filling(
        path: BezierPath, tolerance: CGFloat = BezierPath.defaultFlatteningTolerance
    )
        throws(GeometryError) -> PolygonSet
    {
        let rings = try flattenedForFilling(path, tolerance: tolerance)
        return try RegionBuilder.mapped("fill") { try filling(rings: rings, rule: path.fillRule) }
    }

    /// `path.flattened(tolerance:)`, refused before flattening when the
    /// tolerance is below `BezierPath.minimumFillTolerance` or its point
    /// count (each point one edge of a closed ring) is over
    /// `maximumFillEdges`.
    static func flattenedForFilling(_ path: BezierPath, tolerance: CGFloat) throws(GeometryError) -> [[CGPoint]] {
        // Checked first: a tolerance of 1e-300 would otherwise be refused
        // as a path too complex, blaming the path for the number.
        guard tolerance >= BezierPath.minimumFillTolerance else {
            throw .toleranceBelowMinimum(tolerance: Double(tolerance))
        }
        let count = path.flattenedPointCount(tolerance: tolerance)
        guard count <= maximumFillEdges else { throw .overBudget(.fillEdges, count: count, limit: maximumFillEdges) }
        return path.flattened(tolerance: tolerance)
    }

    /// `filling(rings:rule:)` in a caller's context, so a builder resolves
    /// many paths with one context.
    static func filling(rings: [[CGPoint]], rule: FillRule, context: GEOSContext) throws -> PolygonSet {
        let closed = try closedRings(rings)
        if closed.isEmpty { return .empty }
        return try filling(closedRings: closed, rule: rule, context: context)
    }

    /// The rings checked, closed and freed of consecutive repeats; rings
    /// with fewer than 3 distinct points are dropped (they bound no area and
    /// add nothing to any winding number off their own points).
    static func closedRings(_ rings: [[CGPoint]]) throws -> [[CGPoint]] {
        var out: [[CGPoint]] = []
        for (r, ring) in rings.enumerated() {
            for (i, p) in ring.enumerated() where !(p.x.isFinite && p.y.isFinite) {
                throw GeometryError.coordinateOutOfRange(ring: r, point: i)
            }
            if let closed = cleanRing(ring) { out.append(closed) }
        }
        return out
    }

    /// Checks the edge budget, then fills at GEOS's working magnitude.
    private static func filling(
        closedRings rings: [[CGPoint]], rule: FillRule,
        context: GEOSContext
    ) throws -> PolygonSet {
        let edges = rings.reduce(0) { $0 + $1.count - 1 }
        guard edges <= maximumFillEdges else {
            throw GeometryError.overBudget(.fillEdges, count: edges, limit: maximumFillEdges)
        }
        var magnitude = 0.0
        for ring in rings {
            for p in ring { magnitude = max(magnitude, abs(Double(p.x)), abs(Double(p.y))) }
        }
        // Far from GEOS's comfortable range: scale by 2^k (exact), fill, scale back.
        guard magnitude > 0, magnitude > workingMagnitude * 1024 || magnitude < workingMagnitude / 0x1p40 else {
            return try filling(workingRings: rings, magnitude: magnitude, rule: rule, context: context)
        }
        let k = magnitude.exponent - workingMagnitude.exponent
        func scale(_ ring: [CGPoint], _ by: Int) -> [CGPoint] {
            ring.map { CGPoint(x: Self.scaled($0.x, by: by), y: Self.scaled($0.y, by: by)) }
        }
        let scaledRings = rings.map { scale($0, -k) }
        let region = try filling(
            workingRings: scaledRings, magnitude: Self.scaled(magnitude, by: -k),
            rule: rule, context: context)
        return PolygonSet(polygons: region.polygons.map { $0.map { scale($0, k) } })
    }

    /// The fill of closed rings whose largest coordinate magnitude is
    /// `magnitude`, within GEOS's working range.
    private static func filling(
        workingRings rings: [[CGPoint]], magnitude: Double, rule: FillRule,
        context: GEOSContext
    ) throws -> PolygonSet {
        let grid = gridSize(forMagnitude: magnitude)
        // Vertices of straight runs go first: snap rounding would merge them
        // anyway, and GEOS's noder is quadratic in the nodes it finds along
        // one line (a curve whose control point lies on its chord flattens
        // to thousands of such vertices, each touching the closing edge).
        let rings = rings.compactMap { straightened($0, tolerance: grid / 2) }
        if rings.isEmpty { return .empty }
        let chains = EdgeChains(closedRings: rings)
        switch chains.countCrossings(crossingLimit: maximumFillCrossings, workLimit: maximumFillCandidatePairs) {
        case .complete(crossings: 0) where !rings.contains(where: foldsBack):
            // Simple rings (no two edges meet but neighbours at their
            // vertex, none turning straight back): one fills itself under
            // either rule, several nest (`fillingNested`); no noding, no
            // GEOS, and their vertices as they are.
            if rings.count == 1 { return PolygonSet(simpleRing: rings[0]) }
            if let nested = fillingNested(rings, rule: rule) { return nested }
        case .complete: break
        case let .tooManyCrossings(count):
            throw GeometryError.overBudget(.fillCrossings, count: count, limit: maximumFillCrossings)
        case let .tooMuchWork(count):
            throw GeometryError.overBudget(.fillCandidatePairs, count: count, limit: maximumFillCandidatePairs)
        }
        // Snapping moves edges by up to a cell, so a sample point must be
        // clear of every original edge by more than that for its winding
        // number to be the face's.
        let clearance = 2 * grid
        /// Whether the rule fills `face` (nil: no clear interior point, a
        /// face thinner than the grid, whose omission changes nothing visible).
        func filled(_ face: GEOSObject) throws -> Bool? {
            try faceWinding(face, chains: chains, clearance: clearance, context: context).map(rule.fills)
        }
        let lines = try context.collection(
            .multiLineString, taking: scrambledPieces(of: rings).map { try context.lineString(Array($0)) })
        // Snap-rounded union nodes and dissolves the linework robustly:
        // edges an ulp apart (which float noding leaves crossing, so that the
        // polygonizer drops whole faces as invalid rings) land on one grid line.
        let noded = try context.unaryUnion(lines, gridSize: grid)
        var kept: [[[CGPoint]]] = []
        for face in try context.parts(of: context.polygonize(noded)) where try filled(face) == true {
            kept += try context.polygons(face)
        }
        return dissolving(faces: kept)
    }

    /// Whether closed `ring` turns straight back at a vertex (its two edges
    /// there overlap: a spike, which the crossing count, skipping
    /// neighbours, does not see).
    static func foldsBack(_ ring: [CGPoint]) -> Bool {
        let n = ring.count - 1  // the last point repeats the first
        guard n >= 3 else { return true }
        for i in 0 ..< n {
            let a = ring[(i + n - 1) % n], b = ring[i], c = ring[i + 1]
            let ux = Double(b.x - a.x), uy = Double(b.y - a.y), vx = Double(c.x - b.x), vy = Double(c.y - b.y)
            if ux * vy - uy * vx == 0 && ux * vx + uy * vy < 0 { return true }
        }
        return false
    }

    /// The edges of each piece `scrambledPieces(of:)` cuts.
    static let linePieceEdges = 32

    /// The rings' linework as GEOS nodes it: runs of `linePieceEdges`
    /// consecutive edges, in a fixed scrambled order (the same every run).
    ///
    /// Why: GEOS's snap-rounding noder keeps the nodes it finds in a k-d
    /// tree it never rebalances, inserted in the order it finds them, which
    /// follows the linework's. Nodes found in order along one line (a zigzag
    /// crossing its own closing edge 20,000 times) make that tree a list
    /// and the noding quadratic: 11.5 s for the ring whole, 0.4 s in
    /// scrambled pieces (and a circle of 262,141 edges 0.84 s against 0.72).
    /// The pieces change nothing but the order.
    static func scrambledPieces(of rings: [[CGPoint]]) -> [ArraySlice<CGPoint>] {
        var pieces: [ArraySlice<CGPoint>] = []
        for ring in rings {
            var a = 0
            while a < ring.count - 1 {
                let b = min(a + linePieceEdges, ring.count - 1)
                pieces.append(ring[a ... b])
                a = b
            }
        }
        // Fisher–Yates from a fixed seed (SplitMix64's steps).
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for i in stride(from: pieces.count - 1, to: 0, by: -1) {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            pieces.swapAt(i, Int(z % UInt64(i + 1)))
        }
        return pieces
    }

    /// `closed` without the inner vertices of its straight runs: a run from
    /// a kept vertex `a` to a later vertex `d` is replaced by the edge `ad`
    /// when every vertex between lies within `tolerance` of that edge and
    /// farther from `a` than the one before it (so a run that turns back is
    /// kept at its turn). The filled region moves by at most `tolerance`.
    /// Nil when fewer than 3 distinct vertices remain (no area).
    ///
    /// Method: the directions from `a` that pass within `tolerance` of every
    /// vertex so far form a wedge, narrowed by each vertex taken; a vertex
    /// whose own direction leaves the wedge (or that comes nearer to `a`)
    /// ends the run. O(n), one `atan2` and `asin` per vertex.
    static func straightened(_ closed: [CGPoint], tolerance: Double) -> [CGPoint]? {
        guard closed.count >= 4 else { return nil }
        var out: [CGPoint] = [closed[0]]
        out.reserveCapacity(closed.count)
        var a = closed[0]
        // The run's last vertex (not yet kept), its distance from `a`, and
        // the wedge of directions (relative to `base`) that serve the run.
        var last = closed[1]
        var lastDistance = 0.0
        var base = 0.0, low = -Double.pi, high = Double.pi
        func start(_ p: CGPoint) {
            let dx = Double(p.x - a.x), dy = Double(p.y - a.y)
            last = p
            lastDistance = (dx * dx + dy * dy).squareRoot()
            base = atan2(dy, dx)
            (low, high) = (-Double.pi, Double.pi)
            narrow(by: lastDistance, 0)
        }
        /// Narrows the wedge to the directions within `tolerance` of a
        /// vertex at `distance` from `a` and `angle` from `base`.
        func narrow(by distance: Double, _ angle: Double) {
            guard distance > tolerance else { return }
            let spread = asin(tolerance / distance)
            low = max(low, angle - spread)
            high = min(high, angle + spread)
        }
        start(closed[1])
        for p in closed[2...] {
            let dx = Double(p.x - a.x), dy = Double(p.y - a.y)
            let distance = (dx * dx + dy * dy).squareRoot()
            var angle = atan2(dy, dx) - base
            if angle > Double.pi { angle -= 2 * Double.pi } else if angle < -Double.pi { angle += 2 * Double.pi }
            if distance >= lastDistance && (distance <= tolerance || (angle >= low && angle <= high)) {
                last = p
                lastDistance = distance
                narrow(by: distance, angle)
            } else {
                out.append(last)
                a = last
                start(p)
            }
        }
        out.append(last)
        // The closing vertex is the first; fewer than 3 others bound nothing.
        return out.count >= 4 ? out : nil
    }

    /// The snap-rounding cell for coordinates up to `magnitude`: 2^(e−44)
    /// where 2^e ≤ magnitude < 2^(e+1), i.e. 256 ulps at that magnitude: fine
    /// enough to keep any visible feature, coarse enough for robust noding.
    static func gridSize(forMagnitude magnitude: Double) -> Double {
        guard magnitude > 0, magnitude.isFinite else { return 0x1p-44 }
        return Double(sign: .plus, exponent: magnitude.exponent - 44, significand: 1)
    }

    /// The winding number inside `face`, from a point strictly inside it
    /// (checked with GEOS's exact predicate) and more than `clearance` from
    /// every original edge; nil when no such point is found (a face thinner
    /// than the snap-rounding grid everywhere, whose omission changes nothing
    /// visible).
    ///
    /// GEOS's point-on-surface is tried first (cheap). It can round out of a
    /// face that narrows to under an ulp where its one scan line crosses it,
    /// or land within `clearance` of an original edge; then the midpoints of
    /// the widest spans on 16 horizontal and 16 vertical scan lines are
    /// tried, widest first.
    ///
    /// Complexity: O(face size) in GEOS, plus a ray and a clearance query
    /// through the chain index per sample.
    private static func faceWinding(
        _ face: GEOSObject, chains: EdgeChains, clearance: Double,
        context: GEOSContext
    ) throws -> Int? {
        func sample(_ p: CGPoint) throws -> Int? {
            guard try context.contains(face, context.point(p)) else { return nil }
            guard chains.distance(to: p, notBeyond: 2 * clearance) > clearance else { return nil }
            return chains.winding(at: p)
        }
        if let p = try context.pointOnSurface(face), let winding = try sample(p) { return winding }
        for candidate in scanLineCandidates(try context.polygons(face).flatMap { $0 }) {
            if let winding = try sample(candidate.point) { return winding }
        }
        return nil
    }

    /// Midpoints of the widest inside span on scan lines across the rings'
    /// bounding box, widest first, with the span's width (so half of it
    /// bounds the point's distance to the rings). O(lines × edges).
    static func scanLineCandidates(_ closedRings: [[CGPoint]], lines: Int = 16) -> [(width: Double, point: CGPoint)] {
        let box = CGRect.boundingBox(of: closedRings.flatMap { $0 })
        guard !box.isNull else { return [] }
        var found: [(width: Double, point: CGPoint)] = []
        var crossings: [Double] = []
        for vertical in [false, true] {
            let lo = Double(vertical ? box.minX : box.minY)
            let extent = Double(vertical ? box.width : box.height)
            for i in 0 ..< lines {
                let c = lo + (Double(i) + 0.5) / Double(lines) * extent
                let widest = insideSpans(closedRings, at: c, vertical: vertical, crossings: &crossings)
                    .max { $0.hi - $0.lo < $1.hi - $1.lo }
                if let span = widest, span.hi > span.lo {
                    let mid = (span.lo + span.hi) / 2
                    found.append((span.hi - span.lo, vertical ? CGPoint(x: c, y: mid) : CGPoint(x: mid, y: c)))
                }
            }
        }
        return found.sorted { $0.width > $1.width }
    }

    /// The inside spans of the line y = `c` (x = `c` when `vertical`), by
    /// even-odd pairing of its sorted crossings with the rings' edges, as
    /// intervals along the line; `crossings` is scratch. O(edges + k log k)
    /// for k crossings.
    static func insideSpans(
        _ closedRings: [[CGPoint]], at c: Double, vertical: Bool,
        crossings: inout [Double]
    ) -> [(lo: Double, hi: Double)] {
        crossings.removeAll(keepingCapacity: true)
        for ring in closedRings where ring.count >= 2 {
            for k in 0 ..< (ring.count - 1) {
                // (u, v): along and across the line.
                let (au, av) =
                    vertical ? (Double(ring[k].y), Double(ring[k].x)) : (Double(ring[k].x), Double(ring[k].y))
                let (bu, bv) =
                    vertical
                    ? (Double(ring[k + 1].y), Double(ring[k + 1].x))
                    : (Double(ring[k + 1].x), Double(ring[k + 1].y))
                guard (av <= c) != (bv <= c) else { continue }
                crossings.append(au + (c - av) * (bu - au) / (bv - av))
            }
        }
        crossings.sort()
        return stride(from: 0, to: crossings.count - 1, by: 2).map { (crossings[$0], crossings[$0 + 1]) }
    }
}
