import CGEOS
import Foundation

/// The collection types GEOS can build from parts.
enum GEOSCollectionKind {
    case multiLineString, multiPolygon, geometryCollection

    var typeID: Int32 {
        switch self {
        case .multiLineString: return Int32(GEOS_MULTILINESTRING.rawValue)
        case .multiPolygon: return Int32(GEOS_MULTIPOLYGON.rawValue)
        case .geometryCollection: return Int32(GEOS_GEOMETRYCOLLECTION.rawValue)
        }
    }
}

/// Building GEOS geometries from Swift points and reading them back.
extension GEOSContext {
    /// A raw XY coordinate sequence, owned by the caller until handed to a
    /// constructor that takes it. `closing` repeats the first point at the
    /// end unless it is already there.
    private func coordinateSequence(_ points: [CGPoint], closing: Bool) throws -> OpaquePointer {
        var buffer: [Double] = []
        buffer.reserveCapacity(2 * points.count + 2)
        for p in points {
            buffer.append(Double(p.x))
            buffer.append(Double(p.y))
        }
        if closing, let first = points.first, points.last != first {
            buffer.append(Double(first.x))
            buffer.append(Double(first.y))
        }
        guard let size = UInt32(exactly: buffer.count / 2) else {
            throw GeometryError.geos(operation: "GEOSCoordSeq_copyFromBuffer_r", message: "too many points")
        }
        clearError()
        // GEOSCoordSeq_copyFromBuffer_r (GEOS 3.10): NULL on exception.
        guard let seq = GEOSCoordSeq_copyFromBuffer_r(handle, buffer, size, 0, 0) else {
            throw failure("GEOSCoordSeq_copyFromBuffer_r")
        }
        return seq
    }

    /// A point.
    func point(_ p: CGPoint) throws -> GEOSObject {
        // GEOSGeom_createPointFromXY_r: NULL on exception.
        try make("GEOSGeom_createPointFromXY_r") { GEOSGeom_createPointFromXY_r(handle, Double(p.x), Double(p.y)) }
    }

    /// A linestring through `points`, closed back to the first point if
    /// `closed`. GEOS rejects a linestring of exactly one point.
    func lineString(_ points: [CGPoint], closed: Bool = false) throws -> GEOSObject {
        let seq = try coordinateSequence(points, closing: closed)
        // GEOSGeom_createLineString_r: takes the sequence (even on failure);
        // NULL on exception.
        return try make("GEOSGeom_createLineString_r") { GEOSGeom_createLineString_r(handle, seq) }
    }

    /// A linear ring through `points`, closed if it is not already. GEOS
    /// rejects rings of fewer than 4 points once closed.
    func linearRing(_ points: [CGPoint]) throws -> GEOSObject {
        let seq = try coordinateSequence(points, closing: true)
        // GEOSGeom_createLinearRing_r: takes the sequence; NULL on exception.
        return try make("GEOSGeom_createLinearRing_r") { GEOSGeom_createLinearRing_r(handle, seq) }
    }

    /// A polygon from an exterior ring and holes (open or closed point
    /// lists). Not checked for validity.
    func polygon(exterior: [CGPoint], holes: [[CGPoint]] = []) throws -> GEOSObject {
        let shell = try linearRing(exterior)
        let holeObjects = try holes.map { try linearRing($0) }
        guard let count = UInt32(exactly: holeObjects.count) else {
            throw GeometryError.geos(operation: "GEOSGeom_createPolygon_r", message: "too many holes")
        }
        // Ownership passes at the call, so release only now that nothing
        // else can throw before it.
        let shellPointer = shell.release()
        var holePointers: [OpaquePointer?] = holeObjects.map { $0.release() }
        // GEOSGeom_createPolygon_r: takes shell and holes (even on failure,
        // GEOS ticket 1111); the holes array itself stays ours. NULL on exception.
        return try holePointers.withUnsafeMutableBufferPointer { holesBuffer in
            try make("GEOSGeom_createPolygon_r") {
                GEOSGeom_createPolygon_r(handle, shellPointer, holesBuffer.baseAddress, count)
            }
        }
    }

