import Foundation

/// Building the engine's derived state: exposure, z-order, the indexes of
/// views' children, and paths. The updates (`HitTester+Updates.swift`)
/// call these for the parts they change.
extension HitTester {
    // MARK: Building

    /// What the nodes of one sibling list inherit from their parent.
    struct Inherited {
        /// The parent's map to the screen (its container's, for an element
        /// node). Boxes under a rotation and flattening tolerances depend on
        /// its linear part only; rules that ask for screen boxes use all of it.
        var toScreen: CGAffineTransform
        /// What the parent passes down for exposure.
        var exposure: ExposureScope
        /// The rank of the next child visited (children are visited in order).
        var nextRank: Int64 = HitTester.rankGap
    }

    /// Looks afresh for a modal child of `node`. O(children).
    mutating func countModalChildren(of node: NodeID) {
        if ViewRules.hasModalChild(node, in: tree) {
            hot[node.index].state.insert(.hasModalChild)
        } else {
            hot[node.index].state.remove(.hasModalChild)
        }
    }

    /// Derives the engine's state for the subtree at `top` (its ancestors'
    /// state is current): exposure and exposed counts, which it then adds to
    /// the ancestors; with `structure`, also ranks below `top`, container
    /// indexes and shapes (for a new subtree); without, exposure only (after
    /// a change of what the rules' exposure reads, `PlatformRules.exposureInputs`,
    /// or of a modal flag).
    ///
    /// Iterative: a chain of any depth is fine. Memory O(depth) plus the
    /// views whose index waits for the walk to end. O(subtree).
    mutating func deriveSubtree(_ top: NodeID, structure: Bool) {
        // A new subtree counted nothing before (a reused slot's counts are
        // its old node's: `removeSubtree`).
        let before: (Int32, Int32) = structure ? (0, 0) : (exposedCounts[top.index], windowCount(top.index))
        let start = inheritedFromAncestors(of: top)
        var work = DeriveWork()
        // The walk writes the columns through writers (a chunk checked once
        // per run, not at every store) and reads a reference to the same tree.
        let tree = self.tree
        let rules = self.rules
        hot.withWriter { hot in
            exposedCounts.withWriter { exposedCounts in
                windowCounts.withWriter { windowCounts in
                    ranks.withWriter { ranks in
                        boxHits.withWriter { boxHits in
                            // The walk specialised for the platform's own rules
                            // type, so that the exposure step inlines instead of
                            // calling through an existential per node (any other
                            // conformance takes the generic walk).
                            switch rules {
                            case let r as UIKitRules:
                                Self.derive(
                                    top, structure: structure, start, tree, r, &hot, &exposedCounts, &windowCounts,
                                    &ranks, &boxHits, &work)
                            case let r as IOSSnapshotRules:
                                Self.derive(
                                    top, structure: structure, start, tree, r, &hot, &exposedCounts, &windowCounts,
                                    &ranks, &boxHits, &work)
                            case let r as AndroidRules:
                                Self.derive(
                                    top, structure: structure, start, tree, r, &hot, &exposedCounts, &windowCounts,
                                    &ranks, &boxHits, &work)
                            default:
                                Self.derive(
                                    top, structure: structure, start, tree, rules, &hot, &exposedCounts,
                                    &windowCounts, &ranks, &boxHits, &work)
                            }
                        }
                    }
                }
            }
        }
        addCounts(
            exposed: exposedCounts[top.index] - before.0, windows: windowCount(top.index) - before.1,
            aboveAndExcluding: top)
        for (view, linear) in work.pending { buildIndex(view, toScreen: work.linears[Int(linear)]) }
        shapes.fill(work.jobs, pointBudget: tree.pathPointBudget)
    }

    /// What a walk of `derive` leaves to do once every record is written.
    struct DeriveWork {
        /// Paths to fill.
        var jobs: [ElementShapes.Job] = []
        /// Views whose index or block to build (boxes come from the
        /// children's records), with the linear part of their map to the
        /// screen, stored once per run of equal ones.
        var pending: [(view: NodeID, linear: Int32)] = []
        var linears: [CGAffineTransform] = []
    }

