import Foundation

/// Per-node boolean properties, packed.
struct NodeFlags: OptionSet, Hashable, Sendable {
    let rawValue: UInt16
    static let alive = NodeFlags(rawValue: 1 << 0)
    static let element = NodeFlags(rawValue: 1 << 1)  // kind == .element
    static let accessibilityElement = NodeFlags(rawValue: 1 << 2)
    static let hidden = NodeFlags(rawValue: 1 << 3)
    static let clipsToBounds = NodeFlags(rawValue: 1 << 4)
    static let userInteractionEnabled = NodeFlags(rawValue: 1 << 5)
    static let elementsHidden = NodeFlags(rawValue: 1 << 6)
    static let modal = NodeFlags(rawValue: 1 << 7)
    static let groupsChildren = NodeFlags(rawValue: 1 << 8)
    static let translucent = NodeFlags(rawValue: 1 << 9)  // alpha != 1
    // Which rare geometry a node has, so that hot paths skip the side table.
    static let hasAccessibilityFrame = NodeFlags(rawValue: 1 << 10)
    static let hasFrameInContainerSpace = NodeFlags(rawValue: 1 << 11)
    static let hasPath = NodeFlags(rawValue: 1 << 12)
}

/// The properties most nodes leave at their defaults, stored only for the
/// nodes that set one of them.
struct NodeExtras: Sendable, Hashable {
    var alpha: CGFloat = 1
    var label: String?
    var value: String?
    var hint: String?
    var identifier: String?
    var language: String?
    var traits: AccessibilityTraits = []
    var accessibilityFrame: CGRect?
    var frameInContainerSpace: CGRect?
    var activationPoint: CGPoint?
    var path: AccessibilityPath?
    var navigationStyle: NavigationStyle = .automatic

    init() {}

    /// The extras of `node`, or nil when all of them are at their defaults.
    init?(of node: Node) {
        alpha = node.alpha
        label = node.accessibilityLabel
        value = node.accessibilityValue
        hint = node.accessibilityHint
        identifier = node.accessibilityIdentifier
        language = node.accessibilityLanguage
        traits = node.accessibilityTraits
        accessibilityFrame = node.accessibilityFrame
        frameInContainerSpace = node.accessibilityFrameInContainerSpace
        activationPoint = node.accessibilityActivationPoint
        path = node.accessibilityPath
        navigationStyle = node.accessibilityNavigationStyle
        if self == NodeExtras() { return nil }
    }
}

/// A tree of views and accessibility elements, stored flat.
///
/// Nodes live in columns (arrays indexed by `NodeID`), linked to their parent,
/// children and siblings, so that a tree of millions of nodes is a few dozen
/// arrays rather than millions of objects, and inserting or removing a subtree
/// costs in proportion to the subtree. Children are kept in z-order, back to
/// front. Rarely set properties live in side tables: explicit bounds (scroll
/// offsets) and transforms each in a small table of their own, so that a
/// scroll rewrites one entry of a table as long as the number of scroll
/// views; strings, explicit accessibility geometry and alpha in another.
///
/// A value type: copies are independent (copy-on-write arrays).
public struct ElementTree: Sendable {
    // Identity and structure.
    var ids: [String] = []
    var flags: [NodeFlags] = []
    var parents: [NodeID] = []
    var firstChildren: [NodeID] = []
    var lastChildren: [NodeID] = []
    var nextSiblings: [NodeID] = []
    var previousSiblings: [NodeID] = []
    // View geometry: the frame in the parent's bounds space. Explicit bounds
    // and transforms: an index into their table, or -1 for the default.
    var frames: [CGRect] = []
    var boundsSlots: [Int32] = []
    var boundsTable: [CGRect] = []
    var transformSlots: [Int32] = []
    var transformTable: [CGAffineTransform] = []
    // Rare properties: an index into `extras`, or -1.
    var extraSlots: [Int32] = []
    var extras: [NodeExtras] = []

    var nodeIDsByName: [String: NodeID] = [:]
    var freeSlots: [NodeID] = []

    /// The root (the window), or `.none` for an empty tree.
    public internal(set) var root: NodeID = .none

    /// The screen's bounds in points, if the input gave them (metadata for
    /// rendering and audits; hit-testing does not clip to it).
    public var screenBounds: CGRect?
    /// The screen's scale (pixels per point), if the input gave it.
    public var screenScale: CGFloat?

    /// An empty tree.
    public init() {}

    /// The number of live nodes.
    public var count: Int { nodeIDsByName.count }

