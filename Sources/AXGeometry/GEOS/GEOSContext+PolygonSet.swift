import CGEOS
import Foundation

/// Copying between `PolygonSet` and GEOS geometry.
extension GEOSContext {
    /// `set` as a GEOS MultiPolygon (empty for the empty set).
    func geometry(_ set: PolygonSet) throws -> GEOSObject {
        let polygons = try set.polygons.map { rings in
            try polygon(exterior: rings[0], holes: Array(rings.dropFirst()))
        }
        return try collection(.multiPolygon, taking: polygons)
    }

    /// The polygons of `g` (a Polygon, MultiPolygon or collection; other
    /// parts are ignored) copied into plain Swift. `g` must be valid for
    /// the result's containment to be right.
    func polygonSet(_ g: GEOSObject) throws -> PolygonSet {
        PolygonSet(polygons: try polygons(g))
    }

    /// The polygons of `g` (as `polygonSet(_:)` reads them), each as its
    /// rings, exterior first, closed, as GEOS holds them (no cleaning or
    /// re-orienting).
    func polygons(_ g: GEOSObject) throws -> [[[CGPoint]]] {
        var polygons: [[[CGPoint]]] = []
        try collectPolygons(g.pointer, into: &polygons)
        withExtendedLifetime(g) {}
        return polygons
    }

    /// Walks a borrowed geometry tree, appending each polygon's rings.
    private func collectPolygons(_ g: OpaquePointer, into polygons: inout [[[CGPoint]]]) throws {
        clearError()
        // GEOSGeomTypeId_r: -1 on exception.
        let type = GEOSGeomTypeId_r(handle, g)
        if type < 0 { throw failure("GEOSGeomTypeId_r") }
        switch type {
        case Int32(GEOS_POLYGON.rawValue):
            clearError()
            // GEOSisEmpty_r: 2 on exception.
            switch GEOSisEmpty_r(handle, g) {
            case 0: break
            case 1: return
            default: throw failure("GEOSisEmpty_r")
            }
            // GEOSGetExteriorRing_r: borrowed, NULL on exception.
            guard let shell = GEOSGetExteriorRing_r(handle, g) else { throw failure("GEOSGetExteriorRing_r") }
            var rings = [try points(ofBorrowedCurve: shell)]
            // GEOSGetNumInteriorRings_r: -1 on exception.
            let holes = try count("GEOSGetNumInteriorRings_r") { GEOSGetNumInteriorRings_r(handle, g) }
            for i in 0 ..< holes {
                clearError()
                // GEOSGetInteriorRingN_r: borrowed, NULL on exception.
                guard let hole = GEOSGetInteriorRingN_r(handle, g, Int32(i)) else {
                    throw failure("GEOSGetInteriorRingN_r")
                }
                rings.append(try points(ofBorrowedCurve: hole))
            }
            polygons.append(rings)
        case Int32(GEOS_MULTIPOLYGON.rawValue), Int32(GEOS_GEOMETRYCOLLECTION.rawValue):
            // GEOSGetNumGeometries_r: -1 on exception.
            let n = try count("GEOSGetNumGeometries_r") { GEOSGetNumGeometries_r(handle, g) }
            for i in 0 ..< n {
                clearError()
                // GEOSGetGeometryN_r: borrowed, NULL on exception.
                guard let part = GEOSGetGeometryN_r(handle, g, Int32(i)) else { throw failure("GEOSGetGeometryN_r") }
                try collectPolygons(part, into: &polygons)
            }
        default:
            return
        }
    }
}
