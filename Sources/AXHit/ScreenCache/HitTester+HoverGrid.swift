import AXGeometry
import Foundation

/// TalkBack's hover (`hover(_:scratch:)`) filed for the screen grid, so that
/// a hit on an Android screen reads one tile or one cell, as VoiceOver's does.
///
/// **The order.** The hover offers a point front to back, depth first, and
/// the last report that finds an exposed node wins; a report from `v`
/// answers the nearest exposed node among `v` and its ancestors. So the
/// grid's own rule, the last entry holding the point wins, answers it when
/// every node the hover can reach files its reach (where the point gets to
/// it) and its nearest exposed node, in the order the hover offers them:
/// the last entry holding the point is the last node offered it, which has
/// no child holding the point and so reports. Nodes whose nearest exposed
/// node is none file nothing (TalkBack ignores those reports). A node that
/// is not exposed and that no sibling in front of it overlaps files
/// nothing either: where it holds the point, the last entry before it is
/// its parent's (or one with the same answer). Windows are filed back to
/// front, each with its own entry first (its nearest exposed node, or a
/// *stop*, `ScreenGrid.windowStop`, answering nothing), so the topmost
/// window holding the point decides.
///
/// **Takers.** A child that takes the hover (an enabled node declaring
/// `click` or `longClick` in its subtree holds the point) hides the
/// siblings behind it, which the order above would let win. Wherever a
/// sibling overlaps the box where a sibling in front of it may take the
/// hover, an opaque entry after their parent's subtree leaves the point to
/// the per-view hover. A subtree the grid does not flatten (a view that
/// turns or scales, immoderate values, deeper than `ScreenGrid.maxDepth`)
/// is opaque over its reach and may take the hover anywhere there.
///
/// Exactness is the grid's (`ScreenGrid`, "Exactness"): reaches are the
/// views' bounds on the screen widened by `ScreenGrid.slack` and cut by
/// those above; overlaps narrower than `overlapFloor` are not counted, as a
/// point there is too near the edge of every entry it could be given to for
/// the grid to answer it (each needs more room than that).
extension HitTester {
    /// The hover's entries for this screen, or nil when there is no entry
    /// that names an element.
    ///
    /// - Complexity: O(n), plus O(k log k) for each view of k > 16 children
    ///   (their overlaps, through a packed R-tree of their reaches:
    ///   `IndexPolicy.hoverPairwiseSiblings`).
    func hoverEntries() -> ScreenEntries? {
        let root = tree.root
        guard !root.isNone else { return nil }
        var filing = HoverFiling()
        filing.entries.reserve(Int(exposedCounts[root.index]))
        let everywhere = CGRect(x: -0x1p40, y: -0x1p40, width: 0x1p41, height: 0x1p41)
        let rootExposed = hot[root.index].state.contains(.exposed)
        if TalkBackTree.isWindowTop(root, in: tree) {
            // The hover starts at the root; nothing lies behind it.
            let reach = hoverReach(root, .identity, cut: everywhere)
            filing.file(self, root, reach, depth: 0, nearestAbove: .none, overlapped: false, top: true)
        } else if hot[root.index].isView {
            // The frontmost window among the root's children that holds the
            // point: its bounds alone decide (not the root's), so they are
            // filed back to front, each deciding wherever it holds the point.
            let inRoot = boundsToParent(hot[root.index])
            let nearest = rootExposed ? root : NodeID.none
            var w = tree.firstChildren[root.index]
            while !w.isNone {
                if tree.has(.window, w) {
                    let reach = hoverReach(w, inRoot, cut: everywhere)
                    filing.file(self, w, reach, depth: 1, nearestAbove: nearest, overlapped: false, top: true)
                }
                w = tree.nextSiblings[w.index]
            }
        }
        guard filing.entries.nodes.contains(where: { !$0.isNone }) else { return nil }
        // No turn is flattened: no edges.
        filing.entries.edges.groups = []
        return filing.entries
    }

