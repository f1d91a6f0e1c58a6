import Foundation

// The tree's one write path. Every node enters and changes here: the builder
// API (`append`, `insert`, `update`) and every reader (the `axhit/1` reader,
// the importers) gather a node into a `NodeRecord`, the tree's own layout, and
// hand it to `add` or `complete`, which check the tree's structural rules and
// write the columns. Values are checked before they get here: by
// `Node.validate()` for the builder, by each reader as it reads (both through
// `ValueRules`).
//
// Streaming readers must add a node before its children (so ids come out in
// pre-order), but JSON keys are unordered: a node's `id` or `kind` may come
// after its `children`. Such a reader adds a *pending* node as far as it is
// known, builds the children under it, and completes it at the end of its
// object.

extension ElementTree {
    // MARK: Building (public)

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
    public mutating func insert(_ node: Node, under parent: NodeID, before sibling: NodeID) throws(TreeError) -> NodeID
    {
        try node.validate()
        var record = NodeRecord(node)
        return try add(&record, named: true, final: true, under: parent, before: sibling)
    }

    /// Adds a batch of nodes in one pass: each under its parent in the
    /// batch, and those added with no parent as the frontmost children of
    /// `parent`, in the batch's order (as the root when `parent` is
    /// `.none`). Returns each node's handle, at its index in the batch.
    ///
    /// The tree is the one the same `append(_:under:)` calls would make, in
    /// the batch's order, and this fails where they would fail first, with
    /// the same error (a node's own values were checked as it joined the
    /// batch); but the batch is checked whole before any of it is written,
    /// so after an error the tree is unchanged.
    ///
    /// - Complexity: O(n) for n nodes: each column grows by the batch at
    ///   once, and the ids are looked up and registered in the order of the
    ///   id table's buckets (`IDTable.batchOrder`).
    /// - Throws: `TreeError` naming the first node at fault and the key: an
    ///   id already taken (by the tree or by an earlier node of the batch),
    ///   a second root, an element node as the root, a view under an element
    ///   node, or a `parent` the tree does not hold; or, naming no node, a
    ///   tree that would pass 2^31 - 1 nodes.
    @discardableResult
    public mutating func append(_ batch: NodeBatch, under parent: NodeID) throws(TreeError) -> [NodeID] {
        let n = batch.count
        // As no appends at all: no check, no change.
        guard n > 0 else { return [] }
        // Slots as `add` takes them: the last freed first, then new ones.
        let reused = Swift.min(n, freeSlots.count)
        let fresh = n - reused
        guard ids.count + fresh <= Int(Int32.max) else {
            throw TreeError(.validation, "a tree holds at most \(Int32.max) nodes")
        }
        let freeTop = freeSlots.count - 1, firstFresh = ids.count
        func slot(_ k: Int) -> Int32 {
            k < reused ? freeSlots[freeTop - k] : Int32(truncatingIfNeeded: firstFresh + k - reused)
        }

        // 1. Each node's place, in order, up to the first at fault; its id
        // is hashed first, since a taken id is reported before its place.
        var hashes: [UInt32] = []
        hashes.reserveCapacity(n)
        var fault: (index: Int, error: TreeError)?
        let parentHeld = parent.isNone || contains(parent)
        let parentIsElement: Bool? = parent.isNone ? nil : kind(of: parent) == .element
        var rootTaken = !root.isNone
        for k in 0 ..< n {
            hashes.append(IDTable.hash(batch.names[k]))
            let p = Int(batch.parents[k])
            var problem: TreeError?
            if p < 0 && !parentHeld {
                problem = notAParent(parent)
            } else {
                problem = Self.placementProblem(
                    isElement: batch.isElement(k), parentIsElement: p < 0 ? parentIsElement : batch.isElement(p),
                    rootTaken: rootTaken)
                if p < 0 && parent.isNone { rootTaken = true }
            }
            if var problem {
                problem.node = batch.names[k]
                fault = (k, problem)
                break
            }
        }
        // 2. The ids, in bucket order.
        let order = idTable.batchOrder(hashes: hashes)
        if let taken = idTable.firstTaken(in: order, key: { batch.names[$0] }, ids: ids, flags: flags),
            taken <= fault?.index ?? n
        {
            throw TreeError(.validation, "duplicate id", node: batch.names[taken], key: "id")
        }
        if let fault { throw fault.error }
        idTable.insert(order, slot: slot)

        // 3. The links, among the batch's nodes (batch indices, -1 for
        // none); `parent`'s own children come before the batch's.
        let made = (0 ..< n).map { nodeID(Int(slot($0))) }
        var firstChild = [Int32](repeating: -1, count: n), lastChild = firstChild
        var next = firstChild, previous = firstChild
        var firstUnder: Int32 = -1, lastUnder: Int32 = -1
        for k in 0 ..< n {
            let p = Int(batch.parents[k])
            let last = p < 0 ? lastUnder : lastChild[p]
            if last >= 0 {
                next[Int(last)] = Int32(k)
                previous[k] = last
            } else if p < 0 {
                firstUnder = Int32(k)
            } else {
                firstChild[p] = Int32(k)
            }
            if p < 0 { lastUnder = Int32(k) } else { lastChild[p] = Int32(k) }
        }
        let oldLast = parent.isNone ? .none : backLinks[parent.index].lastChild
        func node(_ k: Int32) -> NodeID { k < 0 ? .none : made[Int(k)] }
        func parentID(_ k: Int) -> NodeID { batch.parents[k] < 0 ? parent : made[Int(batch.parents[k])] }
        func previousID(_ k: Int) -> NodeID { k == firstUnder ? oldLast : node(previous[k]) }

        // 4. The values and links: reused slots one by one, new ones a
        // column at a time.
        for k in 0 ..< reused {
            var record = batch.record(k)
            let i = made[k].index
            write(&record, named: true, final: true, at: i)
            backLinks[i] = BackLinks(parent: parentID(k), lastChild: node(lastChild[k]), previousSibling: previousID(k))
            firstChildren[i] = node(firstChild[k])
            nextSiblings[i] = node(next[k])
        }
        freeSlots.removeLast(reused)
        ids.append(contentsOf: batch.names, from: reused)
        flags.append(contentsOf: batch.flags, from: reused)
        backLinks.append(count: fresh) { j in
            let k = reused + j
            return BackLinks(parent: parentID(k), lastChild: node(lastChild[k]), previousSibling: previousID(k))
        }
        firstChildren.append(count: fresh) { node(firstChild[reused + $0]) }
        nextSiblings.append(count: fresh) { node(next[reused + $0]) }
        frames.append(contentsOf: batch.frames, from: reused)
        let bounds = Self.addRare(&boundsTable, batch.boundsSlots, batch.boundsTable, from: reused)
        let transforms = Self.addRare(&transformTable, batch.transformSlots, batch.transformTable, from: reused)
        let rare = Self.addRare(&extras, batch.extraSlots, batch.extras, from: reused)
        sideSlots.append(count: fresh) { j in
            let k = reused + j
            return SideSlots(
                bounds: bounds.slot(batch.boundsSlots[k], j), transform: transforms.slot(batch.transformSlots[k], j),
                extra: rare.slot(batch.extraSlots[k], j))
        }
        for k in reused ..< n where batch.flags[k].contains(.hasPath) {
            pathPointsEarned += batch.extras[Int(batch.extraSlots[k])].pathPointsEarned
        }

        // 5. The batch's top nodes, after `parent`'s children.
        if firstUnder >= 0 {
            if parent.isNone {
                root = made[Int(firstUnder)]
            } else {
                if oldLast.isNone {
                    firstChildren[parent.index] = made[Int(firstUnder)]
                } else {
                    nextSiblings[oldLast.index] = made[Int(firstUnder)]
                }
                backLinks[parent.index].lastChild = made[Int(lastUnder)]
            }
        }
        identifiersChanged()
        return made
    }

