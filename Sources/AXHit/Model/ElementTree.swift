import Foundation

/// A tree of views and accessibility elements, stored flat.
///
/// Nodes live in columns (arrays indexed by `NodeID`), linked to their parent,
/// children and siblings, so that a tree of millions of nodes is a few dozen
/// arrays rather than millions of objects, and inserting or removing a subtree
/// costs in proportion to the subtree. Children are kept in z-order, back to
/// front. Rarely set properties live in side tables: explicit bounds (scroll
/// offsets) and transforms each in a small table of their own, so that a
/// scroll rewrites one entry of a table as long as the number of scroll
/// views; the rest (alpha, traits, strings, explicit accessibility
/// geometry) in another, 40 bytes an entry with the strings and the
/// geometry boxed apart (`NodeExtras`). Entries a removed node or a reset
/// property leaves are reused.
///
/// The tree also carries the facts that decide whose rules answer questions
/// about it (`platform`, `source`) and the screen's metadata.
///
/// Every node enters and changes through one write path
/// (`ElementTree+Writing.swift`), which the builder API and every reader
/// share. A value type: copies are independent (copy-on-write columns, shared
/// chunk by chunk: `ChunkedColumn`).
public struct ElementTree: Sendable {
    // Identity and structure.
    /// Each slot's id ("" for a node added unnamed, until completed). A
    /// freed slot keeps its last node's until the slot is reused: only
    /// `flags` says whether a node holds a slot.
    var ids = ChunkedColumn<String>()
    var flags = ChunkedColumn<NodeFlags>()
    /// Walks down the tree read these two at every node, in columns of
    /// their own.
    var firstChildren = ChunkedColumn<NodeID>()
    var nextSiblings = ChunkedColumn<NodeID>()
    /// The links that point back (`BackLinks`): one column, as a node
    /// linked or unlinked writes them together.
    var backLinks = ChunkedColumn<BackLinks>()
    // View geometry: the frame in the parent's bounds space.
    var frames = ChunkedColumn<CGRect>()
    /// Each node's entries in the side tables below (`SideSlots`).
    var sideSlots = ChunkedColumn<SideSlots>()
    var boundsTable = SideTable<CGRect>()
    var transformTable = SideTable<CGAffineTransform>()
    var extras = SideTable<NodeExtras>()
    /// What every live node's `accessibilityPath` earns toward the path
    /// budget (`pathPointsEarned(by:)`) together, kept by the write path.
    var pathPointsEarned = 0

    /// Each id string's slot.
    var idTable = IDTable()
    /// Each slot's generation (`NodeID.generation`).
    var generations = SlotGenerations()
    /// Freed slots, reused last in, first out. Chunked, as the columns are:
    /// under a snapshot a removal copies the stack's last chunk, not every
    /// slot ever freed.
    var freeSlots = ChunkedColumn<Int32>()
    /// The `accessibilityIdentifier` lookup, built on first use.
    var identifierIndex = IdentifierIndex()
    /// Counts the changes that may move identifiers (see `IdentifierIndex`).
    var identifierGeneration: UInt64 = 0

    /// The root (the window), or `.none` for an empty tree.
    public internal(set) var root: NodeID = .none

    /// Whose rules answer questions about this tree (`platform` in `axhit/1`).
    public var platform: Platform = .ios
    /// What the tree was taken from (`source` in `axhit/1`).
    public var source: TreeSource = .views
    /// The screen's bounds (points; Android: pixels), if the input gave them
    /// (metadata for rendering and audits; hit-testing does not clip to it).
    public var screenBounds: CGRect?
    /// The screen's scale (pixels per point), if the input gave it; on
    /// Android, the density (pixels per dp).
    public var screenScale: CGFloat?
    /// The kind of device (`screen.idiom`): navigation order's row band.
    public var idiom: Idiom = .phone
    /// The reading direction (`screen.layoutDirection`), for navigation order.
    public var layoutDirection: LayoutDirection = .leftToRight

    /// An empty tree.
    public init() {}

    /// The number of live nodes.
    public var count: Int { idTable.count }

    /// The points the paths of a tree may flatten to together: 64 per node
    /// plus what its paths earn (`pathPointsEarned(by:)`), and at least
    /// 2,097,152.
    ///
    /// One path is held to `BezierPath.maximumFlattenedPoints` and each fill
    /// to `PolygonSet`'s budgets, which still let a few bytes of huge arcs
    /// cost a second and tens of megabytes; this bounds the whole tree by
    /// the size of its input, so that many such paths cannot add up. Each
    /// path element earns what it flattens to, up to 64: a line one point, a
    /// curve of a real screen a few dozen (a quarter circle of 200 pt, 39 points),
    /// so real paths of any number and length earn what they use, and only
    /// curves far larger than the screen use more than they earn. The
    /// `axhit/1` reader refuses a file over it; the engine fills no path
    /// past it (those hit nowhere), and `ScreenAnalysis` refuses a screen
    /// over it.
    public static func maximumPathPoints(nodes: Int, pathPointsEarned: Int) -> Int {
        max(1 << 21, 64 * nodes + pathPointsEarned)
    }

