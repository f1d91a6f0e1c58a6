import CGEOS
import Foundation

/// GEOS overlay, noding and measurement. Every result is a new owned
/// geometry; inputs stay the caller's.
extension GEOSContext {
    /// The union of all parts of `g` (OverlayNG with snapping fallbacks):
    /// merges adjacent polygons, nodes and dissolves linework.
    func unaryUnion(_ g: GEOSObject) throws -> GEOSObject {
        // GEOSUnaryUnion_r: NULL on exception.
        try make("GEOSUnaryUnion_r") { GEOSUnaryUnion_r(handle, g.pointer) }
    }

    /// The union of all parts of `g` snap-rounded to a grid of `gridSize`
    /// (OverlayNG's snap-rounding noder): every output vertex is on the grid,
    /// linework is fully noded, and features thinner than a cell collapse.
    func unaryUnion(_ g: GEOSObject, gridSize: Double) throws -> GEOSObject {
        // GEOSUnaryUnionPrec_r (GEOS 3.9): NULL on exception.
        try make("GEOSUnaryUnionPrec_r") { GEOSUnaryUnionPrec_r(handle, g.pointer, gridSize) }
    }

    /// `a ∪ b`.
    func union(_ a: GEOSObject, _ b: GEOSObject) throws -> GEOSObject {
        // GEOSUnion_r: NULL on exception.
        try make("GEOSUnion_r") { GEOSUnion_r(handle, a.pointer, b.pointer) }
    }

    /// `a ∩ b`.
    func intersection(_ a: GEOSObject, _ b: GEOSObject) throws -> GEOSObject {
        // GEOSIntersection_r: NULL on exception.
        try make("GEOSIntersection_r") { GEOSIntersection_r(handle, a.pointer, b.pointer) }
    }

    /// `a ∖ b`.
    func difference(_ a: GEOSObject, _ b: GEOSObject) throws -> GEOSObject {
        // GEOSDifference_r: NULL on exception.
        try make("GEOSDifference_r") { GEOSDifference_r(handle, a.pointer, b.pointer) }
    }

    /// Linework noded at every intersection (fully noded, duplicates kept).
    func node(_ g: GEOSObject) throws -> GEOSObject {
        // GEOSNode_r: NULL on exception.
        try make("GEOSNode_r") { GEOSNode_r(handle, g.pointer) }
    }

    /// The faces (polygons, with holes) that fully noded linework `lines`
    /// encloses, as a collection. Dangles and cut edges are dropped.
    func polygonize(_ lines: GEOSObject) throws -> GEOSObject {
        var inputs: [OpaquePointer?] = [lines.pointer]
        // GEOSPolygonize_r: inputs stay ours; NULL on exception.
        return try inputs.withUnsafeMutableBufferPointer { buffer in
            try make("GEOSPolygonize_r") { GEOSPolygonize_r(handle, buffer.baseAddress, 1) }
        }
    }

    /// A valid version of `g` (GEOS's default "linework" method).
    func makeValid(_ g: GEOSObject) throws -> GEOSObject {
        // GEOSMakeValid_r (GEOS 3.8): NULL on exception.
        try make("GEOSMakeValid_r") { GEOSMakeValid_r(handle, g.pointer) }
    }

    /// A point inside `g` (on its surface for areas, found on a horizontal
    /// line through the middle of the bounding box), or nil for an empty
    /// geometry.
    func pointOnSurface(_ g: GEOSObject) throws -> CGPoint? {
        // GEOSPointOnSurface_r: NULL on exception; empty point for empty input.
        let p = try make("GEOSPointOnSurface_r") { GEOSPointOnSurface_r(handle, g.pointer) }
        return try coordinates(ofPoint: p)
    }

    /// The area (0 for non-areal geometry).
    func area(_ g: GEOSObject) throws -> Double {
        var value = 0.0
        // GEOSArea_r: 1 on success, 0 on exception.
        try check("GEOSArea_r") { GEOSArea_r(handle, g.pointer, &value) }
        return value
    }

    /// Whether `g` is empty.
    func isEmpty(_ g: GEOSObject) throws -> Bool {
        // GEOSisEmpty_r: 1 true, 0 false, 2 on exception.
        try predicate("GEOSisEmpty_r") { GEOSisEmpty_r(handle, g.pointer) }
    }

    /// Whether `g` is valid in the OGC sense.
    func isValid(_ g: GEOSObject) throws -> Bool {
        // GEOSisValid_r: 1 true, 0 false, 2 on exception (also reports the
        // reason as a notice, which we capture).
        try predicate("GEOSisValid_r") { GEOSisValid_r(handle, g.pointer) }
    }

    /// Whether `a` contains `b` (`b` has no point in `a`'s exterior and one
    /// in its interior): a boundary point is not contained.
    func contains(_ a: GEOSObject, _ b: GEOSObject) throws -> Bool {
        // GEOSContains_r: 1 true, 0 false, 2 on exception.
        try predicate("GEOSContains_r") { GEOSContains_r(handle, a.pointer, b.pointer) }
    }

    /// Whether `a` and `b` share any point.
    func intersects(_ a: GEOSObject, _ b: GEOSObject) throws -> Bool {
        // GEOSIntersects_r: 1 true, 0 false, 2 on exception.
        try predicate("GEOSIntersects_r") { GEOSIntersects_r(handle, a.pointer, b.pointer) }
    }
}