    /// Where a batch's entries of a rare value went in the tree's table
    /// (`addRare`): each moved by one offset, or each placed on its own.
    private enum RareSlots {
        case shifted(Int32)
        case placed([Int32])

        /// The tree's slot for the batch's slot `s` of its `j`th new node.
        @inline(__always)
        func slot(_ s: Int32, _ j: Int) -> Int32 {
            guard s >= 0 else { return -1 }
            switch self {
            case .shifted(let offset): return s + offset
            case .placed(let slots): return slots[j]
            }
        }
    }

    /// Adds the entries of a rare value of a batch's nodes from `start` on
    /// to `table`, as `add` would: free entries first (the last freed
    /// first), then new ones at the end. Without free entries, the nodes'
    /// entries (which follow the others' in the batch's table) go to the end
    /// in one piece: shared, not copied, into an empty table.
    private static func addRare<T>(
        _ table: inout SideTable<T>, _ slots: [Int32], _ values: ChunkedColumn<T>, from start: Int
    ) -> RareSlots {
        guard !table.hasFreeEntries else {
            return .placed(slots[start...].map { s in s < 0 ? -1 : table.add(values[Int(s)]) })
        }
        let skipped = slots[..<start].reduce(Int32(0)) { $0 + ($1 >= 0 ? 1 : 0) }
        return .shifted(table.append(contentsOf: values, from: Int(skipped)) - skipped)
    }

