import Foundation

/// The index of one wide view's children: where in the view a point can hit
/// each child or its subtree, so that a query visits only the children under
/// the point instead of all of them.
///
/// Boxes live in the view's own bounds space (`grid` or `local`), so
/// scrolling the view or moving any ancestor changes nothing here: a scroll
/// changes one number. Regions fixed in screen space (an explicit
/// `accessibilityFrame`, a path in screen coordinates) don't move with the
/// view, so they have their own tree of screen boxes (`screen`; a view with
/// any uses R-trees only). The trees hold the same items, numbered by the
/// children's order at build time; a child with no box in one space has an
/// empty box there. Children added later wait in `overflow`.
struct ContainerIndex: Sendable {
    /// Item number → child, in z-order at build time; `.none` once removed.
    /// Empty when the grid's keys are the children's node ids
    /// (`gridKeysAreNodes`), which name the children themselves: 8 bytes a
    /// child that nothing would read.
    var items: [NodeID]
    /// The items at build time.
    let itemCount: Int
    /// Boxes in the view's bounds space: a uniform grid when they suit one
    /// and no child has a screen box (it answers in z-order, with no tree to
    /// descend), else an R-tree; the other is empty.
    var grid: CellGrid
    var local: PackedRTree
    /// Boxes in screen space; an empty tree when no child has one.
    var screen: PackedRTree
    /// Whether the grid's keys are the children's node ids (when they
    /// increase in z-order, as in a tree built in order: the grid then hands
    /// out nodes with no lookup in `items`) rather than item numbers.
    var gridKeysAreNodes = false
    /// With node keys: the ids of children removed since the build, sorted
    /// (the grid's stale entries still name them, and an id may be reused).
    var removedNodes: [Int32] = []
    /// Children added since the build, with their boxes, in levels of small
    /// trees (see `OverflowLevels`); past `IndexPolicy.overflowLimit` the index
    /// is rebuilt (`isStale`).
    var overflow = OverflowLevels()
    /// Items emptied (removed children) since the build.
    var removed = 0
    /// The linear part of the view's map to the screen that the local boxes
    /// assume. Frame-policy regions are screen-aligned boxes: under a rotated
    /// ancestor their extent in local space depends on this, so a change of
    /// it (a new ancestor transform) rebuilds the index.
    var linear: CGAffineTransform

    /// An index over `items` with their local and (when any) screen boxes.
    init(items: [NodeID], local localBoxes: [CGRect], screen screenBoxes: [CGRect], linear: CGAffineTransform) {
        self.items = items
        itemCount = items.count
        self.linear = linear
        screen = screenBoxes.isEmpty ? PackedRTree(boxes: []) : PackedRTree(boxes: screenBoxes)
        var increasing = true
        for k in items.indices.dropFirst() where items[k].rawValue <= items[k - 1].rawValue {
            increasing = false
            break
        }
        let fitted =
            screenBoxes.isEmpty
            ? CellGrid(
                boxes: localBoxes, keys: increasing ? items.map(\.rawValue) : nil,
                minimumCount: IndexPolicy.gridMinimumChildren) : nil
        grid = fitted ?? CellGrid()
        gridKeysAreNodes = fitted != nil && increasing
        local = fitted == nil ? PackedRTree(boxes: localBoxes) : PackedRTree(boxes: [])
        if gridKeysAreNodes { self.items = [] }
    }

    /// An empty index.
    init() {
        self.init(items: [], local: [], screen: [], linear: .identity)
    }

    /// Whether the index should be rebuilt: too many unindexed, moved or
    /// removed children (`IndexPolicy.overflowLimit`, `removalsCallForRebuild`).
    var isStale: Bool {
        overflow.count > IndexPolicy.overflowLimit(itemCount: itemCount)
            || IndexPolicy.removalsCallForRebuild(removed, itemCount: itemCount)
            || grid.movedCount > IndexPolicy.overflowLimit(itemCount: itemCount)
    }

    /// Calls `body` with the indexed children (not the overflow) whose local
    /// box holds `q`, each once: in z-order from a grid, in any order from a
    /// tree. Removed children are skipped.
    ///
    /// Closures here capture locals only: capturing `self` would copy the
    /// index (a retain of each of its arrays) on every call.
    func forEachChild(
        containing q: CGPoint, _ generations: SlotGenerations.View, _ body: (NodeID) -> Bool
    ) {
        let items = self.items, removed = removedNodes, keysAreNodes = gridKeysAreNodes
        let visit = { (key: Int32) -> Bool in Self.visit(key, keysAreNodes, items, removed, generations, body) }
        if grid.count > 0 { grid.forEach(containing: q, visit) } else { local.forEach(containing: q, visit) }
    }

    /// Calls `body` with the indexed children whose local box meets `rect`,
    /// in no particular order and possibly more than once, with no
    /// allocation: for callers that order and deduplicate anyway.
    func forEachChildUnordered(
        intersecting rect: CGRect, _ generations: SlotGenerations.View, _ body: (NodeID) -> Bool
    ) {
        let items = self.items, removed = removedNodes, keysAreNodes = gridKeysAreNodes
        let visit = { (key: Int32) -> Bool in Self.visit(key, keysAreNodes, items, removed, generations, body) }
        if grid.count > 0 {
            grid.forEachUnordered(intersecting: rect, visit)
        } else {
            local.forEach(intersecting: rect, visit)
        }
    }

    /// Calls `body` with the child a tree or grid key names, unless it was
    /// removed; returns whether to go on. A key that is a slot names the
    /// node in it now (`generations`): a removed child's is skipped.
    @inline(__always)
    private static func visit(
        _ key: Int32, _ keysAreNodes: Bool, _ items: [NodeID], _ removed: [Int32],
        _ generations: SlotGenerations.View, _ body: (NodeID) -> Bool
    ) -> Bool {
        if keysAreNodes { return holds(removed, key) || body(generations.nodeID(key)) }
        let c = items[Int(key)]
        return c.isNone || body(c)
    }

    /// Whether sorted `list` holds `key`. O(log n).
    static func holds(_ list: [Int32], _ key: Int32) -> Bool {
        var lo = 0, hi = list.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if list[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        return lo < list.count && list[lo] == key
    }

    /// Forgets item `k`, that of removed child `child`.
    mutating func removeItem(_ k: Int32, child: NodeID) {
        setLocalBox(ofItem: k, child: child, to: .null)
        if screen.count > 0 { screen.setBox(ofItem: k, to: .null) }
        if gridKeysAreNodes {
            let key = child.rawValue
            var at = removedNodes.count
            while at > 0 && removedNodes[at - 1] > key { at -= 1 }
            removedNodes.insert(key, at: at)
        } else {
            items[Int(k)] = .none
        }
        removed += 1
    }

    /// Replaces the local box of item `k`, that of child `child` (`.null`
    /// empties it).
    mutating func setLocalBox(ofItem k: Int32, child: NodeID, to box: CGRect) {
        if grid.count > 0 {
            grid.setBox(ofItem: gridKeysAreNodes ? child.rawValue : k, to: box)
        } else {
            local.setBox(ofItem: k, to: box)
        }
    }

    /// Memory held, in bytes.
    var memoryBytes: Int {
        grid.memoryBytes + local.memoryBytes + screen.memoryBytes
            + items.count * MemoryLayout<NodeID>.stride + removedNodes.count * MemoryLayout<Int32>.stride
            + overflow.memoryBytes
    }
}
