import AXHit
import Foundation

/// Format detection and every importer behind it (`ElementTree(contentsOf:)`):
/// axhit/1, Appium iOS XML, idb JSON, uiautomator, DroidBot and WebDriverAgent
/// JSON, and the refusals of the formats it recognises but does not read.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAnyTree(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let data = FuzzChecks.data(bytes, size)
    do {
        let tree = try ElementTree(contentsOf: data, file: "fuzz.in")
        FuzzChecks.exercise(tree, probes: UnsafeBufferPointer(start: bytes, count: size))
    } catch {
        FuzzChecks.check(error, file: "fuzz.in")
    }
    return 0
}