    /// Replaces every property of a node but its place in the tree.
    ///
    /// - Complexity: O(1).
    /// - Throws: `TreeError` when `node` is invalid, its id is taken by
    ///   another node, its kind differs from the node it replaces, or `id` is
    ///   not in the tree.
    public mutating func update(_ id: NodeID, to node: Node) throws(TreeError) {
        guard contains(id) else { throw notInTree(id, node: node.id) }
        try node.validate()
        if node.kind != kind(of: id) {
            throw TreeError(.validation, "a node's kind cannot change", node: node.id, key: "kind")
        }
        var record = NodeRecord(node)
        try complete(id, as: &record)
    }

    /// Removes `id` and its whole subtree. Their slots and side-table entries
    /// are reused by later inserts.
    ///
    /// - Complexity: O(size of the subtree).
    /// - Throws: `TreeError` when `id` is not in the tree.
    public mutating func removeSubtree(_ id: NodeID) throws(TreeError) {
        guard contains(id) else { throw notInTree(id) }
        let parent = backLinks[id.index].parent
        if parent.isNone {
            root = .none
        } else {
            let prev = backLinks[id.index].previousSibling, next = nextSiblings[id.index]
            if prev.isNone { firstChildren[parent.index] = next } else { nextSiblings[prev.index] = next }
            if next.isNone {
                backLinks[parent.index].lastChild = prev
            } else {
                backLinks[next.index].previousSibling = prev
            }
        }
        // Free every slot of the subtree (pre-order; no recursion).
        var doomed: [NodeID] = []
        forEachInPreOrder(from: id) { doomed.append($0) }
        for n in doomed {
            let i = n.index
            idTable.remove(hash: IDTable.hash(ids[i]), slot: Int32(i))
            setSideEntries(at: i, bounds: nil, transform: nil)
            clearExtras(at: i)
            // Only the flags say the slot is free. Its id and links stay
            // until it is reused, which writes them all (`write`, `link`,
            // the batch's own): emptying them would copy their chunks under
            // a snapshot, and nothing reads a free slot's (the id table
            // checks `.alive` where an id matches).
            flags[i] = []
            // Handles to the node go stale; the slot is reused under the
            // next generation, or retired once they run out.
            if generations.advance(i) { freeSlots.append(Int32(i)) }
        }
        identifiersChanged()
    }

    /// Sets a view's bounds origin (its scroll offset, UIScrollView's
    /// `contentOffset`), keeping the bounds size.
    ///
    /// - Complexity: O(1): it rewrites one entry of the bounds table (a view
    ///   that had default bounds gets an entry).
    /// - Throws: `TreeError` when `view` is not a view of this tree or the
    ///   offset is not finite.
    public mutating func setBoundsOrigin(_ view: NodeID, to origin: CGPoint) throws(TreeError) {
        guard contains(view) else { throw notInTree(view) }
        guard isView(view) else {
            throw TreeError(
                .validation, "an element node has no bounds to scroll", node: ids[view.index], key: "bounds")
        }
        guard origin.x.isFinite && origin.y.isFinite else {
            throw TreeError(.validation, "the scroll offset is not finite", node: ids[view.index], key: "bounds")
        }
        let s = sideSlots[view.index].bounds
        if s >= 0 {
            boundsTable[s].origin = origin
        } else {
            sideSlots[view.index].bounds = boundsTable.add(CGRect(origin: origin, size: frames[view.index].size))
        }
    }

