import Foundation

extension Region {
    /// The most cells `rectilinear(_:minus:)` and `rectilinearUnion(_:)`
    /// take (O(k²) for k rects at worst; rows or columns make far fewer).
    static let rectilinearCellLimit = 1 << 18

    /// `r ∖ ∪ covers` for axis-aligned rects, exactly and without GEOS:
    /// the covers' edges cut `r` into a grid of cells, each wholly covered
    /// or not, and the boundary between the two is traced into rings, each
    /// turning towards the uncovered side where two uncovered cells meet at
    /// a corner (so rings touch at points, never cross). The result is a
    /// valid multipolygon: each polygon its exterior ring (positive
    /// shoelace area, as `PolygonSet` keeps them) then its holes, every
    /// ring closed; no polygons when nothing is left.
    ///
    /// - Complexity: O(k log k + cells covered) for k covers; nil when
    ///   their edges make more than `rectilinearCellLimit` cells.
    static func rectilinear(_ r: CGRect, minus covers: [CGRect]) -> [[[CGPoint]]]? {
        guard let r = Region.rect(of: r).asRect else { return [] }
        let cuts = covers.compactMap { Region.rect(of: $0.intersection(r)).asRect }
        if cuts.isEmpty { return Region.rect(r).polygons }
        if cuts.contains(where: { $0.contains(r) }) { return [] }
        return traced(r, filled: true, marking: cuts)
    }

    /// `∪ rects` for axis-aligned rects, exactly and without GEOS, as
    /// `rectilinear(_:minus:)` makes it: the cells between the rects'
    /// edges, filled where a rect holds them, traced into rings.
    ///
    /// - Complexity: O(k log k + cells covered) for k rects; nil when their
    ///   edges make more than `rectilinearCellLimit` cells.
    static func rectilinearUnion(_ rects: [CGRect]) -> [[[CGPoint]]]? {
        let parts = rects.compactMap { Region.rect(of: $0).asRect }
        guard let first = parts.first else { return [] }
        let frame = parts.dropFirst().reduce(first) { $0.union($1) }
        return traced(frame, filled: false, marking: parts)
    }

