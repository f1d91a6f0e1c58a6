import Foundation

extension PolygonSet {
    /// The union of `faces`, polygons (exterior ring first, then holes,
    /// rings closed) that form a coverage: interiors disjoint, and
    /// neighbours sharing their common edges vertex for vertex, as the faces
    /// of a polygonized arrangement do. GEOS's cascaded union took 5 of the
    /// 6 seconds of a fill of 120 crossing strips (14,000 faces); this is
    /// O(V log V) for V vertices.
    ///
    /// Orientation is that of a y-up frame, as `PolygonSet`'s: positive
    /// shoelace area is counterclockwise, with the inside on the left.
    ///
    /// Method: every ring is oriented so the face lies on its left; an edge
    /// that two faces share then appears once each way and cancels, and
    /// what remains is the union's boundary with the union on its left.
    /// Those edges are linked into rings, at a vertex with several ways on
    /// taking the one that turns furthest clockwise (so pieces that touch
    /// at a point stay separate rings), and rings that still pass a vertex
    /// twice are split there (a hole touching its exterior). Counterclockwise
    /// rings are exteriors; each hole goes to the exterior that a ray from
    /// it towards -x leaves the union through, directly or through other
    /// holes of the same polygon.
    package static func dissolving(faces: [[[CGPoint]]]) -> PolygonSet {
        // 1. Directed edges with their face on the left; shared ones cancel.
        var boundary = Set<DirectedEdge>()
        for face in faces {
            for (r, ring) in face.enumerated() where ring.count > 3 {
                // An exterior runs counterclockwise, a hole clockwise.
                let reversed = (signedArea(ring) > 0) != (r == 0)
                for i in 0 ..< (ring.count - 1) {
                    let e = reversed ? DirectedEdge(ring[i + 1], ring[i]) : DirectedEdge(ring[i], ring[i + 1])
                    if boundary.remove(e.reversed) == nil { boundary.insert(e) }
                }
            }
        }

        // 2. Link into closed rings. Sorted by start vertex, so a vertex's
        // outgoing edges are one range (and the output does not depend on
        // the set's hash order).
        let edges = boundary.sorted {
            ($0.from.x, $0.from.y, $0.to.x, $0.to.y) < ($1.from.x, $1.from.y, $1.to.x, $1.to.y)
        }
        func outgoing(_ v: Vertex) -> Range<Int> {
            func firstNotBefore(_ key: (Double, Double), after: Bool) -> Int {
                var lo = 0, hi = edges.count
                while lo < hi {
                    let mid = (lo + hi) / 2
                    let k = (edges[mid].from.x, edges[mid].from.y)
                    if k < key || (after && k == key) { lo = mid + 1 } else { hi = mid }
                }
                return lo
            }
            return firstNotBefore((v.x, v.y), after: false) ..< firstNotBefore((v.x, v.y), after: true)
        }
        var used = [Bool](repeating: false, count: edges.count)
        var rings: [[CGPoint]] = []
        for start in edges.indices where !used[start] {
            var ring = [edges[start].from.point]
            var current = start
            var pinched = false
            while true {
                used[current] = true
                let e = edges[current]
                ring.append(e.to.point)
                let out = outgoing(e.to)
                pinched = pinched || out.count > 1
                let ways = out.filter { !used[$0] }
                guard let next = Self.furthestClockwise(ways, after: e, in: edges) else { break }
                current = next
            }
            // Only a ring through a vertex with several ways out can pass
            // a vertex twice.
            rings += (pinched ? Self.simpleLoops(ring) : [ring]).map(Self.startingAtLeast)
        }

        // 3. Exteriors and holes; each hole to its exterior.
        var shells: [Int] = [], holes: [Int] = []
        for (r, ring) in rings.enumerated() { if signedArea(ring) > 0 { shells.append(r) } else { holes.append(r) } }
        guard !holes.isEmpty else { return PolygonSet(polygons: shells.map { [rings[$0]] }) }
        var vertices: [CGPoint] = [], starts = [0]
        for ring in rings {
            vertices += ring
            starts.append(vertices.count)
        }
        let chains = EdgeChains(vertices: vertices, ringStarts: starts)
        let isShell = Set(shells)
        // hit[h]: the ring a leftward ray from hole h meets first.
        var hit: [Int: Int] = [:]
        for h in holes {
            let ring = rings[h]
            // A hole runs clockwise, so an upward edge has the union on its
            // -x side: a ray from its middle towards -x starts in the union.
            guard let k = (0 ..< (ring.count - 1)).first(where: { ring[$0 + 1].y > ring[$0].y }) else { continue }
            let m = CGPoint(x: (ring[k].x + ring[k + 1].x) / 2, y: (ring[k].y + ring[k + 1].y) / 2)
            if let r = chains.ringMetLeft(of: m, ringStarts: starts, excluding: h) { hit[h] = r }
        }
        // Follow holes to holes of the same polygon until an exterior,
        // remembering the answer for every hole passed (a row of holes is
        // walked once, not once per hole).
        var shellOf: [Int: Int] = [:]
        var holesOf: [Int: [[CGPoint]]] = [:]
        for h in holes {
            var passed: [Int] = []
            var r = h
            var shell: Int?
            while passed.count <= holes.count {
                if let known = shellOf[r] {
                    shell = known
                    break
                }
                guard let next = hit[r] else { break }
                passed.append(r)
                if isShell.contains(next) {
                    shell = next
                    break
                }
                r = next
            }
            // A hole whose ray meets no exterior (only rounding could do
            // that) is dropped: the answer then errs by filling it.
            guard let shell else { continue }
            for p in passed { shellOf[p] = shell }
            holesOf[shell, default: []].append(rings[h])
        }
        return PolygonSet(polygons: shells.map { [rings[$0]] + (holesOf[$0] ?? []) })
    }

