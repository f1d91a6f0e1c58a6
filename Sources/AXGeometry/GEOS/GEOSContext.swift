import CGEOS
import Foundation

/// One GEOS context (`GEOSContextHandle_t`) and the messages its calls report.
///
/// Owned by one builder or worker thread, never shared: a GEOS context is not
/// thread-safe, so this class is deliberately not `Sendable`. GEOS's error and
/// notice messages go to a buffer owned here (never to stderr); a failing call
/// throws `GeometryError.geos` carrying the captured error message.
final class GEOSContext {
    /// The raw handle, valid until `deinit`.
    let handle: GEOSContextHandle_t
    /// Where the C handlers write; kept alive by `self` because GEOS holds
    /// only an unretained pointer to it.
    private let messages: MessageBuffer

    /// A fresh context whose messages are captured, not printed.
    ///
    /// - Throws: `GeometryError.geos` if GEOS cannot allocate a context.
    init() throws {
        // GEOS_init_r: NULL only if allocation fails.
        guard let handle = GEOS_init_r() else {
            throw GeometryError.geos(operation: "GEOS_init_r", message: "could not create a context")
        }
        self.handle = handle
        self.messages = MessageBuffer()
        let userdata = Unmanaged.passUnretained(messages).toOpaque()
        // Both setters return the previous handler (none here); nothing to check.
        _ = GEOSContext_setErrorMessageHandler_r(
            handle,
            { message, userdata in
                guard let userdata else { return }
                let buffer = Unmanaged<MessageBuffer>.fromOpaque(userdata).takeUnretainedValue()
                buffer.error = message.map { String(cString: $0) } ?? "unknown error"
            }, userdata)
        _ = GEOSContext_setNoticeMessageHandler_r(
            handle,
            { message, userdata in
                guard let userdata else { return }
                let buffer = Unmanaged<MessageBuffer>.fromOpaque(userdata).takeUnretainedValue()
                buffer.notice = message.map { String(cString: $0) } ?? ""
            }, userdata)
    }

    deinit {
        // Every GEOSObject holds its context strongly, so no geometry of this
        // context is alive any more.
        GEOS_finish_r(handle)
    }

    /// The last notice GEOS reported (kept for diagnostics, never printed).
    var lastNotice: String? { messages.notice }

    /// Forgets the previous error so that a failure reports its own message.
    @inline(__always)
    func clearError() { messages.error = nil }

    /// The error to throw for a failed call of `operation`.
    func failure(_ operation: String) -> GeometryError {
        let message = messages.error ?? "GEOS reported failure without a message"
        messages.error = nil
        return .geos(operation: operation, message: message)
    }

    /// Runs a GEOS call that returns a new geometry (NULL on exception) and
    /// takes ownership of the result.
    func make(_ operation: String, _ call: () -> OpaquePointer?) throws -> GEOSObject {
        clearError()
        guard let pointer = call() else { throw failure(operation) }
        return GEOSObject(context: self, pointer: pointer)
    }

    /// Runs a GEOS predicate (1 true, 0 false, 2 on exception).
    func predicate(_ operation: String, _ call: () -> CChar) throws -> Bool {
        clearError()
        switch call() {
        case 0: return false
        case 1: return true
        default: throw failure(operation)
        }
    }

    /// Runs a GEOS getter that returns 0 on exception (1 on success).
    func check(_ operation: String, _ call: () -> Int32) throws {
        clearError()
        if call() == 0 { throw failure(operation) }
    }

    /// Runs a GEOS counter that returns -1 on exception.
    func count(_ operation: String, _ call: () -> Int32) throws -> Int {
        clearError()
        let n = call()
        if n < 0 { throw failure(operation) }
        return Int(n)
    }
}

/// A GEOS context must stay on the thread of its owner.
@available(*, unavailable)
extension GEOSContext: Sendable {}

/// Messages the C handlers capture for one context.
private final class MessageBuffer {
    var error: String?
    var notice: String?
}
