import Dispatch
import Foundation

extension PolygonSet {
    /// The filled region of every path (flattened within its tolerance, by
    /// its own fill rule), computed on all cores with one GEOS context per
    /// worker: the way a builder fills thousands of `accessibilityPath`s.
    ///
    /// - Parameter paths: Each path with its flattening tolerance, in the
    ///   path's own coordinate space.
    /// - Returns: One result per path, in order: the region, or the
    ///   `GeometryError` that filling it raised.
    /// - Complexity: the sum of the single fills, divided among the cores.
    public static func filling(paths: [(path: BezierPath, tolerance: CGFloat)]) -> [Result<PolygonSet, GeometryError>] {
        var results = [Result<PolygonSet, GeometryError>](repeating: .success(.empty), count: paths.count)
        guard !paths.isEmpty else { return results }
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let chunk = max(1, (paths.count + workers * 4 - 1) / (workers * 4))
        let chunks = (paths.count + chunk - 1) / chunk
        results.withUnsafeMutableBufferPointer { buffer in
            // Each chunk writes only its own slots.
            nonisolated(unsafe) let out = buffer
            DispatchQueue.concurrentPerform(iterations: chunks) { c in
                let range = c * chunk ..< min(paths.count, (c + 1) * chunk)
                let context: GEOSContext
                do {
                    context = try GEOSContext()
                } catch {
                    for i in range { out[i] = .failure(Self.geometryError(error)) }
                    return
                }
                for i in range {
                    let (path, tolerance) = paths[i]
                    do {
                        out[i] = .success(try filling(rings: path.flattened(tolerance: tolerance), rule: path.fillRule,
                                                      context: context))
                    } catch {
                        out[i] = .failure(Self.geometryError(error))
                    }
                }
            }
        }
        return results
    }

    private static func geometryError(_ error: any Error) -> GeometryError {
        (error as? GeometryError) ?? .geos(operation: "fill", message: "\(error)")
    }
}
