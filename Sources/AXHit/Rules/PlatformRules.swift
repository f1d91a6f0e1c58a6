import Foundation

/// The rules one platform follows (tree-format.md, "Platforms and
/// snapshots"): what hides a node, which nodes accessibility exposes, how a
/// tap is delivered and what activates an element, and the numbers audits
/// judge by. One type per platform, each in a file of its own
/// (`UIKitRules`, `IOSSnapshotRules`, `AndroidRules`); a tree picks its rules
/// from its `platform` and `source` (`ElementTree.rules`), and every layer
/// (screen space, the engine's build, touch, analysis, audits) asks them
/// rather than branching on the platform.
///
/// The meaning of UIKit's own view properties is not a platform's to
/// restate: `ViewRules` holds it, and every platform builds on it.
protocol PlatformRules: Sendable {
    /// The platform, for reports.
    var platform: Platform { get }
    /// The platform's screen reader, for messages: VoiceOver or TalkBack.
    var screenReader: String { get }

    // MARK: Accessibility

    /// Whether `n` itself is hidden, with its subtree, from sight, touch
    /// and accessibility (its ancestors aside): UIKit's `isHidden` and alpha
    /// (`ViewRules.isHiddenItself`), and whatever else the platform says.
    func isHiddenItself(_ n: NodeID, in tree: ElementTree) -> Bool

    /// Whether `n`, which nothing hides or blocks, is exposed, given what its
    /// parent passed down (with `window` already the node's own when it is a
    /// window). `screenBox` gives the node's bounds on the screen.
    func isExposed(_ n: NodeID, in tree: ElementTree, scope: ExposureScope, screenBox: () -> CGRect) -> Bool

    /// Whether an exposed node hides its subtree (VoiceOver: an element's
    /// subtree is never visited) or not (TalkBack: actionable descendants stay
    /// separately focusable, and `hit` is the hover dispatch).
    var exposedHidesSubtree: Bool { get }

    /// The facts of a node whose change can change exposure in its subtree
    /// (beyond `hidden` and the modal flag, which every platform reads), so
    /// that an update re-derives exposure only when one changed.
    var exposureInputs: ExposureInputs { get }

    /// Whether the exposure rule needs each window's screen box
    /// (`ExposureScope.window`), so that walks compute it only then.
    var needsWindows: Bool { get }

    /// Whether `n` is a window whose answer to `hit` is final (the topmost
    /// window holding a point decides it).
    func isFinalWindow(_ n: NodeID, in tree: ElementTree) -> Bool

    /// How the screen reader orders the exposed elements for swiping
    /// (tree-format.md, "Navigation order").
    var navigationOrderModel: NavigationOrderModel { get }

    // MARK: Touch and activation

    /// How a sighted tap is delivered.
    var touchModel: TouchModel { get }

    /// Under `TouchModel.consumingNode`: whether `n` consumes a tap by
    /// itself (its subtree aside).
    func consumesTap(_ n: NodeID, in tree: ElementTree) -> Bool

    /// Whether a double-tap activates exposed element `e` with no point
    /// involved (TalkBack sends a click action to a clickable node).
    func activatesWithoutTap(_ e: NodeID, in tree: ElementTree) -> Bool

    /// Whether a tap that `touch` delivers to `receiver` activates exposed
    /// element `e` (status `ok`).
    func tapReaches(_ receiver: NodeID, element e: NodeID, in tree: ElementTree) -> Bool

    // MARK: Audits

    /// The platform's unit of size: `pt` or `dp`.
    var sizeUnit: String { get }
    /// The unit of the tree's coordinates: `pt` (iOS) or `px` (Android).
    var coordinateUnit: String { get }
    /// How many of the tree's coordinate units make one `sizeUnit` (1 for
    /// points; Android: the density), and whether it was inferred rather
    /// than known.
    func unitScale(of tree: ElementTree) -> (scale: Double, inferred: Bool)
    /// Whether exposed element `e` is a **control**, something a user
    /// activates (tree-format.md, "Audits"): activation and size rules
    /// judge only controls.
    func isControl(_ e: NodeID, in tree: ElementTree) -> Bool
    /// Whether `n` is a **scroll container** (tree-format.md, "Audits"):
    /// what lies outside its frame a scroll brings into view.
    func isScrollContainer(_ n: NodeID, in tree: ElementTree) -> Bool
    /// Whether drawn views hide what lies behind them (`ScreenAnalysis`'s
    /// opacity rule of thumb for a view tree); a snapshot says nothing of
    /// what a node draws, so there only clipping and the screen decide what
    /// can be seen.
    var viewsCoverWhatIsBehind: Bool { get }
    /// Whether the snapshot's visibility flag is evidence worth checking
    /// against the geometry (`visibility-disagrees`).
    var checksVisibilityFlag: Bool { get }
}