    /// Of the edges `ways` leaving the end of `e`, the first met turning
    /// clockwise from the way back along `e`: the one that keeps the region
    /// on the left tightest.
    private static func furthestClockwise(_ ways: [Int], after e: DirectedEdge, in edges: [DirectedEdge]) -> Int? {
        guard ways.count > 1 else { return ways.first }
        let v = e.to.point, back = e.from.point
        let backAngle = atan2(Double(back.y - v.y), Double(back.x - v.x))
        func clockwiseTurn(_ i: Int) -> Double {
            let w = edges[i].to.point
            var turn = backAngle - atan2(Double(w.y - v.y), Double(w.x - v.x))
            while turn <= 0 { turn += 2 * .pi }
            return turn
        }
        return ways.min { clockwiseTurn($0) < clockwiseTurn($1) }
    }

    /// The closed `ring` rotated to start at its least vertex (by x, then
    /// y): the same ring whatever order the edges were linked in, so the
    /// output (and its WKT) is deterministic.
    static func startingAtLeast(_ ring: [CGPoint]) -> [CGPoint] {
        let open = ring.dropLast()
        guard let least = open.indices.min(by: { (open[$0].x, open[$0].y) < (open[$1].x, open[$1].y) }) else {
            return ring
        }
        let rotated = Array(open[least...] + open[..<least])
        return rotated + [rotated[0]]
    }

    /// A closed point list (first point repeated last) split into closed
    /// loops that each pass every vertex once, by cutting out the part
    /// between two visits of a vertex. O(n) expected.
    static func simpleLoops(_ ring: [CGPoint]) -> [[CGPoint]] {
        var loops: [[CGPoint]] = []
        var path: [CGPoint] = []
        var position: [Vertex: Int] = [:]
        for p in ring {
            let key = Vertex(p)
            if let i = position[key] {
                // p closes a loop path[i...] + p; p stays on the path.
                let loop = Array(path[i...]) + [p]
                for q in path[(i + 1)...] { position[Vertex(q)] = nil }
                path.removeSubrange((i + 1)...)
                if loop.count > 3 { loops.append(loop) }
            } else {
                position[key] = path.count
                path.append(p)
            }
        }
        return loops
    }

    /// A point compared and hashed by its exact coordinates.
    struct Vertex: Hashable {
        let x: Double, y: Double
        init(_ p: CGPoint) {
            x = Double(p.x)
            y = Double(p.y)
        }
        var point: CGPoint { CGPoint(x: x, y: y) }
    }

    /// An edge `from → to`.
    struct DirectedEdge: Hashable {
        let from: Vertex, to: Vertex
        init(_ a: CGPoint, _ b: CGPoint) {
            from = Vertex(a)
            to = Vertex(b)
        }
        private init(from: Vertex, to: Vertex) {
            self.from = from
            self.to = to
        }
        var reversed: DirectedEdge { DirectedEdge(from: to, to: from) }
    }
}