    /// One past the largest slot in use: the size of per-node arrays.
    public var capacity: Int { ids.count }

    /// Reserves room for `n` nodes, to build large trees without regrowth.
    public mutating func reserveCapacity(_ n: Int) {
        ids.reserveCapacity(n); flags.reserveCapacity(n); parents.reserveCapacity(n)
        firstChildren.reserveCapacity(n); lastChildren.reserveCapacity(n)
        nextSiblings.reserveCapacity(n); previousSiblings.reserveCapacity(n)
        frames.reserveCapacity(n); boundsSlots.reserveCapacity(n); transformSlots.reserveCapacity(n)
        extraSlots.reserveCapacity(n)
        nodeIDsByName.reserveCapacity(n)
    }

    // MARK: Building

    /// Adds `node` as the frontmost (last) child of `parent`, or as the root
    /// when `parent` is `.none`.
    ///
    /// - Complexity: amortized O(1).
    /// - Throws: `TreeError` naming the node and key when the node is invalid
    ///   (`Node.validate()`), its id is taken, a root already exists, the
    ///   parent is not in the tree, or a view is put under an element node.
    @discardableResult
    public mutating func append(_ node: Node, under parent: NodeID) throws(TreeError) -> NodeID {
        try insert(node, under: parent, before: .none)
    }

    /// Adds `node` under `parent`, just behind `sibling` in z-order (or as the
    /// frontmost child when `sibling` is `.none`).
    ///
    /// - Complexity: amortized O(1).
    /// - Throws: as `append(_:under:)`, and when `sibling` is not a child of
    ///   `parent`.
    @discardableResult
    public mutating func insert(_ node: Node, under parent: NodeID, before sibling: NodeID) throws(TreeError) -> NodeID {
        try node.validate()
        if nodeIDsByName[node.id] != nil { throw TreeError("duplicate id", node: node.id, key: "id") }
        if parent.isNone {
            if !root.isNone { throw TreeError("a tree has one root", node: node.id) }
            if node.kind != .view { throw TreeError("the root must be a view", node: node.id, key: "kind") }
        } else {
            guard contains(parent) else { throw TreeError("parent \(parent) is not in the tree", node: node.id) }
            if node.kind == .view && kind(of: parent) == .element {
                throw TreeError("a view cannot be a child of an element node", node: node.id, key: "kind")
            }
            if !sibling.isNone && (!contains(sibling) || parents[sibling.index] != parent) {
                throw TreeError("sibling \(sibling) is not a child of the parent", node: node.id)
            }
        }
        let id = allocateSlot()
        let i = id.index
        store(node, at: i)
        nodeIDsByName[node.id] = id
        if parent.isNone {
            root = id
        } else {
            link(id, under: parent, before: sibling)
        }
        return id
    }

    mutating func allocateSlot() -> NodeID {
        if let slot = freeSlots.popLast() { return slot }
        let id = NodeID(ids.count)
        ids.append(""); flags.append([]); parents.append(.none)
        firstChildren.append(.none); lastChildren.append(.none)
        nextSiblings.append(.none); previousSiblings.append(.none)
        frames.append(.zero); boundsSlots.append(-1); transformSlots.append(-1); extraSlots.append(-1)
        return id
    }

    mutating func store(_ node: Node, at i: Int) {
        ids[i] = node.id
        var f: NodeFlags = [.alive]
        if node.kind == .element { f.insert(.element) }
        if node.isAccessibilityElement { f.insert(.accessibilityElement) }
        if node.isHidden { f.insert(.hidden) }
        if node.clipsToBounds { f.insert(.clipsToBounds) }
        if node.isUserInteractionEnabled { f.insert(.userInteractionEnabled) }
        if node.accessibilityElementsHidden { f.insert(.elementsHidden) }
        if node.accessibilityViewIsModal { f.insert(.modal) }
        if node.shouldGroupAccessibilityChildren { f.insert(.groupsChildren) }
        if node.alpha != 1 { f.insert(.translucent) }
        if node.accessibilityFrame != nil { f.insert(.hasAccessibilityFrame) }
        if node.kind == .element && node.accessibilityFrameInContainerSpace != nil { f.insert(.hasFrameInContainerSpace) }
        if node.accessibilityPath != nil { f.insert(.hasPath) }
        flags[i] = f
        frames[i] = node.kind == .view ? node.frame : .zero
        Self.setSlot(&boundsSlots[i], in: &boundsTable, to: node.kind == .view ? node.bounds : nil)
        Self.setSlot(&transformSlots[i], in: &transformTable,
                     to: node.kind == .view && node.transform != .identity ? node.transform : nil)
        let old = extraSlots[i]
        if let e = NodeExtras(of: node) {
            if old >= 0 {
                extras[Int(old)] = e
            } else {
                extraSlots[i] = Int32(extras.count)
                extras.append(e)
            }
        } else if old >= 0 {
            // Left in `extras` unreferenced; `compacted()` reclaims it.
            extras[Int(old)] = NodeExtras()
            extraSlots[i] = -1
        }
    }

