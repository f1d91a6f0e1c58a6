import Foundation

/// What VoiceOver or TalkBack knows of one node, read from a live engine: its
/// `id`, its accessibility properties, and where it is on the screen now
/// (screen coordinates: points; Android: the dump's pixels). A value taken
/// at one moment: later updates of the engine do not change it.
public struct AccessibilityElement: Sendable, Hashable, CustomStringConvertible {
    /// The node's handle in the engine's tree.
    public let node: NodeID
    /// The node's `id` string.
    public let id: String
    /// Whether accessibility exposes the node (by the tree's platform rules).
    public let isExposed: Bool
    /// The accessibility frame on the screen.
    public let frame: CGRect
    /// Where a double-tap is delivered: explicit, or the frame's midpoint.
    public let activationPoint: CGPoint
    /// The `accessibilityPath` on the screen, if the node has one.
    public let path: BezierPath?
    /// `accessibilityLabel`.
    public let label: String?
    /// `accessibilityValue`.
    public let value: String?
    /// `accessibilityHint`.
    public let hint: String?
    /// `accessibilityIdentifier` (a dump's `name`, `resource-id`, `AXUniqueId`).
    public let identifier: String?
    /// `accessibilityTraits`.
    public let traits: AccessibilityTraits

    /// The node's `id`.
    public var description: String { id }
}

/// The exposed elements of an engine, in pre-order (the order `activate`
/// lists them in), skipping every subtree that holds none.
///
/// - Complexity: iterating costs O(exposed elements + the nodes on the way
///   to them); `count` is O(1).
public struct ExposedElements: Sequence, Sendable {
    let engine: HitTester

    /// The number of exposed elements. O(1).
    public var count: Int {
        let root = engine.tree.root
        return root.isNone ? 0 : Int(engine.exposedCounts[root.index])
    }

    /// An iterator from the root.
    public func makeIterator() -> Iterator { Iterator(engine: engine, upcoming: engine.tree.root) }

    /// Walks the tree in pre-order, descending only into subtrees with an
    /// exposed node.
    public struct Iterator: IteratorProtocol {
        let engine: HitTester
        var upcoming: NodeID

        /// The next exposed element, or nil at the end.
        public mutating func next() -> NodeID? {
            let tree = engine.tree
            while !upcoming.isNone {
                let n = upcoming
                let state = engine.hot[n.index].state
                // Advance: into the children when some node there is exposed,
                // else to the next sibling up the chain.
                let child = tree.firstChildren[n.index]
                if state.contains(.subtreeExposed) && !child.isNone {
                    upcoming = child
                } else {
                    var m = n
                    while !m.isNone && tree.nextSiblings[m.index].isNone { m = tree.backLinks[m.index].parent }
                    upcoming = m.isNone ? .none : tree.nextSiblings[m.index]
                }
                if state.contains(.exposed) { return n }
            }
            return nil
        }
    }
}

/// Reading elements: what a test tool or auditor asks of a node once `hit`
/// has named it, or to find one by what a dump calls it. Every answer is
/// current: it follows scrolls and updates with no rebuild.
extension HitTester {
    /// The node `node` as an element: id, properties and screen geometry.
    /// Nil for a `NodeID` the tree does not hold.
    ///
    /// - Complexity: O(depth) (the node's map to the screen is composed from
    ///   the root), plus converting its path, if any.
    public func element(_ node: NodeID) -> AccessibilityElement? {
        guard tree.contains(node) else { return nil }
        let toScreen = tree.toScreen(of: node)
        let frame = ElementGeometry.accessibilityFrame(of: node, in: tree, toScreen: toScreen)
        let extras = tree.extrasOf(node)
        return AccessibilityElement(
            node: node, id: tree.id(of: node), isExposed: isExposed(node), frame: frame,
            activationPoint: ElementGeometry.activationPoint(of: node, in: tree, frame: frame),
            path: ElementGeometry.screenPath(of: node, in: tree, toScreen: toScreen),
            label: extras?.label, value: extras?.value, hint: extras?.hint, identifier: extras?.identifier,
            traits: extras?.traits ?? [])
    }

    /// The node whose `id` is `id`, as an element, or nil. O(depth).
    public func element(withID id: String) -> AccessibilityElement? {
        tree.node(withID: id).flatMap(element)
    }

    /// The nodes whose `accessibilityIdentifier` is `identifier`, as
    /// elements, in slot order (pre-order for a tree read from a file; a
    /// node inserted later comes after): what Appium calls an element
    /// `loginBtn`.
    ///
    /// - Complexity: O(depth) per answer, after the identifier lookup
    ///   (`ElementTree.nodes(withAccessibilityIdentifier:)`).
    public func elements(withAccessibilityIdentifier identifier: String) -> [AccessibilityElement] {
        tree.nodes(withAccessibilityIdentifier: identifier).compactMap(element)
    }

    /// Whether accessibility exposes `node` (by the tree's platform rules).
    /// O(1).
    public func isExposed(_ node: NodeID) -> Bool {
        tree.contains(node) && hot[node.index].state.contains(.exposed)
    }

    /// The accessibility frame of `node` on the screen, or nil for a
    /// `NodeID` the tree does not hold. O(depth).
    public func accessibilityFrame(of node: NodeID) -> CGRect? {
        guard tree.contains(node) else { return nil }
        return ElementGeometry.accessibilityFrame(of: node, in: tree, toScreen: tree.toScreen(of: node))
    }

    /// The exposed elements, in pre-order. O(1) to make; see
    /// `ExposedElements` for the cost of a walk.
    public var exposedElements: ExposedElements { ExposedElements(engine: self) }
}