    /// Overlaps of reaches narrower than this on either axis are not
    /// counted: a point inside one is within it of an edge of every entry
    /// either node's subtree files, and the grid answers only with more
    /// room than that (`IndexPolicy.minimumGridStep`, 2^-13; a loose entry's, over
    /// 2^-14). Boxes that only touch overlap by twice the slack once
    /// widened, and count as apart.
    static let overlapFloor = 3 * ScreenGrid.slack

    /// Whether `a` and `b` overlap by more than `overlapFloor` on both axes.
    @inline(__always)
    static func overlaps(_ a: CGRect, _ b: CGRect) -> Bool {
        guard !a.isNull, !b.isNull else { return false }
        let w = min(Double(a.maxX), Double(b.maxX)) - max(Double(a.minX), Double(b.minX))
        let h = min(Double(a.maxY), Double(b.maxY)) - max(Double(a.minY), Double(b.minY))
        return w > overlapFloor && h > overlapFloor
    }

    /// Where the hover can reach node `n` (its container's map `t`; `cut`,
    /// where it can reach its parent), as the grid files it.
    enum HoverReach {
        /// Never: hidden, or bounds without area or outside the cut.
        case none
        /// Within `box`, on a path the grid flattens; `inside` maps the
        /// space its children's regions are given in to the screen.
        case flat(box: CGRect, inside: CGAffineTransform)
        /// Somewhere within `box`, by a path the grid does not flatten.
        case opaque(box: CGRect)
    }

    /// `n`'s reach: a view's bounds on the screen, an element node's
    /// frame-policy region (the per-view hover's tests), widened by the
    /// slack and cut; as the VoiceOver filing bounds a subtree it does not
    /// flatten (`collectScreenEntries`).
    func hoverReach(_ n: NodeID, _ t: CGAffineTransform, cut: CGRect) -> HoverReach {
        let h = hot[n.index]
        if h.state.contains(.blocked) { return .none }
        let slack = ScreenGrid.slack
        guard h.isView else {
            let region = elementFrameRegion(n, h, containerToScreen: t)
            guard Self.isFinite(region) else { return .opaque(box: cut) }
            guard region.width > 0, region.height > 0 else { return .none }
            let box = region.insetBy(dx: -slack, dy: -slack).intersection(cut)
            return box.isNull ? .none : .flat(box: box, inside: t)
        }
        let b = bounds(h)
        guard b.width > 0, b.height > 0 else { return .none }
        let own = boundsToParent(h).concatenating(t)
        let onScreen = b.applying(own)
        guard Self.isFinite(onScreen), Self.isWellConditioned(own) else { return .opaque(box: cut) }
        let magnitude =
            Self.magnitude(onScreen) + Self.magnitude(b) + Self.magnitude(h.frame) + abs(Double(own.tx))
            + abs(Double(own.ty))
        guard magnitude.isFinite else { return .opaque(box: cut) }
        // The rounding of mapping a point down, as `collectScreenEntries` bounds it.
        let margin = 1 + magnitude * 0x1p-36
        let reachable = onScreen.insetBy(dx: -margin, dy: -margin).intersection(cut)
        if reachable.isNull { return .none }
        guard h.transformSlot < 0, Self.isModerate(own),
            Self.isModerate(frame: h.frame, bounds: b, under: own, hasTransform: false)
        else { return .opaque(box: reachable) }
        let box = cut.intersection(onScreen.insetBy(dx: -slack, dy: -slack))
        return box.isNull ? .none : .flat(box: box, inside: own)
    }

    /// Whether `n` takes the hover by itself: enabled, and it declares
    /// `click` or `longClick`.
    @inline(__always)
    func takesHover(_ n: NodeID) -> Bool {
        !tree.actions(of: n).isDisjoint(with: NodeActions.tap) && !tree.traits(of: n).contains(.notEnabled)
    }
}

/// The hover's filing as it descends: the entries, and per level the
/// reaches and take boxes of the children being filed.
struct HoverFiling {
    var entries = HitTester.ScreenEntries()
    /// Per child of the nodes being filed (a run per level): its reach,
    /// and the box where it may take the hover (`.null`: nowhere).
    private var reaches: [HitTester.HoverReach] = []
    private var takes: [CGRect] = []
    /// Per level, the opaque boxes filed after its subtree (takers' conflicts).
    private var conflicts: [CGRect] = []