    /// The walk of `deriveSubtree`, in pre-order without recursion: each
    /// node's record on the way down (its exposure from the rules' one step,
    /// `PlatformRules.exposureStep`), exposed counts on the way up.
    static func derive<Rules: PlatformRules>(
        _ top: NodeID, structure: Bool, _ start: Inherited, _ tree: ElementTree, _ rules: Rules,
        _ hot: inout ChunkedColumn<HotNode>.Writer, _ exposedCounts: inout ChunkedColumn<Int32>.Writer,
        _ windowCounts: inout ChunkedColumn<Int32>.Writer, _ ranks: inout ChunkedColumn<Int64>.Writer,
        _ boxHits: inout NodeBits.Writer,
        _ work: inout DeriveWork
    ) {
        let exposedHidesSubtree = rules.exposedHidesSubtree, needsWindows = rules.needsWindows
        /// Children are done: the node's counts are final, and go to its parent.
        // Each node's entries through pointers, fetched once per node.
        func finish(_ n: NodeID) {
            let i = n.index
            let h = hot.pointer(i), exposed = exposedCounts.pointer(i)
            let state = h.pointee.state
            if state.contains(.exposed) { exposed.pointee += 1 }
            // Rules without windows keep no window counts (an empty column).
            var windows: Int32 = 0
            if needsWindows {
                let w = windowCounts.pointer(i)
                if state.contains(.finalWindow) && !state.contains(.blocked) { w.pointee += 1 }
                windows = w.pointee
            }
            h.pointee.state.setSubtreeBits(exposed: exposed.pointee, windows: windows)
            if n != top {
                let p = tree.backLinks[i].parent.index
                exposedCounts.pointer(p).pointee += exposed.pointee
                if needsWindows { windowCounts.pointer(p).pointee += windows }
            }
        }
        var frames = [start]
        var n = top
        while true {
            let up = frames[frames.count - 1]
            let i = n.index
            let flags = tree.flags[i]
            let child = tree.firstChildren[n.index]
            let isView = !flags.contains(.element)
            // The children's slot and the modal bit are the engine's own and
            // stay, but a new node (with `structure`) looks for a modal child
            // and has no children's slot yet (a reused slot's record is its
            // old node's: `removeSubtree`).
            let h = hot.pointer(i)
            let kept = structure ? HotNode() : h.pointee
            let modal =
                structure ? !child.isNone && ViewRules.hasModalChild(n, in: tree) : kept.state.contains(.hasModalChild)
            let step = rules.exposureStep(n, in: tree, scope: up.exposure, hasModalChild: modal) {
                tree.exposureBox(of: n, toScreen: tree.boundsToParent(n).concatenating(up.toScreen))
            }
            var state: EngineState = []
            if step.blocked { state.insert(.blocked) }
            if step.exposed { state.insert(.exposed) }
            if modal { state.insert(.hasModalChild) }
            if needsWindows && rules.isFinalWindow(n, in: tree) { state.insert(.finalWindow) }
            if rules.refusesTouch(n, in: tree) { state.insert(.refusesTouch) }
            let slots = tree.sideSlots[i]
            let record = HotNode(
                frame: recordFrame(n, in: tree), boundsSlot: slots.bounds, transformSlot: slots.transform,
                childSlot: kept.childSlot, flags: flags, state: state, blockCount: kept.blockCount)
            h.pointee = record
            boxHits[i] = isBoxHit(
                record, hasChildren: !child.isNone, exposedHidesSubtree: exposedHidesSubtree, in: tree)
            exposedCounts.pointer(i).pointee = 0
            if needsWindows { windowCounts.pointer(i).pointee = 0 }
            if structure && n != top {
                ranks.pointer(i).pointee = frames[frames.count - 1].nextRank
                frames[frames.count - 1].nextRank += rankGap
            }
            // Leaves without a path (most nodes) pass nothing down.
            if !child.isNone || (structure && flags.contains(.hasPath)) {
                let toScreen = isView ? tree.boundsToParent(n).concatenating(up.toScreen) : up.toScreen
                let down = Inherited(toScreen: toScreen, exposure: step.children)
                if structure {
                    let linear = CGAffineTransform(
                        a: toScreen.a, b: toScreen.b, c: toScreen.c, d: toScreen.d, tx: 0, ty: 0)
                    if flags.contains(.hasPath), let path = tree.accessibilityPath(of: n) {
                        work.jobs.append(shapeJob(n, path, viewToScreen: linear))
                    }
                    if !child.isNone && isView {
                        if work.linears.last != linear { work.linears.append(linear) }
                        work.pending.append((n, Int32(work.linears.count - 1)))
                    }
                }
                if !child.isNone {
                    frames.append(down)
                    n = child
                    continue
                }
            }
            finish(n)
            while n != top && tree.nextSiblings[n.index].isNone {
                n = tree.backLinks[n.index].parent
                frames.removeLast()
                finish(n)
            }
            if n == top { break }
            n = tree.nextSiblings[n.index]
        }
    }

