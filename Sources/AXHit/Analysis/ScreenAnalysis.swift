import Foundation

/// Activation, touch delivery and visibility for every exposed element of a
/// screen at once (tree-format.md, "Touch delivery", "Activation" and
/// "Platforms and snapshots"), in screen units (points; Android: pixels),
/// each judged by the tree's platform rules (`PlatformRules`).
///
/// For each exposed element it resolves the activation point, the node that
/// receives a tap there (`HitTester.touch`), the status, whether the point is
/// outside the element's shape, and the **deliverable region**: the part of
/// the element's shape region (cut by every ancestor view's bounds) where a
/// tap activates it. Its largest inscribed circle gives `suggested` and the
/// touch-target size. By touch model:
///
/// - UIKit (`viewHitTest`): with V the element's view (its container, for an
///   element node) and A₀ … Aₖ = V the views from the root down to V, a tap
///   at p reaches V or a descendant exactly when every Aⱼ is touchable, p
///   lies in every Aⱼ's bounds, and no touchable sibling in front of Aⱼ₊₁
///   under Aⱼ holds p in its bounds (such a sibling, or a view of its
///   subtree, would take the tap first). So the region is the shape ∩ those
///   bounds quads, minus the bounds quads of those front siblings, computed
///   exactly with GEOS; the per-view indexes find the front siblings.
/// - XCUITest (`hittableElement`): where `hit` answers the element under the
///   frame policy (`Ownership` of the exposed elements' frame regions).
/// - Android (`consumingNode`): everywhere in the region for a node that
///   declares a click (no point is involved); else where the node that
///   consumes the tap is the element, a descendant or an ancestor
///   (`Ownership` of the consuming nodes' bounds).
///
/// **Opacity rule** (the format has no colours; in a view tree only,
/// `PlatformRules.viewsCoverWhatIsBehind`: a snapshot says nothing of what a
/// node draws, so there only clipping and the screen hide): a view hides
/// what lies behind it when it is drawn (neither it nor an ancestor is hidden), fully
/// opaque (the product of the alphas from the root down to it is 1), and
/// draws content of its own: it has no subviews, or it is an accessibility
/// element. Containers are taken as transparent, as a UIView without a
/// background colour is. A cover hides only its bounds quad cut by its own
/// `clipsToBounds` ancestors. What lies "in front" of an element is every
/// view after the subtree of its view in pre-order (the painting order); its
/// own view's subviews are its content. The visible fraction is the area of
/// the shape inside every `clipsToBounds` proper ancestor and the screen
/// (when the tree gives its bounds), minus the covers, over the shape's area
/// (0 for a shape of no area).
///
/// **Budgets per element.** An element whose path goes over a budget
/// (`PathOverBudget`: `maximumElementPathPoints`, the tree's
/// `pathPointBudget` for the screen's paths together, or a fill budget of
/// the geometry layer) is not filled: it is analysed by what needs no fill
/// (its frame region, its activation and receiver, `outside` by its path's
/// winding test) and says why in `ElementAnalysis.pathOverBudget`, with no
/// suggested point, no touch-target size and no visible share. Every other
/// element's analysis is what it would be without it: no other element's
/// answer reads an element's filled path.
///
/// A value: safe to share between threads.
public struct ScreenAnalysis: Sendable {
    /// The engine the analysis queried.
    public let tester: HitTester
    /// The tree resolved into screen space.
    public let space: ScreenSpace
    /// One analysis per exposed element, in pre-order.
    public let elements: [ElementAnalysis]
    /// NodeID → index into `elements`, or -1.
    let positions: [Int32]
    /// Pre-order position of each node, and the last position of its subtree.
    let order: PaintOrder

    /// The tolerance of the largest-inscribed-circle search, in points.
    public static let circleTolerance = 0.01

    /// The most points one element's `accessibilityPath` may flatten to on
    /// the screen (at `HitTester.pathTolerance`) for the analysis to fill it:
    /// 131,072. This bounds what one element costs the analysis of a
    /// screen: its path is filled through GEOS, then cut by its ancestors'
    /// bounds, cut again by what takes its taps, and searched for its
    /// largest inscribed circle, so it is held to half of what a fill alone
    /// may take (`PolygonSet.maximumFillEdges`, 1.6 s for `axhit shape` at
    /// that size), keeping one element near a second. Real paths (rounded
    /// rects, icons, glyphs) flatten to tens to thousands of points; a
    /// polygon of 100,000 line points is still filled. A path over it is
    /// answered by its frame and its winding test instead
    /// (`PathOverBudget.elementPoints`).
    public static let maximumElementPathPoints = 1 << 17