    /// A collection of `kind` made of `parts`, which GEOS takes: the parts
    /// must not be used afterwards.
    func collection(_ kind: GEOSCollectionKind, taking parts: [GEOSObject]) throws -> GEOSObject {
        guard let count = UInt32(exactly: parts.count) else {
            throw GeometryError.geos(operation: "GEOSGeom_createCollection_r", message: "too many parts")
        }
        var pointers: [OpaquePointer?] = parts.map { $0.release() }
        // GEOSGeom_createCollection_r: takes the parts (not the array);
        // NULL on exception.
        return try pointers.withUnsafeMutableBufferPointer { buffer in
            try make("GEOSGeom_createCollection_r") {
                GEOSGeom_createCollection_r(handle, kind.typeID, buffer.baseAddress, count)
            }
        }
    }

    /// An independent copy.
    func clone(_ g: GEOSObject) throws -> GEOSObject {
        // GEOSGeom_clone_r: NULL on exception.
        try make("GEOSGeom_clone_r") { GEOSGeom_clone_r(handle, g.pointer) }
    }

    /// Copies of the direct parts of a collection (a single geometry for a
    /// non-collection), each owned separately.
    func parts(of g: GEOSObject) throws -> [GEOSObject] {
        // GEOSGetNumGeometries_r: -1 on exception; 1 for a non-collection.
        let n = try count("GEOSGetNumGeometries_r") { GEOSGetNumGeometries_r(handle, g.pointer) }
        return try (0 ..< n).map { i in
            clearError()
            // GEOSGetGeometryN_r: borrowed from g (alive: a parameter), NULL on exception.
            guard let part = GEOSGetGeometryN_r(handle, g.pointer, Int32(i)) else {
                throw failure("GEOSGetGeometryN_r")
            }
            return try make("GEOSGeom_clone_r") { GEOSGeom_clone_r(handle, part) }
        }
    }

    /// The points of a borrowed linestring or linear ring.
    func points(ofBorrowedCurve curve: OpaquePointer) throws -> [CGPoint] {
        clearError()
        // GEOSGeom_getCoordSeq_r: borrowed from the curve, NULL on exception.
        guard let seq = GEOSGeom_getCoordSeq_r(handle, curve) else { throw failure("GEOSGeom_getCoordSeq_r") }
        var size: UInt32 = 0
        // GEOSCoordSeq_getSize_r: 0 on exception.
        try check("GEOSCoordSeq_getSize_r") { GEOSCoordSeq_getSize_r(handle, seq, &size) }
        if size == 0 { return [] }
        var buffer = [Double](repeating: 0, count: 2 * Int(size))
        // GEOSCoordSeq_copyToBuffer_r (GEOS 3.10): 1 on success, 0 on error.
        try check("GEOSCoordSeq_copyToBuffer_r") { GEOSCoordSeq_copyToBuffer_r(handle, seq, &buffer, 0, 0) }
        return (0 ..< Int(size)).map { CGPoint(x: buffer[2 * $0], y: buffer[2 * $0 + 1]) }
    }

    /// The coordinates of a point geometry, or nil for an empty point.
    func coordinates(ofPoint g: GEOSObject) throws -> CGPoint? {
        if try isEmpty(g) { return nil }
        var x = 0.0, y = 0.0
        // GEOSGeomGetX_r / GEOSGeomGetY_r: 1 on success, 0 on exception.
        try check("GEOSGeomGetX_r") { GEOSGeomGetX_r(handle, g.pointer, &x) }
        try check("GEOSGeomGetY_r") { GEOSGeomGetY_r(handle, g.pointer, &y) }
        return CGPoint(x: x, y: y)
    }

    /// GEOS's type id (`GEOS_POLYGON`, ...).
    func typeID(_ g: GEOSObject) throws -> Int32 {
        // GEOSGeomTypeId_r: -1 on exception.
        Int32(try count("GEOSGeomTypeId_r") { GEOSGeomTypeId_r(handle, g.pointer) })
    }
}
