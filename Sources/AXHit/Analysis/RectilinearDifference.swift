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
        for c in marks {
            let i0 = xs.firstIndex(notBelow: Double(c.minX)), i1 = xs.firstIndex(notBelow: Double(c.maxX))
            let j0 = ys.firstIndex(notBelow: Double(c.minY)), j1 = ys.firstIndex(notBelow: Double(c.maxY))
            for j in j0 ..< j1 { for i in i0 ..< i1 { filled[j * nx + i] = !initially } }
        }
        guard filled.contains(true) else { return [] }
        func isFilled(_ i: Int, _ j: Int) -> Bool { i >= 0 && j >= 0 && i < nx && j < ny && filled[j * nx + i] }

        // Boundary edges between grid vertices (vertex v = j * (nx + 1) + i
        // at xs[i], ys[j]), each with a filled cell on its left (x right, y
        // up): exteriors wind one way, holes the other. Directions: 0 +x,
        // 1 +y, 2 -x, 3 -y, so the left turn of d is (d + 1) % 4. A vertex
        // has at most two ways on (where filled cells meet diagonally), kept
        // in `ways` (-1: none), so the walk allocates nothing per edge.
        let row = nx + 1
        var edgeFrom: [Int32] = [], edgeTo: [Int32] = [], edgeDirection: [UInt8] = []
        var ways = [Int32](repeating: -1, count: 2 * row * (ny + 1))
        func add(_ from: Int, _ to: Int, _ direction: UInt8) {
            let e = Int32(edgeFrom.count)
            if ways[2 * from] < 0 { ways[2 * from] = e } else { ways[2 * from + 1] = e }
            edgeFrom.append(Int32(from))
            edgeTo.append(Int32(to))
            edgeDirection.append(direction)
        }
        for j in 0 ..< ny {
            for i in 0 ..< nx where filled[j * nx + i] {
                let v = j * row + i
                if !isFilled(i, j - 1) { add(v, v + 1, 0) }
                if !isFilled(i + 1, j) { add(v + 1, v + 1 + row, 1) }
                if !isFilled(i, j + 1) { add(v + 1 + row, v + row, 2) }
                if !isFilled(i - 1, j) { add(v + row, v, 3) }
            }
        }
        var used = [Bool](repeating: false, count: edgeFrom.count)
        var rings: [[CGPoint]] = []
        var starts: [Int32] = [], directions: [UInt8] = []
        for start in edgeFrom.indices where !used[start] {
            starts.removeAll(keepingCapacity: true)
            directions.removeAll(keepingCapacity: true)
            var e = start
            while !used[e] {
                used[e] = true
                starts.append(edgeFrom[e])
                directions.append(edgeDirection[e])
                let v = Int(edgeTo[e])
                let a = Int(ways[2 * v]), b = Int(ways[2 * v + 1])
                let aFree = a >= 0 && !used[a], bFree = b >= 0 && !used[b]
                // Two ways on at a corner where filled cells meet diagonally:
                // turn left, towards the filled side.
                if aFree && bFree {
                    e = edgeDirection[b] == (edgeDirection[e] + 1) % 4 ? b : a
                } else if aFree {
                    e = a
                } else if bFree {
                    e = b
                } else {
                    break
                }
            }
            // A vertex where the direction does not change is in the middle
            // of a straight run: only the corners are kept.
            var corners: [CGPoint] = []
            let n = starts.count
            for k in 0 ..< n where directions[(k + n - 1) % n] != directions[k] {
                let v = Int(starts[k])
                corners.append(CGPoint(x: xs[v % row], y: ys[v / row]))
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
