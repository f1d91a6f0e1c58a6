import Foundation

extension PolygonSet {
    /// Whether the set is one ring, no hole, that turns one way at every
    /// vertex (straight runs allowed): a convex polygon, as a turned view's
    /// bounds are, and what such quads cut by one another stay. O(vertices).
    package var isConvexPolygon: Bool {
        guard ringCount == 1 else { return false }
        let ring = self.ring(0)
        let n = ring.count - 1  // closed: the last point repeats the first
        guard n >= 3 else { return false }
        let base = ring.startIndex
        for i in 0 ..< n {
            let a = ring[base + i], b = ring[base + (i + 1) % n], c = ring[base + (i + 2) % n]
            // Exteriors wind positively: a right turn anywhere is a dent.
            if Self.cross(a, b, c) < 0 { return false }
        }
        return true
    }

    /// `self ∩ other` for two convex polygons (`isConvexPolygon`), without
    /// GEOS: `other`'s ring clipped by each of `self`'s edges in turn
    /// (Sutherland and Hodgman), which for convex operands is exact up to
    /// the rounding of the points where edges cross. Empty when they share
    /// no area (touching along an edge or at a point included).
    ///
    /// - Complexity: O(n·m) for n and m vertices (quads: 16 steps).
    package func convexIntersection(_ other: PolygonSet) -> PolygonSet {
        var subject = Array(other.ring(0).dropLast())
        let clip = Array(ring(0))
        var next: [CGPoint] = []
        for k in 0 ..< clip.count - 1 {
            let a = clip[k], b = clip[k + 1]
            next.removeAll(keepingCapacity: true)
            for (i, p) in subject.enumerated() {
                let q = subject[(i + 1) % subject.count]
                let sp = Self.cross(a, b, p), sq = Self.cross(a, b, q)
                if sp >= 0 { next.append(p) }
                // The edge pq crosses the clip line: keep where.
                if (sp >= 0) != (sq >= 0) {
                    let t = sp / (sp - sq)
                    next.append(CGPoint(x: Double(p.x) + t * Double(q.x - p.x), y: Double(p.y) + t * Double(q.y - p.y)))
                }
            }
            swap(&subject, &next)
            if subject.count < 3 { return .empty }
        }
        return PolygonSet(simpleRing: subject)
    }

    /// Twice the signed area of triangle abc: positive for a left turn.
    @inline(__always)
    static func cross(_ a: CGPoint, _ b: CGPoint, _ c: CGPoint) -> Double {
        Double(b.x - a.x) * Double(c.y - a.y) - Double(b.y - a.y) * Double(c.x - a.x)
    }
}

extension PolygonSet {
    /// The area of the union of convex polygons (`isConvexPolygon`), without
    /// GEOS, by vertical slabs. Between two consecutive x's at which a
    /// vertex sits or two edges of different polygons cross, each polygon's
    /// section is one interval whose ends move linearly, and their order
    /// does not change, so the union's length is linear across the slab:
    /// the slab's area is that length at its middle times its width. Exact
    /// up to rounding.
    ///
    /// - Complexity: O(s·e) for s slabs (vertices plus crossings) and e
    ///   edges, after O(e²) for the crossings of polygons whose boxes meet.
    package static func unionArea(ofConvex polygons: [PolygonSet]) -> Double {
        let parts = polygons.filter { !$0.isEmpty }
        guard parts.count > 1 else { return parts.first?.area ?? 0 }
        // Every edge that is not vertical, by polygon; vertical ones bound
        // no slab's interior.
        var edges: [(a: CGPoint, b: CGPoint)] = []
        var edgeStarts = [0]
        var xs: [Double] = []
        for p in parts {
            let ring = p.ring(0)
            for (a, b) in zip(ring, ring.dropFirst()) {
                xs.append(Double(a.x))
                if a.x != b.x { edges.append(a.x < b.x ? (a, b) : (b, a)) }
            }
            edgeStarts.append(edges.count)
        }
        for i in 0 ..< parts.count {
            for j in i + 1 ..< parts.count where parts[i].bounds.intersects(parts[j].bounds) {
                for e in edgeStarts[i] ..< edgeStarts[i + 1] {
                    for f in edgeStarts[j] ..< edgeStarts[j + 1] {
                        if let x = crossingX(edges[e], edges[f]) { xs.append(x) }
                    }
                }
            }
        }
        xs.sort()
        var intervals: [(lo: Double, hi: Double)] = []
        var area = 0.0
        var previous = xs[0]
        for x in xs.dropFirst() where x > previous {
            let mid = (previous + x) / 2
            intervals.removeAll(keepingCapacity: true)
            for k in 0 ..< parts.count {
                var lo = Double.infinity, hi = -Double.infinity
                for (a, b) in edges[edgeStarts[k] ..< edgeStarts[k + 1]] where Double(a.x) < mid && mid < Double(b.x) {
                    let y = Double(a.y) + (mid - Double(a.x)) / Double(b.x - a.x) * Double(b.y - a.y)
                    lo = min(lo, y)
                    hi = max(hi, y)
                }
                if lo < hi { intervals.append((lo, hi)) }
            }
            intervals.sort { $0.lo < $1.lo }
            var length = 0.0, end = -Double.infinity
            for i in intervals {
                if i.hi <= end { continue }
                length += i.hi - max(i.lo, end)
                end = i.hi
            }
            area += length * (x - previous)
            previous = x
        }
        return area
    }

    /// The x at which segments e and f (each left to right) cross inside
    /// both, or nil.
    private static func crossingX(_ e: (a: CGPoint, b: CGPoint), _ f: (a: CGPoint, b: CGPoint)) -> Double? {
        guard e.a.x < f.b.x && f.a.x < e.b.x else { return nil }
        let d1 = cross(e.a, e.b, f.a), d2 = cross(e.a, e.b, f.b)
        guard (d1 < 0 && d2 > 0) || (d1 > 0 && d2 < 0) else { return nil }
        let d3 = cross(f.a, f.b, e.a), d4 = cross(f.a, f.b, e.b)
        guard (d3 < 0 && d4 > 0) || (d3 > 0 && d4 < 0) else { return nil }
        let t = d1 / (d1 - d2)
        return Double(f.a.x) + t * Double(f.b.x - f.a.x)
    }
}
