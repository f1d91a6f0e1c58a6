import AXHit
import Foundation

/// The budgets a verb's work is bounded by, as its `--help` states them
/// (Docs/cli.md, "Budgets"). Built from the library's constants so the text
/// cannot drift from the limits the engine applies.
enum Limits {
    /// Paths and filled shapes: every verb that reads a TREE.
    static let geometry = """
        limits:
          a path that flattens to more than \(count(BezierPath.maximumFlattenedPoints)) points is refused;
          filling a shape stops above \(count(PolygonSet.maximumFillEdges)) edges, \(count(PolygonSet.maximumFillCrossings)) crossing edge pairs
          or \(count(PolygonSet.maximumFillCandidatePairs)) nearby edge pairs, with an error naming the budget;
          a tree's paths flatten to at most 64 points per node, plus what each path element
          flattens to up to 64 an element, together (at least \(count(ElementTree.maximumPathPoints(nodes: 0, pathPointsEarned: 0))))
        """

    /// The budgets of one element's path in whole-screen analysis
    /// (activate, audit, render): over one, that element alone is judged
    /// without its filled shape.
    static let elementPaths = """
          an element whose path flattens on the screen to more than \(count(ScreenAnalysis.maximumElementPathPoints)) points, goes over
          a fill budget, or would carry the screen's paths past the tree's budget, is judged by its
          frame, activation and path's winding alone (no suggested point, size or visible share;
          audit: a path-over-budget info finding); every other element is answered as usual
        """

    /// The largest-inscribed-circle search behind suggested points and
    /// touch-target sizes (activate, audit).
    static let inscribedCircle = """
          suggested points and touch-target sizes are found to \(decimal(PolygonSet.inscribedCircleRelativeTolerance)) of the
          region's size, in at most \(count(PolygonSet.maximumInscribedCircleCells)) cells
        """

    /// What `audit` measures of coverage.
    static let coverage = """
          on Android, touch exploration is asked about at most \(count(Auditor.coverageCellBudget)) cells of one element
          (the cells between the edges of the nodes that meet it); an element cut finer is not
          judged for covered or unreachable
        """

    /// `render`'s largest picture.
    static let picture = """
          a picture more than \(decimal(SVGRenderer.maximumExtent)) units across is refused
        """

    /// `hit`'s points file.
    static let pointsFile = """
          a line of the points file is at most \(count(PointsFile.maximumLine)) bytes
        """

    /// `n` with thousands separators, as the docs write it.
    static func count(_ n: Int) -> String {
        let digits = Array(String(n))
        var out = ""
        for (i, d) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(d)
        }
        return out
    }

    /// `x` as the docs write it: a power of ten as `1e12` or `1e-4`,
    /// anything else as Swift prints it.
    static func decimal(_ x: Double) -> String {
        guard x > 0 else { return "\(x)" }
        let exponent = Int(log10(x).rounded())
        return x == pow(10, Double(exponent)) ? "1e\(exponent)" : "\(x)"
    }
}
