import Foundation

/// Android and TalkBack (`platform: "android"`), over a uiautomator or
/// DroidBot dump or an `axhit/1` tree that says so. Coordinates are the
/// dump's pixels; `screen.scale` is the density, used where a rule is stated
/// in dp.
///
/// - Hidden: `visibleInSnapshot: false` (the framework's own
///   `visible-to-user`, which is reliable) hides the node and its subtree,
///   as do UIKit's hiding properties when a tree sets them (`ViewRules`).
/// - Exposed, and the swipe order: TalkBack's own rules over the tree it
///   sees (`TalkBackTree`: importance, `shouldFocusNode`, reordering by
///   useful bounds, window order). An exposed node does not hide its
///   subtree.
/// - `hit`: Android's hover dispatch, then TalkBack's choice among the
///   nodes that report it (`HitTester.hover`).
/// - Touch: `dispatchTouchEvent`: front to back and deepest first, the
///   first visible node whose subtree consumes the tap: one that declares
///   `click` or `longClick`, an adjustable control (SeekBar, Slider,
///   RatingBar), or a scroll container with a child.
/// - Activation: `ok` by the click action for an enabled node that
///   declares `click`; otherwise its activation point is delivered by
///   touch, and reaches it when the receiver is the node, a descendant or
///   an ancestor.
/// - Audits: controls are the nodes that declare `click` or `longClick`;
///   sizes are in dp.
struct AndroidRules: PlatformRules {
    var screenReader: String { "TalkBack" }
    var platform: Platform { .android }

    /// TalkBack's view of the tree the rules were made for (`ElementTree.rules`);
    /// nil for rules made without a tree, which expose nothing.
    var talkBack: TalkBackTree?

    /// Rules for `tree`, with TalkBack's view of it. O(n).
    init(for tree: ElementTree) {
        talkBack = TalkBackTree(tree, rules: self)
    }

    /// Rules without a tree (exposing nothing), for what reads only the
    /// node-local rules: hiding, touch, activation.
    init() {}

    func isHiddenItself(_ n: NodeID, in tree: ElementTree) -> Bool {
        tree.visibleInSnapshot(n) == false || ViewRules.isHiddenItself(n, in: tree)
    }

    /// TalkBack's `shouldFocusNode`, as `TalkBackTree` derived it.
    func isExposed(_ n: NodeID, in tree: ElementTree, scope: ExposureScope, screenBox: () -> CGRect) -> Bool {
        talkBack?.isExposed(n) ?? false
    }

    var exposedHidesSubtree: Bool { false }
    /// Exposure reads the whole tree TalkBack sees (a node's children and
    /// ancestors): the engine derives it again after every update
    /// (`HitTester.refreshTalkBack()`).
    var exposureInputs: ExposureInputs { [.hidden, .labelOrValue, .actions, .window, .geometry, .children] }
    var needsWindows: Bool { true }

    func isFinalWindow(_ n: NodeID, in tree: ElementTree) -> Bool {
        tree.has(.window, n) || tree.backLinks[n.index].parent.isNone
    }
    var navigationOrderModel: NavigationOrderModel { .documentOrder }

    var touchModel: TouchModel { .consumingNode }

    /// Android's `dispatchTouchEvent`: a node consumes a tap that its
    /// children pass when it declares `click` or `longClick` (enabled or
    /// not), is an adjustable control (by class, or the `adjustable` trait
    /// of a tree written by hand), or is a scroll container with a child (a
    /// list or scroll view takes every touch that reaches it, to scroll).
    func consumesTap(_ n: NodeID, in tree: ElementTree) -> Bool {
        if !tree.actions(of: n).isDisjoint(with: NodeActions.tap) || tree.traits(of: n).contains(.adjustable) {
            return true
        }
        let hasChildren = !tree.firstChildren[n.index].isNone
        // The class's facts as TalkBack's view derived them, where there is one.
        if let talkBack { return talkBack.consumesTapByItself(n, hasChildren: hasChildren) }
        return AndroidClass(tree.className(of: n)).isAdjustable || (hasChildren && Self.isScrollContainer(n, in: tree))
    }

    /// A scroll container (tree-format.md, "Android"): not a `Spinner`, and
    /// it declares `scroll` or is a collection or scroll view by class.
    static func isScrollContainer(_ n: NodeID, in tree: ElementTree) -> Bool {
        let cls = AndroidClass(tree.className(of: n))
        return !cls.isSpinner && (tree.actions(of: n).contains(.scroll) || cls.isCollection || cls.isScrollView)
    }

    /// TalkBack's double-tap sends the click action to an enabled node that
    /// declares `click`; any other node is activated by a tap.
    func activatesWithoutTap(_ e: NodeID, in tree: ElementTree) -> Bool {
        tree.actions(of: e).contains(.click) && !tree.traits(of: e).contains(.notEnabled)
    }

    func tapReaches(_ receiver: NodeID, element e: NodeID, in tree: ElementTree) -> Bool {
        tree.isDescendant(receiver, of: e) || tree.isDescendant(e, of: receiver)
    }

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

    /// A node that declares `click` or `longClick`.
    func isControl(_ e: NodeID, in tree: ElementTree) -> Bool {
        !tree.actions(of: e).isDisjoint(with: NodeActions.tap)
    }

    func isScrollContainer(_ n: NodeID, in tree: ElementTree) -> Bool { Self.isScrollContainer(n, in: tree) }
    var viewsCoverWhatIsBehind: Bool { false }
    var checksVisibilityFlag: Bool { false }
}