    /// Analyses every exposed element of `tester`'s tree on all cores (one
    /// GEOS context per worker).
    ///
    /// - Parameters:
    ///   - tester: the engine to query; its tree and rules are analysed.
    ///   - visibility: whether to compute visible fractions (audits and
    ///     pictures need them; `activate` does not).
    /// - Complexity: O(n) to resolve, plus per element O(depth) and the
    ///   index queries for the nodes that overlap it; GEOS only where a
    ///   region is not an axis-aligned rect or something cuts into it.
    /// - Throws: `TreeError` naming the element: `.validation` when its frame
    ///   or activation point on the screen is not finite (the input's
    ///   numbers overflow through its transforms), `.geometry` when GEOS
    ///   fails. A path over a budget is not an error: that element is
    ///   analysed without its fill (`ElementAnalysis.pathOverBudget`).
    public init(_ tester: HitTester, visibility: Bool = true) throws(TreeError) {
        try self.init(tester, visibility: visibility, circles: .every)
    }

    /// Which elements get the largest-inscribed-circle search
    /// (`ElementAnalysis.suggested`, `touchTargetRadius`), most of an
    /// analysis's cost.
    enum CircleScope: Sendable {
        /// Every element (`axhit activate` prints each one's suggestion).
        case every
        /// The circles an audit's findings cite, and no other: a control
        /// whose activation fails (`activation-obstructed`, `-lost`: the
        /// fix cites a suggestion), any element whose point lies outside
        /// its shape (`activation-outside-shape`), and every control when
        /// `measuresControls` (Apple's size rule). The others get no
        /// suggestion and radius 0.
        case audit(isControl: @Sendable (NodeID) -> Bool, measuresControls: Bool)
    }

    /// `init(_:visibility:)`, searching circles for `circles` only.
    init(_ tester: HitTester, visibility: Bool, circles: CircleScope) throws(TreeError) {
        self.tester = tester
        let space = ScreenSpace(tester.tree)
        self.space = space
        let tree = tester.tree
        let order = PaintOrder(tree)
        self.order = order
        let exposed = order.nodes.filter { space.isExposed($0) }
        var positions = [Int32](repeating: -1, count: tree.capacity)
        for (k, e) in exposed.enumerated() { positions[e.index] = Int32(k) }
        self.positions = positions

        // Every number an answer prints must exist: a frame or transform
        // that overflows on the way to the screen is the input's fault.
        for e in exposed { try space.checkFinite(e) }
        let unfilled = Self.pathsOverBudget(exposed, space)
        @Sendable func failure(_ error: GeometryError, _ e: NodeID) -> TreeError {
            TreeError(.geometry, "\(error)", node: tree.id(of: e))
        }
        let context = AnalysisContext(tester: tester, space: space, order: order, unfilled: unfilled, circles: circles)
        // Phase 1: each element's regions and activation.
        let basics = try Self.parallel(exposed, context: context, failure) { analyzer, e throws(GeometryError) in
            try analyzer.basics(e)
        }
        // Where taps land, for the touch models that "last wins" answers.
        let taps = try TapOwnership(context: context, exposed: basics, failure: failure)
        let occluders = visibility ? try Occluders(tester: tester, space: space, order: order, failure: failure) : nil
        let screenRect = tree.screenBounds.map(Region.rect(of:))
        // Phase 2: what a tap reaches, and what an eye sees.
        let elements = try Self.parallel(
            Array(basics.indices), context: context, { error, k in failure(error, basics[k].element) }
        ) {
            analyzer, k throws(GeometryError) in
            try analyzer.complete(basics[k], taps: taps, occluders: occluders, screen: screenRect)
        }
        self.elements = elements
    }

    /// `body` for each item on all cores, one analyzer (and GEOS context)
    /// per chunk; the first failure, named by `failure`, is thrown.
    static func parallel<Item: Sendable, Out: Sendable>(
        _ items: [Item], context: AnalysisContext, _ failure: @escaping @Sendable (GeometryError, Item) -> TreeError,
        _ body: @escaping @Sendable (Analyzer, Item) throws(GeometryError) -> Out
    ) throws(TreeError) -> [Out] {
        let results = parallelMap(
            items.count, minimumChunk: 64,
            makeWorker: {
                Result { () throws(GeometryError) -> Analyzer in
                    Analyzer(context: context, builder: try RegionBuilder())
                }
            }
        ) { analyzer, i -> Result<Out, TreeError> in
            analyzer.flatMap { analyzer in Result { () throws(GeometryError) -> Out in try body(analyzer, items[i]) } }
                .mapError { failure($0, items[i]) }
        }
        var out: [Out] = []
        out.reserveCapacity(items.count)
        for r in results { out.append(try r.get()) }
        return out
    }