    /// What `top` inherits from its ancestors, computed from their current
    /// state. O(depth), plus the children of ancestors with a modal child.
    func inheritedFromAncestors(of top: NodeID) -> Inherited {
        let parent = tree.backLinks[top.index].parent
        guard !parent.isNone else { return Inherited(toScreen: .identity, exposure: ExposureScope()) }
        let hot = self.hot
        let scope = rules.exposureScope(above: top, in: tree) { hot[$0.index].state.contains(.hasModalChild) }
        return Inherited(toScreen: tree.toScreen(of: parent), exposure: scope)
    }

    /// Adds the deltas to the exposed and window counts of the ancestors of
    /// `id`. O(depth).
    mutating func addCounts(exposed: Int32, windows: Int32, aboveAndExcluding id: NodeID) {
        guard exposed != 0 || windows != 0 else { return }
        var a = tree.backLinks[id.index].parent
        while !a.isNone {
            let i = a.index
            exposedCounts[i] += exposed
            if windows != 0 { windowCounts[i] += windows }  // never for rules without windows
            // Written only where a bit changes, as in `syncHot`.
            var state = hot[i].state
            state.setSubtreeBits(exposed: exposedCounts[i], windows: windowCount(i))
            if state != hot[i].state { hot[i].state = state }
            a = tree.backLinks[a.index].parent
        }
    }

    /// The job that fills `path` of node `n`: a screen path stays in screen
    /// space; a view-space path stays in its view's space and is flattened
    /// finely enough for the view's largest stretch to the screen.
    static func shapeJob(_ n: NodeID, _ path: AccessibilityPath, viewToScreen t: CGAffineTransform) -> ElementShapes.Job
    {
        switch path.coordinateSpace {
        case .screen:
            return .init(node: n, path: path.path, inScreenSpace: true, tolerance: pathTolerance)
        case .view:
            // The largest singular value is at most the Frobenius norm.
            let stretch = (t.a * t.a + t.b * t.b + t.c * t.c + t.d * t.d).squareRoot()
            let tolerance = stretch > 1 && stretch.isFinite ? pathTolerance / stretch : pathTolerance
            return .init(node: n, path: path.path, inScreenSpace: false, tolerance: tolerance)
        }
    }

    // MARK: Container indexes