    /// The grid of cells that `marks`' edges cut `frame` into, each
    /// `filled` unless a mark holds it, then the other way, traced into
    /// polygons (see `rectilinear(_:minus:)`); nil past the cell limit.
    /// Every mark lies within `frame`.
    private static func traced(_ frame: CGRect, filled initially: Bool, marking marks: [CGRect]) -> [[[CGPoint]]]? {
        let xs = Array(
            Set(marks.flatMap { [Double($0.minX), Double($0.maxX)] } + [Double(frame.minX), Double(frame.maxX)])
        ).sorted()
        let ys = Array(
            Set(marks.flatMap { [Double($0.minY), Double($0.maxY)] } + [Double(frame.minY), Double(frame.maxY)])
        ).sorted()
        let nx = xs.count - 1, ny = ys.count - 1
        guard nx * ny <= rectilinearCellLimit else { return nil }
        // Cell (i, j) spans xs[i] ..< xs[i + 1], ys[j] ..< ys[j + 1].
        var filled = [Bool](repeating: initially, count: nx * ny)
        func index(_ v: Double, in values: [Double]) -> Int {
            var lo = 0, hi = values.count - 1
            while lo < hi {
                let mid = (lo + hi) / 2
                if values[mid] < v { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
        for c in marks {
            let i0 = index(Double(c.minX), in: xs), i1 = index(Double(c.maxX), in: xs)
            let j0 = index(Double(c.minY), in: ys), j1 = index(Double(c.maxY), in: ys)
            for j in j0 ..< j1 { for i in i0 ..< i1 { filled[j * nx + i] = !initially } }
        }
        guard filled.contains(true) else { return [] }
        func isFilled(_ i: Int, _ j: Int) -> Bool { i >= 0 && j >= 0 && i < nx && j < ny && filled[j * nx + i] }

        // Boundary edges between grid vertices (i, j), each with a filled
        // cell on its left (x right, y up): exteriors wind one way, holes
        // the other.
        struct Edge {
            var from: (Int, Int)
            var to: (Int, Int)
        }
        var edges: [Edge] = []
        var outgoing: [Int: [Int]] = [:]
        func add(_ a: (Int, Int), _ b: (Int, Int)) {
            outgoing[a.1 * (nx + 1) + a.0, default: []].append(edges.count)
            edges.append(Edge(from: a, to: b))
        }
        for j in 0 ..< ny {
            for i in 0 ..< nx where filled[j * nx + i] {
                if !isFilled(i, j - 1) { add((i, j), (i + 1, j)) }
                if !isFilled(i + 1, j) { add((i + 1, j), (i + 1, j + 1)) }
                if !isFilled(i, j + 1) { add((i + 1, j + 1), (i, j + 1)) }
                if !isFilled(i - 1, j) { add((i, j + 1), (i, j)) }
            }
        }
        var used = [Bool](repeating: false, count: edges.count)
        var rings: [[CGPoint]] = []
        for start in edges.indices where !used[start] {
            var ring: [(Int, Int)] = []
            var e = start
            while !used[e] {
                used[e] = true
                ring.append(edges[e].from)
                let d = (edges[e].to.0 - edges[e].from.0, edges[e].to.1 - edges[e].from.1)
                let candidates = (outgoing[edges[e].to.1 * (nx + 1) + edges[e].to.0] ?? []).filter { !used[$0] }
                guard let first = candidates.first else { break }
                // Two ways on at a corner where filled cells meet diagonally:
                // turn left, towards the filled side.
                let left = (-d.1, d.0)
                e =
                    candidates.first { (edges[$0].to.0 - edges[$0].from.0, edges[$0].to.1 - edges[$0].from.1) == left }
                    ?? first
            }
            // Drop the vertices in the middle of straight runs.
            var corners: [CGPoint] = []
            for k in ring.indices {
                let p = ring[(k + ring.count - 1) % ring.count], q = ring[k], s = ring[(k + 1) % ring.count]
                let straight = (p.0 == q.0 && q.0 == s.0) || (p.1 == q.1 && q.1 == s.1)
                if !straight { corners.append(CGPoint(x: xs[q.0], y: ys[q.1])) }
            }
            corners.append(corners[0])
            rings.append(corners)
        }
        // Exteriors have positive area (filled on the left); each hole goes
        // with the smallest exterior holding the midpoint of one of its edges.
        let areas = rings.map { ring in
            zip(ring, ring.dropFirst()).reduce(0.0) { $0 + Double($1.0.x * $1.1.y - $1.1.x * $1.0.y) }
        }
        var polygons: [[[CGPoint]]] = []
        var slot: [Int: Int] = [:]
        for (k, ring) in rings.enumerated() where areas[k] > 0 {
            slot[k] = polygons.count
            polygons.append([ring])
        }
        for (k, hole) in rings.enumerated() where areas[k] < 0 {
            let m = CGPoint(x: (hole[0].x + hole[1].x) / 2, y: (hole[0].y + hole[1].y) / 2)
            let around = rings.indices.filter { areas[$0] > 0 && Self.ring(rings[$0], holds: m) }.min {
                areas[$0] < areas[$1]
            }
            if let around, let p = slot[around] { polygons[p].append(hole) }
        }
        return polygons
    }

    /// The region as polygons: each its exterior ring then its holes, every
    /// ring closed (`PolygonSet.polygons`).
    var polygons: [[[CGPoint]]] {
        switch self {
        case let .rect(r):
            guard !isEmpty else { return [] }
            return [
                [
                    [
                        CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY), CGPoint(x: r.maxX, y: r.maxY),
                        CGPoint(x: r.minX, y: r.maxY), CGPoint(x: r.minX, y: r.minY),
                    ]
                ]
            ]
        case let .polygons(set):
            return set.polygons
        }
    }

    /// Whether `p` is inside closed `ring` (even-odd; `p` is on none of its edges).
    static func ring(_ ring: [CGPoint], holds p: CGPoint) -> Bool {
        var inside = false
        for (a, b) in zip(ring, ring.dropFirst()) {
            if (a.y <= p.y) != (b.y <= p.y) && p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) { inside.toggle() }
        }
        return inside
    }
}
