import Foundation

/// A valid multipolygon in plain Swift arrays, answering point containment
/// without allocation and without GEOS.
///
/// Coordinates are in whatever space the caller built it in (for hit-testing,
/// screen points). Polygons are pairwise interior-disjoint; each is an exterior
/// ring plus holes inside it, rings touching at most at points. Rings are
/// stored closed (first point repeated last) in one flat vertex array:
/// exterior rings have positive shoelace area `Σ(xᵢyᵢ₊₁ − xᵢ₊₁yᵢ)/2`, holes
/// negative (clockwise on a y-down screen for exteriors).
///
/// Equality and hashing compare the vertices and ring structure exactly.
public struct PolygonSet: Sendable, Hashable {
    /// Every ring's vertices, each ring closed, rings back to back.
    let vertices: [CGPoint]
    /// Ring `r` is `vertices[ringStarts[r] ..< ringStarts[r + 1]]`.
    let ringStarts: [Int]
    /// Polygon `k` is rings `polygonStarts[k] ..< polygonStarts[k + 1]`; the
    /// first is the exterior.
    let polygonStarts: [Int]
    /// The y-stripe edge index used by `contains`.
    let stripes: EdgeStripes
    /// Bounding box as plain doubles for the query's early exit.
    private let minX: Double, minY: Double, maxX: Double, maxY: Double

    /// The enclosed area (exteriors minus holes), in squared coordinate units.
    /// O(1): computed once when the set is built.
    public let area: Double

    /// The set with no polygons: contains no point, `area` 0, `bounds` null.
    public static let empty = PolygonSet(polygons: [])

    /// Whether the set has no polygons (then no point is contained).
    public var isEmpty: Bool { polygonStarts.count <= 1 }

    /// The number of polygons (connected pieces with their holes).
    public var polygonCount: Int { polygonStarts.count - 1 }

