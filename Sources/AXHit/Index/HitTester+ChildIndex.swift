import AXGeometry
import Foundation

/// The child index: the one code that answers "the children of node `v`
/// that may meet a point or a rect, in z-order", whichever index `v` has:
///
/// - none (an element node, or a view whose block was refused): every
///   child, along the sibling links;
/// - a narrow view's block of boxes (`ChildBlocks`);
/// - a wide view's `ContainerIndex`: its grid or R-trees, then its
///   `OverflowLevels` (the children added since the build).
///
/// Only live children come out: the index forgets a removed child when it
/// goes (an emptied item, a removed node key, an overflow place taken
/// away), so no caller reads a child's record to skip stale ones (debug
/// builds check it where the index's lists answer). A box is a
/// conservative filter (it holds the child's bounds quad and, under the
/// frame policy, its region, rounded outward): the caller makes the exact
/// test.
///
/// A query calls a closure with each child and `sink` (the caller's stack
/// or answer, apart from `buffer`, so that both are written in place) until
/// it returns false, in the order `Order` fixes at compile time. Where the
/// index does not list the children in z-order (R-trees, the overflow),
/// they are gathered in `buffer`, the caller's, sorted by rank and
/// deduplicated first: no allocation once it has grown.
extension HitTester {
    /// Visits the children of `v` (record `h`) whose boxes may hold the
    /// point, `q` in `v`'s bounds space and `p` on the screen (nil: regions
    /// fixed in screen space don't count, as for touch). With `boxHits`, a
    /// child is a hit (the answer, untested) when it is a box hit
    /// (`HitTester.boxHits`) whose box holds `q` with room to spare; with
    /// `frontHitAlone` too (back to front only), a grid's frontmost child
    /// that is a hit is returned instead, and nothing is visited.
    ///
    /// - Complexity: none: O(children); a block: O(children), one or two
    ///   cache lines of boxes; a grid: O(entries in `q`'s cell); R-trees:
    ///   O(log n + k log k) for k matches; plus O(log² m) for m children
    ///   added since the build. No allocation once `buffer` has grown.
    @inline(__always)
    @discardableResult
    func forEachChild<Order: ChildOrder, Sink>(
        of v: NodeID, _ h: HotNode, at q: CGPoint, screen p: CGPoint?, _: Order.Type,
        boxHits hits: Bool = false, frontHitAlone: Bool = false, buffer: inout [NodeID], into sink: inout Sink,
        _ body: (inout Sink, NodeID, _ isHit: Bool) -> Bool
    ) -> NodeID? {
        if h.isView && h.blockStart >= 0 {
            boxHits.withView { boxHits in
                forEachInBlock(h, matching: ChildBlocks.query(q), Order.self, into: &sink) { sink, c, box in
                    body(&sink, c, hits && boxHits.test(c.index) && ChildBlocks.holdsWithRoom(box, q))
                }
            }
            return nil
        }
        let slot = h.isView ? h.indexSlot : -1
        if slot < 0 {
            forEachSibling(of: v, Order.self, into: &sink) { body(&$0, $1, false) }
            return nil
        }
        // Through a pointer: the column's subscript would copy the index
        // (a retain of each of its arrays) for every query. The grid's
        // answer comes back as a slot: -1 when the grid did not answer (the
        // general path below), -2 when it visited the children.
        let front = indexes.withView { indexes -> Int32 in
            let index = indexes.pointer(Int(slot))
            // (No `&&` on the index itself: its autoclosure would capture,
            // and copy, the index.)
            // Numbers only: reading an array or dictionary through the
            // pointer would retain and release it.
            let grid = index.pointee.grid.count > 0, keysAreNodes = index.pointee.gridKeysAreNodes
            let noRemovals = index.pointee.removed == 0, noOverflow = index.pointee.overflow.count == 0
            guard grid && keysAreNodes && noRemovals && noOverflow else { return -1 }
            // The common wide view: the grid's answers are the children
            // themselves, in z-order, with no sort.
            // The cells as plain values: no copy of the grid, no retain.
            let cells = index.pointee.grid.cells
            guard !Order.frontToBack || cells.outsideCells == 0 else { return -1 }
            let gridHits = hits && cells.quantizationStep >= IndexPolicy.minimumGridStep
            // A key is a slot; the handle of its node carries the slot's
            // generation (nothing to read in a tree that never removed one).
            return tree.generations.withView { generations in
                boxHits.withView { boxHits -> Int32 in
                    @inline(__always) func visit(_ key: Int32, _ withRoom: Bool) -> Bool {
                        body(&sink, generations.nodeID(key), gridHits && withRoom && boxHits.test(Int(key)))
                    }
                    if cells.outsideCells > 0 {
                        // Moved or loose items too (`CellGrid`): the frontmost
                        // alone when it is a hit, as below; else all, merged in.
                        if frontHitAlone && gridHits,
                            let (front, room) = index.pointee.grid.frontmost(containing: q),
                            room && boxHits.test(Int(front))
                        {
                            return front
                        }
                        index.pointee.grid.forEach(containing: q) { visit($0, $1) }
                        return -2
                    }
                    var scan = cells.scan(containing: q)
                    if Order.frontToBack {
                        while let (key, withRoom) = scan.previous(), visit(key, withRoom) {}
                        return -2
                    }
                    if frontHitAlone && gridHits {
                        // The frontmost candidate first, from the cell's front
                        // end: when it is a hit, it alone is the answer; else
                        // the ones behind it, then it.
                        guard let (front, frontRoom) = scan.previous() else { return -2 }
                        if frontRoom && boxHits.test(Int(front)) { return front }
                        while let (key, withRoom) = scan.next(), visit(key, withRoom) {}
                        _ = visit(front, frontRoom)
                        return -2
                    }
                    while let (key, withRoom) = scan.next(), visit(key, withRoom) {}
                    return -2
                }
            }
        }
        if front >= 0 { return tree.nodeID(Int(front)) }
        if front == -2 { return nil }
        buffer.removeAll(keepingCapacity: true)
        let overflow = indexes.withView { indexes in
            tree.generations.withView { generations in
                Self.collectChildren(indexes.pointer(Int(slot)), local: q, screen: p, generations, into: &buffer)
            }
        }
        if overflow { sortByRank(&buffer) }
        forEachGathered(buffer, of: v, Order.self, into: &sink) { body(&$0, $1, false) }
        return nil
    }

