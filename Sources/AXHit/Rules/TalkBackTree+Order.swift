import Foundation

/// TalkBack's order: the linear order a swipe takes, windows in their order,
/// and each node's children in the traversal's order.
extension TalkBackTree {
    /// TalkBack's linear order (tree-format.md, "Navigation order", Android):
    /// the exposed nodes in a pre-order walk of the tree TalkBack sees (a
    /// node before its children), window by window in `windowOrder`; within
    /// a window, each node's children in the dump's order, then reordered by
    /// useful bounds (`reorder`).
    ///
    /// - Complexity: O(n) to collect, plus O(k²) at worst per list of k
    ///   children that some child's useful bounds reorder (each moves past
    ///   the siblings it passes).
    ///
    /// Returns the order, and each node's children in the traversal's order
    /// (`seenChildren(below:in:)` of the whole tree), made on the way.
    func orderAndChildren(of tree: ElementTree) -> (order: [NodeID], children: SeenChildren) {
        let preOrder = Self.dumpPreOrder(tree)
        let boxes = Self.screenBoxes(tree, preOrder)
        let seen = seenChildren(preOrder: preOrder, boxes: boxes, in: tree)
        var out: [NodeID] = []
        for window in windowOrder(of: tree, preOrder: preOrder, boxes: boxes) {
            var stack = topNodes(of: window, in: tree).reversed() as [NodeID]
            while let n = stack.popLast() {
                if facts[n.index].contains(.exposed) { out.append(n) }
                stack.append(contentsOf: seen.children(of: n).reversed())
            }
        }
        return (out, seen)
    }

    /// The children of each important node in the tree TalkBack sees, in
    /// the order its traversal takes them: the dump's order, reordered by
    /// useful bounds (`reorder`). Per slot, back to back.
    struct SeenChildren: Sendable {
        fileprivate var start: [Int32]
        fileprivate var list: [NodeID]

        /// The children of `n` (none for a node outside the walk).
        func children(of n: NodeID) -> ArraySlice<NodeID> {
            guard n.index + 1 < start.count else { return [] }
            return list[Int(start[n.index]) ..< Int(start[n.index + 1])]
        }
    }

    /// The children of the important nodes of the subtree at `top` (the
    /// whole tree when nil), in TalkBack's order (`SeenChildren`).
    ///
    /// - Complexity: O(subtree + capacity), plus what `reorder` moves.
    func seenChildren(below top: NodeID? = nil, in tree: ElementTree) -> SeenChildren {
        let top = top ?? tree.root
        let preOrder = Self.dumpPreOrder(tree, from: top)
        let p = top.isNone ? NodeID.none : tree.backLinks[top.index].parent
        let boxes = Self.screenBoxes(tree, preOrder, parentMap: p.isNone ? .identity : tree.toScreen(of: p))
        return seenChildren(preOrder: preOrder, boxes: boxes, in: tree)
    }

    /// `seenChildren(below:in:)` over a walk already made: `preOrder` (a
    /// subtree's dump pre-order) and each node's box on the screen.
    private func seenChildren(preOrder: [NodeID], boxes: [CGRect], in tree: ElementTree) -> SeenChildren {
        // The children of each node, in the dump's order, back to back; a
        // parent above the walk's top is left out.
        var inWalk = [Bool](repeating: false, count: tree.capacity)
        for n in preOrder { inWalk[n.index] = true }
        var start = [Int32](repeating: 0, count: tree.capacity + 1)
        for n in preOrder where facts[n.index].contains(.important) {
            let p = parents[n.index]
            if !p.isNone && inWalk[p.index] { start[p.index + 1] += 1 }
        }
        for i in 0 ..< tree.capacity { start[i + 1] += start[i] }
        var list = [NodeID](repeating: .none, count: Int(start[tree.capacity]))
        var fill = start
        for n in preOrder where facts[n.index].contains(.important) {
            let p = parents[n.index]
            if !p.isNone && inWalk[p.index] {
                list[Int(fill[p.index])] = n
                fill[p.index] += 1
            }
        }
        // Useful bounds, children first.
        var useful = [CGRect](repeating: .null, count: tree.capacity)
        for n in preOrder.reversed() where facts[n.index].contains(.important) {
            let f = facts[n.index], own = boxes[n.index]
            if f.contains(.exposed) {
                useful[n.index] = own
            } else if f.contains(.visible) {
                var around = CGRect.null
                for k in Int(start[n.index]) ..< Int(start[n.index + 1]) {
                    let u = useful[list[k].index]
                    if !u.isNull { around = around.union(u) }
                }
                useful[n.index] = around.isNull ? own : Self.clip(own, to: around)
            }
        }
        var children: [NodeID] = []
        for n in preOrder where start[n.index + 1] - start[n.index] > 1 {
            let range = Int(start[n.index]) ..< Int(start[n.index + 1])
            // Most lists have no child that `reorder` moves.
            guard list[range].contains(where: { Self.usesChildren($0, useful: useful, own: boxes) }) else { continue }
            children.removeAll(keepingCapacity: true)
            children.append(contentsOf: list[range])
            Self.reorder(&children, useful: useful, own: boxes)
            list.replaceSubrange(range, with: children)
        }
        return SeenChildren(start: start, list: list)
    }

