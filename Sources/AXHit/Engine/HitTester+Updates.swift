import Foundation

/// Updates: each changes the tree and the engine's derived state without a
/// rebuild, doing work in proportion to what the change affects. With a
/// screen grid (`buildScreenGrid()`, or the engine's own tiles), each marks
/// stale the screen area where it may change an answer, before and after
/// (`beginScreenChange(_:)`: O(depth) more), and the grid is no longer
/// asked there; one whose area has no small bound, or that leaves half
/// the grid stale, drops it (`markStale(_:)`).
extension HitTester {
    /// Scrolls a view: sets its bounds origin (`contentOffset`).
    ///
    /// Children are indexed in the view's own bounds space, and the quad of
    /// the view's bounds in its parent does not depend on its scroll offset,
    /// so nothing else changes, except for a view whose own path is written
    /// in its (scrolled) space: its box in its parent is refitted.
    ///
    /// - Complexity: O(1), whatever the number of rows (O(log siblings) for
    ///   a view with a view-space path); O(subtree) on Android, whose
    ///   exposure compares screen boxes with their window's. With a screen
    ///   grid, O(depth) more to mark the view's bounds stale; a scroll view
    ///   over the whole grid drops it, and its later scrolls are O(1) again.
    /// - Throws: `TreeError` when `view` is not a view or the offset is not finite.
    public mutating func scroll(_ view: NodeID, to offset: CGPoint) throws(TreeError) {
        if screenGrid != nil { return try scrollMarkingScreenGrid(view, to: offset) }
        try performScroll(view, to: offset)
    }

    /// `scroll(_:to:)` with a screen grid: its content moves within its
    /// bounds, whose place on the screen stays, so the view's reach is
    /// marked stale, before and after (a view-space path moves). Out of
    /// line, so that a scroll without a grid keeps a small frame.
    @inline(never)
    private mutating func scrollMarkingScreenGrid(_ view: NodeID, to offset: CGPoint) throws(TreeError) {
        let change = beginScreenChange(view)
        try performScroll(view, to: offset)
        endScreenChange(change)
    }

    /// `scroll(_:to:)` without the screen grid's marks (inlined in both of
    /// its callers: a call would be a tenth of a scroll).
    @inline(__always)
    private mutating func performScroll(_ view: NodeID, to offset: CGPoint) throws(TreeError) {
        try tree.setBoundsOrigin(view, to: offset)
        let i = view.index
        if hot[i].boundsSlot != tree.sideSlots[i].bounds {
            syncHotOutOfLine(view)  // its first scroll: a new bounds slot
        } else {
            // Whether it may still be a box hit (a huge offset is not
            // moderate); written only when it changes, so that a snapshot
            // sharing the column is not copied.
            let boxHit = Self.isBoxHit(
                hot[i], hasChildren: !tree.firstChildren[view.index].isNone,
                exposedHidesSubtree: exposedHidesSubtree, in: tree)
            if boxHits[i] != boxHit { boxHits[i] = boxHit }
        }
        if hot[view.index].flags.contains(.hasPath), tree.accessibilityPath(of: view)?.coordinateSpace == .view {
            refitItem(containing: view)
        }
        // TalkBack's rules compare screen boxes with windows' (the
        // whole-window rule), and its order reads them.
        if exposureReadsGeometry { talkBackAfterScroll(view) }
        navigationAfterScroll(view)
    }

    /// `syncHot`, not inlined: for the rare branch of a scroll, whose
    /// common path keeps a smaller frame without it (232 instructions a
    /// scroll, counted, against 248 with it inlined).
    @inline(never)
    private mutating func syncHotOutOfLine(_ id: NodeID) { syncHot(id) }

    /// Replaces every property of a node but its place in the tree, and
    /// brings the engine up to date.
    ///
    /// - Complexity: O(1) plus: O(log children) when its region moved (a
    ///   refit of its box in its view's index); O(subtree) when its exposure
    ///   flags changed (O(parent's subtree) for a modal flag); O(subtree) when
    ///   its transform's linear part changed (indexes under it that depend on
    ///   the rotation to the screen are rebuilt); the path's fill when its
    ///   path changed.
    /// - Throws: `TreeError` when the node is invalid, its id is taken, or its
    ///   kind would change; the engine is unchanged then.
    public mutating func update(_ id: NodeID, to node: Node) throws(TreeError) {
        guard tree.contains(id) else { throw tree.notInTree(id, node: node.id) }
        // (TalkBack's rules alone: other rules pay one test.)
        let talkBack =
            exposedHidesSubtree
            ? nil
            : talkBackBeforeChange(
                of: id, modal: tree.has(.modal, id) || node.accessibilityViewIsModal,
                window: tree.has(.window, id) != node.isWindow)
        defer { if let talkBack { talkBackAfterChange(talkBack) } }
        if screenGrid != nil { return try updateMarkingScreenGrid(id, to: node) }
        try performUpdate(id, to: node)
    }

