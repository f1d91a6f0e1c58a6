import Foundation

/// Fills, overlay operations on `PolygonSet`s (intersection, difference,
/// union) and a point inside, computed by GEOS in one context that this
/// builder owns.
///
/// Make one per batch or per worker thread and reuse it: creating a GEOS
/// context costs far more than a small overlay. A builder is not `Sendable`
/// (a GEOS context is not thread-safe); give each thread its own.
///
/// Coordinates are in whatever one space the caller uses for all operands
/// (for activation and audits, screen points). Results are valid polygon
/// sets; pieces of zero area (lines, points where operands merely touch) are
/// dropped. Nothing is printed: GEOS's messages become `GeometryError.geos`.
public final class RegionBuilder {
    let context: GEOSContext

    /// A builder with a fresh GEOS context.
    ///
    /// - Throws: `GeometryError.geos` when GEOS cannot create a context.
    public init() throws(GeometryError) {
        context = try Self.mapped("GEOS_init_r") { try GEOSContext() }
    }

    /// The region `rings` fill by `rule` (as `PolygonSet.filling(rings:rule:)`),
    /// in this builder's context.
    ///
    /// - Throws: `GeometryError` for coordinates out of range or a GEOS failure.
    public func filling(rings: [[CGPoint]], rule: FillRule) throws(GeometryError) -> PolygonSet {
        try Self.mapped("fill") { try PolygonSet.filling(rings: rings, rule: rule, context: context) }
    }

    /// The region `path` fills (as `PolygonSet.filling(path:tolerance:)`,
    /// with its budgets and its tolerance floor), in this builder's context.
    ///
    /// - Throws: `GeometryError.toleranceBelowMinimum` for a tolerance below
    ///   `BezierPath.minimumFillTolerance`, `GeometryError.overBudget` for a
    ///   path over a fill budget, else as `filling(rings:rule:)`.
    public func filling(
        path: BezierPath, tolerance: CGFloat = BezierPath.defaultFlatteningTolerance
    )
        throws(GeometryError) -> PolygonSet
    {
        let rings = try PolygonSet.flattenedForFilling(path, tolerance: tolerance)
        return try filling(rings: rings, rule: path.fillRule)
    }

    /// `a ∩ b`.
    ///
    /// - Complexity: GEOS overlay, O((n + m) log(n + m)) for n and m vertices.
    /// - Throws: `GeometryError.geos` if GEOS fails.
    public func intersection(_ a: PolygonSet, _ b: PolygonSet) throws(GeometryError) -> PolygonSet {
        if a.isEmpty || b.isEmpty { return .empty }
        if !Self.boxesOverlap(a.bounds, b.bounds) { return .empty }
        return try Self.mapped("intersection") {
            try context.polygonSet(context.intersection(context.geometry(a), context.geometry(b)))
        }
    }

    /// `a` minus every set of `others` (`a ∖ ∪ others`). Sets whose boxes
    /// miss `a`'s are skipped without GEOS.
    ///
    /// - Complexity: GEOS union of the overlapping operands, then one
    ///   difference.
    /// - Throws: `GeometryError.geos` if GEOS fails.
    public func subtracting(_ others: [PolygonSet], from a: PolygonSet) throws(GeometryError) -> PolygonSet {
        if a.isEmpty { return .empty }
        let relevant = others.filter { !$0.isEmpty && Self.boxesOverlap($0.bounds, a.bounds) }
        if relevant.isEmpty { return a }
        return try Self.mapped("difference") {
            let cutter: GEOSObject
            if relevant.count == 1 {
                cutter = try context.geometry(relevant[0])
            } else {
                let parts = try relevant.map { try context.geometry($0) }
                cutter = try context.unaryUnion(context.collection(.geometryCollection, taking: parts))
            }
            return try context.polygonSet(context.difference(context.geometry(a), cutter))
        }
    }

    /// The union of every set.
    ///
    /// - Complexity: GEOS cascaded union, O(N log N) for N vertices in all.
    /// - Throws: `GeometryError.geos` if GEOS fails.
    public func union(_ sets: [PolygonSet]) throws(GeometryError) -> PolygonSet {
        let nonEmpty = sets.filter { !$0.isEmpty }
        if nonEmpty.isEmpty { return .empty }
        if nonEmpty.count == 1 { return nonEmpty[0] }
        return try Self.mapped("union") {
            let parts = try nonEmpty.map { try context.geometry($0) }
            return try context.polygonSet(context.unaryUnion(context.collection(.geometryCollection, taking: parts)))
        }
    }

    /// A point inside `set` (GEOS's point on surface: on a horizontal line
    /// through the middle of a polygon's box), or nil for the empty set.
    ///
    /// - Throws: `GeometryError.geos` if GEOS fails.
    public func pointOnSurface(of set: PolygonSet) throws(GeometryError) -> CGPoint? {
        if set.isEmpty { return nil }
        return try Self.mapped("point on surface") { try context.pointOnSurface(context.geometry(set)) }
    }

    /// Whether two boxes share interior (not just an edge).
    static func boxesOverlap(_ a: CGRect, _ b: CGRect) -> Bool {
        !a.isNull && !b.isNull && a.minX < b.maxX && b.minX < a.maxX && a.minY < b.maxY && b.minY < a.maxY
    }

    /// Runs `body`, turning any error into a `GeometryError`.
    static func mapped<T>(_ operation: String, _ body: () throws -> T) throws(GeometryError) -> T {
        do {
            return try body()
        } catch let error as GeometryError {
            throw error
        } catch {
            throw GeometryError.geos(operation: operation, message: "\(error)")
        }
    }
}

@available(*, unavailable)
extension RegionBuilder: Sendable {}

extension PolygonSet {
    /// `self ∩ other`, in a GEOS context made for this call (use a
    /// `RegionBuilder` for many operations).
    ///
    /// - Throws: `GeometryError.geos` if GEOS fails.
    public func intersection(_ other: PolygonSet) throws(GeometryError) -> PolygonSet {
        try RegionBuilder().intersection(self, other)
    }

    /// `self ∖ other`, in a GEOS context made for this call (use a
    /// `RegionBuilder` for many operations).
    ///
    /// - Throws: `GeometryError.geos` if GEOS fails.
    public func subtracting(_ other: PolygonSet) throws(GeometryError) -> PolygonSet {
        try RegionBuilder().subtracting([other], from: self)
    }
}
