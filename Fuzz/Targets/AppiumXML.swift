import AXHit
import Foundation

/// The Appium iOS page-source importer (the page-source XML scanner and
/// `AppiumPageSource`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAppiumXML(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let data = FuzzChecks.data(bytes, size)
    do {
        let tree = try ElementTree(appiumPageSource: data, file: "fuzz.xml")
        FuzzChecks.exercise(tree, probes: UnsafeBufferPointer(start: bytes, count: size))
    } catch {
        FuzzChecks.check(error, file: "fuzz.xml")
    }
    return 0
}
