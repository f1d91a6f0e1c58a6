import Foundation

/// The region a path fills, kept as its flattened rings and fill rule, and
/// tested by winding number: what hit-testing needs, with no GEOS at all.
///
/// Away from the rings themselves this is exactly the region
/// `PolygonSet.filling(rings:rule:)` resolves (both count windings; one
/// stores the rings, the other their resolved faces), at a fraction of the
/// cost to build: flattening plus a y-stripe index and a grid of settled
/// cells (`WindingRecord`, the encoding `WindingRegionStore` packs many
/// regions into). Use `PolygonSet` where a valid polygon is needed (WKT,
/// areas, GEOS operations).
///
/// **Boundary rule.** An edge counts for `p` when `(y₀ <= p.y) != (y₁ <= p.y)`
/// and `p` is left of the crossing: as `PolygonSet.contains`.
public struct WindingRegion: Sendable {
    /// The stripe-indexed record that `contains` reads.
    let record: [Double]
    /// Closed rings stored flat: each ring's first point is repeated at its end.
    let vertices: [CGPoint]
    let ringStarts: [Int]
    /// How windings fill.
    public let rule: FillRule

    /// The region that `rings` (implicitly closed point lists, in any
    /// coordinate space) fill by `rule`. Rings with a non-finite coordinate
    /// or fewer than two points add nothing.
    ///
    /// - Complexity: O(points) plus the stripe index; no GEOS, never throws.
    public init(rings: [[CGPoint]], rule: FillRule) {
        var vertices: [CGPoint] = []
        var starts: [Int] = [0]
        for ring in rings where ring.count >= 2 && ring.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) {
            vertices.append(contentsOf: ring)
            if let first = ring.first, first != ring.last { vertices.append(first) }
            starts.append(vertices.count)
        }
        self.vertices = vertices
        self.ringStarts = starts
        self.rule = rule
        record = WindingRecord.make(rings: rings, rule: rule)
    }

    /// Whether `p` is filled: its winding number (rings crossing the ray to
    /// its right, counted by direction) is one `rule` fills.
    ///
    /// - Complexity: O(1) in a settled grid cell, else O(edges in `p`'s
    ///   stripe); no allocation.
    public func contains(_ p: CGPoint) -> Bool {
        record.withUnsafeBufferPointer { r in
            WindingRecord.contains(
                summary: r.baseAddress! + (r.count - WindingRecord.summaryWords), record: r.baseAddress!,
                x: Double(p.x), y: Double(p.y))
        }
    }

    /// The box of the rings (which holds the region), or `.null` when empty.
    public var bounds: CGRect {
        vertices.isEmpty
            ? .null : CGRect(x: record[0], y: record[2], width: record[1] - record[0], height: record[3] - record[2])
    }

    /// The rings, each closed (first point repeated).
    public var rings: [[CGPoint]] {
        (0 ..< max(0, ringStarts.count - 1)).map { Array(vertices[ringStarts[$0] ..< ringStarts[$0 + 1]]) }
    }

    /// Bytes held.
    public var memoryBytes: Int {
        record.count * MemoryLayout<Double>.stride + vertices.count * MemoryLayout<CGPoint>.stride
            + ringStarts.count * MemoryLayout<Int>.stride
    }
}