    /// `update(_:to:)` with a screen grid: where answers may change is the
    /// node's reach, or its parent's when a modal flag is involved (it
    /// suppresses or releases the siblings), before and after.
    @inline(never)
    private mutating func updateMarkingScreenGrid(_ id: NodeID, to node: Node) throws(TreeError) {
        let parent = tree.backLinks[id.index].parent
        let modal = tree.has(.modal, id) || node.accessibilityViewIsModal
        let change = beginScreenChange(modal && !parent.isNone ? parent : id)
        try performUpdate(id, to: node)
        endScreenChange(change)
    }

    /// `update(_:to:)` without the screen grid's marks, of a node in the tree.
    private mutating func performUpdate(_ id: NodeID, to node: Node) throws(TreeError) {
        let old = tree.nodeValue(id)
        let wasHidden = rules.hidesFromAccessibility(id, in: tree)
        let parent = tree.backLinks[id.index].parent
        try tree.update(id, to: node)
        syncHot(id)
        let isHidden = rules.hidesFromAccessibility(id, in: tree)

        let geometryChanged = old.frame != node.frame || old.bounds != node.bounds || old.transform != node.transform
        let regionChanged =
            geometryChanged || old.accessibilityFrame != node.accessibilityFrame
            || old.accessibilityFrameInContainerSpace != node.accessibilityFrameInContainerSpace
            || old.accessibilityPath != node.accessibilityPath
        let modalChanged =
            old.accessibilityViewIsModal != node.accessibilityViewIsModal
            || ((old.accessibilityViewIsModal || node.accessibilityViewIsModal) && wasHidden != isHidden)
        var changes: ExposureInputs = []
        if wasHidden != isHidden { changes.insert(.hidden) }
        if old.isAccessibilityElement != node.isAccessibilityElement { changes.insert(.accessibilityElement) }
        if old.accessibilityLabel != node.accessibilityLabel || old.accessibilityValue != node.accessibilityValue {
            changes.insert(.labelOrValue)
        }
        if old.actions != node.actions { changes.insert(.actions) }
        if old.isWindow != node.isWindow { changes.insert(.window) }
        if geometryChanged { changes.insert(.geometry) }
        let exposureChanged = modalChanged || !changes.isDisjoint(with: rules.exposureInputs)
        let linearChanged =
            old.transform.a != node.transform.a || old.transform.b != node.transform.b
            || old.transform.c != node.transform.c || old.transform.d != node.transform.d

        if old.accessibilityPath != node.accessibilityPath
            || (linearChanged && node.accessibilityPath?.coordinateSpace == .view)
        {
            try refillShape(id)
        }
        if old.accessibilityViewIsModal != node.accessibilityViewIsModal, !parent.isNone {
            countModalChildren(of: parent)
        }
        if exposureChanged {
            if modalChanged && !parent.isNone {
                // A modal sibling suppresses or releases all the others: one
                // walk of the parent's subtree (a walk per sibling would
                // look for the frontmost modal once per sibling).
                deriveSubtree(parent, structure: false)
            } else {
                deriveSubtree(id, structure: false)
            }
        }
        if regionChanged { refitItem(containing: id) }
        if linearChanged { rebuildRotationDependentIndexes(under: id) }
        navigationAfterUpdate(id, from: old)
    }

    /// Inserts one node (with no children) under `parent`, just behind
    /// `sibling` (frontmost when `.none`).
    ///
    /// - Complexity: O(depth) to update exposed counts, plus O(siblings)
    ///   in a narrow view (its block is rebuilt; fewer than 16) or O(log n)
    ///   amortized in a wide one (the node joins the index's overflow levels,
    ///   `OverflowLevels`; the index itself is rebuilt once as many children
    ///   were added as it holds); O(parent's subtree) when the node is a
    ///   visible modal view.
    /// - Throws: `TreeError` as `ElementTree.insert(_:under:before:)`.
    @discardableResult
    public mutating func insert(
        _ node: Node, under parent: NodeID, before sibling: NodeID = .none
    ) throws(TreeError) -> NodeID {
        let id = try tree.insert(node, under: parent, before: sibling)
        attach(id)
        return id
    }

