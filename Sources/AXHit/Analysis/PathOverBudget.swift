import Foundation

/// Why a whole-screen analysis did not fill an element's `accessibilityPath`:
/// the budget it goes over. Such an element is still analysed by what needs
/// no fill (its frame, its activation, its path's winding test); what needs
/// its filled region (a suggested point, its touch-target size, its visible
/// share) is not known. Each budget bounds one element, so one such path
/// leaves every other element's answers as they are.
public enum PathOverBudget: Sendable, Equatable, CustomStringConvertible {
    /// The path flattens on the screen to `count` points, more than
    /// `ScreenAnalysis.maximumElementPathPoints`.
    case elementPoints(count: Int)
    /// With the paths filled before it (in pre-order), the screen's paths
    /// would flatten to more than `budget` points together: the tree's
    /// `pathPointBudget`, which views that scale paths up can exceed on the
    /// screen though the input is within it.
    case screenPoints(budget: Int)
    /// Filling it went over one of the geometry layer's budgets
    /// (`GeometryError.overBudget`: edges, crossing pairs, nearby pairs).
    case fill(GeometryError)

    /// The budget in words, naming the constant that holds it.
    public var description: String {
        switch self {
        case let .elementPoints(count):
            return "its path flattens on the screen to \(count) points, over the budget of "
                + "\(ScreenAnalysis.maximumElementPathPoints) for one element (ScreenAnalysis.maximumElementPathPoints)"
        case let .screenPoints(budget):
            return "with the paths before it, the screen's paths flatten to more than \(budget) points together, "
                + "the budget of this tree (ElementTree.maximumPathPoints)"
        case let .fill(error):
            return "\(error)"
        }
    }
}