    /// Visits the children of `v` (record `h`) whose boxes may meet `r` (in
    /// `v`'s bounds space) or `s` (on the screen; nil: regions fixed there
    /// don't count), and every child added to a wide view since its build.
    ///
    /// - Complexity: none or a block: O(children); a wide view: the index's
    ///   entries that meet the rects, plus the children added since the
    ///   build, O(k log k) to sort the k found. No allocation once `buffer`
    ///   has grown.
    @inline(__always)
    func forEachChild<Order: ChildOrder, Sink>(
        of v: NodeID, _ h: HotNode, meeting r: CGRect, screen s: CGRect?, _: Order.Type,
        buffer: inout [NodeID], into sink: inout Sink, _ body: (inout Sink, NodeID) -> Bool
    ) {
        if h.isView && h.blockStart >= 0 {
            // Rounded outward, as the boxes are.
            let query = SIMD4(
                Float(r.maxX).nextUp, Float(r.maxY).nextUp, -Float(r.minX).nextDown, -Float(r.minY).nextDown)
            forEachInBlock(h, matching: query, Order.self, into: &sink) { sink, c, _ in body(&sink, c) }
            return
        }
        let slot = h.isView ? h.indexSlot : -1
        guard slot >= 0 else { return forEachSibling(of: v, Order.self, into: &sink, body) }
        buffer.removeAll(keepingCapacity: true)
        indexes.withView { indexes in
            let index = indexes.pointer(Int(slot))
            // Unordered, with repeats: sorted by rank and deduplicated below.
            tree.generations.withView { generations in
                index.pointee.forEachChildUnordered(intersecting: r, generations) { c in
                    buffer.append(c)
                    return true
                }
            }
            if let s, index.pointee.screen.count > 0 {
                let items = index.pointee.items
                index.pointee.screen.forEach(intersecting: s) { k in
                    if !items[Int(k)].isNone { buffer.append(items[Int(k)]) }
                    return true
                }
            }
            // The overflow answers points only: all of it.
            if !index.pointee.overflow.isEmpty { index.pointee.overflow.forEachChild { buffer.append($0) } }
        }
        sortByRank(&buffer)
        forEachGathered(buffer, of: v, Order.self, into: &sink, body)
    }

    // MARK: The parts

    /// Visits the children along the sibling links.
    @inline(__always)
    private func forEachSibling<Order: ChildOrder, Sink>(
        of v: NodeID, _: Order.Type, into sink: inout Sink, _ body: (inout Sink, NodeID) -> Bool
    ) {
        var c = Order.frontToBack ? tree.backLinks[v.index].lastChild : tree.firstChildren[v.index]
        while !c.isNone, body(&sink, c) {
            c = Order.frontToBack ? tree.backLinks[c.index].previousSibling : tree.nextSiblings[c.index]
        }
    }

