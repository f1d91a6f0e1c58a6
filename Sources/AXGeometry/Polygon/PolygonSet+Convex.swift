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