    /// Inserts a copy of the whole of `subtree` under `parent`, just behind
    /// `sibling` (frontmost when `.none`), and returns the new id of its root.
    ///
    /// - Complexity: O(size of `subtree`) plus the insert of its root.
    /// - Throws: `TreeError` when a node's id is taken or a view would go
    ///   under an element node; the tree is unchanged then.
    @discardableResult
    public mutating func insert(
        _ subtree: ElementTree, under parent: NodeID, before sibling: NodeID = .none
    ) throws(TreeError) -> NodeID {
        guard !subtree.root.isNone else { throw TreeError(.validation, "the subtree to insert is empty") }
        for id in subtree.preOrder where tree.node(withID: subtree.id(of: id)) != nil {
            throw TreeError(.validation, "duplicate id", node: subtree.id(of: id), key: "id")
        }
        if subtree.kind(of: subtree.root) == .view && !parent.isNone && tree.contains(parent)
            && tree.kind(of: parent) == .element
        {
            throw TreeError(
                .validation, "a view cannot be a child of an element node", node: subtree.id(of: subtree.root),
                key: "kind")
        }
        let top = try tree.insert(subtree.nodeValue(subtree.root), under: parent, before: sibling)
        // Copy the rest in pre-order, so that a node's parent is always
        // copied first. Each copy's id by the subtree's slot (a table, not a
        // dictionary, whose stores and lookups were 14% of a 10-cell row's
        // insert).
        var copied = [NodeID](repeating: .none, count: subtree.capacity)
        copied[subtree.root.index] = top
        var failure: TreeError?
        subtree.forEachInPreOrder(from: subtree.root) { n in
            guard failure == nil, n != subtree.root else { return }
            let p = copied[subtree.backLinks[n.index].parent.index]
            do throws(TreeError) {
                copied[n.index] = try tree.append(subtree.nodeValue(n), under: p)
            } catch {
                failure = error
            }
        }
        if let failure {
            try? tree.removeSubtree(top)
            throw failure
        }
        attach(top)
        return top
    }

    /// Derives the engine's state for the new subtree at `top`, already in the tree.
    private mutating func attach(_ top: NodeID) {
        defer { if !exposedHidesSubtree { talkBackAfterInsert(top) } }
        growColumns()
        assignRank(top)
        let parent = tree.backLinks[top.index].parent
        if !parent.isNone && tree.has(.modal, top) { hot[parent.index].state.insert(.hasModalChild) }
        deriveSubtree(top, structure: true)
        navigationAfterInsert(top)
        guard !parent.isNone else { return dropScreenGrid() }
        syncHot(parent)
        // Where answers may change: the newcomer's reach, or its parent's
        // when the parent's subtree is derived again.
        var changed = top
        if tree.has(.modal, top) && !rules.hidesFromAccessibility(top, in: tree) {
            // The newcomer may be the frontmost modal: re-derive its siblings.
            deriveSubtree(parent, structure: false)
            changed = parent
        } else if rules.exposureInputs.contains(.children)
            && tree.firstChildren[parent.index] == tree.backLinks[parent.index].lastChild
        {
            // The parent's first child: its exposure may read that it has
            // children (its subtree is the newcomer's, just derived).
            deriveSubtree(parent, structure: false)
            changed = parent
        }
        if tree.isView(parent) {
            let slot = hot[parent.index].indexSlot
            if slot >= 0 {
                ordinals[top.index] = -1
                let boxes = itemBoxes(top, containerToScreen: indexes[Int(slot)].linear)
                indexes[Int(slot)].overflow.insert(top, boxes)
                if indexes[Int(slot)].isStale { buildIndex(parent, toScreen: tree.toScreen(of: parent)) }
            } else {
                // A narrow view: a new block, or its index once it is wide.
                buildIndex(parent, toScreen: tree.toScreen(of: parent))
                compactBlocksIfNeeded()
            }
        } else {
            refitItem(containing: parent)
        }
        markScreenChange(changed)
    }