    /// Resolves `tree` and analyses it (see `init(_:visibility:)`).
    ///
    /// - Throws: `TreeError` when GEOS fails.
    public init(_ tree: ElementTree, visibility: Bool = true) throws(TreeError) {
        try self.init(HitTester(tree), visibility: visibility)
    }

    /// The tree analysed.
    public var tree: ElementTree { tester.tree }

    /// The exposed elements (`exposed`, in pre-order) whose paths the
    /// analysis does not fill, by slot, before any fill: a path that
    /// flattens on the screen to more than `maximumElementPathPoints`, or
    /// that would carry the paths filled before it past the tree's
    /// `pathPointBudget` together (only the filled ones count, so one huge
    /// path leaves the others their share). O(path segments).
    static func pathsOverBudget(_ exposed: [NodeID], _ space: ScreenSpace) -> [Int: PathOverBudget] {
        let budget = space.tree.pathPointBudget
        var total = 0
        var out: [Int: PathOverBudget] = [:]
        for e in exposed where space.tree.has(.hasPath, e) {
            guard let path = space.screenPath(of: e) else { continue }
            let count = path.flattenedPointCount(tolerance: HitTester.pathTolerance)
            if count > maximumElementPathPoints {
                out[e.index] = .elementPoints(count: count)
            } else if count > budget - total {
                out[e.index] = .screenPoints(budget: budget)
            } else {
                total += count
            }
        }
        return out
    }

    /// The analysis of `id`, or nil when it is not an exposed element (or
    /// not a node of the tree). O(1).
    public func analysis(of id: NodeID) -> ElementAnalysis? {
        guard tree.contains(id), id.index < positions.count, positions[id.index] >= 0 else { return nil }
        return elements[Int(positions[id.index])]
    }
}

/// What every worker of an analysis shares.
struct AnalysisContext: Sendable {
    let tester: HitTester
    let space: ScreenSpace
    let order: PaintOrder
    /// The elements whose paths are not filled, by slot
    /// (`ScreenAnalysis.pathsOverBudget`; a fill over budget adds its own).
    let unfilled: [Int: PathOverBudget]
    /// Which elements get the largest-inscribed-circle search.
    var circles: ScreenAnalysis.CircleScope = .every
    var tree: ElementTree { tester.tree }
    var rules: any PlatformRules { tester.rules }
}

/// Where taps land under the touch models whose answer is the last
/// candidate in pre-order (`Ownership`): each candidate's owned region,
/// computed once for every element that asks. Nil under UIKit's model,
/// whose deliverable regions come from the views' indexes.
struct TapOwnership: Sendable {
    let ownership: Ownership
    /// The owned region of each entry of `ownership`.
    let owned: [Region]

    init?(
        context: AnalysisContext, exposed: [ElementBasics],
        failure: @escaping @Sendable (GeometryError, NodeID) -> TreeError
    )
        throws(TreeError)
    {
        let tree = context.tree, space = context.space, order = context.order
        var entries: [Ownership.Entry] = []
        switch context.rules.touchModel {
        case .viewHitTest:
            return nil
        case .hittableElement:
            // The element `hit` answers under the frame policy takes the tap.
            for b in exposed {
                entries.append(.init(node: b.element, region: b.frameRegion, position: order.position[b.element.index]))
            }
        case .consumingNode:
            // Every visible node that consumes a tap, by its bounds cut by
            // its ancestors'.
            var reach = [Region?](repeating: nil, count: tree.capacity)
            var refused = [Bool](repeating: false, count: tree.capacity)
            var builder: RegionBuilder?
            for n in order.nodes where tree.isView(n) {
                let p = tree.backLinks[n.index].parent
                refused[n.index] = context.rules.refusesTouch(n, in: tree) || (!p.isNone && refused[p.index])
                let quad =
                    space.resolved[n.index].contains(.invertible)
                    ? Region.quad(tree.bounds(of: n), space.toScreen[n.index]) : Region.empty
                let cut: Region
                do { cut = try quad.cut(by: p.isNone ? nil : reach[p.index], &builder) } catch {
                    throw failure(error, n)
                }
                reach[n.index] = cut
                if !refused[n.index] && context.rules.consumesTap(n, in: tree) && !cut.isEmpty {
                    entries.append(.init(node: n, region: cut, position: order.position[n.index]))
                }
            }
        }
        let ownership = Ownership(entries, capacity: tree.capacity)
        self.ownership = ownership
        owned = try ScreenAnalysis.parallel(ownership.entries, context: context, { failure($0, $1.node) }) {
            analyzer, entry throws(GeometryError) in
            try ownership.ownedRegion(of: entry.node, analyzer.builder)
        }
    }
}