    /// The points `path` earns toward a tree's path budget: each element
    /// what it flattens to at the default tolerance, up to 64. O(elements).
    public static func pathPointsEarned(by path: BezierPath) -> Int {
        path.flattenedPointCount(tolerance: BezierPath.defaultFlatteningTolerance, eachElementAtMost: 64)
    }

    /// This tree's path budget: `maximumPathPoints(nodes:pathPointsEarned:)`
    /// for its live nodes and what their paths earn. O(1).
    public var pathPointBudget: Int { Self.maximumPathPoints(nodes: count, pathPointsEarned: pathPointsEarned) }

    /// One past the largest slot in use: the size of per-node arrays.
    public var capacity: Int { ids.count }

    /// Reserves room for `n` nodes, to build large trees without regrowth.
    public mutating func reserveCapacity(_ n: Int) {
        ids.reserveCapacity(n)
        flags.reserveCapacity(n)
        backLinks.reserveCapacity(n)
        firstChildren.reserveCapacity(n)
        nextSiblings.reserveCapacity(n)
        frames.reserveCapacity(n)
        sideSlots.reserveCapacity(n)
        idTable.reserveCapacity(n)
    }

    // MARK: Reading

    /// Whether `id` names a live node of this tree (false for a handle kept
    /// past its node's removal, even once another node holds the slot).
    @inline(__always)
    public func contains(_ id: NodeID) -> Bool {
        id.rawValue >= 0 && id.index < flags.count && flags[id.index].contains(.alive)
            && generation(ofSlot: id.index) == id.generation
    }

    /// The node that holds `slot` now, or nil when none does (`capacity`
    /// bounds the slots).
    public func nodeID(inSlot slot: Int) -> NodeID? {
        guard slot >= 0 && slot < flags.count && flags[slot].contains(.alive) else { return nil }
        return nodeID(slot)
    }

    /// The handle of the node in `slot` (live, or being written).
    @inline(__always)
    func nodeID(_ slot: Int) -> NodeID { generations.nodeID(Int32(truncatingIfNeeded: slot)) }

    @inline(__always)
    func generation(ofSlot slot: Int) -> UInt32 { generations[slot] }

    /// The node whose `id` string is `id`, if any. O(1).
    public func node(withID id: String) -> NodeID? {
        idTable.slot(of: id, hash: IDTable.hash(id), ids: ids, flags: flags).map { nodeID(Int($0)) }
    }

    /// The `id` string of a node (empty for a slot no live node holds).
    public func id(of node: NodeID) -> String { contains(node) ? ids[node.index] : "" }

    /// The nodes whose `accessibilityIdentifier` is `identifier`, in slot
    /// order (pre-order for a tree read from a file). Identifiers need not be
    /// unique (a list's rows often share one).
    ///
    /// - Complexity: O(n) for the first lookup after a change of the tree
    ///   (it builds a table, shared by copies of the tree), then O(1) plus
    ///   the answer.
    public func nodes(withAccessibilityIdentifier identifier: String) -> [NodeID] {
        identifierIndex.nodes(withIdentifier: identifier, generation: identifierGeneration) {
            var table: [String: [NodeID]] = [:]
            for (slot, s) in sideSlots.lazy.map(\.extra).enumerated() where s >= 0 && flags[slot].contains(.alive) {
                if let identifier = extras[s].identifier { table[identifier, default: []].append(nodeID(slot)) }
            }
            return table
        }
    }

    /// The kind of a node, or nil when the tree does not hold `id`.
    @inline(__always)
    public func kind(of id: NodeID) -> NodeKind? {
        guard contains(id) else { return nil }
        return flags[id.index].contains(.element) ? .element : .view
    }

    /// The parent, or `.none` for the root (and for an id the tree does not
    /// hold, as every link below).
    @inline(__always)
    public func parent(of id: NodeID) -> NodeID { contains(id) ? backLinks[id.index].parent : .none }

    /// The backmost child, or `.none`.
    @inline(__always)
    public func firstChild(of id: NodeID) -> NodeID { contains(id) ? firstChildren[id.index] : .none }