    /// Removes `id` and its subtree.
    ///
    /// - Complexity: O(size of the subtree) plus O(depth); O(parent's
    ///   subtree) when it was a visible modal view. In a wide view its box is
    ///   emptied in place; the index is rebuilt once half its items are gone.
    ///   Under a snapshot, it copies the chunks it writes: the subtree's
    ///   flags, its neighbours' links, its ancestors' counts, its parent's
    ///   index or block; the freed slots' own entries are left for their
    ///   reuse to write.
    /// - Throws: `TreeError` when `id` is not in the tree.
    public mutating func removeSubtree(_ id: NodeID) throws(TreeError) {
        guard tree.contains(id) else { throw tree.notInTree(id) }
        var talkBack =
            exposedHidesSubtree
            ? nil : talkBackBeforeChange(of: id, modal: tree.has(.modal, id), window: tree.has(.window, id))
        talkBack?.removed = true
        defer { if let talkBack { talkBackAfterChange(talkBack) } }
        navigationBeforeRemove(id)
        let parent = tree.backLinks[id.index].parent
        let hadModalFlag = tree.has(.modal, id)
        let wasModal = hadModalFlag && !rules.hidesFromAccessibility(id, in: tree)
        // Where answers may change: the subtree's reach, or its parent's when
        // the parent's subtree is derived again (below).
        let onlyChild =
            !parent.isNone && tree.firstChildren[parent.index] == id && tree.backLinks[parent.index].lastChild == id
        let rederivesParent = !parent.isNone && (wasModal || (rules.exposureInputs.contains(.children) && onlyChild))
        markScreenChange(rederivesParent ? parent : id)
        addCounts(exposed: -exposedCounts[id.index], windows: -windowCount(id.index), aboveAndExcluding: id)
        if !parent.isNone && tree.isView(parent) {
            let slot = hot[parent.index].indexSlot
            if slot >= 0 {
                let ordinal = ordinals[id.index]
                if ordinal >= 0 {
                    indexes[Int(slot)].removeItem(ordinal, child: id)
                } else {
                    indexes[Int(slot)].overflow.remove(id)
                }
            }
        }
        // The subtree's indexes, blocks and shapes are given back; its
        // records, bits, counts and ordinals stay as they are until the
        // slots are reused, whose walk writes them all (`derive`, with
        // `structure`): clearing them would copy their chunks under a
        // snapshot, and nothing reads a free slot's (queries reach nodes
        // through their parents, compaction skips free slots).
        tree.forEachInPreOrder(from: id) { n in
            let h = hot[n.index]
            if h.indexSlot >= 0 { releaseIndex(h.indexSlot) }
            if h.blockStart >= 0 { releaseBlock(h) }
            shapes.set(n, nil)
        }
        try tree.removeSubtree(id)
        guard !parent.isNone else { return }
        syncHot(parent)
        if hadModalFlag { countModalChildren(of: parent) }
        if rederivesParent {
            // Its siblings are released; or the parent lost its last child,
            // which its exposure may read (then its subtree is itself).
            deriveSubtree(parent, structure: false)
        }
        if tree.isView(parent) {
            let slot = hot[parent.index].indexSlot
            if slot < 0 || indexes[Int(slot)].isStale { buildIndex(parent, toScreen: tree.toScreen(of: parent)) }
            compactBlocksIfNeeded()
        } else {
            refitItem(containing: parent)
        }
    }

    // MARK: Helpers

    /// Gives `id` a rank between its siblings', renumbering them when there
    /// is no room left (rare: gaps start at 2^20).
    private mutating func assignRank(_ id: NodeID) {
        let prev = tree.backLinks[id.index].previousSibling, next = tree.nextSiblings[id.index]
        switch (prev.isNone, next.isNone) {
        case (true, true): ranks[id.index] = Self.rankGap
        case (false, true): ranks[id.index] = ranks[prev.index] + Self.rankGap
        case (true, false): ranks[id.index] = ranks[next.index] - Self.rankGap
        case (false, false):
            let lo = ranks[prev.index], hi = ranks[next.index]
            if hi - lo >= 2 {
                ranks[id.index] = lo + (hi - lo) / 2
            } else {
                var rank = Self.rankGap
                var c = tree.firstChildren[tree.backLinks[id.index].parent.index]
                while !c.isNone {
                    ranks[c.index] = rank
                    rank += Self.rankGap
                    c = tree.nextSiblings[c.index]
                }
            }
        }
    }