    /// Visits the children of block record `h` whose stored boxes match
    /// `query` (`PackedRTree.matches`), with their boxes.
    @inline(__always)
    private func forEachInBlock<Order: ChildOrder, Sink>(
        _ h: HotNode, matching query: SIMD4<Float>, _: Order.Type, into sink: inout Sink,
        _ body: (inout Sink, NodeID, SIMD4<Float>) -> Bool
    ) {
        let count = Int(h.blockCount)
        blocks.withBlock(start: Int(h.blockStart), count: count) { boxes, nodes in
            for i in 0 ..< count {
                let k = Order.frontToBack ? count - 1 - i : i
                if PackedRTree.matches(boxes[k], query), !body(&sink, nodes[k], boxes[k]) { return }
            }
        }
    }

    /// Visits `gathered` (children of `v` sorted back to front, repeats
    /// adjacent) once each.
    @inline(__always)
    private func forEachGathered<Order: ChildOrder, Sink>(
        _ gathered: [NodeID], of v: NodeID, _: Order.Type, into sink: inout Sink,
        _ body: (inout Sink, NodeID) -> Bool
    ) {
        var last = NodeID.none
        for i in gathered.indices {
            let c = gathered[Order.frontToBack ? gathered.count - 1 - i : i]
            guard c != last else { continue }
            last = c
            // The index's promise (see the top), checked in debug builds.
            assert(tree.contains(c) && tree.backLinks[c.index].parent == v, "\(v)'s index holds \(c), not its child")
            if !body(&sink, c) { return }
        }
    }

    /// Appends the children of an indexed view whose boxes hold the point
    /// (`q` in the view's space, `p` on the screen), back to front, then its
    /// overflow; returns whether there was any (then the caller must sort by
    /// rank). A grid answers in z-order; a tree's item numbers are in
    /// z-order, so sorting them orders the children without touching the
    /// nodes' memory. Takes the index by pointer: a copy would retain each
    /// of its arrays.
    @inline(__always)
    private static func collectChildren(
        _ index: UnsafePointer<ContainerIndex>, local q: CGPoint, screen p: CGPoint?,
        _ generations: SlotGenerations.View, into children: inout [NodeID]
    ) -> Bool {
        if index.pointee.grid.count > 0 {
            // Already in z-order, each once (a grid implies no screen boxes).
            index.pointee.forEachChild(containing: q, generations) { c in
                children.append(c)
                return true
            }
        } else {
            index.pointee.local.forEach(containing: q) { k in
                children.append(NodeID(k))
                return true
            }
            if let p, index.pointee.screen.count > 0 {
                index.pointee.screen.forEach(containing: p) { k in
                    children.append(NodeID(k))
                    return true
                }
            }
            mapToNodes(index, &children)
        }
        if index.pointee.overflow.isEmpty { return false }
        index.pointee.overflow.forEach(local: q, screen: p ?? CGPoint(x: CGFloat.nan, y: .nan)) { children.append($0) }
        return true
    }

    /// Sorts the item numbers in `children`, drops repeats and removed
    /// items, and maps the rest to their nodes.
    @inline(__always)
    private static func mapToNodes(_ index: UnsafePointer<ContainerIndex>, _ children: inout [NodeID]) {
        if children.count > 1 { children.sort() }
        index.pointee.items.withUnsafeBufferPointer { items in
            var write = 0
            var last = Int32(-1)
            for read in children.indices {
                let k = children[read].rawValue
                if k == last || items[Int(k)].isNone { continue }
                last = k
                children[write] = items[Int(k)]
                write += 1
            }
            children.removeSubrange(write...)
        }
    }

    /// Sorts nodes back to front by rank: insertion sort, since a point
    /// rarely lies in more than a few children's boxes.
    @inline(__always)
    func sortByRank(_ nodes: inout [NodeID]) {
        if nodes.count > 32 {
            nodes.sort { ranks[$0.index] < ranks[$1.index] }
            return
        }
        var i = 1
        while i < nodes.count {
            let x = nodes[i], rx = ranks[x.index]
            var j = i - 1
            while j >= 0 && ranks[nodes[j].index] > rx {
                nodes[j + 1] = nodes[j]
                j -= 1
            }
            nodes[j + 1] = x
            i += 1
        }
    }
}

/// The order children are visited in, fixed at compile time: back to front
/// is the order a stack pushes them in so that the frontmost is popped first.
protocol ChildOrder {
    static var frontToBack: Bool { get }
}

/// Back to front: paint order, ascending rank.
enum BackToFront: ChildOrder {
    static var frontToBack: Bool { false }
}

/// Front to back: the frontmost first.
enum FrontToBack: ChildOrder {
    static var frontToBack: Bool { true }
}
