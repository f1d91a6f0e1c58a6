import Foundation

/// One exposed element's regions and activation: the first phase of a
/// `ScreenAnalysis`, before anything depends on the other elements.
struct ElementBasics: Sendable {
    let element: NodeID
    /// The view a tap must reach under UIKit: the element's own view, or its
    /// container for an element node.
    let view: NodeID
    /// The proper ancestor views, root first.
    let chain: [NodeID]
    let activationPoint: CGPoint
    let receiver: NodeID?
    let status: ActivationStatus
    let outside: Bool
    /// The shape-policy region before any cut.
    let shape: Region
    /// The shape-policy region cut by every proper ancestor view's bounds.
    let region: Region
    /// The frame-policy region cut the same way.
    let frameRegion: Region
    /// Why the path was not filled (then `shape` and `region` are empty), or nil.
    let pathOverBudget: PathOverBudget?
}

/// One worker's view of a `ScreenAnalysis` in progress: the shared inputs and
/// its own GEOS context. Not `Sendable` (the context stays on its thread).
struct Analyzer {
    let context: AnalysisContext
    let builder: RegionBuilder

    var tester: HitTester { context.tester }
    var space: ScreenSpace { context.space }
    var tree: ElementTree { context.tester.tree }
    var rules: any PlatformRules { context.tester.rules }

    /// Exposed element `e`'s activation and regions.
    func basics(_ e: NodeID) throws(GeometryError) -> ElementBasics {
        let view = tree.isView(e) ? e : tree.container(of: e)
        let chain = tree.ancestorViews(of: e)
        let activation = space.activationPoint(of: e)
        let receiver: NodeID?
        let status: ActivationStatus
        if rules.activatesWithoutTap(e, in: tree) {
            // TalkBack sends the click action to the node itself.
            receiver = e
            status = .ok
        } else {
            receiver = tester.touch(activation)
            status = rules.activationStatus(of: e, receiver: receiver, in: tree)
        }
        let outside = !tester.shapeRegionContains(e, activation)
        var overBudget = context.unfilled[e.index]
        var shape = Region.empty
        if overBudget == nil {
            do { shape = try shapeRegion(e) } catch {
                // Over a fill budget: this element goes without its fill
                // (no other element's answer reads it); any other failure
                // is the screen's.
                guard case .overBudget = error else { throw error }
                overBudget = .fill(error)
            }
        }
        var region = shape
        var frameRegion = Region.rect(of: space.frames[e.index])
        for v in chain {
            let quad = Region.quad(tree.bounds(of: v), space.toScreen[v.index])
            region = try region.intersecting(quad, builder)
            frameRegion = try frameRegion.intersecting(quad, builder)
        }
        return ElementBasics(
            element: e, view: view, chain: chain, activationPoint: activation, receiver: receiver,
            status: status, outside: outside, shape: shape, region: region, frameRegion: frameRegion,
            pathOverBudget: overBudget)
    }

    /// Everything `ElementAnalysis` holds for the element of `b`: where a tap
    /// activates it, a better point, and what of it is visible.
    func complete(
        _ b: ElementBasics, taps: TapOwnership?, occluders: Occluders?, screen: Region?
    ) throws(GeometryError)
        -> ElementAnalysis
    {
        let e = b.element
        let deliverable = try deliverableRegion(b, taps)

        var suggested: CGPoint?
        var radius = 0.0
        if wantsCircle(b), let circle = deliverable.largestInscribedCircle(tolerance: ScreenAnalysis.circleTolerance) {
            radius = circle.radius
            if delivers(b, circle.center, deliverable) {
                suggested = circle.center
            } else if let p = try builder.pointOnSurface(of: deliverable.polygonSet), delivers(b, p, deliverable) {
                // The circle's centre failed an exact check (a sliver, or
                // rounding on an edge): any verified interior point will do.
                suggested = p
            }
        }

        var visibleFraction = Double.nan
        var visible: Region?
        // Without its fill, what of the shape is seen is not known.
        if let occluders, b.pathOverBudget == nil {
            var base = b.shape
            for v in b.chain where tree.has(.clipsToBounds, v) {
                base = try base.intersecting(Region.quad(tree.bounds(of: v), space.toScreen[v.index]), builder)
            }
            if let screen { base = try base.intersecting(screen, builder) }
            let covers = coversInFront(of: b.view, near: base.bounds, occluders)
            let total = b.shape.area
            if total > 0 {
                let area = try base.uncoveredArea(by: covers, builder)
                visibleFraction = min(1, max(0, area / total))
            } else {
                visibleFraction = 0
            }
            visible = base
        }

        return ElementAnalysis(
            element: e, view: b.view, activationPoint: b.activationPoint, receiver: b.receiver, status: b.status,
            outside: b.outside, suggested: suggested, touchTargetRadius: radius, visibleFraction: visibleFraction,
            shape: b.shape, region: b.region, frameRegion: b.frameRegion, deliverable: deliverable, visible: visible,
            pathOverBudget: b.pathOverBudget)
    }

