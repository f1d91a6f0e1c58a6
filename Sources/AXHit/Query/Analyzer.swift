import Foundation

/// One worker's view of a `ScreenAnalysis` in progress: the shared inputs and
/// its own GEOS context. Not `Sendable` (the context stays on its thread).
struct Analyzer {
    let tester: HitTester
    let space: ScreenSpace
    let order: PaintOrder
    let builder: RegionBuilder
    let occluders: Occluders?
    let screen: Region?

    var tree: ElementTree { tester.tree }

    /// Everything `ElementAnalysis` holds for exposed element `e`.
    func analyze(_ e: NodeID) throws(GeometryError) -> ElementAnalysis {
        let isView = tree.isView(e)
        let view = isView ? e : tree.container(of: e)
        let chain = tree.ancestorViews(of: e)

        let activation = space.activationPoint(of: e)
        let receiver = tester.touch(activation)
        let status: ActivationStatus
        if let receiver {
            status = tree.isDescendant(receiver, of: view) ? .ok : .obstructed
        } else {
            status = .lost
        }
        let outside = !tester.shapeRegionContains(e, activation)

        let shape = try shapeRegion(e)
        var region = shape
        var frameRegion = Region.rect(of: space.frames[e.index])
        for v in chain {
            let quad = Region.quad(tree.bounds(of: v), space.toScreen[v.index])
            region = try region.intersecting(quad, builder)
            frameRegion = try frameRegion.intersecting(quad, builder)
        }

        // Delivery: the chain down to the view itself, all touchable.
        var deliverable = Region.empty
        let resolved = view.isNone ? [] : space.resolved[view.index]
        if resolved.contains(.touchable) && resolved.contains(.invertible) {
            deliverable = region
            if isView {
                deliverable = try deliverable.intersecting(Region.quad(tree.bounds(of: e), space.toScreen[e.index]), builder)
            }
            if !deliverable.isEmpty {
                let path = isView ? chain + [e] : chain
                deliverable = try deliverable.subtracting(frontTakers(along: path, near: deliverable.bounds), builder)
            }
        }

        var suggested: CGPoint?
        var radius = 0.0
        if let circle = try deliverable.largestInscribedCircle(builder, tolerance: ScreenAnalysis.circleTolerance) {
            radius = circle.radius
            if delivers(e, view, circle.center, deliverable) {
                suggested = circle.center
            } else if let p = try builder.pointOnSurface(of: deliverable.polygonSet), delivers(e, view, p, deliverable) {
                // The circle's centre failed an exact check (a sliver, or
                // rounding on an edge): any verified interior point will do.
                suggested = p
            }
        }

        var visibleFraction = Double.nan
        var visible: Region?
        if let occluders {
            var base = shape
            for v in chain where tree.has(.clipsToBounds, v) {
                base = try base.intersecting(Region.quad(tree.bounds(of: v), space.toScreen[v.index]), builder)
            }
            if let screen { base = try base.intersecting(screen, builder) }
            let covers = coversInFront(of: view, near: base.bounds, occluders)
            let total = shape.area
            if total > 0 {
                let area = try base.uncoveredArea(by: covers, builder)
                visibleFraction = min(1, max(0, area / total))
            } else {
                visibleFraction = 0
            }
            visible = base
        }

        return ElementAnalysis(
            element: e, view: view, activationPoint: activation, receiver: receiver, status: status,
            outside: outside, suggested: suggested, touchTargetRadius: radius, visibleFraction: visibleFraction,
            shape: shape, region: region, frameRegion: frameRegion, deliverable: deliverable, visible: visible)
    }

    /// The element's region under the `shape` policy, in screen points, uncut.
    func shapeRegion(_ e: NodeID) throws(GeometryError) -> Region {
        if let path = space.screenPath(of: e) {
            // Flattened on the screen and resolved by GEOS into a valid region.
            return .polygons(try builder.filling(rings: path.flattened(tolerance: HitTester.pathTolerance),
                                                 rule: path.fillRule))
        }
        if tree.isView(e) { return .quad(tree.bounds(of: e), space.toScreen[e.index]) }
        if let fic = tree.frameInContainerSpace(of: e) { return .quad(fic, space.toScreen[e.index]) }
        return .rect(of: tree.explicitAccessibilityFrame(of: e) ?? .zero)
    }

    /// Whether a tap at `p` reaches the element: inside its deliverable and
    /// shape regions, and `touch` delivers to its view or a descendant.
    func delivers(_ e: NodeID, _ view: NodeID, _ p: CGPoint, _ deliverable: Region) -> Bool {
        guard deliverable.contains(p), tester.shapeRegionContains(e, p), let r = tester.touch(p) else { return false }
        return tree.isDescendant(r, of: view)
    }

    /// The bounds quads of the views that take a tap before it can reach the
    /// last view of `path` (root first): at each level, the touchable,
    /// invertible siblings in front of the path's child whose quads may meet
    /// `box` (screen). The parent's index finds them when it has one.
    func frontTakers(along path: [NodeID], near box: CGRect) -> [Region] {
        var out: [Region] = []
        guard path.count > 1 else { return out }
        for j in 0..<(path.count - 1) {
            let parent = path[j], child = path[j + 1]
            func consider(_ s: NodeID) {
                guard tester.touchableItself(s), space.resolved[s.index].contains(.invertible) else { return }
                let quad = Region.quad(tree.bounds(of: s), space.toScreen[s.index])
                if Region.boxesOverlap(quad.bounds, box) { out.append(quad) }
            }
            let slot = tester.hot[parent.index].indexSlot
            if slot >= 0, let fromScreen = space.transformFromScreen(of: parent) {
                let index = tester.indexes[Int(slot)]
                let rank = tester.ranks[child.index]
                let local = box.applying(fromScreen)
                index.forEachChild(intersecting: local) { s in
                    if tree.contains(s), tree.parent(of: s) == parent, tester.ranks[s.index] > rank { consider(s) }
                    return true
                }
                index.overflow.forEachChild { s in
                    if tree.contains(s) && tree.parent(of: s) == parent && tester.ranks[s.index] > rank { consider(s) }
                }
            } else {
                var s = tree.nextSibling(of: child)
                while !s.isNone { consider(s); s = tree.nextSibling(of: s) }
            }
        }
        return out
    }

    /// The occluders painted after the subtree of `view` whose boxes meet `box`.
    func coversInFront(of view: NodeID, near box: CGRect, _ occluders: Occluders) -> [Region] {
        guard !box.isNull else { return [] }
        let end = view.isNone ? Int32.max : order.subtreeEnd[view.index]
        var out: [Region] = []
        occluders.index.forEach(intersecting: box) { k in
            if occluders.positions[Int(k)] > end { out.append(occluders.regions[Int(k)]) }
            return true
        }
        return out
    }
}