    /// Points `slot` at a table entry holding `value`, reusing the node's
    /// entry; nil leaves the entry unreferenced.
    private static func setSlot<T>(_ slot: inout Int32, in table: inout [T], to value: T?) {
        if let value {
            if slot >= 0 { table[Int(slot)] = value } else { slot = Int32(table.count); table.append(value) }
        } else {
            slot = -1
        }
    }

    mutating func link(_ id: NodeID, under parent: NodeID, before sibling: NodeID) {
        let i = id.index
        parents[i] = parent
        if sibling.isNone {
            let last = lastChildren[parent.index]
            previousSiblings[i] = last
            nextSiblings[i] = .none
            if last.isNone { firstChildren[parent.index] = id } else { nextSiblings[last.index] = id }
            lastChildren[parent.index] = id
        } else {
            let prev = previousSiblings[sibling.index]
            previousSiblings[i] = prev
            nextSiblings[i] = sibling
            previousSiblings[sibling.index] = id
            if prev.isNone { firstChildren[parent.index] = id } else { nextSiblings[prev.index] = id }
        }
    }

    /// Removes `id` and its whole subtree.
    ///
    /// - Complexity: O(size of the subtree).
    /// - Throws: `TreeError` when `id` is not in the tree.
    public mutating func removeSubtree(_ id: NodeID) throws(TreeError) {
        guard contains(id) else { throw TreeError("node \(id) is not in the tree") }
        let parent = parents[id.index]
        if parent.isNone {
            root = .none
        } else {
            let prev = previousSiblings[id.index], next = nextSiblings[id.index]
            if prev.isNone { firstChildren[parent.index] = next } else { nextSiblings[prev.index] = next }
            if next.isNone { lastChildren[parent.index] = prev } else { previousSiblings[next.index] = prev }
        }
        // Free every slot of the subtree (pre-order; no recursion).
        var doomed: [NodeID] = []
        forEachInPreOrder(from: id) { doomed.append($0) }
        for n in doomed {
            let i = n.index
            nodeIDsByName[ids[i]] = nil
            if extraSlots[i] >= 0 { extras[Int(extraSlots[i])] = NodeExtras(); extraSlots[i] = -1 }
            boundsSlots[i] = -1
            transformSlots[i] = -1
            ids[i] = ""
            flags[i] = []
            parents[i] = .none; firstChildren[i] = .none; lastChildren[i] = .none
            nextSiblings[i] = .none; previousSiblings[i] = .none
            freeSlots.append(n)
        }
    }

    // MARK: Reading

    /// Whether `id` names a live node of this tree.
    @inline(__always)
    public func contains(_ id: NodeID) -> Bool {
        id.rawValue >= 0 && id.index < flags.count && flags[id.index].contains(.alive)
    }

    /// The node whose `id` string is `name`, if any. O(1).
    public func node(named name: String) -> NodeID? { nodeIDsByName[name] }

    /// The `id` string of a node.
    public func name(of id: NodeID) -> String { ids[id.index] }

    /// The kind of a node.
    @inline(__always)
    public func kind(of id: NodeID) -> NodeKind { flags[id.index].contains(.element) ? .element : .view }

    /// The parent, or `.none` for the root.
    @inline(__always)
    public func parent(of id: NodeID) -> NodeID { parents[id.index] }

    /// The backmost child, or `.none`.
    @inline(__always)
    public func firstChild(of id: NodeID) -> NodeID { firstChildren[id.index] }

    /// The frontmost child, or `.none`.
    @inline(__always)
    public func lastChild(of id: NodeID) -> NodeID { lastChildren[id.index] }

    /// The sibling just in front, or `.none`.
    @inline(__always)
    public func nextSibling(of id: NodeID) -> NodeID { nextSiblings[id.index] }

    /// The sibling just behind, or `.none`.
    @inline(__always)
    public func previousSibling(of id: NodeID) -> NodeID { previousSiblings[id.index] }

    /// The children of a node, back to front.
    public func children(of id: NodeID) -> [NodeID] {
        var out: [NodeID] = []
        var c = firstChildren[id.index]
        while !c.isNone { out.append(c); c = nextSiblings[c.index] }
        return out
    }

