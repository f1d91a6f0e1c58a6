import Foundation

extension PolygonSet {
    /// The coordinate magnitude GEOS works at: larger (or much smaller)
    /// input is scaled by an exact power of two into this range and the
    /// result scaled back, so any finite coordinates get an answer with the
    /// same relative precision (the snapping grid is relative anyway).
    static let workingMagnitude: Double = 0x1p30

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
    /// Method: all ring linework is snap-rounded, noded and polygonized by
    /// GEOS into faces; each face's winding number is computed at an interior
    /// point against the original rings; faces the rule fills are unioned.
    /// Snap rounding uses a grid of 2^(e−44), where 2^e ≤ the largest
    /// coordinate magnitude (256 ulps of it; 3e-11 to 6e-11 for screen
    /// coordinates in the hundreds to low thousands): the result's vertices
    /// lie on that grid, and features thinner than a cell or two may
    /// collapse and be dropped.
    ///
    /// Huge or tiny coordinates (1e300, 1e-300) are scaled by a power of two
    /// around GEOS, which is exact: the answer keeps the same relative
    /// precision at every scale.
    ///
    /// Complexity: O(E log E) noding for E edges plus O(F·E) winding tests
    /// for F faces. Creates and frees its own GEOS context; nothing is printed.
    ///
    /// - Throws: `GeometryError.coordinateOutOfRange` for a coordinate that
    ///   is not finite; `GeometryError.geos` if GEOS fails.
    public static func filling(rings: [[CGPoint]], rule: FillRule) throws -> PolygonSet {
        let closed = try closedRings(rings)
        if closed.isEmpty { return .empty }
        let context = try GEOSContext()
        return try filling(closedRings: closed, rule: rule, context: context)
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

    private static func filling(closedRings rings: [[CGPoint]], rule: FillRule,
                                context: GEOSContext) throws -> PolygonSet {
        var magnitude = 0.0
        for ring in rings {
            for p in ring { magnitude = max(magnitude, abs(Double(p.x)), abs(Double(p.y))) }
        }
        // Far from GEOS's comfortable range: scale by 2^k (exact), fill, scale back.
        if magnitude > 0, magnitude > workingMagnitude * 1024 || magnitude < workingMagnitude / 0x1p40 {
            let k = magnitude.exponent - workingMagnitude.exponent
            func scale(_ ring: [CGPoint], _ by: Int) -> [CGPoint] {
                ring.map { CGPoint(x: Self.scaled($0.x, by: by), y: Self.scaled($0.y, by: by)) }
            }
            let region = try filling(closedRings: rings.map { scale($0, -k) }, rule: rule, context: context)
            return PolygonSet(polygons: region.polygons.map { $0.map { scale($0, k) } })
        }
        let grid = gridSize(forMagnitude: magnitude)
        let lines = try context.collection(.multiLineString, taking: rings.map { try context.lineString($0) })
        // Snap-rounded union nodes and dissolves the linework robustly:
        // edges an ulp apart (which float noding leaves crossing, so that the
        // polygonizer drops whole faces as invalid rings) land on one grid line.
        let noded = try context.unaryUnion(lines, gridSize: grid)
        let faces = try context.parts(of: context.polygonize(noded))
        // Snapping moves edges by up to a cell, so a sample point must be
        // clear of every original edge by more than that for its winding
        // number to be the face's.
        let clearance = 2 * grid
        var kept: [GEOSObject] = []
        for face in faces {
            // The winding number is constant inside a face, so one interior
            // point decides the whole face.
            guard let winding = try faceWinding(face, rings: rings, clearance: clearance, context: context) else {
                continue
            }
            if rule.fills(winding: winding) { kept.append(face) }
        }
        if kept.isEmpty { return .empty }
        // Adjacent kept faces share noded edges exactly, so the union merges
        // them into a valid multipolygon.
        let merged = try context.unaryUnion(context.collection(.geometryCollection, taking: kept), gridSize: grid)
        return try context.polygonSet(merged)
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
    /// tried, widest first. (GEOS's maximum inscribed circle would do, but
    /// its initial grid explodes on long slivers.)
    private static func faceWinding(_ face: GEOSObject, rings: [[CGPoint]], clearance: Double,
                                    context: GEOSContext) throws -> Int? {
        func sample(_ p: CGPoint) throws -> Int? {
            guard try context.contains(face, context.point(p)) else { return nil }
            let (winding, distance) = windingAndDistance(of: p, closedRings: rings)
            return distance > clearance ? winding : nil
        }
        if let p = try context.pointOnSurface(face), let winding = try sample(p) { return winding }
        let faceRings = try context.polygonSet(face).polygons.flatMap { $0 }
        for candidate in scanLineCandidates(faceRings) {
            if let winding = try sample(candidate) { return winding }
        }
        return nil
    }

    /// Midpoints of the widest inside span (by even-odd pairing of edge
    /// crossings) on scan lines across the rings' bounding box, widest first.
    static func scanLineCandidates(_ closedRings: [[CGPoint]], lines: Int = 16) -> [CGPoint] {
        let box = CGRect.boundingBox(of: closedRings.flatMap { $0 })
        guard !box.isNull else { return [] }
        var found: [(width: Double, point: CGPoint)] = []
        var crossings: [Double] = []
        for vertical in [false, true] {
            let lo = Double(vertical ? box.minX : box.minY)
            let extent = Double(vertical ? box.width : box.height)
            for i in 0..<lines {
                let c = lo + (Double(i) + 0.5) / Double(lines) * extent
                crossings.removeAll(keepingCapacity: true)
                for ring in closedRings where ring.count >= 2 {
                    for k in 0..<(ring.count - 1) {
                        // (u, v): along and across the scan line.
                        let (au, av) = vertical ? (Double(ring[k].y), Double(ring[k].x)) : (Double(ring[k].x), Double(ring[k].y))
                        let (bu, bv) = vertical ? (Double(ring[k + 1].y), Double(ring[k + 1].x))
                            : (Double(ring[k + 1].x), Double(ring[k + 1].y))
                        guard (av <= c) != (bv <= c) else { continue }
                        crossings.append(au + (c - av) * (bu - au) / (bv - av))
                    }
                }
                crossings.sort()
                var best: (width: Double, mid: Double)?
                for j in stride(from: 0, to: crossings.count - 1, by: 2) {
                    let width = crossings[j + 1] - crossings[j]
                    if width > (best?.width ?? 0) { best = (width, (crossings[j] + crossings[j + 1]) / 2) }
                }
                if let best {
                    found.append((best.width, vertical ? CGPoint(x: c, y: best.mid) : CGPoint(x: best.mid, y: c)))
                }
            }
        }
        return found.sorted { $0.width > $1.width }.map(\.point)
    }

    /// The winding number of `p` (see `windingNumber(of:closedRings:)`) and
    /// its distance to the nearest ring edge.
    static func windingAndDistance(of p: CGPoint, closedRings rings: [[CGPoint]]) -> (Int, Double) {
        let px = Double(p.x), py = Double(p.y)
        var nearest = Double.infinity
        for ring in rings where ring.count >= 2 {
            for i in 0..<(ring.count - 1) {
                let ax = Double(ring[i].x), ay = Double(ring[i].y)
                let dx = Double(ring[i + 1].x) - ax, dy = Double(ring[i + 1].y) - ay
                let length2 = dx * dx + dy * dy
                let t = length2 > 0 ? min(1, max(0, ((px - ax) * dx + (py - ay) * dy) / length2)) : 0
                let ex = ax + t * dx - px, ey = ay + t * dy - py
                nearest = min(nearest, (ex * ex + ey * ey).squareRoot())
            }
        }
        return (windingNumber(of: p, closedRings: rings), nearest)
    }

    /// The winding number of `p` with respect to closed rings (Sunday's
    /// crossing-direction algorithm: +1 for each upward edge with `p` on its
    /// left, -1 for each downward edge with `p` on its right). Only the
    /// magnitude's parity or non-zeroness matters to a fill rule.
    static func windingNumber(of p: CGPoint, closedRings rings: [[CGPoint]]) -> Int {
        let px = Double(p.x), py = Double(p.y)
        var winding = 0
        for ring in rings where ring.count >= 2 {
            for i in 0..<(ring.count - 1) {
                let ax = Double(ring[i].x), ay = Double(ring[i].y)
                let bx = Double(ring[i + 1].x), by = Double(ring[i + 1].y)
                let side = (bx - ax) * (py - ay) - (px - ax) * (by - ay)
                if ay <= py {
                    if by > py, side > 0 { winding += 1 }
                } else if by <= py, side < 0 {
                    winding -= 1
                }
            }
        }
        return winding
    }
}
