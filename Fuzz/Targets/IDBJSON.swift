import AXHit
import Foundation

/// The `idb ui describe-all` JSON importer, flat and nested (through the
/// shared JSON scanner and `IDBDescribeAll`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIDBJSON(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let data = FuzzChecks.data(bytes, size)
    do {
        let tree = try ElementTree(idbJSON: data, file: "fuzz.json")
        FuzzChecks.exercise(tree, probes: UnsafeBufferPointer(start: bytes, count: size))
    } catch {
        FuzzChecks.check(error, file: "fuzz.json")
    }
    return 0
}
