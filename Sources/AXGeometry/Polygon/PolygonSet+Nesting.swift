import Foundation

extension PolygonSet {
    /// The most ring-against-ring vertex tests `fillingNested(_:rule:)` makes
    /// (rings × edges, pairs whose boxes do not nest skipped free):
    /// 1,048,576, each one edge's crossing test. A path of a few rings (a
    /// ring icon, a glyph with counters) needs hundreds; beyond the budget
    /// GEOS fills as before.
    static let maximumNestingTests = 1 << 20

    /// The fill of closed rings that meet nowhere (no two edges cross or
    /// touch but neighbours at their shared vertex, none folds back), under
    /// `rule`, without GEOS; nil when they are too many to nest within
    /// `maximumNestingTests` or one has no area (GEOS decides those).
    ///
    /// Rings that meet nowhere are each simple and nest: one holds another
    /// whole or not at all. So the faces of the plane are the inside of each
    /// ring less the rings directly inside it, and a face's winding number
    /// is the sum of the orientations (+1 counterclockwise by the shoelace
    /// sign, else −1) of the rings around it. A ring is an edge of the fill
    /// where the rule fills one of its sides and not the other: an exterior
    /// when the inside is filled, a hole when the outside is, belonging to
    /// the nearest edge-ring around it (an exterior: the face just outside a
    /// hole is filled, so the first ring around it that changes the fill
    /// goes from filled inside to unfilled outside, as winding 0 far away is
    /// never filled). Vertices stay as they are, as GEOS's path keeps a
    /// simple ring's.
    ///
    /// - Complexity: O(R · E) for R rings and E edges (one vertex of each ring
    ///   tested against each ring whose box holds it), within
    ///   `maximumNestingTests`.
    static func fillingNested(_ rings: [[CGPoint]], rule: FillRule) -> PolygonSet? {
        let count = rings.count
        let boxes = rings.map(Self.box(of:))
        let areas = rings.map { Self.signedArea($0) }
        guard areas.allSatisfy({ $0 != 0 && $0.isFinite }) else { return nil }
        let turns = areas.map { $0 > 0 ? 1 : -1 }
        var tests = 0
        // around[r]: the rings that hold ring r, as their numbers.
        var around = [[Int]](repeating: [], count: count)
        for r in 0 ..< count {
            let p = rings[r][0]
            for s in 0 ..< count where s != r && boxes[s].holds(boxes[r]) {
                tests += rings[s].count
                guard tests <= maximumNestingTests else { return nil }
                // Rings meet nowhere, so `p` is off ring s and its crossing
                // parity says inside or out.
                if Self.crossingParity(of: p, ring: rings[s]) { around[r].append(s) }
            }
        }
        // The winding numbers just outside and just inside each ring.
        let outside = around.map { $0.reduce(0) { $0 + turns[$1] } }
        let fillsOutside = outside.map { rule.fills(winding: $0) }
        let fillsInside = (0 ..< count).map { rule.fills(winding: outside[$0] + turns[$0]) }
        // The ring directly around r: of those around it, the smallest.
        let parent = around.map { $0.min { abs(areas[$0]) < abs(areas[$1]) } }
        var polygonOf = [Int?](repeating: nil, count: count)
        var polygons: [[[CGPoint]]] = []
        for r in 0 ..< count where fillsInside[r] && !fillsOutside[r] {
            polygonOf[r] = polygons.count
            polygons.append([rings[r]])
        }
        for r in 0 ..< count where fillsOutside[r] && !fillsInside[r] {
            var up = parent[r]
            while let s = up, fillsInside[s] == fillsOutside[s] { up = parent[s] }
            // Not reached when the windings above hold; GEOS decides if so.
            guard let s = up, let k = polygonOf[s] else { return nil }
            polygons[k].append(rings[r])
        }
        return PolygonSet(polygons: polygons)
    }

    /// The box of a ring's vertices, as (minX, minY, maxX, maxY).
    private static func box(of ring: [CGPoint]) -> NestingBox {
        var b = NestingBox(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
        for p in ring {
            b.minX = min(b.minX, Double(p.x))
            b.maxX = max(b.maxX, Double(p.x))
            b.minY = min(b.minY, Double(p.y))
            b.maxY = max(b.maxY, Double(p.y))
        }
        return b
    }

    /// Whether a ray from `p` to the right crosses closed `ring` an odd
    /// number of times (half-open in y, so a vertex on the ray counts
    /// once): inside, for a point off the ring.
    static func crossingParity(of p: CGPoint, ring: [CGPoint]) -> Bool {
        let px = Double(p.x), py = Double(p.y)
        var inside = false
        for i in 0 ..< ring.count - 1 {
            let ax = Double(ring[i].x), ay = Double(ring[i].y)
            let bx = Double(ring[i + 1].x), by = Double(ring[i + 1].y)
            guard (ay > py) != (by > py) else { continue }
            // Where the edge meets the line y = py, compared without division.
            let cross = (bx - ax) * (py - ay) - (px - ax) * (by - ay)
            if (cross > 0) == (by > ay) { inside.toggle() }
        }
        return inside
    }
}

/// A ring's box for `PolygonSet.fillingNested(_:rule:)`.
private struct NestingBox {
    var minX: Double, minY: Double, maxX: Double, maxY: Double

    /// Whether `other` lies within it: a ring can hold another only then.
    func holds(_ other: NestingBox) -> Bool {
        minX <= other.minX && other.maxX <= maxX && minY <= other.minY && other.maxY <= maxY
    }
}