/// Facts of a node that exposure rules may read (`PlatformRules.exposureInputs`).
struct ExposureInputs: OptionSet, Sendable {
    let rawValue: UInt8
    /// Whether the platform's rules hide the node.
    static let hidden = ExposureInputs(rawValue: 1 << 0)
    static let accessibilityElement = ExposureInputs(rawValue: 1 << 1)
    static let labelOrValue = ExposureInputs(rawValue: 1 << 2)
    static let actions = ExposureInputs(rawValue: 1 << 3)
    static let window = ExposureInputs(rawValue: 1 << 4)
    /// Frame, bounds, transform (and scroll offsets).
    static let geometry = ExposureInputs(rawValue: 1 << 5)
    /// Whether the node has children (TalkBack's whole-window rule).
    static let children = ExposureInputs(rawValue: 1 << 6)
}

/// How a platform delivers a sighted tap (`HitTester.touch`).
enum TouchModel: Sendable {
    /// UIKit's `hitTest(_:with:)`: the deepest touchable view whose bounds
    /// hold the point, frontmost first.
    case viewHitTest
    /// XCUITest's `isHittable`: the element `hit` answers under the frame
    /// policy; containers never take a tap.
    case hittableElement
    /// Android's `dispatchTouchEvent`: front to back and deepest first, the
    /// first visible node whose bounds hold the point and that consumes it.
    case consumingNode
}

/// How a platform orders the exposed elements for swiping (`HitTester.navigationOrder()`).
enum NavigationOrderModel: Sendable {
    /// VoiceOver's, as AccessibilitySnapshot's parser gives it: groups, then
    /// a stable sort by rows of the frames' origins.
    case sortedGroups
    /// TalkBack's: the dump's pre-order of the exposed nodes (the framework
    /// already lists children in accessibility order).
    case documentOrder
}

/// What a node passes down to its children for exposure: one step of the
/// walk (`PlatformRules.exposureStep`) from parent to children.
struct ExposureScope: Sendable {
    /// Accessibility is blocked for the children: an ancestor is hidden,
    /// suppressed by a modal sibling, or (VoiceOver) an exposed element.
    var blocked = false
    /// The parent's frontmost visible modal child, which suppresses its
    /// siblings; `.none` when there is none.
    var modal = NodeID.none
    /// (TalkBack, `needsWindows`) the screen box of the window holding the
    /// children; `.null` above the first window.
    var window = CGRect.null
}

/// What one step of the exposure walk decides for a node.
struct ExposureStep: Sendable {
    /// Accessibility is blocked for the node (and so for its subtree).
    var blocked: Bool
    /// The node is exposed.
    var exposed: Bool
    /// What its children inherit.
    var children: ExposureScope
}

extension PlatformRules {
    /// Whether accessibility hides `n` itself and its subtree (its ancestors
    /// and modal siblings aside): hidden, or `accessibilityElementsHidden`.
    @inline(__always)
    func hidesFromAccessibility(_ n: NodeID, in tree: ElementTree) -> Bool {
        isHiddenItself(n, in: tree) || tree.has(.elementsHidden, n)
    }

    /// Whether touch skips `n` itself and its subtree (its ancestors aside):
    /// hidden, or `isUserInteractionEnabled == false`.
    @inline(__always)
    func refusesTouch(_ n: NodeID, in tree: ElementTree) -> Bool {
        isHiddenItself(n, in: tree) || !tree.has(.userInteractionEnabled, n)
    }

