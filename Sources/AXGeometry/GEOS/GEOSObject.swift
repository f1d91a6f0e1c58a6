import CGEOS

/// An owned `GEOSGeometry*`, destroyed exactly once with its context's
/// `GEOSGeom_destroy_r` unless ownership was handed to GEOS by `release()`.
///
/// Holds its context strongly so that the context outlives every geometry
/// made in it. Not `Sendable`, like its context.
final class GEOSObject {
    let context: GEOSContext
    /// The handle. Valid while `self` is alive and not released; callers that
    /// pass it to GEOS must keep `self` alive across the call (a parameter or
    /// `withExtendedLifetime`).
    let pointer: OpaquePointer
    private var owned = true

    init(context: GEOSContext, pointer: OpaquePointer) {
        self.context = context
        self.pointer = pointer
    }

    /// Hands the handle to a GEOS call that takes ownership (a collection,
    /// a polygon's rings). `self` must not be used afterwards.
    func release() -> OpaquePointer {
        owned = false
        return pointer
    }

    deinit {
        if owned { GEOSGeom_destroy_r(context.handle, pointer) }
    }
}

@available(*, unavailable)
extension GEOSObject: Sendable {}