    /// The error for a `NodeID` this tree does not hold (removed, or from
    /// another tree).
    func notInTree(_ id: NodeID, node name: String? = nil) -> TreeError {
        TreeError(.validation, "\(id) is not a node of the tree (removed, or from another tree)", node: name)
    }

    // MARK: The write path

    /// Adds `node` under `parent` (as the root when `.none`), just behind
    /// `sibling` (frontmost when `.none`): registered under `node.name` when
    /// `named`, else pending (not findable by id until `complete(_:as:)`).
    ///
    /// Checks the tree's structural rules: the id is new, one root, the root
    /// is a view, the parent is in the tree, no view under an element node,
    /// `sibling` is a child of `parent`. Unnamed, the errors name no node (the
    /// reader does).
    ///
    /// - Complexity: amortized O(1), one hash of the name, or none when
    ///   the caller passes it as `nameHash` (which must then be
    ///   `IDTable.hash(node.name)`: the reader hashes each id as it reads it).
    ///
    /// `node` is inout to be passed by address (it is large). When `final`
    /// (no later `complete`), its extras are moved into the tree rather than
    /// copied (no retain per string); else it is not changed.
    mutating func add(
        _ node: inout NodeRecord, named: Bool, final: Bool, under parent: NodeID,
        before sibling: NodeID = .none, nameHash: UInt32? = nil
    ) throws(TreeError) -> NodeID {
        let isElement = node.isElement
        var structural: TreeError?
        if parent.isNone {
            structural = Self.placementProblem(isElement: isElement, parentIsElement: nil, rootTaken: !root.isNone)
        } else if !contains(parent) {
            structural = notAParent(parent)
        } else if let problem = Self.placementProblem(
            isElement: isElement, parentIsElement: kind(of: parent) == .element, rootTaken: false)
        {
            structural = problem
        } else if !sibling.isNone && (!contains(sibling) || backLinks[sibling.index].parent != parent) {
            structural = TreeError(.validation, "\(sibling) is not a child of the parent")
        }
        let fresh = freeSlots.isEmpty
        let id = nodeID(fresh ? ids.count : Int(freeSlots[freeSlots.count - 1]))
        if named {
            // One hash: look the name up, then claim it (a taken id is
            // reported before a structural problem).
            let hash = nameHash ?? IDTable.hash(node.name)
            if idTable.slot(of: node.name, hash: hash, ids: ids, flags: flags) != nil {
                throw TreeError(.validation, "duplicate id", node: node.name, key: "id")
            }
            if var e = structural {
                e.node = node.name
                throw e
            }
            idTable.insert(hash: hash, slot: id.rawValue, ids: ids, flags: flags)
        } else if let structural {
            throw structural
        }
        if fresh {
            appendSlot(&node, named: named, final: final)
        } else {
            freeSlots.removeLast()
            write(&node, named: named, final: final, at: id.index)
        }
        if parent.isNone {
            root = id
        } else {
            link(id, under: parent, before: sibling)
        }
        identifiersChanged()
        return id
    }

    /// The rule a node of kind `isElement` breaks by going under a parent
    /// whose kind is `parentIsElement`, or by becoming the root when that is
    /// nil (`rootTaken`: the tree has one already), or nil: one root, the
    /// root a view, no view under an element node.
    static func placementProblem(isElement: Bool, parentIsElement: Bool?, rootTaken: Bool) -> TreeError? {
        guard let parentIsElement else {
            if rootTaken { return TreeError(.validation, "a tree has one root") }
            if isElement { return TreeError(.validation, "the root must be a view", key: "kind") }
            return nil
        }
        if !isElement && parentIsElement {
            return TreeError(.validation, "a view cannot be a child of an element node", key: "kind")
        }
        return nil
    }

    /// The error for a parent this tree does not hold.
    private func notAParent(_ parent: NodeID) -> TreeError {
        TreeError(.validation, "the parent \(parent) is not a node of the tree")
    }

