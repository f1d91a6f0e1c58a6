import Foundation

/// Answers which exposed element is under a point, as VoiceOver's hit-test
/// does (tree-format.md, "Hit-testing").
///
/// The search descends the view tree from the root, front to back, skipping
/// every view whose bounds (in its own space, closed-open) do not hold the
/// point and every subtree with no exposed element, and stops at the first
/// exposed element whose region holds the point: the last such element in
/// pre-order.
public struct HitTester: Sendable {
    /// The resolved tree this answers for.
    public let space: ScreenSpace
    let shapes: ElementShapes

    /// Prepares `space` for queries: fills every exposed element's path.
    ///
    /// - Throws: `TreeError` naming the node when a path cannot be filled.
    public init(_ space: ScreenSpace) throws(TreeError) {
        self.space = space
        self.shapes = try ElementShapes(space)
    }

    /// The frontmost exposed element whose region under `policy` holds the
    /// screen point `p`, or nil.
    ///
    /// - Complexity: O(nodes whose ancestors' bounds hold `p`), no GEOS call.
    public func hit(_ p: CGPoint, policy: HitPolicy = .frame) -> NodeID? {
        let tree = space.tree
        guard !tree.root.isNone else { return nil }
        var stack: [NodeID] = [tree.root]
        while let n = stack.popLast() {
            let i = n.index
            let r = space.resolved[i]
            guard r.contains(.subtreeExposed) else { continue }
            if r.contains(.exposed) {
                // An exposed element hides its subtree: only its own region counts.
                if regionContains(n, p, policy: policy) { return n }
                continue
            }
            if !tree.has(.element, n) && !boundsContain(n, p) { continue }
            // Pushed back to front, so the frontmost child is searched first.
            var c = tree.firstChild(of: n)
            while !c.isNone { stack.append(c); c = tree.nextSibling(of: c) }
        }
        return nil
    }

    /// Whether the screen point lies in the view's bounds, tested in the
    /// view's own space under the closed-open rule. A view scaled to nothing
    /// has no area and holds no point.
    @inline(__always)
    func boundsContain(_ view: NodeID, _ p: CGPoint) -> Bool {
        let i = view.index
        guard space.resolved[i].contains(.invertible) else { return false }
        return space.tree.bounds(of: view).containsClosedOpen(p.applying(space.fromScreen[i]))
    }

    /// Whether `p` lies in the element's region under `policy` (the cut by
    /// ancestors' bounds is the caller's descent).
    func regionContains(_ id: NodeID, _ p: CGPoint, policy: HitPolicy) -> Bool {
        let i = id.index
        switch policy {
        case .frame:
            return space.frames[i].containsClosedOpen(p)
        case .shape:
            if let region = shapes.region(of: id) { return region.contains(p) }
            let tree = space.tree
            if !tree.has(.element, id) { return boundsContain(id, p) }
            if let r = tree.extrasOf(id)?.frameInContainerSpace {
                guard space.resolved[i].contains(.invertible) else { return false }
                return r.containsClosedOpen(p.applying(space.fromScreen[i]))
            }
            return space.frames[i].containsClosedOpen(p)
        }
    }
}
