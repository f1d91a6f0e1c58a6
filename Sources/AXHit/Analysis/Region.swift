import Foundation

/// A screen region for whole-screen passes: an axis-aligned rect while every
/// operand has been one (most layouts: no GEOS call at all), polygons traced
/// from a grid of cells where rects are united or subtracted (no GEOS
/// either), else exact polygons from GEOS.
///
/// Rects follow the closed-open rule; a rect with no area is the empty
/// region, like `.polygons(.empty)`.
enum Region: Sendable {
    case rect(CGRect)
    case polygons(PolygonSet)

    static let empty = Region.polygons(.empty)

    /// Whether two boxes share interior (not just an edge).
    @inline(__always)
    static func boxesOverlap(_ a: CGRect, _ b: CGRect) -> Bool {
        !a.isNull && !b.isNull && a.minX < b.maxX && b.minX < a.maxX && a.minY < b.maxY && b.minY < a.maxY
    }

    /// The exact image of `r` under `t`: a rect when `t` keeps axes aligned.
    static func quad(_ r: CGRect, _ t: CGAffineTransform) -> Region {
        if t.b == 0 && t.c == 0 {
            let image = r.applying(t)
            return image.isNull || !(image.width > 0 && image.height > 0) ? .empty : .rect(image)
        }
        return .polygons(PolygonSet(rect: r, transform: t))
    }

    /// A rect region (empty when `r` has no area).
    static func rect(of r: CGRect) -> Region {
        r.isNull || !(r.width > 0 && r.height > 0) ? .empty : .rect(r.standardized)
    }

    var isEmpty: Bool {
        switch self {
        case let .rect(r): return !(r.width > 0 && r.height > 0)
        case let .polygons(s): return s.isEmpty
        }
    }

    /// The bounding box, `.null` when empty.
    var bounds: CGRect {
        switch self {
        case let .rect(r): return isEmpty ? .null : r
        case let .polygons(s): return s.bounds
        }
    }

    var area: Double {
        switch self {
        case let .rect(r): return isEmpty ? 0 : Double(r.width * r.height)
        case let .polygons(s): return s.area
        }
    }

    var asRect: CGRect? {
        if case let .rect(r) = self, !isEmpty { return r }
        return nil
    }

    var polygonSet: PolygonSet {
        switch self {
        case let .rect(r): return isEmpty ? .empty : PolygonSet(rect: r)
        case let .polygons(s): return s
        }
    }

    func contains(_ p: CGPoint) -> Bool {
        switch self {
        case let .rect(r): return r.containsClosedOpen(p)
        case let .polygons(s): return s.contains(p)
        }
    }

    var wkt: String { polygonSet.wkt }

    /// `self ∩ other`: rect arithmetic when both are rects, clipping when
    /// both are convex (turned views' quads and what they cut of each
    /// other), else GEOS.
    func intersecting(_ other: Region, _ builder: RegionBuilder) throws(GeometryError) -> Region {
        if isEmpty || other.isEmpty { return .empty }
        if let a = asRect, let b = other.asRect { return .rect(of: a.intersection(b)) }
        if !Region.boxesOverlap(bounds, other.bounds) { return .empty }
        if let b = other.asRect, case let .polygons(s) = self, b.contains(s.bounds) { return self }
        if let a = asRect, case let .polygons(s) = other, a.contains(s.bounds) { return other }
        let a = polygonSet, b = other.polygonSet
        if a.isConvexPolygon && b.isConvexPolygon { return .polygons(a.convexIntersection(b)) }
        return .polygons(try builder.intersection(a, b))
    }

    /// `∪ regions`: a rect when there is one region, traced cells when all
    /// are rects (`rectilinearUnion(_:)`), else GEOS.
    static func union(_ regions: [Region], _ builder: RegionBuilder) throws(GeometryError) -> Region {
        let parts = regions.filter { !$0.isEmpty }
        if parts.isEmpty { return .empty }
        if parts.count == 1 { return parts[0] }
        let rects = parts.compactMap(\.asRect)
        if rects.count == parts.count, let traced = rectilinearUnion(rects) { return Region(traced: traced) }
        return .polygons(try builder.union(parts.map(\.polygonSet)))
    }