    /// Recomputes the boxes of the item of a view's index or block that
    /// holds `id`: `id` itself when its parent is a view, else the topmost
    /// element node above it. O(log children) plus the item's element
    /// subtree (O(depth) more in a narrow view).
    mutating func refitItem(containing id: NodeID) {
        var item = id
        var parent = tree.backLinks[item.index].parent
        while !parent.isNone && !tree.isView(parent) {
            item = parent
            parent = tree.backLinks[parent.index].parent
        }
        guard !parent.isNone else { return }
        if hot[parent.index].blockStart >= 0 {
            let boxes = itemBoxes(item, containerToScreen: tree.toScreen(of: parent))
            if boxes.screen.isNull {
                blocks.setBox(at: Int(hot[parent.index].blockStart) + Int(ordinals[item.index]), to: boxes.local)
            } else {
                // A region fixed in screen space: the children are tried one by one.
                buildIndex(parent, toScreen: tree.toScreen(of: parent))
                compactBlocksIfNeeded()
            }
            return
        }
        let slot = hot[parent.index].indexSlot
        guard slot >= 0 else { return }
        let linear = indexes[Int(slot)].linear
        let boxes = itemBoxes(item, containerToScreen: linear)
        let ordinal = ordinals[item.index]
        guard ordinal >= 0 else {
            indexes[Int(slot)].overflow.setBoxes(of: item, to: boxes)
            return
        }
        if !boxes.screen.isNull && indexes[Int(slot)].screen.count == 0 {
            // The first screen-space region among these children: the index
            // needs its screen tree.
            buildIndex(parent, toScreen: tree.toScreen(of: parent))
            return
        }
        indexes[Int(slot)].setLocalBox(ofItem: ordinal, child: item, to: boxes.local)
        if indexes[Int(slot)].screen.count > 0 { indexes[Int(slot)].screen.setBox(ofItem: ordinal, to: boxes.screen) }
    }

    /// Refills the path of `id` in its current space.
    private mutating func refillShape(_ id: NodeID) throws(TreeError) {
        guard let path = tree.accessibilityPath(of: id) else {
            shapes.set(id, nil)
            return
        }
        shapes.fill(
            [Self.shapeJob(id, path, viewToScreen: tree.toScreen(of: id))],
            pointBudget: tree.pathPointBudget)
    }

    /// After the linear part of `top`'s transform changed: rebuilds the
    /// indexes and blocks under it whose frame-policy boxes assumed the old
    /// rotation to the screen. O(subtree).
    private mutating func rebuildRotationDependentIndexes(under top: NodeID) {
        guard tree.isView(top) else { return }
        var pending: [(NodeID, CGAffineTransform)] = [(top, tree.toScreen(of: top))]
        while let (v, toScreen) = pending.popLast() {
            let slot = hot[v.index].indexSlot
            if slot >= 0 {
                let l = indexes[Int(slot)].linear
                if l.a != toScreen.a || l.b != toScreen.b || l.c != toScreen.c || l.d != toScreen.d {
                    buildIndex(v, toScreen: toScreen)
                }
            } else if hot[v.index].blockStart >= 0 {
                // Blocks don't record the rotation they assumed.
                buildIndex(v, toScreen: toScreen)
            }
            var c = tree.firstChildren[v.index]
            while !c.isNone {
                if tree.isView(c) { pending.append((c, tree.boundsToParent(c).concatenating(toScreen))) }
                c = tree.nextSiblings[c.index]
            }
        }
        compactBlocksIfNeeded()
    }

    /// Android, after a scroll of `view`: a scroll moves its content without
    /// changing what TalkBack sees, so TalkBack's view of the tree is made
    /// again only when a node's bounds came to equal its window's or
    /// stopped to (`TalkBackTree.survivesScroll`); its order, which reads
    /// positions, is made again at the next call either way.
    ///
    /// - Complexity: O(depth + subtree of `view`); O(n) when the facts change.
    private mutating func talkBackAfterScroll(_ view: NodeID) {
        guard let talkBack = (rules as? AndroidRules)?.talkBack, talkBack.survivesScroll(of: view, in: tree) else {
            // The subtree's facts were derived at its old place: again (what
            // it gave its ancestors is read from the facts, so it can be
            // taken away after the scroll).
            return talkBackAfterChange(talkBackBeforeChange(of: view, modal: false, window: false))
        }
        navigation.drop()
    }

