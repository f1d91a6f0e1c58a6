import Foundation

extension PolygonSet {
    /// The filled region of every path (flattened within its tolerance, by
    /// its own fill rule), computed on all cores with one GEOS context per
    /// worker: the way a builder fills thousands of `accessibilityPath`s.
    ///
    /// - Parameter paths: Each path with its flattening tolerance, in the
    ///   path's own coordinate space.
    /// - Returns: One result per path, in order: the region, or the
    ///   `GeometryError` that filling it raised (with the budgets of
    ///   `filling(path:tolerance:)`).
    /// - Complexity: the sum of the single fills, divided among the cores.
    public static func filling(paths: [(path: BezierPath, tolerance: CGFloat)]) -> [Result<PolygonSet, GeometryError>] {
        parallelMap(
            paths.count, minimumChunk: 1,
            makeWorker: {
                Result { try GEOSContext() }.mapError(geometryError)
            }
        ) { context, i in
            context.flatMap { context in
                Result {
                    try filling(
                        rings: flattenedForFilling(paths[i].path, tolerance: paths[i].tolerance),
                        rule: paths[i].path.fillRule, context: context)
                }.mapError(geometryError)
            }
        }
    }

    private static func geometryError(_ error: any Error) -> GeometryError {
        (error as? GeometryError) ?? .geos(operation: "fill", message: "\(error)")
    }
}