    /// `self ∖ ∪ covers`. Covers that miss the region are dropped first; a
    /// rect cover holding the whole region empties it, and rects less rects
    /// are traced cells (`rectilinearDifference(_:)`), all without GEOS.
    func subtracting(_ covers: [Region], _ builder: RegionBuilder) throws(GeometryError) -> Region {
        if isEmpty { return .empty }
        let box = bounds
        var relevant: [Region] = []
        for c in covers where !c.isEmpty && Region.boxesOverlap(c.bounds, box) {
            if let r = c.asRect, r.contains(box) { return .empty }
            relevant.append(c)
        }
        if relevant.isEmpty { return self }
        if let exact = rectilinearDifference(relevant) { return exact }
        return .polygons(try builder.subtracting(relevant.map(\.polygonSet), from: polygonSet))
    }

    /// `self ∖ ∪ covers` when the region and every cover are rects
    /// (`rectilinear(_:minus:)`); nil otherwise, or past its cell limit.
    func rectilinearDifference(_ covers: [Region]) -> Region? {
        guard let r = asRect else { return nil }
        let rects = covers.compactMap(\.asRect)
        guard rects.count == covers.count, let traced = Self.rectilinear(r, minus: rects) else { return nil }
        return Region(traced: traced)
    }

    /// Traced polygons (each its exterior then its holes, rings closed) as a
    /// region: a rect when they are one 4-cornered ring.
    init(traced polygons: [[[CGPoint]]]) {
        if polygons.isEmpty {
            self = .empty
        } else if polygons.count == 1, polygons[0].count == 1, polygons[0][0].count == 5 {
            var box = CGRect.null
            for p in polygons[0][0] { box = box.union(CGRect(origin: p, size: .zero)) }
            self = .rect(of: box)
        } else {
            self = .polygons(PolygonSet(polygons: polygons))
        }
    }

    /// The area of `self ∖ ∪ covers`, without GEOS when everything is a rect
    /// (coordinate compression over the covers' edges) or convex (slabs).
    func uncoveredArea(by covers: [Region], _ builder: RegionBuilder) throws(GeometryError) -> Double {
        if isEmpty { return 0 }
        let box = bounds
        var rects: [CGRect] = []
        var allRects = asRect != nil
        var relevant: [Region] = []
        for c in covers where !c.isEmpty && Region.boxesOverlap(c.bounds, box) {
            relevant.append(c)
            if let r = c.asRect { rects.append(r) } else { allRects = false }
        }
        if relevant.isEmpty { return area }
        if allRects, relevant.count <= 64 { return Self.uncoveredArea(of: box, by: rects) }
        if relevant.count <= 64, let convex = convexArea(uncoveredBy: relevant) { return convex }
        return try subtracting(relevant, builder).area
    }

    /// The area of `self ∖ ∪ covers` when the region and every cover are
    /// convex (turned views' quads): the covers clipped to the region, and
    /// the area of their union by slabs (`PolygonSet.unionArea(ofConvex:)`),
    /// no GEOS. Nil when one is not convex.
    private func convexArea(uncoveredBy covers: [Region]) -> Double? {
        let mine = polygonSet
        guard mine.isConvexPolygon else { return nil }
        var pieces: [PolygonSet] = []
        for c in covers {
            let cover = c.polygonSet
            guard cover.isConvexPolygon else { return nil }
            pieces.append(mine.convexIntersection(cover))
        }
        return max(0, mine.area - PolygonSet.unionArea(ofConvex: pieces))
    }

