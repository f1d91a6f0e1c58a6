import AXHit
import Foundation

/// The `axhit/1` reader (JSONScanner + AXHitJSONReader), then the writer
/// round trip and the engine on whatever it accepts.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAXHitJSON(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let data = FuzzChecks.data(bytes, size)
    do {
        let tree = try ElementTree(axhitJSON: data, file: "fuzz.json")
        FuzzChecks.exercise(tree, probes: UnsafeBufferPointer(start: bytes, count: size))
    } catch {
        FuzzChecks.check(error, file: "fuzz.json")
    }
    return 0
}
