import Foundation

/// TalkBack's touch exploration (tree-format.md, "Android", `hit(p)`):
/// Android's hover dispatch, then TalkBack's choice among the nodes that
/// report the hover (`TouchExplorationInterpreter`, `findFocusFromHover`).
extension HitTester {
    /// The node TalkBack focuses under a finger at `p`.
    ///
    /// The hover goes to the topmost window whose bounds hold `p`; windows
    /// do not pass it on. From that window's top-level node, a node offered
    /// the hover offers it to its visible children whose bounds hold `p`,
    /// frontmost first; a child *takes* it when the child, or a node of its
    /// subtree that was offered it, is enabled and declares `click` or
    /// `longClick`, and then no child behind it is offered `p`. Every node
    /// offered the hover with no visible child holding `p` reports, in the
    /// order offered; a report from `v` answers the nearest exposed node
    /// among `v` and its ancestors. The answer is that of the last report
    /// that has one.
    ///
    /// `hit` asks the screen grid first, which holds the same answers
    /// (`hoverEntries()`); this walk answers where it does not decide.
    ///
    /// - Complexity: the nodes offered the hover (each view's children under
    ///   `p` come from its index), without recursion; no allocation once
    ///   `scratch` has grown.
    func hover(_ p: CGPoint, scratch: inout HitScratch) -> NodeID? {
        let root = tree.root
        guard !root.isNone else { return nil }
        scratch.hoverChildren.removeAll(keepingCapacity: true)
        scratch.hoverFrames.removeAll(keepingCapacity: true)
        // The window: the root, or the frontmost window below it that holds
        // p (its bounds alone decide, not the root's).
        let top = HitScratch.Entry(node: root, moderatePath: false, point: p, toScreen: .identity)
        if TalkBackTree.isWindowTop(root, in: tree) {
            appendIfHolding(top, p, to: &scratch.hoverChildren)
        } else if let inside = windowHolding(p, below: top, scratch: &scratch) {
            scratch.hoverChildren.append(inside)
        }
        guard let window = scratch.hoverChildren.popLast() else { return nil }
        var nearest = NodeID.none
        var a = window.node
        while !a.isNone && nearest.isNone {
            if hot[a.index].state.contains(.exposed) { nearest = a }
            a = tree.backLinks[a.index].parent
        }
        offer(window, p, nearestAbove: nearest, scratch: &scratch)
        while let last = scratch.hoverFrames.indices.last {
            let f = scratch.hoverFrames[last]
            if f.next < f.end {
                scratch.hoverFrames[last].next += 1
                offer(scratch.hoverChildren[f.next], p, nearestAbove: f.nearest, scratch: &scratch)
                continue
            }
            // Its children are done: it reports itself when it has none.
            scratch.hoverFrames.removeLast()
            scratch.hoverChildren.removeSubrange(f.start...)
            let answer = f.start == f.end ? f.nearest : f.answer
            guard let parent = scratch.hoverFrames.indices.last else { return answer.isNone ? nil : answer }
            if !answer.isNone { scratch.hoverFrames[parent].answer = answer }
            if f.takes {
                // No child behind a taker is offered the hover.
                scratch.hoverFrames[parent].takes = true
                scratch.hoverFrames[parent].next = scratch.hoverFrames[parent].end
            }
        }
        return nil
    }

    /// The frontmost visible window among the root's children whose bounds
    /// hold `p`, with its own point and map; the children are read from the
    /// root's index front to back, and the first window that holds `p` ends
    /// the scan. `root` is the root's entry (the screen's point and map).
    private func windowHolding(
        _ p: CGPoint, below root: HitScratch.Entry, scratch: inout HitScratch
    ) -> HitScratch.Entry? {
        let h = hot[root.node.index]
        guard h.isView else { return nil }
        let toParent = boundsToParent(h)
        guard let q = Self.inverseApply(toParent, p) else { return nil }
        let start = scratch.hoverChildren.count
        forEachChild(
            of: root.node, h, at: q, screen: p, FrontToBack.self, buffer: &scratch.candidates,
            into: &scratch.hoverChildren
        ) { children, c, _ in
            guard tree.has(.window, c) else { return true }
            appendIfHolding(.init(node: c, moderatePath: false, point: q, toScreen: toParent), p, to: &children)
            return children.count == start
        }
        return scratch.hoverChildren.count > start ? scratch.hoverChildren.removeLast() : nil
    }

    /// Offers the hover to the node of `entry` (its own point and map):
    /// opens its frame, with its children that hold `p`.
    private func offer(_ entry: HitScratch.Entry, _ p: CGPoint, nearestAbove: NodeID, scratch: inout HitScratch) {
        let n = entry.node
        let exposed = hot[n.index].state.contains(.exposed)
        let actions = tree.actions(of: n)
        let takes = !actions.isDisjoint(with: NodeActions.tap) && !tree.traits(of: n).contains(.notEnabled)
        let start = scratch.hoverChildren.count
        appendChildrenHolding(entry, p, scratch: &scratch)
        scratch.hoverFrames.append(
            .init(
                nearest: exposed ? n : nearestAbove, start: start, end: scratch.hoverChildren.count, next: start,
                takes: takes))
    }

    /// Appends to `scratch.hoverChildren` the visible children of `entry`'s
    /// node whose bounds hold `p`, frontmost first, each with its own point
    /// and map.
    private func appendChildrenHolding(_ entry: HitScratch.Entry, _ p: CGPoint, scratch: inout HitScratch) {
        forEachChild(
            of: entry.node, hot[entry.node.index], at: entry.point, screen: p, FrontToBack.self,
            buffer: &scratch.candidates, into: &scratch.hoverChildren
        ) { children, c, _ in
            appendIfHolding(
                .init(node: c, moderatePath: false, point: entry.point, toScreen: entry.toScreen), p, to: &children)
            return true
        }
    }

    /// Appends the node of `e` (with its container's point and map) when it
    /// is visible and its bounds (an element node: its frame) hold `p`,
    /// with its own point and map.
    private func appendIfHolding(_ e: HitScratch.Entry, _ p: CGPoint, to children: inout [HitScratch.Entry]) {
        let h = hot[e.node.index]
        if h.state.contains(.blocked) { return }
        if h.isView {
            let (b, toParent) = boundsAndMap(h)
            guard let q = Self.inverseApply(toParent, e.point), b.containsClosedOpen(q) else { return }
            children.append(
                .init(node: e.node, moderatePath: false, point: q, toScreen: toParent.concatenating(e.toScreen)))
        } else if elementFrameRegion(e.node, h, containerToScreen: e.toScreen).containsClosedOpen(p) {
            children.append(e)
        }
    }
}