    /// The area of `r` not covered by any of `covers`, by coordinate
    /// compression: O(k log k + the cells the covers mark) for k covers
    /// (O(k³) at worst), exact up to rounding.
    static func uncoveredArea(of r: CGRect, by covers: [CGRect]) -> Double {
        var xs = [Double(r.minX), Double(r.maxX)], ys = [Double(r.minY), Double(r.maxY)]
        let clipped = covers.map { $0.intersection(r) }.filter { !$0.isNull && $0.width > 0 && $0.height > 0 }
        for c in clipped {
            xs += [Double(c.minX), Double(c.maxX)]
            ys += [Double(c.minY), Double(c.maxY)]
        }
        xs = Array(Set(xs)).sorted()
        ys = Array(Set(ys)).sorted()
        // Every cover's edges are cell edges: it covers whole cells, found
        // by binary search.
        let columns = ys.count - 1
        var covered = [Bool](repeating: false, count: (xs.count - 1) * columns)
        for c in clipped {
            let i0 = xs.firstIndex(notBelow: Double(c.minX)), i1 = xs.firstIndex(notBelow: Double(c.maxX))
            let j0 = ys.firstIndex(notBelow: Double(c.minY)), j1 = ys.firstIndex(notBelow: Double(c.maxY))
            for i in i0 ..< i1 { for j in j0 ..< j1 { covered[i * columns + j] = true } }
        }
        var area = 0.0
        for i in 0 ..< (xs.count - 1) {
            for j in 0 ..< columns where !covered[i * columns + j] {
                area += (xs[i + 1] - xs[i]) * (ys[j + 1] - ys[j])
            }
        }
        return area
    }

    /// The largest inscribed circle: the centre and half the short side for
    /// a rect, else `PolygonSet.largestInscribedCircle` (a search with a
    /// tolerance relative to the region's size and a cell budget) on the
    /// polygons without their straight corners; nil when empty.
    func largestInscribedCircle(tolerance: Double) -> (center: CGPoint, radius: Double)? {
        if isEmpty { return nil }
        if let r = asRect { return (CGPoint(x: r.midX, y: r.midY), Double(min(r.width, r.height)) / 2) }
        return Self.withoutStraightCorners(polygonSet).largestInscribedCircle(tolerance: tolerance)
    }

    /// Whether a circle of `radius` fits inside (`PolygonSet.holdsCircle`;
    /// for a rect, whether its short side is `2 × radius` or more).
    func holdsCircle(radius: Double, tolerance: Double) -> Bool {
        if isEmpty { return false }
        if let r = asRect { return Double(min(r.width, r.height)) / 2 >= radius }
        return Self.withoutStraightCorners(polygonSet).holdsCircle(radius: radius, tolerance: tolerance)
    }

    /// `set` without the vertices where a ring goes straight on along an
    /// axis: the same region with fewer vertices, since the circle search
    /// costs per vertex and unions of cells leave a corner at every cell.
    /// A set without such corners (one stripped already) comes back as it
    /// is, without a rebuild.
    static func withoutStraightCorners(_ set: PolygonSet) -> PolygonSet {
        func straight(_ a: CGPoint, _ b: CGPoint, _ c: CGPoint) -> Bool {
            (a.x == b.x && b.x == c.x) || (a.y == b.y && b.y == c.y)
        }
        var dropped = false
        let polygons = set.polygons.map { polygon in
            polygon.map { closed -> [CGPoint] in
                let ring = Array(closed.dropLast())
                guard ring.count > 4 else { return closed }
                var kept: [CGPoint] = []
                for k in ring.indices {
                    let prev = ring[(k + ring.count - 1) % ring.count], next = ring[(k + 1) % ring.count]
                    if !straight(prev, ring[k], next) { kept.append(ring[k]) }
                }
                guard kept.count >= 3, kept.count < ring.count else { return closed }
                dropped = true
                return kept + [kept[0]]
            }
        }
        return dropped ? PolygonSet(polygons: polygons) : set
    }
}