    /// The exposure of `n` and what its children inherit, given what its
    /// parent passed down (tree-format.md, "exposed", and each platform's
    /// rule). Every walk that derives exposure (the engine's build and
    /// updates, `ScreenSpace`) takes this one step per node.
    ///
    /// - Parameters:
    ///   - hasModalChild: whether some child of `n` has
    ///     `accessibilityViewIsModal` (`ViewRules.hasModalChild`, or what a
    ///     caller keeps of it, so that a wide view's children are not scanned
    ///     at every step).
    ///   - screenBox: the node's bounds on the screen, asked for only by
    ///     rules that `needsWindows`.
    /// - Complexity: O(1), plus O(children) for a node with a modal child.
    @inline(__always)
    func exposureStep(
        _ n: NodeID, in tree: ElementTree, scope: ExposureScope, hasModalChild: Bool,
        screenBox: () -> CGRect
    ) -> ExposureStep {
        var next = scope
        if needsWindows && (tree.backLinks[n.index].parent.isNone || tree.has(.window, n)) { next.window = screenBox() }
        let blocked = scope.blocked || hidesFromAccessibility(n, in: tree) || (!scope.modal.isNone && scope.modal != n)
        let exposed = !blocked && isExposed(n, in: tree, scope: next, screenBox: screenBox)
        next.blocked = blocked || (exposed && exposedHidesSubtree)
        // Under a blocked node nothing is exposed, modal or not.
        next.modal =
            hasModalChild && !next.blocked ? ViewRules.frontmostModalChild(of: n, in: tree, rules: self) : .none
        return ExposureStep(blocked: blocked, exposed: exposed, children: next)
    }

    /// What `top`'s parent passes down, computed from the root (for a walk
    /// over one subtree). O(depth), plus the children of the ancestors that
    /// `hasModalChild` says have a modal child.
    func exposureScope(above top: NodeID, in tree: ElementTree, hasModalChild: (NodeID) -> Bool) -> ExposureScope {
        var scope = ExposureScope()
        // The ancestor's map to the screen, composed on the way down (an
        // element node keeps its container's).
        var toScreen = CGAffineTransform.identity
        for a in tree.ancestors(of: top) {
            if tree.isView(a) { toScreen = tree.boundsToParent(a).concatenating(toScreen) }
            let map = toScreen
            scope =
                exposureStep(a, in: tree, scope: scope, hasModalChild: hasModalChild(a)) {
                    tree.exposureBox(of: a, toScreen: map)
                }.children
        }
        return scope
    }

    /// Whether a tap at a point that `touch` answers with `receiver` (nil:
    /// nothing takes it) activates `e`, and the status.
    func activationStatus(of e: NodeID, receiver: NodeID?, in tree: ElementTree) -> ActivationStatus {
        guard let receiver else { return .lost }
        return tapReaches(receiver, element: e, in: tree) ? .ok : .obstructed
    }
}

extension ElementTree {
    /// The rules for this tree's `platform` and `source`.
    var rules: any PlatformRules {
        switch (platform, source) {
        case (.ios, .views): return UIKitRules()
        case (.ios, .snapshot): return IOSSnapshotRules()
        case (.android, _): return AndroidRules(for: self)
        }
    }

    /// The box of `n` that the exposure step compares with its window's
    /// (`PlatformRules.exposureStep`'s `screenBox`): a view's bounds on the
    /// screen, the bounding box of the quad `toScreen` (its bounds space to
    /// the screen) makes of them; `.null` for an element node, which has no
    /// bounds. The one definition the engine's walk, `ScreenSpace` and
    /// `exposureScope(above:)` share.
    @inline(__always)
    func exposureBox(of n: NodeID, toScreen: @autoclosure () -> CGAffineTransform) -> CGRect {
        isView(n) ? bounds(of: n).applying(toScreen()) : .null
    }

    /// The proper ancestors of `n`, root first. O(depth).
    func ancestors(of n: NodeID) -> [NodeID] {
        var chain: [NodeID] = []
        var a = backLinks[n.index].parent
        while !a.isNone {
            chain.append(a)
            a = backLinks[a.index].parent
        }
        return chain.reversed()
    }
}
