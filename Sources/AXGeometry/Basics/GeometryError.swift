/// Everything the geometry layer can throw.
///
/// Hot paths (point containment, index queries) never throw; errors arise only
/// where input is parsed or where GEOS builds a geometry.
public enum GeometryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// SVG path data that does not follow the grammar. `offset` is the
    /// zero-based index of the offending character (in Unicode scalars of the
    /// path string), `expected` says what the grammar wanted there, and
    /// `found` is what was there (`"end of data"` at the end).
    case pathSyntax(offset: Int, expected: String, found: String)
    /// A path with a coordinate that is not finite, or too large to be used.
    case nonFiniteCoordinate(offset: Int)
    /// A ring point handed to the geometry builder (after any path parsing
    /// and transforms) that is not finite (a transform overflowed):
    /// `ring` and `point` are zero-based indexes into the rings given.
    case coordinateOutOfRange(ring: Int, point: Int)
    /// GEOS reported an error (its own message, captured, never printed).
    case geos(operation: String, message: String)
    /// Input that would need more work or memory than `budget` allows:
    /// `count` is what the input has (for `.fillCrossings` and
    /// `.fillCandidatePairs`, counted only until it passed the limit) and
    /// `limit` the budget it exceeds. Nothing was allocated for the output.
    case overBudget(Budget, count: Int, limit: Int)
    /// A fill asked for a flattening tolerance below
    /// `BezierPath.minimumFillTolerance` (or one that is NaN): `tolerance`
    /// is what was asked.
    case toleranceBelowMinimum(tolerance: Double)

    /// The stated limits that bound the geometry layer's work on any input,
    /// each named after the public constant that holds it.
    public enum Budget: Sendable, Equatable {
        /// Points a path flattens to (`BezierPath.maximumFlattenedPoints`).
        case flattenedPoints
        /// Edges handed to a fill (`PolygonSet.maximumFillEdges`).
        case fillEdges
        /// Pairs of edges of a fill that cross or touch
        /// (`PolygonSet.maximumFillCrossings`).
        case fillCrossings
        /// Pairs of edge runs whose boxes overlap, which a fill's crossing
        /// count and GEOS's noder both examine
        /// (`PolygonSet.maximumFillCandidatePairs`).
        case fillCandidatePairs

        /// The constant that holds the budget.
        public var constantName: String {
            switch self {
            case .flattenedPoints: return "BezierPath.maximumFlattenedPoints"
            case .fillEdges: return "PolygonSet.maximumFillEdges"
            case .fillCrossings: return "PolygonSet.maximumFillCrossings"
            case .fillCandidatePairs: return "PolygonSet.maximumFillCandidatePairs"
            }
        }
    }

    /// The error in words, with its offset or operation.
    public var description: String {
        switch self {
        case let .pathSyntax(offset, expected, found):
            return "path data: at offset \(offset): expected \(expected), found \(found)"
        case let .nonFiniteCoordinate(offset):
            return "path data: at offset \(offset): number is not finite"
        case let .coordinateOutOfRange(ring, point):
            return "ring \(ring), point \(point): coordinate is not finite or is beyond 1e15 in magnitude"
        case let .geos(operation, message):
            return "GEOS \(operation) failed: \(message)"
        case let .overBudget(budget, count, limit):
            let what: String
            switch budget {
            case .flattenedPoints:
                what = "path too complex: it flattens to \(count) points, over the budget of \(limit)"
            case .fillEdges: what = "path too complex to fill: \(count) edges, over the budget of \(limit)"
            case .fillCrossings:
                what = "path too complex to fill: more than \(limit) pairs of its edges cross or touch"
            case .fillCandidatePairs:
                what = "path too complex to fill: its edges pass close to each other in more than \(limit) places"
            }
            return what + " (\(budget.constantName))"
        case let .toleranceBelowMinimum(tolerance):
            return "flattening tolerance \(tolerance) is below the floor of \(BezierPath.minimumFillTolerance) "
                + "(BezierPath.minimumFillTolerance)"
        }
    }
}