    /// The nearest ancestor view of a node (its container, for an element
    /// node), or `.none` for the root.
    public func container(of id: NodeID) -> NodeID {
        var p = parents[id.index]
        while !p.isNone && flags[p.index].contains(.element) { p = parents[p.index] }
        return p
    }

    /// Whether `ancestor` is `id` or one of its ancestors. O(depth).
    public func isDescendant(_ id: NodeID, of ancestor: NodeID) -> Bool {
        var n = id
        while !n.isNone {
            if n == ancestor { return true }
            n = parents[n.index]
        }
        return false
    }

    /// Calls `body` for `start` and every node of its subtree, in pre-order
    /// (back to front: a node before its descendants). Iterative, so a chain
    /// of any depth is fine.
    public func forEachInPreOrder(from start: NodeID, _ body: (NodeID) throws -> Void) rethrows {
        guard contains(start) else { return }
        var n = start
        while true {
            try body(n)
            let child = firstChildren[n.index]
            if !child.isNone { n = child; continue }
            // Climb until a node with a next sibling, stopping at `start`.
            while n != start && nextSiblings[n.index].isNone { n = parents[n.index] }
            if n == start { return }
            n = nextSiblings[n.index]
        }
    }

    /// Every live node in pre-order from the root.
    public var preOrder: [NodeID] {
        var out: [NodeID] = []
        out.reserveCapacity(count)
        forEachInPreOrder(from: root) { out.append($0) }
        return out
    }

    /// The whole node as a `Node` value. O(1).
    public subscript(id: NodeID) -> Node {
        let i = id.index
        let f = flags[i]
        var n = Node(id: ids[i], kind: f.contains(.element) ? .element : .view, frame: frames[i])
        if boundsSlots[i] >= 0 { n.bounds = boundsTable[Int(boundsSlots[i])] }
        if transformSlots[i] >= 0 { n.transform = transformTable[Int(transformSlots[i])] }
        n.clipsToBounds = f.contains(.clipsToBounds)
        n.isHidden = f.contains(.hidden)
        n.isUserInteractionEnabled = f.contains(.userInteractionEnabled)
        n.isAccessibilityElement = f.contains(.accessibilityElement)
        n.accessibilityElementsHidden = f.contains(.elementsHidden)
        n.accessibilityViewIsModal = f.contains(.modal)
        n.shouldGroupAccessibilityChildren = f.contains(.groupsChildren)
        if extraSlots[i] >= 0 {
            let e = extras[Int(extraSlots[i])]
            n.alpha = e.alpha
            n.accessibilityLabel = e.label
            n.accessibilityValue = e.value
            n.accessibilityHint = e.hint
            n.accessibilityIdentifier = e.identifier
            n.accessibilityLanguage = e.language
            n.accessibilityTraits = e.traits
            n.accessibilityFrame = e.accessibilityFrame
            n.accessibilityFrameInContainerSpace = e.frameInContainerSpace
            n.accessibilityActivationPoint = e.activationPoint
            n.accessibilityPath = e.path
            n.accessibilityNavigationStyle = e.navigationStyle
        }
        return n
    }

    /// Replaces every property of a node but its place in the tree.
    ///
    /// - Complexity: O(1).
    /// - Throws: `TreeError` when `node` is invalid, its id is taken by
    ///   another node, or its kind differs from the node it replaces.
    public mutating func update(_ id: NodeID, to node: Node) throws(TreeError) {
        guard contains(id) else { throw TreeError("node \(id) is not in the tree", node: node.id) }
        try node.validate()
        if node.kind != kind(of: id) { throw TreeError("a node's kind cannot change", node: node.id, key: "kind") }
        let old = ids[id.index]
        if node.id != old {
            if nodeIDsByName[node.id] != nil { throw TreeError("duplicate id", node: node.id, key: "id") }
            nodeIDsByName[old] = nil
            nodeIDsByName[node.id] = id
        }
        store(node, at: id.index)
    }

    /// Sets a view's bounds origin (its scroll offset, UIScrollView's
    /// `contentOffset`), keeping the bounds size.
    ///
    /// - Complexity: O(1): it rewrites one entry of the bounds table (a view
    ///   that had default bounds gets an entry).
    /// - Throws: `TreeError` when `view` is not a view of this tree or the
    ///   offset is not finite.
    public mutating func setBoundsOrigin(_ view: NodeID, to origin: CGPoint) throws(TreeError) {
        guard contains(view), isView(view) else { throw TreeError("node \(view) is not a view of the tree") }
        guard origin.x.isFinite && origin.y.isFinite else {
            throw TreeError("the scroll offset is not finite", node: ids[view.index], key: "bounds")
        }
        let s = boundsSlots[view.index]
        if s >= 0 {
            boundsTable[Int(s)].origin = origin
        } else {
            boundsSlots[view.index] = Int32(boundsTable.count)
            boundsTable.append(CGRect(origin: origin, size: frames[view.index].size))
        }
    }

