import AXHit
import CommandLineSupport
import Foundation

/// `axhit shape --d D [--even-odd] [--tolerance T]`.
enum ShapeCommand {
    static let help = """
        usage: axhit shape --d D [--even-odd] [--tolerance T]

        Print the region the SVG path D (screen space) fills, as one line of WKT:
        a POLYGON or MULTIPOLYGON, or POLYGON EMPTY. Curves are flattened to within
        T points of the true curve (default 0.05, at least \(Limits.decimal(minimumTolerance))); the fill rule is
        non-zero unless --even-odd is given. An open subpath is filled as if closed.

        \(Limits.geometry)
        """

    /// The smallest `--tolerance` taken, in points: the library's floor
    /// for a fill (`BezierPath.minimumFillTolerance`), refused here as a
    /// usage error.
    static let minimumTolerance = Double(BezierPath.minimumFillTolerance)

    static func run(_ argv: [String]) throws {
        let args = try Arguments(argv, options: ["d", "tolerance"], flags: ["even-odd", "help"])
        if args.flag("help") {
            Output.line(help)
            return
        }
        try args.noPositionals()
        let d = try args.required("d")
        let tolerance = try args.number("tolerance", default: 0.05)
        guard tolerance >= minimumTolerance else {
            throw UsageError(
                "--tolerance must be at least \(Limits.decimal(minimumTolerance)) (points), got \(args.option("tolerance") ?? "")"
            )
        }
        var path: BezierPath
        do { path = try BezierPath(svgPathData: d) } catch {
            throw TreeError(.validation, "\(error)", file: "--d")
        }
        path.fillRule = args.flag("even-odd") ? .evenOdd : .nonZero
        let region: PolygonSet
        // Counted and refused before anything is flattened: a 6 KB path can
        // describe hundreds of megabytes of points.
        do { region = try PolygonSet.filling(path: path, tolerance: tolerance) } catch {
            // Named like a parse error, so the one error line names its input.
            throw TreeError(.validation, "\(error)", file: "--d")
        }
        Output.line(region.wkt)
    }
}
