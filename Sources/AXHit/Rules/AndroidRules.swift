import Foundation

/// Android and TalkBack (`platform: "android"`), over a uiautomator or
/// DroidBot dump or an `axhit/1` tree that says so. Coordinates are the
/// dump's pixels; `screen.scale` is the density, used where a rule is stated
/// in dp.
///
/// - Hidden: `visibleInSnapshot: false` (the framework's own
///   `visible-to-user`, which is reliable) hides the node and its subtree,
///   as do UIKit's hiding properties when a tree sets them (`ViewRules`).
/// - Exposed (TalkBack's `shouldFocusNode`, simplified): a visible node that
///   is actionable (it declares any `actions`), or that has a label or value
///   and no actionable ancestor; never a node that covers its whole window,
///   is not actionable and has children. An exposed node does not hide its
///   subtree.
/// - `hit`: front to back, deepest first; the topmost window holding the
///   point decides (the root always counts as a window).
/// - Order: the dump's pre-order of the exposed nodes.
/// - Touch: `dispatchTouchEvent`: the first visible node, front to back and
///   deepest first, that declares `click` or `longClick` or is an adjustable
///   control (the `adjustable` trait: SeekBar, Slider, RatingBar).
/// - Activation: `ok` when the node declares `click` or `longClick` (TalkBack
///   sends the click action); otherwise its activation point is delivered by
///   touch, and reaches it when the receiver is the node, a descendant or an
///   ancestor.
/// - Audits: touch targets of 48 × 48 dp on clickable nodes; an empty frame
///   is a node off the screen.
struct AndroidRules: PlatformRules {
    var screenReader: String { "TalkBack" }
    var platform: Platform { .android }

    func isHiddenItself(_ n: NodeID, in tree: ElementTree) -> Bool {
        tree.visibleInSnapshot(n) == false || ViewRules.isHiddenItself(n, in: tree)
    }

    func isExposed(_ n: NodeID, in tree: ElementTree, scope: ExposureScope, screenBox: () -> CGRect) -> Bool {
        let actionable = !tree.actions(of: n).isEmpty
        if actionable { return true }
        guard tree.hasLabelOrValue(n), !scope.actionableAbove else { return false }
        // A non-actionable node with children that covers its whole window
        // is the window's frame, not content.
        return tree.firstChildren[n.index].isNone || screenBox() != scope.window
    }

    var exposedHidesSubtree: Bool { false }
    var exposureInputs: ExposureInputs { [.hidden, .labelOrValue, .actions, .window, .geometry, .children] }
    var needsWindows: Bool { true }

    func isFinalWindow(_ n: NodeID, in tree: ElementTree) -> Bool {
        tree.has(.window, n) || tree.backLinks[n.index].parent.isNone
    }
    var navigationOrderModel: NavigationOrderModel { .documentOrder }

    var touchModel: TouchModel { .consumingNode }

    func consumesTap(_ n: NodeID, in tree: ElementTree) -> Bool {
        !tree.actions(of: n).isDisjoint(with: NodeActions.tap) || tree.traits(of: n).contains(.adjustable)
    }

    func activatesWithoutTap(_ e: NodeID, in tree: ElementTree) -> Bool {
        !tree.actions(of: e).isDisjoint(with: NodeActions.tap)
    }

    func tapReaches(_ receiver: NodeID, element e: NodeID, in tree: ElementTree) -> Bool {
        tree.isDescendant(receiver, of: e) || tree.isDescendant(e, of: receiver)
    }

    var minimumTouchTarget: Double { 48 }
    var coordinateUnit: String { "px" }
    var sizeUnit: String { "dp" }

    /// Android's standard densities (pixels per dp): mdpi to xxxhdpi and the
    /// common steps between.
    static let standardDensities: [Double] = [1, 1.5, 2, 2.625, 2.75, 3, 3.5, 4]

    /// The density: `screen.scale` when known (a file's, or the user's
    /// through the importer), else inferred from the screen's width as the
    /// standard density that brings it nearest to 411 dp (a typical phone),
    /// or 1 when the tree has no width.
    func unitScale(of tree: ElementTree) -> (scale: Double, inferred: Bool) {
        if let scale = tree.screenScale { return (Double(scale), false) }
        let width = Double(tree.screenBounds?.width ?? (tree.root.isNone ? 0 : tree.frames[tree.root.index].width))
        guard width > 0, width.isFinite else { return (1, true) }
        let best = Self.standardDensities.min { abs(width / $0 - 411) < abs(width / $1 - 411) } ?? 1
        return (best, true)
    }

    func isInteractive(_ e: NodeID, in tree: ElementTree) -> Bool {
        !tree.actions(of: e).isDisjoint(with: NodeActions.tap) && !tree.traits(of: e).contains(.notEnabled)
    }

    var emptyFrameMeansOffScreen: Bool { true }
    var viewsCoverWhatIsBehind: Bool { false }
    var checksVisibilityFlag: Bool { false }
}
