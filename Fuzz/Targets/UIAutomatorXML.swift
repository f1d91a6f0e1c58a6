import AXHit
import Foundation

/// The Android uiautomator dump importer (the page-source XML scanner and
/// `UIAutomatorDump`), with options the input's last byte picks.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzUIAutomatorXML(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let data = FuzzChecks.data(bytes, size)
    var options = ImportOptions()
    if size > 0 {
        // Bits 0-1: no density or a common one; bit 2: judged as iOS;
        // bit 3: visibility flags trusted.
        let pick = bytes[size - 1]
        options.density = [nil, 1, 2.625, 3][Int(pick & 3)]
        if pick & 4 != 0 { options.platform = .ios }
        options.trustsVisibilityFlags = pick & 8 != 0
    }
    do {
        let tree = try ElementTree(uiautomatorDump: data, file: "fuzz.xml", options: options)
        FuzzChecks.exercise(tree, probes: UnsafeBufferPointer(start: bytes, count: size))
    } catch {
        FuzzChecks.check(error, file: "fuzz.xml")
    }
    return 0
}
