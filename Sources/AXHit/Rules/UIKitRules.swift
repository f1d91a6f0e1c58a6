import Foundation

/// UIKit and VoiceOver over a tree of real views (`platform: "ios"`,
/// `source: "views"`): the rules of tree-format.md's first sections.
///
/// - Exposed: `isAccessibilityElement`, with nothing hiding it or an
///   ancestor (`ViewRules`), no exposed element above it (an element hides
///   its subtree) and no modal sibling suppressing it or an ancestor.
/// - Order: AccessibilitySnapshot's groups and rows (`NavigationOrderModel.sortedGroups`).
/// - Touch: UIKit's `hitTest(_:with:)`; element nodes never receive one.
/// - Activation: the tap reaches the element's view or a descendant (an
///   element node's container or a descendant).
/// - Audits: controls by their traits, scroll containers by the `scroll`
///   action.
struct UIKitRules: PlatformRules {
    var screenReader: String { "VoiceOver" }
    var platform: Platform { .ios }

    func isHiddenItself(_ n: NodeID, in tree: ElementTree) -> Bool { ViewRules.isHiddenItself(n, in: tree) }

    func isExposed(_ n: NodeID, in tree: ElementTree, scope: ExposureScope, screenBox: () -> CGRect) -> Bool {
        tree.has(.accessibilityElement, n)
    }

    var exposedHidesSubtree: Bool { true }
    var exposureInputs: ExposureInputs { [.hidden, .accessibilityElement] }
    var needsWindows: Bool { false }
    func isFinalWindow(_ n: NodeID, in tree: ElementTree) -> Bool { false }
    var navigationOrderModel: NavigationOrderModel { .sortedGroups }

    var touchModel: TouchModel { .viewHitTest }

    func consumesTap(_ n: NodeID, in tree: ElementTree) -> Bool { false }
    func activatesWithoutTap(_ e: NodeID, in tree: ElementTree) -> Bool { false }

    func tapReaches(_ receiver: NodeID, element e: NodeID, in tree: ElementTree) -> Bool {
        tree.isDescendant(receiver, of: tree.isView(e) ? e : tree.container(of: e))
    }

    func unitScale(of tree: ElementTree) -> (scale: Double, inferred: Bool) { (1, false) }
    var coordinateUnit: String { "pt" }
    var sizeUnit: String { "pt" }

    /// Traits that make an element a control (tree-format.md, "Audits").
    static let controlTraits: AccessibilityTraits = [
        .button, .link, .keyboardKey, .searchField, .adjustable, .toggleButton,
    ]

    /// An element with a control's trait.
    func isControl(_ e: NodeID, in tree: ElementTree) -> Bool {
        !tree.traits(of: e).isDisjoint(with: Self.controlTraits)
    }

    /// A view whose `actions` hold `scroll`.
    func isScrollContainer(_ n: NodeID, in tree: ElementTree) -> Bool { tree.actions(of: n).contains(.scroll) }
    var viewsCoverWhatIsBehind: Bool { true }
    var checksVisibilityFlag: Bool { false }
}