    /// Writes `node` into a new slot at the end, unlinked: straight
    /// appends, no default value written first and then replaced.
    private mutating func appendSlot(_ node: inout NodeRecord, named: Bool, final: Bool) {
        ids.append(named ? node.name : "")
        flags.append(Self.storedFlags(node))
        backLinks.append(BackLinks())
        firstChildren.append(.none)
        nextSiblings.append(.none)
        if node.isElement {
            frames.append(.zero)
            sideSlots.append(SideSlots())
        } else {
            frames.append(node.frame)
            sideSlots.append(
                SideSlots(
                    bounds: node.bounds.map { boundsTable.add($0) } ?? -1,
                    transform: node.transform.map { transformTable.add($0) } ?? -1))
        }
        if node.hasExtras { setExtras(at: sideSlots.count - 1, to: Self.take(&node, final: final)) }
    }

    /// Gives a node added early (pending, or added with what was known then)
    /// its final values, name and kind, registering the name when it is new.
    /// The kind may change, as long as the tree stays valid: the root stays a
    /// view, a view is not under an element node, and an element node has
    /// only element children. (`update(_:to:)` forbids a change of kind.)
    ///
    /// This is the node's final write: its extras are moved into the tree.
    ///
    /// - Complexity: O(1) (one hash when the name is new), plus O(children)
    ///   when the kind becomes `.element`.
    /// - Throws: `TreeError` naming the node and key when its id is taken or
    ///   the new kind does not fit (the id first).
    mutating func complete(_ id: NodeID, as node: inout NodeRecord) throws(TreeError) {
        let i = id.index
        let old = ids[i]
        let rename = node.name != old
        let kindChanges = node.isElement != flags[i].contains(.element)
        if kindChanges {
            // Rare: check the id first (a lookup), then the kind.
            if rename && self.node(withID: node.name) != nil {
                throw TreeError(.validation, "duplicate id", node: node.name, key: "id")
            }
            let parent = backLinks[i].parent
            if var problem = Self.placementProblem(
                isElement: node.isElement, parentIsElement: parent.isNone ? nil : kind(of: parent) == .element,
                rootTaken: false)
            {
                problem.node = node.name
                throw problem
            }
            if node.isElement {
                var c = firstChildren[i]
                while !c.isNone {
                    if kind(of: c) == .view {
                        throw TreeError(
                            .validation, "an element node cannot have a view child (\"\(ids[c.index])\")",
                            node: node.name, key: "kind")
                    }
                    c = nextSiblings[c.index]
                }
            }
        }
        if rename {
            let hash = IDTable.hash(node.name)
            if idTable.slot(of: node.name, hash: hash, ids: ids, flags: flags) != nil {
                throw TreeError(.validation, "duplicate id", node: node.name, key: "id")
            }
            if !old.isEmpty { idTable.remove(hash: IDTable.hash(old), slot: Int32(i)) }
            idTable.insert(hash: hash, slot: Int32(i), ids: ids, flags: flags)
        }
        write(&node, named: true, final: true, at: i)
        identifiersChanged()
    }

    /// Reserves room for about `n` more nodes read in bulk, and `extraCount`
    /// entries of the rare-property table.
    mutating func reserveForLoading(_ n: Int, extras extraCount: Int) {
        reserveCapacity(n)
        extras.reserveCapacity(extraCount)
    }

    /// The flags to store for `node`: its own, plus those derived from its
    /// values.
    @inline(__always)
    static func storedFlags(_ node: borrowing NodeRecord) -> NodeFlags {
        storedFlags(node.flags, extras: node.extras, hasExtras: node.hasExtras)
    }

    /// The flags to store for a node of `flags` and, when `hasExtras`, rare
    /// properties `extras`.
    @inline(__always)
    static func storedFlags(_ flags: NodeFlags, extras: borrowing NodeExtras, hasExtras: Bool) -> NodeFlags {
        var f = flags
        f.insert(.alive)
        guard hasExtras else { return f }
        return f.union(NodeFlags.derived(from: extras, isElement: f.contains(.element)))
    }

    /// Overwrites slot `i` with `node`'s values (not its links), reusing its
    /// side-table entries.
    private mutating func write(_ node: inout NodeRecord, named: Bool, final: Bool, at i: Int) {
        ids[i] = named ? node.name : ""
        flags[i] = Self.storedFlags(node)
        let isView = !node.isElement
        frames[i] = isView ? node.frame : .zero
        setSideEntries(at: i, bounds: isView ? node.bounds : nil, transform: isView ? node.transform : nil)
        if node.hasExtras { setExtras(at: i, to: Self.take(&node, final: final)) } else { clearExtras(at: i) }
    }