    /// Builds the index of view `v`, whose map to the screen is `toScreen`:
    /// a `ContainerIndex` when it is wide, else a block of `blocks`.
    /// O(children + their element subtrees).
    mutating func buildIndex(_ v: NodeID, toScreen: CGAffineTransform) {
        dropBlock(of: v)
        var count = 0
        var c = tree.firstChildren[v.index]
        while !c.isNone && count < IndexPolicy.wideViewChildren {
            count += 1
            c = tree.nextSiblings[c.index]
        }
        guard count >= IndexPolicy.wideViewChildren else {
            dropIndex(of: v)
            buildBlock(v, toScreen: toScreen)
            return
        }
        var items: [NodeID] = []
        c = tree.firstChildren[v.index]
        while !c.isNone {
            items.append(c)
            c = tree.nextSiblings[c.index]
        }
        let old = hot[v.index].indexSlot
        var localBoxes: [CGRect] = []
        localBoxes.reserveCapacity(items.count)
        // Screen boxes are rare: their array exists only once one is seen.
        var screenBoxes: [CGRect] = []
        for (k, item) in items.enumerated() {
            ordinals[item.index] = Int32(k)
            let boxes = itemBoxes(item, containerToScreen: toScreen)
            localBoxes.append(boxes.local)
            if !boxes.screen.isNull {
                if screenBoxes.isEmpty { screenBoxes = Array(repeating: .null, count: items.count) }
                screenBoxes[k] = boxes.screen
            }
        }
        let index = ContainerIndex(
            items: items, local: localBoxes, screen: screenBoxes,
            linear: CGAffineTransform(a: toScreen.a, b: toScreen.b, c: toScreen.c, d: toScreen.d, tx: 0, ty: 0))
        if old >= 0 {
            indexes[Int(old)] = index
        } else if let free = freeIndexSlots.popLast() {
            indexes[Int(free)] = index
            hot[v.index].childSlot = free
        } else {
            hot[v.index].childSlot = Int32(indexes.count)
            indexes.append(index)
        }
    }

    /// Builds the block of narrow view `v` (see `ChildBlocks`), unless a
    /// child has a region fixed in screen space.
    mutating func buildBlock(_ v: NodeID, toScreen: CGAffineTransform) {
        let start = blocks.startBlock()
        var count = 0
        var c = tree.firstChildren[v.index]
        while !c.isNone {
            let boxes = itemBoxes(c, containerToScreen: toScreen)
            guard boxes.screen.isNull else {
                blocks.truncate(to: start)
                var c = tree.firstChildren[v.index]
                while !c.isNone {
                    ordinals[c.index] = -1
                    c = tree.nextSiblings[c.index]
                }
                return
            }
            ordinals[c.index] = Int32(count)
            blocks.append(c, boxes.local)
            count += 1
            c = tree.nextSiblings[c.index]
        }
        guard count > 0 else { return }
        hot[v.index].setBlock(start: Int32(start), count: UInt8(count))
    }

    /// Forgets the block of `v`, if any (its entries become garbage).
    mutating func dropBlock(of v: NodeID) {
        let h = hot[v.index]
        guard h.blockStart >= 0 else { return }
        releaseBlock(h)
        hot[v.index].childSlot = -1
        hot[v.index].blockCount = 0
    }

    /// Counts the entries of the block that record `h` names as garbage
    /// (`compactBlocksIfNeeded()` reclaims them).
    mutating func releaseBlock(_ h: HotNode) {
        blocks.garbage += Int(h.blockCount)
    }

    /// Copies the live blocks into fresh arrays when dropped ones take half
    /// the room. O(nodes), once per as many dropped entries as live ones.
    mutating func compactBlocksIfNeeded() {
        guard blocks.needsCompaction else { return }
        var fresh = ChildBlocks()
        fresh.boxes.reserveCapacity(blocks.boxes.count - blocks.garbage)
        fresh.nodes.reserveCapacity(blocks.boxes.count - blocks.garbage)
        // A free slot's record may still name the block it had (`removeSubtree`).
        for i in hot.indices where hot[i].blockStart >= 0 && tree.nodeID(inSlot: i) != nil {
            let start = Int(hot[i].blockStart), end = start + Int(hot[i].blockCount)
            hot[i].childSlot = Int32(fresh.startBlock())
            fresh.boxes.append(contentsOf: blocks.boxes[start ..< end])
            fresh.nodes.append(contentsOf: blocks.nodes[start ..< end])
        }
        blocks = fresh
    }

    mutating func dropIndex(of v: NodeID) {
        let slot = hot[v.index].indexSlot
        guard slot >= 0 else { return }
        releaseIndex(slot)
        hot[v.index].childSlot = -1
    }

    /// Frees the index in `slot` and gives the slot back.
    mutating func releaseIndex(_ slot: Int32) {
        indexes[Int(slot)] = ContainerIndex()
        freeIndexSlots.append(slot)
    }
}
