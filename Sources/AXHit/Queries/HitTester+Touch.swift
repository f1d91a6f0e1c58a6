import Foundation

extension HitTester {
    // MARK: Touch delivery

    /// The node a tap at the screen point `p` reaches, as the tree's
    /// platform delivers it (tree-format.md, "Touch delivery" and
    /// "Platforms and snapshots"), or nil when nothing takes it:
    ///
    /// - a view tree (iOS): UIKit's `hitTest(_:with:)` from the root. A view
    ///   that is hidden, has alpha below 0.01 or has
    ///   `isUserInteractionEnabled == false` receives nothing, nor does its
    ///   subtree; a point outside a view's bounds (closed-open) skips the view
    ///   and its subtree, clipped or not; subviews are tried frontmost first;
    ///   the deepest view that takes the point receives it. Element nodes
    ///   never receive.
    /// - an iOS snapshot: XCUITest's `isHittable`, the element `hit(p)`
    ///   answers under the frame policy.
    /// - Android: `dispatchTouchEvent`, front to back and deepest first, the
    ///   first visible node whose bounds hold `p` and that consumes a tap
    ///   (`click`, `longClick`, or an adjustable control).
    ///
    /// - Complexity: O(depth × log(children)) on typical layouts, through the
    ///   same per-view indexes as `hit`; no GEOS call, no lock.
    public func touch(_ p: CGPoint) -> NodeID? {
        switch rules.touchModel {
        case .viewHitTest: return viewHitTest(p)
        case .hittableElement: return hit(p, policy: .frame)
        case .consumingNode: return consumingNode(p)
        }
    }

    /// The receivers for many screen points, computed on all cores.
    ///
    /// - Complexity: the single queries divided among the cores.
    public func touch(_ points: [CGPoint]) -> [NodeID?] {
        parallelMap(points.count, minimumChunk: 256, makeWorker: {}) { _, i in touch(points[i]) }
    }

    /// UIKit's `hitTest(_:with:)` (see `touch`).
    ///
    /// A touchable subview whose bounds hold the point always returns at
    /// least itself, so UIKit's recursion never backtracks: the query is one
    /// descent, choosing at each level the frontmost touchable child that
    /// holds the point (from the child index, front to back). No allocation
    /// but one buffer, the first time a wide view's R-trees or added
    /// children answer.
    func viewHitTest(_ p: CGPoint) -> NodeID? {
        let root = tree.root
        guard !root.isNone, let q = takesTouch(root, p) else { return nil }
        var v = root
        var point = q
        var buffer: [NodeID] = []
        while true {
            let (child, childPoint) = frontmostTouchTaker(under: v, at: point, buffer: &buffer)
            if child.isNone { return v }
            v = child
            point = childPoint
        }
    }

    /// Android's `dispatchTouchEvent` (see `touch`): a search from the root
    /// in which a node's own claim waits beneath its children's, so that the
    /// first claim popped is the frontmost, deepest one.
    func consumingNode(_ p: CGPoint) -> NodeID? {
        let root = tree.root
        guard !root.isNone else { return nil }
        var stack: [(node: NodeID, point: CGPoint, claims: Bool)] = [(root, p, false)]
        var buffer: [NodeID] = []
        while let (n, point, claims) = stack.popLast() {
            if claims { return n }
            guard let q = takesTouch(n, point) else { continue }
            if rules.consumesTap(n, in: tree) { stack.append((n, q, true)) }
            forEachChild(of: n, hot[n.index], at: q, screen: nil, BackToFront.self, buffer: &buffer, into: &stack) {
                stack, c, _ in
                stack.append((c, q, false))
                return true
            }
        }
        return nil
    }

    /// Whether view `v` can itself take touches: a view the rules let
    /// touches into (`EngineState.refusesTouch`; its ancestors are the
    /// caller's concern).
    @inline(__always)
    func touchableItself(_ v: NodeID) -> Bool {
        tree.isView(v) && !hot[v.index].state.contains(.refusesTouch)
    }

    /// The point in `v`'s bounds space when view `v` takes `parentPoint`
    /// (given in its parent's bounds space): touchable itself, invertible,
    /// and the point inside its bounds (closed-open). Nil otherwise. Reads
    /// the node's packed record alone.
    @inline(__always)
    func takesTouch(_ v: NodeID, _ parentPoint: CGPoint) -> CGPoint? {
        let h = hot[v.index]
        guard h.isView, !h.state.contains(.refusesTouch) else { return nil }
        let (b, toParent) = boundsAndMap(h)
        guard let q = Self.inverseApply(toParent, parentPoint), b.containsClosedOpen(q) else { return nil }
        return q
    }

    /// The frontmost child view of `v` that takes the point `q` (in `v`'s
    /// bounds space), with the point in the child's bounds space; `.none`
    /// when no child does. The child index's boxes hold each child's bounds
    /// quad, so they are a conservative filter for touch.
    @inline(__always)
    func frontmostTouchTaker(under v: NodeID, at q: CGPoint, buffer: inout [NodeID]) -> (NodeID, CGPoint) {
        var found = (NodeID.none, q)
        forEachChild(of: v, hot[v.index], at: q, screen: nil, FrontToBack.self, buffer: &buffer, into: &found) {
            found, c, _ in
            guard let cq = takesTouch(c, q) else { return true }
            found = (c, cq)
            return false
        }
        return found
    }

    /// Whether the screen point `p` lies in the region of node `e` under the
    /// `shape` policy, cut by the bounds of every proper ancestor view
    /// (whatever the node's exposure): the test `hit(_:policy:)` applies.
    /// With `cutByAncestors` false, the region uncut: the shape alone (its
    /// path's winding test, or its quadrilateral).
    ///
    /// - Complexity: O(depth).
    func shapeRegionContains(_ e: NodeID, _ p: CGPoint, cutByAncestors: Bool = true) -> Bool {
        var q = p
        var toScreen = CGAffineTransform.identity
        for v in tree.ancestorViews(of: e) {
            let toParent = tree.boundsToParent(v)
            guard let local = Self.inverseApply(toParent, q),
                !cutByAncestors || tree.bounds(of: v).containsClosedOpen(local)
            else {
                return false
            }
            q = local
            toScreen = toParent.concatenating(toScreen)
        }
        if tree.isView(e) {
            let toParent = tree.boundsToParent(e)
            // Nil for a view scaled to nothing: a screen-space path still counts.
            let own = Self.inverseApply(toParent, q)
            return viewRegionContains(
                e, hot[e.index], .shape, own: own, screen: p, toScreen: toParent.concatenating(toScreen))
        }
        return elementRegionContains(e, hot[e.index], .shape, container: q, screen: p, containerToScreen: toScreen)
    }
}
