import Foundation

/// The region a path fills, kept as its flattened rings and fill rule, and
/// tested by winding number: what hit-testing needs, with no GEOS at all.
///
/// Away from the rings themselves this is exactly the region
/// `PolygonSet.filling(rings:rule:)` resolves (both count windings; one
/// stores the rings, the other their resolved faces), at a fraction of the
/// cost to build: flattening plus a y-stripe edge index. Use `PolygonSet`
/// where a valid polygon is needed (WKT, areas, GEOS operations).
///
/// **Boundary rule.** An edge counts for `p` when `(y₀ <= p.y) != (y₁ <= p.y)`
/// and `p` is left of the crossing: as `PolygonSet.contains`.
public struct WindingRegion: Sendable {
    /// Closed rings stored flat: each ring's first point is repeated at its end.
    let vertices: [CGPoint]
    let ringStarts: [Int]
    let stripes: EdgeStripes
    /// How windings fill.
    public let rule: FillRule
    let minX, minY, maxX, maxY: Double

    /// The region that `rings` (implicitly closed point lists, in any
    /// coordinate space) fill by `rule`. Rings with a non-finite coordinate
    /// or fewer than two points add nothing.
    ///
    /// - Complexity: O(points) plus the stripe index; no GEOS, never throws.
    public init(rings: [[CGPoint]], rule: FillRule) {
        var vertices: [CGPoint] = []
        var starts: [Int] = [0]
        var lo = (x: Double.infinity, y: Double.infinity), hi = (x: -Double.infinity, y: -Double.infinity)
        for ring in rings where ring.count >= 2 && ring.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) {
            for p in ring {
                vertices.append(p)
                lo = (min(lo.x, Double(p.x)), min(lo.y, Double(p.y)))
                hi = (max(hi.x, Double(p.x)), max(hi.y, Double(p.y)))
            }
            if let first = ring.first, first != ring.last { vertices.append(first) }
            starts.append(vertices.count)
        }
        self.vertices = vertices
        self.ringStarts = starts
        self.rule = rule
        if vertices.isEmpty {
            minX = 0; minY = 0; maxX = 0; maxY = 0
            stripes = .empty
        } else {
            minX = lo.x; minY = lo.y; maxX = hi.x; maxY = hi.y
            stripes = EdgeStripes(vertices: vertices, ringStarts: starts, minY: lo.y, maxY: hi.y)
        }
    }

    /// Whether `p` is filled: its winding number (rings crossing the ray to
    /// its right, counted by direction) is one `rule` fills.
    ///
    /// - Complexity: O(edges in `p`'s stripe); no allocation.
    @inlinable
    public func contains(_ p: CGPoint) -> Bool { rule.fills(winding: winding(at: p)) }

    /// The winding number of the rings around `p` (0 outside their box).
    @usableFromInline
    func winding(at p: CGPoint) -> Int {
        let x = Double(p.x), y = Double(p.y)
        guard x >= minX, x < maxX, y >= minY, y < maxY else { return 0 }
        let s = stripes.stripe(of: y)
        var winding = 0
        for k in Int(stripes.stripeStarts[s])..<Int(stripes.stripeStarts[s + 1]) {
            let e = Int(stripes.edges[k])
            let a = vertices[e], b = vertices[e + 1]
            let ay = Double(a.y), by = Double(b.y)
            guard (ay <= y) != (by <= y) else { continue }
            let ax = Double(a.x), bx = Double(b.x)
            if x < ax + (y - ay) / (by - ay) * (bx - ax) { winding += by > ay ? 1 : -1 }
        }
        return winding
    }

    /// The box of the rings (which holds the region), or `.null` when empty.
    public var bounds: CGRect {
        vertices.isEmpty ? .null : CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// The rings, each closed (first point repeated).
    public var rings: [[CGPoint]] {
        (0..<max(0, ringStarts.count - 1)).map { Array(vertices[ringStarts[$0]..<ringStarts[$0 + 1]]) }
    }

    /// Bytes held.
    public var memoryBytes: Int {
        vertices.count * MemoryLayout<CGPoint>.stride + ringStarts.count * MemoryLayout<Int>.stride
            + (stripes.stripeStarts.count + stripes.edges.count) * MemoryLayout<Int32>.stride
    }
}