    /// Files `n` (reached as `reach`) and its subtree; returns the box where
    /// it may take the hover. `overlapped`: a sibling in front of it
    /// overlaps it. `top`: a window (or the root where it is one), whose
    /// own entry is always filed.
    @discardableResult
    mutating func file(
        _ engine: HitTester, _ n: NodeID, _ reach: HitTester.HoverReach, depth: Int, nearestAbove: NodeID,
        overlapped: Bool, top: Bool
    ) -> CGRect {
        let box: CGRect, inside: CGAffineTransform
        switch reach {
        case .none: return .null
        case .opaque(let b):
            entries.append(b, .none, group: -1)
            return b
        case .flat(let b, let t):
            guard depth < ScreenGrid.maxDepth else {
                entries.append(b, .none, group: -1)
                return b
            }
            box = b
            inside = t
        }
        let exposed = engine.hot[n.index].state.contains(.exposed)
        let nearest = exposed ? n : nearestAbove
        if top && nearest.isNone && n != engine.tree.root {
            // A window with nothing exposed at or above it: no answer where
            // it holds the point, whatever lies behind it.
            entries.append(box, HitTester.isModerate(box) ? ScreenGrid.windowStop : .none, group: -1)
        } else if !nearest.isNone && (exposed || overlapped || top) {
            entries.append(box, HitTester.isModerate(box) ? nearest : .none, group: -1)
        }
        // The children, front to back: the reverse of the tree's order.
        let tree = engine.tree
        let base = reaches.count
        var c = tree.backLinks[n.index].lastChild
        while !c.isNone {
            reaches.append(engine.hoverReach(c, inside, cut: box))
            takes.append(.null)
            c = tree.backLinks[c.index].previousSibling
        }
        let count = reaches.count - base
        let conflictBase = conflicts.count
        var take = CGRect.null
        if count > 0 {
            // Per child, the siblings in front of it that overlap it (the
            // earlier in this run): all pairs among a few, else through a
            // packed R-tree of their boxes.
            var indexed: [Int32] = []
            var index: PackedRTree?
            if count > IndexPolicy.hoverPairwiseSiblings {
                indexed = (base ..< base + count).filter { Self.box(reaches[$0]) != nil }.map { Int32($0) }
                index = PackedRTree(boxes: indexed.map { Self.box(reaches[Int($0)])! })
            }
            var k = 0
            c = tree.backLinks[n.index].lastChild
            while !c.isNone {
                let i = base + k
                if let own = Self.box(reaches[i]) {
                    var overlapped = false
                    var conflict = CGRect.null
                    func meet(_ j: Int) {
                        guard j < i, let other = Self.box(reaches[j]), HitTester.overlaps(own, other) else { return }
                        overlapped = true
                        if HitTester.overlaps(own, takes[j]) {
                            conflict = ItemBoxes.union(conflict, own.intersection(takes[j]))
                        }
                    }
                    if let index {
                        index.forEach(intersecting: own) { item in
                            meet(Int(indexed[Int(item)]))
                            return true
                        }
                    } else {
                        for j in base ..< i { meet(j) }
                    }
                    let childTake = file(
                        engine, c, reaches[i], depth: depth + 1, nearestAbove: nearest, overlapped: overlapped,
                        top: false)
                    takes[i] = childTake
                    take = ItemBoxes.union(take, childTake)
                    if !conflict.isNull { conflicts.append(conflict) }
                }
                k += 1
                c = tree.backLinks[c.index].previousSibling
            }
        }
        // Where a child in front may take the hover from one behind it that
        // the entries above would let win: the per-view hover decides.
        for k in conflictBase ..< conflicts.count { entries.append(conflicts[k], .none, group: -1) }
        conflicts.removeSubrange(conflictBase...)
        reaches.removeSubrange(base...)
        takes.removeSubrange(base...)
        return engine.takesHover(n) ? box : take
    }

    /// The box of a reach, or nil for none.
    private static func box(_ reach: HitTester.HoverReach) -> CGRect? {
        switch reach {
        case .none: return nil
        case .flat(let b, _), .opaque(let b): return b
        }
    }
}