    /// The smallest rect holding every vertex, in the set's coordinate space;
    /// `CGRect.null` for the empty set. O(1).
    public var bounds: CGRect {
        isEmpty ? .null : CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// Each polygon as its rings (exterior first, then holes), every ring
    /// closed (its first point repeated last). O(vertices); allocates.
    public var polygons: [[[CGPoint]]] {
        (0 ..< polygonCount).map { k in
            (polygonStarts[k] ..< polygonStarts[k + 1]).map { Array(ring($0)) }
        }
    }

    /// Ring `r`, closed.
    func ring(_ r: Int) -> ArraySlice<CGPoint> { vertices[ringStarts[r] ..< ringStarts[r + 1]] }

    var ringCount: Int { ringStarts.count - 1 }

    /// A polygon set from rings that already form a valid multipolygon
    /// (GEOS output, a simple ring): open or closed rings, exterior first per
    /// polygon. Drops repeated consecutive points, rings with fewer than 3
    /// distinct points or zero area (a polygon whose exterior collapses goes
    /// whole), and orients exteriors positive and holes negative. Does not
    /// check validity otherwise.
    package init(polygons: [[[CGPoint]]]) {
        var vertices: [CGPoint] = []
        var ringStarts = [0]
        var polygonStarts = [0]
        var area = 0.0
        // Areas of rings near ±1e300 (or 1e-300) over- or underflow: measure
        // them scaled by an exact power of two, so orientations stay right.
        var magnitude = 0.0
        for polygon in polygons {
            for ring in polygon {
                for p in ring {
                    magnitude = max(magnitude, abs(Double(p.x)), abs(Double(p.y)))
                }
            }
        }
        let k =
            magnitude.isFinite && magnitude > 0 && (magnitude > 0x1p400 || magnitude < 0x1p-400)
            ? magnitude.exponent : 0
        func signedArea(_ ring: [CGPoint]) -> Double {
            guard k != 0 else { return Self.signedArea(ring) }
            return Self.signedArea(ring.map { CGPoint(x: Self.scaled($0.x, by: -k), y: Self.scaled($0.y, by: -k)) })
        }
        for polygon in polygons {
            guard let exterior = polygon.first, let shell = Self.cleanRing(exterior) else { continue }
            let shellArea = signedArea(shell)
            guard shellArea != 0, shellArea.isFinite else { continue }
            vertices += shellArea > 0 ? shell : shell.reversed()
            ringStarts.append(vertices.count)
            area += abs(shellArea)
            for hole in polygon.dropFirst() {
                guard let ring = Self.cleanRing(hole) else { continue }
                let holeArea = signedArea(ring)
                guard holeArea != 0, holeArea.isFinite else { continue }
                vertices += holeArea < 0 ? ring : ring.reversed()
                ringStarts.append(vertices.count)
                area -= abs(holeArea)
            }
            polygonStarts.append(ringStarts.count - 1)
        }
        self.vertices = vertices
        self.ringStarts = ringStarts
        self.polygonStarts = polygonStarts
        self.area = k == 0 ? area : Self.scaled(area, by: 2 * k)
        // Holes lie inside exteriors, so the exteriors bound everything.
        var minX = Double.infinity, minY = Double.infinity
        var maxX = -Double.infinity, maxY = -Double.infinity
        for p in vertices {
            minX = min(minX, Double(p.x))
            maxX = max(maxX, Double(p.x))
            minY = min(minY, Double(p.y))
            maxY = max(maxY, Double(p.y))
        }
        if vertices.isEmpty { (minX, minY, maxX, maxY) = (0, 0, 0, 0) }
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
        self.stripes = EdgeStripes(vertices: vertices, ringStarts: ringStarts, minY: minY, maxY: maxY)
    }

    /// The ring closed, without consecutive repeats, or nil if it has fewer
    /// than 3 distinct points or a non-finite coordinate.
    /// `v · 2^k`, exactly (no rounding while the result is a normal number).
    static func scaled(_ v: Double, by k: Int) -> Double {
        guard v != 0, v.isFinite else { return v }
        let e = v.exponent + k
        if e > Double.greatestFiniteMagnitude.exponent { return v < 0 ? -.infinity : .infinity }
        return Double(sign: v.sign, exponent: e, significand: v.significand)
    }

    static func cleanRing(_ ring: [CGPoint]) -> [CGPoint]? {
        var out: [CGPoint] = []
        out.reserveCapacity(ring.count + 1)
        for p in ring {
            guard p.x.isFinite, p.y.isFinite else { return nil }
            if out.last != p { out.append(p) }
        }
        while out.count > 1, out.last == out.first { out.removeLast() }
        guard out.count >= 3 else { return nil }
        out.append(out[0])
        return out
    }

    /// Shoelace area of a closed ring, measured from its first vertex so that
    /// far-from-origin rings keep their precision.
    static func signedArea(_ closed: [CGPoint]) -> Double {
        guard let o = closed.first else { return 0 }
        let ox = Double(o.x), oy = Double(o.y)
        var twice = 0.0
        for i in 0 ..< max(0, closed.count - 1) {
            let ax = Double(closed[i].x) - ox, ay = Double(closed[i].y) - oy
            let bx = Double(closed[i + 1].x) - ox, by = Double(closed[i + 1].y) - oy
            twice += ax * by - bx * ay
        }
        return twice / 2
    }

    /// A polygon set from one simple ring (no self-intersections, e.g. a
    /// transformed rectangle's four corners), without GEOS.
    ///
    /// The ring is implicitly closed (a repeated last point is allowed) and
    /// may wind either way. A ring with fewer than 3 distinct points, zero
    /// area or a non-finite coordinate gives `.empty`. A self-intersecting
    /// ring gives an invalid set whose containment follows the even-odd rule;
    /// use `filling(rings:rule:)` for those. O(n).
    public init(simpleRing ring: [CGPoint]) {
        self.init(polygons: [[ring]])
    }

    /// The exact image of `rect` (standardized) under `transform`: a
    /// parallelogram, as UIKit converts a view's bounds to the screen.
    /// `.empty` for an empty rect or a singular transform. O(1).
    public init(rect: CGRect, transform: CGAffineTransform = .identity) {
        self.init(simpleRing: rect.corners(through: transform))
    }

    /// Whether `p` lies inside, by even-odd crossing of a horizontal ray
    /// towards +x over all rings (correct for a valid polygon set, whatever
    /// its ring orientations).
    ///
    /// Boundary rule: an edge counts when `(y₀ <= p.y) != (y₁ <= p.y)` and
    /// `p.x` is left of the edge's crossing, so for an axis-aligned rectangle
    /// this is `CGRectContainsPoint`'s closed-open rule (`minX <= x < maxX`,
    /// `minY <= y < maxY`). For slanted edges a point within rounding of the
    /// edge may go either way; callers must not rely on boundary points.
    /// Non-finite points are outside.
    ///
    /// Complexity: O(edges in the point's y-stripe); no allocation, no GEOS.
    public func contains(_ p: CGPoint) -> Bool {
        let x = Double(p.x), y = Double(p.y)
        // Outside the half-open box no edge can count an odd number of times.
        guard x >= minX, x < maxX, y >= minY, y < maxY else { return false }
        let s = stripes.stripe(of: y)
        var inside = false
        for k in Int(stripes.stripeStarts[s]) ..< Int(stripes.stripeStarts[s + 1]) {
            let e = Int(stripes.edges[k])
            let a = vertices[e], b = vertices[e + 1]
            let ay = Double(a.y), by = Double(b.y)
            guard (ay <= y) != (by <= y) else { continue }
            let ax = Double(a.x), bx = Double(b.x)
            if x < ax + (y - ay) / (by - ay) * (bx - ax) { inside.toggle() }
        }
        return inside
    }

    /// The set mapped through `t` (every vertex, exactly as
    /// `CGPoint.applying`), re-oriented if `t` mirrors. A singular transform,
    /// or one that sends a coordinate to infinity, gives `.empty`. O(n).
    public func applying(_ t: CGAffineTransform) -> PolygonSet {
        guard t.isInvertible else { return .empty }
        if t.isIdentity { return self }
        var polygons = self.polygons
        for k in polygons.indices {
            for r in polygons[k].indices {
                for i in polygons[k][r].indices {
                    let q = polygons[k][r][i].applying(t)
                    guard q.x.isFinite, q.y.isFinite else { return .empty }
                    polygons[k][r][i] = q
                }
            }
        }
        return PolygonSet(polygons: polygons)
    }

    /// The same rings, vertex for vertex (a ring given the other way round
    /// or from another start is a different value, though the same region).
    public static func == (lhs: PolygonSet, rhs: PolygonSet) -> Bool {
        lhs.vertices == rhs.vertices && lhs.ringStarts == rhs.ringStarts
            && lhs.polygonStarts == rhs.polygonStarts
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(vertices)
        hasher.combine(ringStarts)
        hasher.combine(polygonStarts)
    }
}