    // MARK: Hot accessors (internal)

    @inline(__always) func has(_ f: NodeFlags, _ id: NodeID) -> Bool { flags[id.index].contains(f) }

    /// A view's transform (identity for element nodes).
    @inline(__always) func transform(of id: NodeID) -> CGAffineTransform {
        let s = transformSlots[id.index]
        return s >= 0 ? transformTable[Int(s)] : .identity
    }

    /// A view's bounds in effect: explicit, or `[0, 0, frame.size]`.
    @inline(__always) func bounds(of id: NodeID) -> CGRect {
        let s = boundsSlots[id.index]
        return s >= 0 ? boundsTable[Int(s)] : CGRect(origin: .zero, size: frames[id.index].size)
    }

    @inline(__always) func alpha(of id: NodeID) -> CGFloat {
        flags[id.index].contains(.translucent) ? extras[Int(extraSlots[id.index])].alpha : 1
    }

    /// Whether accessibility hides the node itself (its ancestors aside):
    /// `isHidden`, `alpha < 0.01` or `accessibilityElementsHidden`.
    @inline(__always) func isHiddenItself(_ id: NodeID) -> Bool {
        has(.hidden, id) || alpha(of: id) < 0.01 || has(.elementsHidden, id)
    }

    /// The explicit accessibility frame (screen), if the node has one.
    @inline(__always) func explicitAccessibilityFrame(of id: NodeID) -> CGRect? {
        flags[id.index].contains(.hasAccessibilityFrame) ? extras[Int(extraSlots[id.index])].accessibilityFrame : nil
    }

    /// An element node's frame in its container's bounds space, if it has one.
    @inline(__always) func frameInContainerSpace(of id: NodeID) -> CGRect? {
        flags[id.index].contains(.hasFrameInContainerSpace) ? extras[Int(extraSlots[id.index])].frameInContainerSpace : nil
    }

    /// The node's accessibility path, if it has one.
    @inline(__always) func accessibilityPath(of id: NodeID) -> AccessibilityPath? {
        flags[id.index].contains(.hasPath) ? extras[Int(extraSlots[id.index])].path : nil
    }

    /// Whether the node is a view (not an element node).
    @inline(__always) func isView(_ id: NodeID) -> Bool { !flags[id.index].contains(.element) }

    /// The map from a view's bounds space to its parent's (the screen, for
    /// the root): `p ↦ center + T(p - boundsMid)`, with `center` the frame's
    /// midpoint, `boundsMid` the bounds' midpoint (scroll offset included)
    /// and `T` the transform, applied about the center.
    @inline(__always) func boundsToParent(_ id: NodeID) -> CGAffineTransform {
        let f = frames[id.index]
        let b = bounds(of: id)
        let t = transform(of: id)
        let cx = f.midX, cy = f.midY, bx = b.midX, by = b.midY
        return CGAffineTransform(
            a: t.a, b: t.b, c: t.c, d: t.d,
            tx: cx + t.tx - (t.a * bx + t.c * by),
            ty: cy + t.ty - (t.b * bx + t.d * by))
    }

    /// The map from a view's bounds space to the screen (for an element
    /// node, its container's), composed from the root down. O(depth).
    func toScreen(of id: NodeID) -> CGAffineTransform {
        var t = CGAffineTransform.identity
        for v in ancestorViews(of: id) { t = boundsToParent(v).concatenating(t) }
        if isView(id) { t = boundsToParent(id).concatenating(t) }
        return t
    }

    /// The proper ancestors of `id` that are views, root first: the views
    /// whose bounds cut its region, and whose maps compose its transform.
    /// O(depth).
    func ancestorViews(of id: NodeID) -> [NodeID] {
        var chain: [NodeID] = []
        var a = parents[id.index]
        while !a.isNone {
            if isView(a) { chain.append(a) }
            a = parents[a.index]
        }
        return chain.reversed()
    }

    @inline(__always) func extrasOf(_ id: NodeID) -> NodeExtras? {
        let s = extraSlots[id.index]
        return s >= 0 ? extras[Int(s)] : nil
    }
}
