import Foundation

/// What the resolution pass derives for each node, packed.
struct ResolvedFlags: OptionSet, Sendable {
    let rawValue: UInt8
    /// An exposed accessibility element (the spec's "exposed").
    static let exposed = ResolvedFlags(rawValue: 1 << 0)
    /// The view's full transform is invertible: its bounds have area on screen.
    static let invertible = ResolvedFlags(rawValue: 1 << 2)
    /// The view could receive touches: not hidden, alpha >= 0.01, interaction
    /// enabled, and so are all its ancestors.
    static let touchable = ResolvedFlags(rawValue: 1 << 3)
}

/// An `ElementTree` resolved into screen space: every view's full transform,
/// every node's accessibility frame and activation point, and which elements
/// accessibility exposes.
///
/// Built in one forward pass over the tree (parents before children), so it
/// costs O(n) and holds a few arrays indexed by `NodeID`. The tree's inputs and
/// these cached results live in separate arrays.
public struct ScreenSpace: Sendable {
    /// The tree this was resolved from.
    public let tree: ElementTree
    /// For a view, the map from its bounds space to the screen; for an
    /// element node, its container's.
    var toScreen: [CGAffineTransform]
    /// The inverse of `toScreen`, where `ResolvedFlags.invertible` is set.
    var fromScreen: [CGAffineTransform]
    /// The accessibility frame in screen coordinates.
    var frames: [CGRect]
    var resolved: [ResolvedFlags]

    /// Resolves `tree`. O(n).
    public init(_ tree: ElementTree) {
        self.tree = tree
        let n = tree.capacity
        toScreen = Array(repeating: .identity, count: n)
        fromScreen = Array(repeating: .identity, count: n)
        frames = Array(repeating: .zero, count: n)
        resolved = Array(repeating: [], count: n)
        guard !tree.root.isNone else { return }

        // Exposure is the rules' walk (one step per node, parents first);
        // touch is blocked downwards by whatever the rules say refuses it.
        let rules = tree.rules
        var scopes = [ExposureScope](repeating: ExposureScope(), count: n)
        var touchBlocked = [Bool](repeating: false, count: n)
        var order: [NodeID] = []
        order.reserveCapacity(tree.count)
        tree.forEachInPreOrder(from: tree.root) { order.append($0) }

        for id in order {
            let i = id.index
            let parent = tree.backLinks[id.index].parent
            let isElementNode = tree.has(.element, id)

            // Geometry: the map from the view's bounds space to the screen
            // (`ViewGeometry.boundsToParent`, chained); an element node has
            // its container's.
            if isElementNode {
                toScreen[i] = toScreen[parent.index]
                fromScreen[i] = fromScreen[parent.index]
                if resolved[parent.index].contains(.invertible) { resolved[i].insert(.invertible) }
            } else {
                let local = tree.boundsToParent(id)
                let full = parent.isNone ? local : local.concatenating(toScreen[parent.index])
                toScreen[i] = full
                let parentInvertible = parent.isNone || resolved[parent.index].contains(.invertible)
                if parentInvertible && full.isInvertible {
                    fromScreen[i] = full.inverted()
                    resolved[i].insert(.invertible)
                }
            }

            let inherited = parent.isNone ? ExposureScope() : scopes[parent.index]
            let step = rules.exposureStep(
                id, in: tree, scope: inherited, hasModalChild: ViewRules.hasModalChild(id, in: tree)
            ) {
                tree.exposureBox(of: id, toScreen: toScreen[i])
            }
            scopes[i] = step.children
            if step.exposed { resolved[i].insert(.exposed) }
            let noTouch = rules.refusesTouch(id, in: tree) || (!parent.isNone && touchBlocked[parent.index])
            touchBlocked[i] = noTouch
            if !isElementNode && !noTouch { resolved[i].insert(.touchable) }
            frames[i] = ElementGeometry.accessibilityFrame(of: id, in: tree, toScreen: toScreen[i])
        }
    }
}

extension ScreenSpace {
    // MARK: Per-node answers

    // The answers below are for nodes of `tree` (`tree.contains(id)`).

    /// Whether accessibility exposes `id` (tree-format.md, "exposed"); false
    /// for a node the tree does not hold.
    public func isExposed(_ id: NodeID) -> Bool { tree.contains(id) && resolved[id.index].contains(.exposed) }