    /// The important nodes of window `w` that have no important ancestor in
    /// it: `w` itself when it is important.
    private func topNodes(of w: NodeID, in tree: ElementTree) -> [NodeID] {
        if facts[w.index].contains(.important) { return [w] }
        var out: [NodeID] = []
        var stack = [w]
        var children: [NodeID] = []
        while let v = stack.popLast() {
            if v != w && facts[v.index].contains(.important) {
                out.append(v)
                continue
            }
            Self.dumpChildren(of: v, in: tree, into: &children)
            stack.append(contentsOf: children.reversed())
        }
        return out
    }

    /// `own` cut to `around`, as Android's `Rect.intersect`: unchanged when
    /// the two do not overlap with area.
    static func clip(_ own: CGRect, to around: CGRect) -> CGRect {
        guard own.minX < around.maxX && around.minX < own.maxX && own.minY < around.maxY && around.minY < own.maxY
        else { return own }
        return own.intersection(around)
    }

    /// TalkBack's `ReorderedChildrenIterator`: only when some child uses its
    /// children's bounds (its useful bounds differ from its own), each such
    /// child, from the second-to-last back to the first, moves later past
    /// each following sibling that `comesFirst` puts before it by useful
    /// bounds (both having some) while their own bounds keep the dump's
    /// order; it stops at the first sibling it does not pass.
    static func reorder(_ list: inout [NodeID], useful: [CGRect], own: [CGRect]) {
        guard list.count > 1 else { return }
        func usesChildren(_ n: NodeID) -> Bool { Self.usesChildren(n, useful: useful, own: own) }
        guard list.contains(where: usesChildren) else { return }
        var i = list.count - 2
        while i >= 0 {
            if usesChildren(list[i]) {
                var j = i
                while j + 1 < list.count {
                    let a = list[j], b = list[j + 1]
                    let ua = useful[a.index], ub = useful[b.index]
                    guard !ua.isNull, !ub.isNull, !comesFirst(ua, ub), comesFirst(own[a.index], own[b.index])
                    else { break }
                    list.swapAt(j, j + 1)
                    j += 1
                }
            }
            i -= 1
        }
    }

    /// Whether `n`'s useful bounds come from its children (they differ
    /// from its own): the children `reorder` moves.
    @inline(__always)
    static func usesChildren(_ n: NodeID, useful: [CGRect], own: [CGRect]) -> Bool {
        let u = useful[n.index]
        return !u.isNull && u != own[n.index]
    }

    /// The framework's stripe order (TalkBack's comparator): whether `a`
    /// comes first. `a` first when it ends above `b`'s top; `b` first when
    /// `a` starts below `b`'s bottom; else the smaller left, then the
    /// smaller top, then the taller, then the wider, else `a`.
    static func comesFirst(_ a: CGRect, _ b: CGRect) -> Bool {
        if a.maxY <= b.minY { return true }
        if a.minY >= b.maxY { return false }
        if a.minX != b.minX { return a.minX < b.minX }
        if a.minY != b.minY { return a.minY < b.minY }
        if a.height != b.height { return a.height > b.height }
        if a.width != b.width { return a.width > b.width }
        return true
    }

    /// TalkBack's window order (`WindowTraversal`): each window's top-level
    /// node by its top edge, then its left edge, windows of
    /// `com.android.systemui` after all others, ties in the dump's order
    /// (frontmost first, as uiautomator lists windows); the status and
    /// navigation bars left out (`isSystemBar`).
    func windowOrder(of tree: ElementTree, preOrder: [NodeID], boxes: [CGRect]) -> [NodeID] {
        var windows: [NodeID] = []
        var inWindow = [Bool](repeating: false, count: tree.capacity)
        for n in preOrder {
            let p = tree.backLinks[n.index].parent
            let covered = !p.isNone && inWindow[p.index]
            if !covered && Self.isWindowTop(n, in: tree) {
                windows.append(n)
                inWindow[n.index] = true
            } else {
                inWindow[n.index] = covered
            }
        }
        // The tree keeps windows back to front; the dump lists them front first.
        windows.reverse()
        let screen = tree.screenBounds ?? (tree.root.isNone ? .zero : boxes[tree.root.index])
        let keyed = windows.enumerated().compactMap { k, w -> (NodeID, Bool, CGRect, Int)? in
            let system = tree.packageName(of: w) == "com.android.systemui"
            let box = boxes[w.index]
            if system && Self.isSystemBar(box, screen: screen) { return nil }
            return (w, system, box, k)
        }
        return keyed.sorted { a, b in
            if a.1 != b.1 { return !a.1 }
            if a.2.minY != b.2.minY { return a.2.minY < b.2.minY }
            if a.2.minX != b.2.minX { return a.2.minX < b.2.minX }
            return a.3 < b.3
        }.map(\.0)
    }

    /// A status bar or navigation bar: as wide as the screen, touching its
    /// top edge and ending above a fifth of its height, or touching its
    /// bottom edge and starting below three quarters of it.
    static func isSystemBar(_ box: CGRect, screen: CGRect) -> Bool {
        guard !box.isNull, box.minX <= screen.minX, box.maxX >= screen.maxX else { return false }
        let h = screen.height
        if box.minY <= screen.minY && box.maxY < screen.minY + h / 5 { return true }
        if box.maxY >= screen.maxY && box.minY > screen.minY + h * 3 / 4 { return true }
        return false
    }
}
