import CGEOS
import Foundation

/// Receives the messages of one GEOS context, so that they become errors
/// rather than lines on stderr.
private final class STRtreeMessageSink {
    var last: String?
}

/// GEOS's own STRtree, through its C API, over a list of boxes: the
/// benchmark's "what an off-the-shelf spatial index gives" baseline.
///
/// Box `i` is item `i`; a query returns the largest index whose box holds the
/// point under the closed-open rule (`minX <= x < maxX`, `minY <= y < maxY`),
/// so boxes given in pre-order yield the frontmost. It knows nothing of
/// ancestor bounds, so its answer equals a flat scan's, not the hit-test's.
///
/// Owns one GEOS context (never shared between threads: use an instance from
/// one thread only), one line string per box (its envelope is the box; a
/// two-point line string is the cheapest geometry with that envelope in
/// GEOS 3.10's API) and the tree; all are freed exactly once in `deinit`.
@_spi(Benchmarks) public final class GEOSSTRtreeBaseline {
    private let context: GEOSContextHandle_t
    private let tree: OpaquePointer
    private let geometries: [OpaquePointer]
    private let boxes: [CGRect]
    // Referenced (unretained) by the context's message handlers; outlives it.
    private let sink: STRtreeMessageSink

    /// The number of boxes indexed.
    public var count: Int { boxes.count }

    /// Builds an STRtree over `boxes` (screen coordinates; indexes are item
    /// ids) with `nodeCapacity` children per node, and forces GEOS's lazy
    /// bulk load with one query, so that the build is paid here.
    ///
    /// - Complexity: O(n log n).
    /// - Throws: `GeometryError.geos` with GEOS's message when a context,
    ///   coordinate sequence, geometry or the tree cannot be made.
    public init(boxes: [CGRect], nodeCapacity: Int = 10) throws(GeometryError) {
        let sink = STRtreeMessageSink()
        // GEOS_init_r: a new context, or NULL when it cannot allocate one.
        guard let ctx = GEOS_init_r() else {
            throw .geos(operation: "GEOS_init_r", message: "no context")
        }
        let sinkPointer = Unmanaged.passUnretained(sink).toOpaque()
        let capture: GEOSMessageHandler_r = { message, userdata in
            guard let message, let userdata else { return }
            Unmanaged<STRtreeMessageSink>.fromOpaque(userdata).takeUnretainedValue().last = String(cString: message)
        }
        _ = GEOSContext_setErrorMessageHandler_r(ctx, capture, sinkPointer)
        _ = GEOSContext_setNoticeMessageHandler_r(ctx, capture, sinkPointer)

        var geometries: [OpaquePointer] = []
        geometries.reserveCapacity(boxes.count)
        func fail(_ operation: String, tree: OpaquePointer?) -> GeometryError {
            let error = GeometryError.geos(operation: operation, message: sink.last ?? "failed")
            if let tree { GEOSSTRtree_destroy_r(ctx, tree) }
            for g in geometries { GEOSGeom_destroy_r(ctx, g) }
            GEOS_finish_r(ctx)
            return error
        }
        // GEOSSTRtree_create_r: NULL on error.
        guard let tree = GEOSSTRtree_create_r(ctx, nodeCapacity) else { throw fail("GEOSSTRtree_create_r", tree: nil) }
        for (i, b) in boxes.enumerated() {
            // GEOSCoordSeq_create_r: NULL on error. GEOSCoordSeq_setXY_r: 0 on error.
            guard let seq = GEOSCoordSeq_create_r(ctx, 2, 2) else { throw fail("GEOSCoordSeq_create_r", tree: tree) }
            if GEOSCoordSeq_setXY_r(ctx, seq, 0, Double(b.minX), Double(b.minY)) == 0
                || GEOSCoordSeq_setXY_r(ctx, seq, 1, Double(b.maxX), Double(b.maxY)) == 0
            {
                GEOSCoordSeq_destroy_r(ctx, seq)
                throw fail("GEOSCoordSeq_setXY_r", tree: tree)
            }
            // GEOSGeom_createLineString_r: takes the sequence (also on error); NULL on error.
            guard let line = GEOSGeom_createLineString_r(ctx, seq) else {
                throw fail("GEOSGeom_createLineString_r", tree: tree)
            }
            geometries.append(line)
            // GEOSSTRtree_insert_r: no result. The geometry must outlive the
            // tree (kept in `geometries`). Item i + 1, as 0 would be NULL.
            GEOSSTRtree_insert_r(ctx, tree, line, UnsafeMutableRawPointer(bitPattern: i + 1))
        }
        self.context = ctx
        self.tree = tree
        self.geometries = geometries
        self.boxes = boxes
        self.sink = sink
        _ = frontmost(containing: CGPoint(x: 0, y: 0))
    }

    deinit {
        GEOSSTRtree_destroy_r(context, tree)
        for g in geometries { GEOSGeom_destroy_r(context, g) }
        GEOS_finish_r(context)
    }

    /// The largest box index whose box holds `p` (closed-open), or nil.
    ///
    /// Each call makes and frees one GEOS point (the C API queries by
    /// geometry) and runs a C callback per candidate: the cost a user of
    /// GEOS's C API pays. Not allocation-free, not thread-safe.
    ///
    /// - Complexity: O(log n + candidates).
    public func frontmost(containing p: CGPoint) -> Int? {
        // GEOSGeom_createPointFromXY_r: NULL on error.
        guard let point = GEOSGeom_createPointFromXY_r(context, Double(p.x), Double(p.y)) else { return nil }
        defer { GEOSGeom_destroy_r(context, point) }
        return boxes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress else { return nil }
            var state = STRtreeQueryState(x: p.x, y: p.y, best: -1, boxes: base)
            withUnsafeMutablePointer(to: &state) { statePointer in
                // GEOSSTRtree_query_r: no result; calls back once per item
                // whose envelope intersects the point's (closed).
                GEOSSTRtree_query_r(
                    context, tree, point,
                    { item, userdata in
                        guard let userdata else { return }
                        let s = userdata.assumingMemoryBound(to: STRtreeQueryState.self)
                        let i = Int(bitPattern: item) - 1
                        guard i > s.pointee.best else { return }
                        let b = s.pointee.boxes[i]
                        let x = s.pointee.x, y = s.pointee.y
                        if x >= b.minX && x < b.maxX && y >= b.minY && y < b.maxY { s.pointee.best = i }
                    }, statePointer)
            }
            return state.best >= 0 ? state.best : nil
        }
    }
}

/// What one query's callback reads and updates.
private struct STRtreeQueryState {
    var x: CGFloat
    var y: CGFloat
    var best: Int
    var boxes: UnsafePointer<CGRect>
}
