import CGEOS

/// Well-known text through GEOS's own reader and writer.
extension GEOSContext {
    /// `g` as WKT, XY only, trailing zeros trimmed, at most `decimals` digits
    /// after the point (GEOS's default 16 when nil).
    func wkt(_ g: GEOSObject, decimals: Int? = nil) throws -> String {
        clearError()
        // GEOSWKTWriter_create_r: NULL on exception.
        guard let writer = GEOSWKTWriter_create_r(handle) else { throw failure("GEOSWKTWriter_create_r") }
        defer { GEOSWKTWriter_destroy_r(handle, writer) }
        // The setters return nothing and cannot fail.
        GEOSWKTWriter_setTrim_r(handle, writer, 1)
        GEOSWKTWriter_setOutputDimension_r(handle, writer, 2)
        GEOSWKTWriter_setRoundingPrecision_r(handle, writer, Int32(clamping: decimals ?? 16))
        clearError()
        // GEOSWKTWriter_write_r: a string to free with GEOSFree_r; NULL on exception.
        guard let text = GEOSWKTWriter_write_r(handle, writer, g.pointer) else {
            throw failure("GEOSWKTWriter_write_r")
        }
        defer { GEOSFree_r(handle, text) }
        return String(cString: text)
    }

    /// The geometry that WKT `text` describes.
    func geometry(wkt text: String) throws -> GEOSObject {
        clearError()
        // GEOSWKTReader_create_r: NULL on exception.
        guard let reader = GEOSWKTReader_create_r(handle) else { throw failure("GEOSWKTReader_create_r") }
        defer { GEOSWKTReader_destroy_r(handle, reader) }
        // GEOSWKTReader_read_r: NULL on a parse error or exception.
        return try make("GEOSWKTReader_read_r") { GEOSWKTReader_read_r(handle, reader, text) }
    }
}