    /// The node's accessibility frame in screen coordinates: explicit, or a
    /// view's bounds converted to the screen, or an element's frame in
    /// container space converted, or CGRectZero. O(1).
    public func accessibilityFrame(of id: NodeID) -> CGRect { frames[id.index] }

    /// The node's activation point in screen coordinates: explicit, or the
    /// midpoint of its accessibility frame. O(1).
    public func activationPoint(of id: NodeID) -> CGPoint {
        ElementGeometry.activationPoint(of: id, in: tree, frame: frames[id.index])
    }

    /// Checks that the node's accessibility frame and activation point on
    /// the screen are finite numbers, as every answer that prints them needs.
    /// O(1).
    ///
    /// - Throws: `TreeError` (`.validation`) naming the node and the key
    ///   whose numbers overflow on the way to the screen.
    public func checkFinite(_ id: NodeID) throws(TreeError) {
        let f = frames[id.index]
        let frameOK =
            f.origin.x.isFinite && f.origin.y.isFinite && f.size.width.isFinite && f.size.height.isFinite
            && (f.origin.x + f.size.width).isFinite && (f.origin.y + f.size.height).isFinite
        let a = activationPoint(of: id)
        guard !frameOK || !(a.x.isFinite && a.y.isFinite) else { return }
        let (key, what) =
            !frameOK
            ? (tree.explicitAccessibilityFrame(of: id) != nil ? "accessibilityFrame" : "frame", "accessibility frame")
            : ("accessibilityActivationPoint", "activation point")
        throw TreeError(
            .validation, "its \(what) on the screen is not a finite number: the geometry overflows",
            node: tree.id(of: id), key: key)
    }

    /// The map from the bounds space of `view` to the screen (for an element
    /// node, its container's). O(1): resolved once.
    public func transformToScreen(of view: NodeID) -> CGAffineTransform { toScreen[view.index] }

    /// The map from the screen into the bounds space of `view`, or nil when
    /// the view (or an ancestor) is scaled to nothing and the map does not exist.
    public func transformFromScreen(of view: NodeID) -> CGAffineTransform? {
        resolved[view.index].contains(.invertible) ? fromScreen[view.index] : nil
    }

    // MARK: UIAccessibilityConvert…ToScreenCoordinates

    /// A rect in the bounds space of `view`, converted to the screen: the
    /// bounding box of its four converted corners, as
    /// `UIAccessibilityConvertFrameToScreenCoordinates(rect, view)`.
    public func convertToScreen(_ rect: CGRect, from view: NodeID) -> CGRect {
        rect.applying(toScreen[view.index])
    }

    /// A point in the bounds space of `view`, converted to the screen.
    public func convertToScreen(_ point: CGPoint, from view: NodeID) -> CGPoint {
        point.applying(toScreen[view.index])
    }

    /// A path in the bounds space of `view`, converted to the screen exactly
    /// (every control point through the full transform), as
    /// `UIAccessibilityConvertPathToScreenCoordinates(path, view)`.
    public func convertToScreen(_ path: BezierPath, from view: NodeID) -> BezierPath {
        path.applying(toScreen[view.index])
    }

    /// A screen rect converted into the bounds space of `view` (the bounding
    /// box of its converted corners), or nil when the view is scaled to nothing.
    public func convertFromScreen(_ rect: CGRect, to view: NodeID) -> CGRect? {
        transformFromScreen(of: view).map { rect.applying($0) }
    }

    /// A screen point converted into the bounds space of `view`, or nil when
    /// the view is scaled to nothing.
    public func convertFromScreen(_ point: CGPoint, to view: NodeID) -> CGPoint? {
        transformFromScreen(of: view).map { point.applying($0) }
    }

    /// A screen path converted exactly into the bounds space of `view`, or
    /// nil when the view is scaled to nothing.
    public func convertFromScreen(_ path: BezierPath, to view: NodeID) -> BezierPath? {
        transformFromScreen(of: view).map { path.applying($0) }
    }

    /// The node's `accessibilityPath` in screen coordinates (converted from
    /// its view's space when written in view space), or nil when it has none.
    public func screenPath(of id: NodeID) -> BezierPath? {
        ElementGeometry.screenPath(of: id, in: tree, toScreen: toScreen[id.index])
    }

}