/// Each node's place in painting order (pre-order) and the end of its subtree.
struct PaintOrder: Sendable {
    /// Live nodes in pre-order.
    let nodes: [NodeID]
    /// NodeID → pre-order position.
    let position: [Int32]
    /// NodeID → the last pre-order position inside its subtree.
    let subtreeEnd: [Int32]

    init(_ tree: ElementTree) {
        nodes = tree.preOrder
        var position = [Int32](repeating: -1, count: tree.capacity)
        for (k, n) in nodes.enumerated() { position[n.index] = Int32(k) }
        var end = position
        // Children follow parents in pre-order: a backward sweep sees every
        // descendant before its ancestors.
        for n in nodes.reversed() {
            let p = tree.backLinks[n.index].parent
            if !p.isNone { end[p.index] = max(end[p.index], end[n.index]) }
        }
        self.position = position
        subtreeEnd = end
    }
}

/// The views that hide what is behind them (see `ScreenAnalysis`'s opacity
/// rule), each with its region and painting position, in a screen index.
struct Occluders: Sendable {
    var regions: [Region] = []
    var positions: [Int32] = []
    var index: PackedRTree
    /// For each view, the intersection of the bounds quads of it (if it clips)
    /// and of its clipping ancestors: what its subviews are cut to. Nil when
    /// nothing clips.
    var clips: [Region?]

    /// - Throws: a GEOS failure of a cut, as `failure` makes it of the view.
    init(
        tester: HitTester, space: ScreenSpace, order: PaintOrder,
        failure: (GeometryError, NodeID) -> TreeError
    ) throws(TreeError) {
        let tree = tester.tree
        let n = tree.capacity
        var drawn = [Bool](repeating: false, count: n)
        var opacity = [CGFloat](repeating: 0, count: n)
        var clips = [Region?](repeating: nil, count: n)
        var builder: RegionBuilder?
        for v in order.nodes where tree.isView(v) {
            let p = tree.backLinks[v.index].parent
            let parentDrawn = p.isNone || drawn[p.index]
            let alpha = tree.alpha(of: v)
            drawn[v.index] = parentDrawn && !tester.rules.isHiddenItself(v, in: tree)
            opacity[v.index] = (p.isNone ? 1 : opacity[p.index]) * alpha
            let parentClip = p.isNone ? nil : clips[p.index]
            let quad = Region.quad(tree.bounds(of: v), space.toScreen[v.index])
            var own: Region? = parentClip
            if tree.has(.clipsToBounds, v) {
                do { own = try quad.cut(by: parentClip, &builder) } catch { throw failure(error, v) }
            }
            clips[v.index] = own
            guard tester.rules.viewsCoverWhatIsBehind, drawn[v.index], opacity[v.index] >= 1,
                space.resolved[v.index].contains(.invertible)
            else { continue }
            var hasSubview = false
            var c = tree.firstChildren[v.index]
            while !c.isNone && !hasSubview {
                hasSubview = tree.isView(c)
                c = tree.nextSiblings[c.index]
            }
            guard !hasSubview || tree.has(.accessibilityElement, v) else { continue }
            let region: Region
            do { region = try quad.cut(by: parentClip, &builder) } catch { throw failure(error, v) }
            guard !region.isEmpty else { continue }
            regions.append(region)
            positions.append(order.position[v.index])
        }
        let regions = self.regions
        index = PackedRTree(rects: regions.count) { regions[$0].bounds }
        self.clips = clips
    }

}

extension Region {
    /// `self ∩ clip` (`self` when there is no clip): rectangles by
    /// arithmetic, anything else through GEOS with `builder`, made on first
    /// use. A GEOS failure is thrown: a region cut wrongly would make a map
    /// or an audit answer wrongly without saying so.
    func cut(by clip: Region?, _ builder: inout RegionBuilder?) throws(GeometryError) -> Region {
        guard let clip else { return self }
        if let a = asRect, let b = clip.asRect { return .rect(of: a.intersection(b)) }
        if isEmpty || clip.isEmpty { return .empty }
        if builder == nil { builder = try RegionBuilder() }
        guard let builder else { return .empty }
        return try intersecting(clip, builder)
    }
}
