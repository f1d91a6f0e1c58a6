import Foundation

/// Appending a `NodeBatch` in one pass: the batch checked whole, then its
/// columns written at once, through the write path's pieces
/// (`ElementTree+Writing.swift`).
extension ElementTree {
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
}