    /// What an update of TalkBack's view of the tree needs to know from
    /// before a change (`talkBackBeforeChange`).
    struct TalkBackChange {
        var node: NodeID
        /// The changed subtree's parent in the tree TalkBack sees, as it was.
        var parent: NodeID
        /// Whether the whole view is made again: a modal flag (which hides
        /// the node's siblings), the root, or a window flag set, cleared,
        /// added or removed just below it (whether the root is a window
        /// itself).
        var full: Bool
        var removed = false
    }

    /// Before a change to the subtree at `n` (Android): takes away what it
    /// gave its ancestors in TalkBack's view (`TalkBackTree.detach`).
    /// O(subtree, down to its important nodes).
    private mutating func talkBackBeforeChange(of n: NodeID, modal: Bool, window: Bool) -> TalkBackChange {
        let parent = tree.backLinks[n.index].parent
        let full = modal || parent.isNone || (window && tree.backLinks[parent.index].parent.isNone)
        var change = TalkBackChange(node: n, parent: .none, full: full)
        guard !full else { return change }
        let tree = self.tree
        withTalkBack { talkBack in change.parent = talkBack.detach(n, in: tree) }
        return change
    }

    /// After a change (Android): derives TalkBack's view of the changed
    /// subtree again and walks up while what a node says changes
    /// (`TalkBackTree.reattach`), then the engine's exposure where it may
    /// have changed; TalkBack's order is made again at the next call.
    ///
    /// - Complexity: O(subtree) plus the walk up, and the subtree of an
    ///   ancestor whose exposure changed; O(n) for a `full` change.
    private mutating func talkBackAfterChange(_ change: TalkBackChange) {
        guard !change.full else { return refreshTalkBack() }
        var top = NodeID.none
        let alive = !change.removed && tree.contains(change.node)
        let tree = self.tree
        withTalkBack { talkBack in
            top = talkBack.reattach(alive ? change.node : nil, below: change.parent, in: tree, rules: AndroidRules())
        }
        if !top.isNone && tree.contains(top) {
            deriveSubtree(top, structure: false)
            // The hover's answers name the nearest exposed node: they may
            // change wherever the hover reaches that subtree.
            markScreenChange(top)
        }
        navigation.drop()
    }

    /// After an insert of the subtree at `top` (Android).
    private mutating func talkBackAfterInsert(_ top: NodeID) {
        let parent = tree.backLinks[top.index].parent
        guard !parent.isNone, !(tree.has(.window, top) && tree.backLinks[parent.index].parent.isNone),
            !tree.has(.modal, top)
        else {
            return refreshTalkBack()
        }
        let above = (rules as? AndroidRules)?.talkBack?.nearestImportant(atOrAbove: parent) ?? .none
        talkBackAfterChange(TalkBackChange(node: top, parent: above, full: false))
    }

    /// Runs `body` on the rules' `TalkBackTree`, held alone while it runs
    /// (so that it is written in place, not copied).
    private mutating func withTalkBack(_ body: (inout TalkBackTree) -> Void) {
        guard var android = rules as? AndroidRules, var talkBack = android.talkBack else { return }
        android.talkBack = nil
        rules = android
        body(&talkBack)
        android.talkBack = talkBack
        rules = android
    }

    /// Android: TalkBack's exposure reads a node's children (whether one
    /// speaks for it) and its ancestors (whether one is focusable), so an
    /// update may change it anywhere up and down the tree. Makes TalkBack's
    /// view of the tree again and, where it now disagrees with the engine,
    /// derives exposure again from the root. Drops the screen grid.
    ///
    /// - Complexity: O(n) on Android; nothing for other rules.
    mutating func refreshTalkBack() {
        guard var android = rules as? AndroidRules else { return }
        // Exposure, and which node is the window, may change anywhere.
        dropScreenGrid()
        let talkBack = TalkBackTree(tree, rules: android)
        android.talkBack = talkBack
        rules = android
        guard !tree.root.isNone else { return }
        var agrees = true
        tree.forEachInPreOrder(from: tree.root) { n in
            let state = hot[n.index].state
            if agrees && state.contains(.exposed) != (!state.contains(.blocked) && talkBack.isExposed(n)) {
                agrees = false
            }
        }
        if !agrees { deriveSubtree(tree.root, structure: false) }
        // TalkBack's order reads geometry and the tree it sees: made again
        // at the next call.
        navigation.drop()
    }
}