    /// Whether the analysis's `CircleScope` asks for `b`'s circle.
    func wantsCircle(_ b: ElementBasics) -> Bool {
        switch context.circles {
        case .every: true
        case .audit(let isControl, let measuresControls):
            b.outside || ((measuresControls || b.status != .ok) && isControl(b.element))
        }
    }

    /// The part of the element's shape region where a tap activates it, by
    /// the platform's touch model (see `ScreenAnalysis`).
    func deliverableRegion(_ b: ElementBasics, _ taps: TapOwnership?) throws(GeometryError) -> Region {
        let e = b.element
        if rules.activatesWithoutTap(e, in: tree) { return b.region }
        switch rules.touchModel {
        case .viewHitTest:
            // The chain down to the view itself, all touchable.
            let resolved = b.view.isNone ? [] : space.resolved[b.view.index]
            guard resolved.contains(.touchable) && resolved.contains(.invertible) else { return .empty }
            var deliverable = b.region
            if tree.isView(e) {
                deliverable = try deliverable.intersecting(
                    Region.quad(tree.bounds(of: e), space.toScreen[e.index]), builder)
            }
            guard !deliverable.isEmpty else { return .empty }
            let path = tree.isView(e) ? b.chain + [e] : b.chain
            return try deliverable.subtracting(frontTakers(along: path, near: deliverable.bounds), builder)
        case .hittableElement, .consumingNode:
            guard let taps else { return .empty }
            // The owned regions of every node whose taps count for `e`.
            var reached: [Region] = []
            for k in taps.ownership.entries(near: b.region.bounds) {
                let node = taps.ownership.entries[k].node
                if !node.isNone && rules.tapReaches(node, element: e, in: tree) { reached.append(taps.owned[k]) }
            }
            return try b.region.intersecting(try Region.union(reached, builder), builder)
        }
    }

    /// The element's region under the `shape` policy, in screen points, uncut.
    func shapeRegion(_ e: NodeID) throws(GeometryError) -> Region {
        if let path = space.screenPath(of: e) {
            // Flattened on the screen and resolved by GEOS into a valid region.
            return .polygons(try builder.filling(path: path, tolerance: HitTester.pathTolerance))
        }
        if tree.isView(e) { return .quad(tree.bounds(of: e), space.toScreen[e.index]) }
        if let fic = tree.frameInContainerSpace(of: e) { return .quad(fic, space.toScreen[e.index]) }
        return .rect(of: tree.explicitAccessibilityFrame(of: e) ?? .zero)
    }

    /// Whether a tap at `p` activates the element: inside its deliverable and
    /// shape regions, and (unless no point is involved) the node `touch`
    /// delivers it to is one whose taps reach the element.
    func delivers(_ b: ElementBasics, _ p: CGPoint, _ deliverable: Region) -> Bool {
        guard deliverable.contains(p), tester.shapeRegionContains(b.element, p) else { return false }
        if rules.activatesWithoutTap(b.element, in: tree) { return true }
        guard let r = tester.touch(p) else { return false }
        return rules.tapReaches(r, element: b.element, in: tree)
    }

    /// The bounds quads of the views that take a tap before it can reach the
    /// last view of `path` (root first): at each level, the touchable,
    /// invertible siblings in front of the path's child whose quads may meet
    /// `box` (screen), as the parent's child index finds them (none when the
    /// parent is scaled to nothing: then so is every child).
    func frontTakers(along path: [NodeID], near box: CGRect) -> [Region] {
        var out: [Region] = []
        guard path.count > 1 else { return out }
        let tester = self.tester
        var buffer: [NodeID] = []
        for j in 0 ..< (path.count - 1) {
            let parent = path[j], rank = tester.ranks[path[j + 1].index]
            guard let fromScreen = space.transformFromScreen(of: parent) else { continue }
            tester.forEachChild(
                of: parent, tester.hot[parent.index], meeting: box.applying(fromScreen), screen: nil, BackToFront.self,
                buffer: &buffer, into: &out
            ) { out, s in
                guard tester.ranks[s.index] > rank, tester.touchableItself(s),
                    space.resolved[s.index].contains(.invertible)
                else { return true }
                let quad = Region.quad(tree.bounds(of: s), space.toScreen[s.index])
                if Region.boxesOverlap(quad.bounds, box) { out.append(quad) }
                return true
            }
        }
        return out
    }

    /// The occluders painted after the subtree of `view` whose boxes meet `box`.
    func coversInFront(of view: NodeID, near box: CGRect, _ occluders: Occluders) -> [Region] {
        guard !box.isNull else { return [] }
        let end = view.isNone ? Int32.max : context.order.subtreeEnd[view.index]
        var out: [Region] = []
        occluders.index.forEach(intersecting: box) { k in
            if occluders.positions[Int(k)] > end { out.append(occluders.regions[Int(k)]) }
            return true
        }
        return out
    }
}
