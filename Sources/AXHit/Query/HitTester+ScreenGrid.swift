import Foundation

/// The screen grid: frame queries on a screen that no longer changes,
/// answered from one cell in screen space (see `ScreenGrid`).
extension HitTester {
    /// Builds a screen grid of every answer a frame query can have, so that
    /// `hit(_:policy:scratch:)` reads one cell instead of a record per view
    /// wherever a point is not near an edge or over a subtree the grid does
    /// not flatten (below a view that rotates or scales).
    /// Returns whether it was built: only for rules whose exposed element
    /// hides its subtree (VoiceOver), with at least one element it answers
    /// for, and not when the boxes of a size class don't suit a uniform grid
    /// (too clustered, or too many too wide for their class's cells).
    ///
    /// The grid is dropped by the next update (scroll, update, insert,
    /// removal), after which queries search per view as before; build it
    /// again for the new screen. Answers are the same with it or without.
    ///
    /// - Complexity: O(n) time; about 35 bytes per element it files
    ///   (`memoryBytes` counts them).
    @discardableResult
    public mutating func buildScreenGrid() -> Bool {
        screenGrid = nil
        guard exposedHidesSubtree, !tree.root.isNone else { return false }
        var boxes: [CGRect] = [], nodes: [NodeID] = []
        let everywhere = CGRect(x: -0x1p40, y: -0x1p40, width: 0x1p41, height: 0x1p41)
        collectScreenEntries(tree.root, containerToScreen: .identity, cut: everywhere, depth: 0, &boxes, &nodes)
        guard nodes.contains(where: { !$0.isNone }) else { return false }
        screenGrid = ScreenGrid(boxes: boxes, nodes: nodes)
        return screenGrid != nil
    }

    /// Whether frame queries read a screen grid (`buildScreenGrid()`).
    public var hasScreenGrid: Bool { screenGrid != nil }

    /// Appends the screen grid's entries for `n`'s subtree in pre-order:
    /// `containerToScreen` maps the space `n`'s region is given in to the
    /// screen, and `cut` is the intersection of the bounds of the views
    /// above it on the screen, each widened by `ScreenGrid.slack`.
    private func collectScreenEntries(
        _ n: NodeID, containerToScreen t: CGAffineTransform, cut: CGRect, depth: Int, _ boxes: inout [CGRect],
        _ nodes: inout [NodeID]
    ) {
        let h = hot[n.index]
        guard h.state.contains(.subtreeSearched) else { return }
        let slack = ScreenGrid.slack
        func opaque(_ box: CGRect) {
            boxes.append(box)
            nodes.append(.none)
        }
        // Whatever the subtree answers lies inside the cut.
        guard depth < ScreenGrid.maxDepth else { return opaque(cut) }
        if h.state.contains(.exposed) {
            // The region as the per-view search's exact test computes it
            // (and a view's own map as the search composes it).
            let region =
                h.isView
                ? viewFrameRegion(n, h, toScreen: boundsToParent(h).concatenating(t))
                : elementFrameRegion(n, h, containerToScreen: t)
            guard Self.isFinite(region) else { return opaque(cut) }
            let box = region.insetBy(dx: -slack, dy: -slack).intersection(cut)
            if box.isNull { return }  // cut off
            if Self.isModerate(box) {
                boxes.append(box)
                nodes.append(n)
            } else {
                opaque(box)
            }
            return
        }
        var childToScreen = t, childCut = cut
        if h.isView {
            // The search enters the subtree only where the view's bounds hold
            // the point it maps down: its answers lie inside the bounds' quad
            // on the screen, up to the rounding of that mapping, a few ulps
            // of the largest value it adds (frame, bounds, translation; under
            // a bounds origin of 2^55 a point's place in them is known to 8
            // pt) times the map's condition (at most 2^10, else only the cut
            // bounds the answers). The margin allows 2^4 times that.
            let b = bounds(h)
            let own = boundsToParent(h).concatenating(t)
            let onScreen = b.applying(own)
            guard Self.isFinite(onScreen), Self.isWellConditioned(own) else { return opaque(cut) }
            let magnitude =
                Self.magnitude(onScreen) + Self.magnitude(b) + Self.magnitude(h.frame) + abs(Double(own.tx))
                + abs(Double(own.ty))
            guard magnitude.isFinite else { return opaque(cut) }
            let margin = 1 + magnitude * 0x1p-36
            let reach = onScreen.insetBy(dx: -margin, dy: -margin).intersection(cut)
            if reach.isNull { return }  // no point reaches the subtree
            // Only a moderate translation keeps the rounding bound.
            guard h.transformSlot < 0, Self.isModerate(h.frame), Self.isModerate(b), Self.isModerate(own) else {
                return opaque(reach)
            }
            childToScreen = own
            childCut = cut.intersection(onScreen.insetBy(dx: -slack, dy: -slack))
            if childCut.isNull { return }
        }
        var c = tree.firstChildren[n.index]
        while !c.isNone {
            collectScreenEntries(
                c, containerToScreen: childToScreen, cut: childCut, depth: depth + 1, &boxes, &nodes)
            c = tree.nextSiblings[c.index]
        }
    }

    /// Whether the linear part of `t` has a scale within 2^±10 and an
    /// inverse whose rounding stays as small (|det| at least 2^-10 scale²,
    /// a condition of at most about 2^10).
    private static func isWellConditioned(_ t: CGAffineTransform) -> Bool {
        let scale = max(abs(Double(t.a)), abs(Double(t.b)), abs(Double(t.c)), abs(Double(t.d)))
        let det = abs(Double(t.a) * Double(t.d) - Double(t.b) * Double(t.c))
        return scale >= 0x1p-10 && scale <= 0x1p10 && det >= 0x1p-10 * scale * scale
    }

    /// The sum of the magnitudes of `r`'s edges.
    private static func magnitude(_ r: CGRect) -> Double {
        abs(Double(r.minX)) + abs(Double(r.maxX)) + abs(Double(r.minY)) + abs(Double(r.maxY))
    }

    /// Whether every edge of `r` is finite (false for `CGRect.null`).
    private static func isFinite(_ r: CGRect) -> Bool {
        r.origin.x.isFinite && r.origin.y.isFinite && r.size.width.isFinite && r.size.height.isFinite
    }
}