    /// The frontmost child, or `.none`.
    @inline(__always)
    public func lastChild(of id: NodeID) -> NodeID { contains(id) ? backLinks[id.index].lastChild : .none }

    /// The sibling just in front, or `.none`.
    @inline(__always)
    public func nextSibling(of id: NodeID) -> NodeID { contains(id) ? nextSiblings[id.index] : .none }

    /// The sibling just behind, or `.none`.
    @inline(__always)
    public func previousSibling(of id: NodeID) -> NodeID { contains(id) ? backLinks[id.index].previousSibling : .none }

    /// The children of a node, back to front (none for an id the tree does
    /// not hold).
    public func children(of id: NodeID) -> [NodeID] {
        var out: [NodeID] = []
        var c = firstChild(of: id)
        while !c.isNone {
            out.append(c)
            c = nextSiblings[c.index]
        }
        return out
    }

    /// The nearest ancestor view of a node (its container, for an element
    /// node), or `.none` for the root.
    public func container(of id: NodeID) -> NodeID {
        var p = parent(of: id)
        while !p.isNone && flags[p.index].contains(.element) { p = backLinks[p.index].parent }
        return p
    }

    /// Whether `ancestor` is `id` or one of its ancestors. O(depth).
    public func isDescendant(_ id: NodeID, of ancestor: NodeID) -> Bool {
        guard contains(id) else { return false }
        var n = id
        while !n.isNone {
            if n == ancestor { return true }
            n = backLinks[n.index].parent
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
            if !child.isNone {
                n = child
                continue
            }
            // Climb until a node with a next sibling, stopping at `start`.
            while n != start && nextSiblings[n.index].isNone { n = backLinks[n.index].parent }
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

    /// The whole node as a `Node` value, or nil when the tree does not hold
    /// `id`. O(1).
    public subscript(id: NodeID) -> Node? {
        contains(id) ? nodeValue(id) : nil
    }

    /// The whole node as a `Node` value. O(1).
    ///
    /// - Throws: `TreeError` (`.validation`) when the tree does not hold
    ///   `id` (removed, or from another tree).
    public func node(_ id: NodeID) throws(TreeError) -> Node {
        guard contains(id) else { throw notInTree(id) }
        return nodeValue(id)
    }

    /// The whole node in `id`'s slot (which must hold a live node).
    func nodeValue(_ id: NodeID) -> Node {
        let i = id.index
        let f = flags[i]
        var n = Node(id: ids[i], kind: f.contains(.element) ? .element : .view, frame: frames[i])
        let slots = sideSlots[i]
        if slots.bounds >= 0 { n.bounds = boundsTable[slots.bounds] }
        if slots.transform >= 0 { n.transform = transformTable[slots.transform] }
        n.clipsToBounds = f.contains(.clipsToBounds)
        n.isHidden = f.contains(.hidden)
        n.isUserInteractionEnabled = f.contains(.userInteractionEnabled)
        n.isWindow = f.contains(.window)
        n.isAccessibilityElement = f.contains(.accessibilityElement)
        n.accessibilityElementsHidden = f.contains(.elementsHidden)
        n.accessibilityViewIsModal = f.contains(.modal)
        n.shouldGroupAccessibilityChildren = f.contains(.groupsChildren)
        if slots.extra >= 0 {
            let e = extras[slots.extra]
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
            n.accessibilityElements = e.accessibilityElements
            n.accessibilityContainerType = e.containerType
            n.visibleInSnapshot = e.visibleInSnapshot
            n.actions = e.actions
            n.checked = e.checked
            n.importantForAccessibility = e.importantForAccessibility
            n.labelIsText = e.labelIsText
            n.isPassword = e.isPassword
            n.className = e.className
            n.packageName = e.packageName
            n.accessibilityIndex = e.accessibilityIndex
        }
        return n
    }

    // MARK: Hot accessors (internal)

    @inline(__always) func has(_ f: NodeFlags, _ id: NodeID) -> Bool { flags[id.index].contains(f) }

    /// A view's transform (identity for element nodes).
    @inline(__always) func transform(of id: NodeID) -> CGAffineTransform {
        let s = sideSlots[id.index].transform
        return s >= 0 ? transformTable[s] : .identity
    }

    /// A view's bounds in effect: explicit, or `[0, 0, frame.size]`.
    @inline(__always) func bounds(of id: NodeID) -> CGRect {
        let s = sideSlots[id.index].bounds
        return s >= 0 ? boundsTable[s] : CGRect(origin: .zero, size: frames[id.index].size)
    }

    @inline(__always) func alpha(of id: NodeID) -> CGFloat {
        flags[id.index].contains(.translucent) ? extras[sideSlots[id.index].extra].alpha : 1
    }

    /// The explicit accessibility frame (screen), if the node has one.
    @inline(__always) func explicitAccessibilityFrame(of id: NodeID) -> CGRect? {
        flags[id.index].contains(.hasAccessibilityFrame) ? extras[sideSlots[id.index].extra].accessibilityFrame : nil
    }

    /// An element node's frame in its container's bounds space, if it has one.
    @inline(__always) func frameInContainerSpace(of id: NodeID) -> CGRect? {
        flags[id.index].contains(.hasFrameInContainerSpace)
            ? extras[sideSlots[id.index].extra].frameInContainerSpace : nil
    }

    /// The node's accessibility path, if it has one.
    @inline(__always) func accessibilityPath(of id: NodeID) -> AccessibilityPath? {
        flags[id.index].contains(.hasPath) ? extras[sideSlots[id.index].extra].path : nil
    }

    /// The node's accessibility traits.
    @inline(__always) func traits(of id: NodeID) -> AccessibilityTraits {
        let s = sideSlots[id.index].extra
        return s >= 0 ? extras[s].traits : []
    }

    /// Whether the node has a non-empty accessibility label or value.
    func hasLabelOrValue(_ id: NodeID) -> Bool {
        let s = sideSlots[id.index].extra
        guard s >= 0 else { return false }
        return !(extras[s].label ?? "").isEmpty || !(extras[s].value ?? "").isEmpty
    }

    /// The node's Android actions (none when it declares none).
    @inline(__always) func actions(of id: NodeID) -> NodeActions {
        flags[id.index].contains(.hasSnapshotFacts) ? extras[sideSlots[id.index].extra].actions : []
    }

    /// The snapshot's visibility flag for the node, if the source gave one.
    @inline(__always) func visibleInSnapshot(_ id: NodeID) -> Bool? {
        flags[id.index].contains(.hasSnapshotFacts) ? extras[sideSlots[id.index].extra].visibleInSnapshot : nil
    }

    /// The dump's `checked`, if it gave one (Android).
    @inline(__always) func checked(_ id: NodeID) -> Bool? {
        flags[id.index].contains(.hasSnapshotFacts) ? extras[sideSlots[id.index].extra].checked : nil
    }

    /// Whether the dump calls the node important for accessibility, if it
    /// says (Android).
    @inline(__always) func importantForAccessibility(_ id: NodeID) -> Bool? {
        flags[id.index].contains(.hasSnapshotFacts)
            ? extras[sideSlots[id.index].extra].importantForAccessibility : nil
    }

    /// The node's class name (Android), if the source gave one.
    func className(of id: NodeID) -> String? {
        let s = sideSlots[id.index].extra
        return s >= 0 ? extras[s].className : nil
    }

    /// The package that drew the node (Android), if the source gave one.
    func packageName(of id: NodeID) -> String? {
        let s = sideSlots[id.index].extra
        return s >= 0 ? extras[s].packageName : nil
    }

    /// The node's place in its siblings' accessibility order, where it
    /// differs from their drawing order (Android).
    func accessibilityIndex(of id: NodeID) -> Int? {
        let s = sideSlots[id.index].extra
        return s >= 0 ? extras[s].accessibilityIndex : nil
    }

    /// Whether the node is a view (not an element node).
    @inline(__always) func isView(_ id: NodeID) -> Bool { !flags[id.index].contains(.element) }

    /// The map from a view's bounds space to its parent's (the screen, for
    /// the root): `ViewGeometry.boundsToParent` of its frame, bounds and
    /// transform.
    @inline(__always) func boundsToParent(_ id: NodeID) -> CGAffineTransform {
        let s = sideSlots[id.index].transform
        guard s >= 0 else { return ViewGeometry.boundsToParent(frame: frames[id.index], bounds: bounds(of: id)) }
        return ViewGeometry.boundsToParent(
            frame: frames[id.index], bounds: bounds(of: id), transform: transformTable[s])
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
        // One allocation for most screens (their views nest fewer than 16
        // deep), reversed in place.
        var chain: [NodeID] = []
        chain.reserveCapacity(16)
        var a = backLinks[id.index].parent
        while !a.isNone {
            if isView(a) { chain.append(a) }
            a = backLinks[a.index].parent
        }
        chain.reverse()
        return chain
    }

    @inline(__always) func extrasOf(_ id: NodeID) -> NodeExtras? {
        let s = sideSlots[id.index].extra
        return s >= 0 ? extras[s] : nil
    }
}
