import AXHit
import Foundation

/// SVG path data through the whole pipeline: parse, write back and reparse,
/// flatten, fill by both rules (GEOS), and point tests on the result.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSVGPath(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: bytes, count: size), as: UTF8.self)
    let path: BezierPath
    do { path = try BezierPath(svgPathData: text) } catch { return 0 }
    // The writer's data parses back to the same path.
    let again: BezierPath
    do { again = try BezierPath(svgPathData: path.svgPathData) } catch {
        fatalError("svgPathData does not parse back: \(error)")
    }
    guard again.elements == path.elements else { fatalError("svgPathData round trip changed the path") }
    let rings = path.flattened()
    // Each curve is capped at 65536 chords; filling millions of points is
    // slow but not wrong, so only modest paths are filled.
    guard rings.reduce(0, { $0 + $1.count }) <= 20_000 else { return 0 }
    let probes = FuzzChecks.probePoints(UnsafeBufferPointer(start: bytes, count: size))
    for rule in [FillRule.nonZero, .evenOdd] {
        let region: PolygonSet
        do { region = try PolygonSet.filling(rings: rings, rule: rule) } catch let error as GeometryError {
            // Only out-of-range coordinates, a budget or a GEOS failure may be refused.
            switch error {
            case .coordinateOutOfRange, .geos, .overBudget: continue
            default: fatalError("unexpected error from filling: \(error)")
            }
        } catch {
            fatalError("untyped error from filling: \(error)")
        }
        for p in probes { _ = region.contains(p) }
        _ = region.wkt
    }
    return 0
}
