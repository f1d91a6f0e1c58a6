import AXHit
import Foundation

/// The Android uiautomator dump importer, at a density the input picks.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzUIAutomatorXML(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let data = FuzzChecks.data(bytes, size)
    var options = ImportOptions()
    // The last byte picks a density: 1, 2, 2.625 or 3 (the common ones).
    if size > 0 { options.density = [1, 2, 2.625, 3][Int(bytes[size - 1] & 3)] }
    do {
        let tree = try ElementTree(uiautomatorDump: data, file: "fuzz.xml", options: options)
        FuzzChecks.exercise(tree, probes: UnsafeBufferPointer(start: bytes, count: size))
    } catch {
        FuzzChecks.check(error, file: "fuzz.xml")
    }
    return 0
}