    /// Sets slot `i`'s rare properties, keeping `pathPointsEarned` in step
    /// (with `clearExtras`, every change of a path passes here). The value
    /// is moved in, and the old entry read in place: no copy of either.
    private mutating func setExtras(at i: Int, to value: consuming NodeExtras) {
        let slot = sideSlots[i].extra
        if slot >= 0 {
            // A path written back unchanged (a move, a new label) is not
            // counted again: equal paths share their storage, so this is
            // O(1) then.
            if extras[slot].path != value.path {
                pathPointsEarned += value.pathPointsEarned - extras[slot].pathPointsEarned
            }
            extras[slot] = value
        } else {
            pathPointsEarned += value.pathPointsEarned
            sideSlots[i].extra = extras.add(value)
        }
    }

    /// Puts slot `i`'s rare properties back to their defaults (giving its
    /// entry back), keeping `pathPointsEarned` in step.
    private mutating func clearExtras(at i: Int) {
        let slot = sideSlots[i].extra
        guard slot >= 0 else { return }
        pathPointsEarned -= extras[slot].pathPointsEarned
        extras.remove(slot, leaving: NodeExtras())
        sideSlots[i].extra = -1
    }

    /// Points slot `i`'s bounds and transform entries at `bounds` and
    /// `transform` (nil gives an entry back). Its side slots are written
    /// only where they change (`ChunkedColumn.set(_:to:)`): most nodes have
    /// neither entry before or after.
    private mutating func setSideEntries(at i: Int, bounds: CGRect?, transform: CGAffineTransform?) {
        var s = sideSlots[i]
        Self.setEntry(&s.bounds, in: &boundsTable, to: bounds, blank: .zero)
        Self.setEntry(&s.transform, in: &transformTable, to: transform, blank: .identity)
        sideSlots.set(i, to: s)
    }

    /// Points `slot` at an entry of `table` holding `value` (reusing the
    /// node's entry), or, for nil, gives the entry back. Static: as a
    /// method it would borrow `self` while a table of `self` is inout, which
    /// an unoptimized build does by copying `self`, and so the whole table.
    private static func setEntry<T>(_ slot: inout Int32, in table: inout SideTable<T>, to value: T?, blank: T) {
        if let value {
            if slot >= 0 { table[slot] = value } else { slot = table.add(value) }
        } else if slot >= 0 {
            table.remove(slot, leaving: blank)
            slot = -1
        }
    }

    /// Links node `id` under `parent`, just behind `sibling` (frontmost when
    /// `.none`).
    private mutating func link(_ id: NodeID, under parent: NodeID, before sibling: NodeID) {
        let i = id.index
        firstChildren[i] = .none
        if sibling.isNone {
            let last = backLinks[parent.index].lastChild
            backLinks[i] = BackLinks(parent: parent, lastChild: .none, previousSibling: last)
            nextSiblings[i] = .none
            if last.isNone { firstChildren[parent.index] = id } else { nextSiblings[last.index] = id }
            backLinks[parent.index].lastChild = id
        } else {
            let prev = backLinks[sibling.index].previousSibling
            backLinks[i] = BackLinks(parent: parent, lastChild: .none, previousSibling: prev)
            nextSiblings[i] = sibling
            backLinks[sibling.index].previousSibling = id
            if prev.isNone { firstChildren[parent.index] = id } else { nextSiblings[prev.index] = id }
        }
    }

    /// The node's extras: moved out (leaving defaults, `hasExtras` false)
    /// when `final`, else copied.
    @inline(__always)
    private static func take(_ node: inout NodeRecord, final: Bool) -> NodeExtras {
        final ? node.takeExtras() : node.extras
    }

    /// Marks the identifier table stale; a table shared with a copy of the
    /// tree is left to the copy.
    @inline(__always)
    private mutating func identifiersChanged() {
        identifierGeneration &+= 1
        if !isKnownUniquelyReferenced(&identifierIndex) { identifierIndex = IdentifierIndex() }
    }
}
