import Foundation

/// Per-node state the engine derives from the tree.
struct EngineState: OptionSet, Sendable {
    let rawValue: UInt8
    /// Accessibility exposes the node (tree-format.md, "exposed").
    static let exposed = EngineState(rawValue: 1 << 0)
    /// Accessibility is blocked for the node and its subtree (hidden, alpha,
    /// elementsHidden, suppressed by a modal sibling, or inside an element).
    static let blocked = EngineState(rawValue: 1 << 1)
    /// Some child has `accessibilityViewIsModal`, visible or not: when
    /// unset, no sibling scan for the frontmost modal child is needed.
    static let hasModalChild = EngineState(rawValue: 1 << 2)
    /// Some node of the subtree, itself included, is exposed (its count in
    /// `HitTester.exposedCounts` is positive): queries skip the others.
    static let subtreeExposed = EngineState(rawValue: 1 << 3)
    /// A window whose answer is final (`PlatformRules.isFinalWindow`): when
    /// it holds the point and nothing in it answers, `hit` answers none.
    static let finalWindow = EngineState(rawValue: 1 << 4)
    /// The rules keep touches from the node itself and its subtree
    /// (`PlatformRules.refusesTouch`), derived with the rest so that touch
    /// reads a bit rather than asking the rules per view.
    static let refusesTouch = EngineState(rawValue: 1 << 5)
    /// A search must enter the subtree: some node of it, itself included,
    /// is exposed, or is a final window accessibility does not block (which
    /// ends a search where it holds the point, answered or not). Queries
    /// skip the others; for rules without windows it is `subtreeExposed`.
    static let subtreeSearched = EngineState(rawValue: 1 << 6)

    /// Sets `subtreeExposed` and `subtreeSearched` from a node's counts.
    @inline(__always)
    mutating func setSubtreeBits(exposed: Int32, windows: Int32) {
        if exposed > 0 { insert(.subtreeExposed) } else { remove(.subtreeExposed) }
        if exposed > 0 || windows > 0 { insert(.subtreeSearched) } else { remove(.subtreeSearched) }
    }
}

/// What a query reads of one node, packed in one 48-byte record so that
/// visiting a node costs one cache line (rarely two) instead of a miss per
/// column: the engine's own state, and a copy of the tree's fields it needs
/// (kept in step by `syncHot`).
struct HotNode: Sendable, Equatable {
    /// A view's frame, in its parent's bounds space; an element node's
    /// `accessibilityFrameInContainerSpace` when it has one (its frame is
    /// unused), so that testing it reads no side table.
    var frame: CGRect = .zero
    /// The tree's explicit bounds and transform table slots, or -1.
    var boundsSlot: Int32 = -1
    var transformSlot: Int32 = -1
    /// How a query finds the view's children: with `blockCount == 0`, its
    /// slot in `HitTester.indexes` (a wide view), else where its block of
    /// `blockCount` entries starts in `HitTester.blocks` (a narrow view);
    /// -1 for neither (the children are tried one by one).
    var childSlot: Int32 = -1
    /// The tree's flags.
    var flags: NodeFlags = []
    var state: EngineState = []
    var blockCount: UInt8 = 0

    @inline(__always) var isView: Bool { !flags.contains(.element) }
    /// The view's slot in `HitTester.indexes`, or -1.
    @inline(__always) var indexSlot: Int32 { blockCount == 0 ? childSlot : -1 }
    /// Where the view's block starts in `HitTester.blocks`, or -1.
    @inline(__always) var blockStart: Int32 { blockCount > 0 ? childSlot : -1 }

    /// Points the view at its block of `count` entries from `start` (one
    /// write of the record).
    @inline(__always)
    mutating func setBlock(start: Int32, count: UInt8) {
        childSlot = start
        blockCount = count
    }
}

/// The hit-testing engine: which exposed element is under a point, as the
/// tree's platform answers it (tree-format.md, "Hit-testing" and "Platforms
/// and snapshots"), what a tap there reaches, and where every element is on
/// the screen, for trees of millions of nodes, kept current through updates
/// without rebuilds.
///
/// **Rules.** The tree's `platform` and `source` pick its rules
/// (`PlatformRules`): the build derives each node's exposure with them once,
/// and a query reads only the result. VoiceOver's exposed element hides its
/// subtree; TalkBack's does not, and its `hit` is Android's hover dispatch
/// (`HitTester+Hover.swift`): both descend through the same indexes.
///
/// **How a query runs.** It descends the view tree from the root, front to
/// back, mapping the point into each view's bounds space with that view's
/// own transform (so nothing in screen space is stored per view, and a
/// scroll changes one number). A view whose bounds (closed-open) miss the
/// point is skipped with its subtree, as UIKit prunes; so is any subtree with
/// no exposed element. Each view knows where its children can be hit, in its
/// own bounds space: a narrow view in a block of boxes (`ChildBlocks`), a
/// wide one in a uniform grid or a packed R-tree (`ContainerIndex`), so only
/// the children under the point are visited, frontmost first; the first
/// exposed element whose region holds the point is the answer (the last in
/// pre-order). A frame query that finds the point well inside the box of a
/// box hit (`boxHits`) has that answer without reading the child's record.
///
/// **Snapshots.** A value type: a copy is a consistent snapshot that other
/// threads may query while the owner updates its own copy. The tree's and
/// the engine's per-node columns, and its wide views' indexes, are
/// `ChunkedColumn`s, shared chunk by chunk: the first update after a copy
/// copies each column's table of chunks, the groups of 32 chunks it writes
/// in and the chunks it writes (8 to 16 KB each), not the columns; a
/// scroll writes only the small table of scroll offsets.
///
/// **Boundary rule.** Frames and bounds are closed-open (CGRectContainsPoint);
/// points exactly on the boundary of a rotated or path region may go either
/// way.
public struct HitTester: Sendable {
    /// The tree, as updated.
    public internal(set) var tree: ElementTree
    /// The tree's rules: their type is fixed at the build (the tree's
    /// platform and source do not change through updates); Android's carry
    /// TalkBack's view of the tree, made again after each update
    /// (`refreshTalkBack()`).
    var rules: any PlatformRules
    /// `rules.exposedHidesSubtree`, read by every query.
    let exposedHidesSubtree: Bool
    /// Whether the rules' exposure reads geometry (TalkBack's whole-window
    /// rule), so that a scroll re-derives its view's subtree.
    let exposureReadsGeometry: Bool
    /// Per node: what queries read (see `HotNode`).
    var hot = ChunkedColumn<HotNode>()
    /// Per node: the exposed nodes in its subtree, itself included (queries
    /// read only whether it is positive: `EngineState.subtreeExposed`).
    var exposedCounts = ChunkedColumn<Int32>()
    /// Per node: the final windows accessibility does not block in its
    /// subtree, itself included (with `exposedCounts`, for
    /// `EngineState.subtreeSearched`). Empty for rules without windows
    /// (`needsWindows` false), whose counts are all zero: read them through
    /// `windowCount(_:)`.
    var windowCounts = ChunkedColumn<Int32>()
    /// `rules.needsWindows`: whether `windowCounts` is kept.
    let needsWindows: Bool
    /// Z-order among siblings (larger is in front), with gaps for inserts.
    var ranks = ChunkedColumn<Int64>()
    /// A child's item number in its parent's `ContainerIndex`, or its
    /// position in its parent's block of `blocks`, or -1.
    var ordinals = ChunkedColumn<Int32>()
    /// The indexes of wide views (`HotNode.indexSlot`), in a chunked
    /// column: under a snapshot, an update copies the chunk of the index it
    /// changes, not every index (a screen of a thousand rows holds a
    /// thousand, each a dozen arrays to retain).
    var indexes = ChunkedColumn<ContainerIndex>()
    /// Index slots given back, reused last in, first out (chunked, as
    /// `ElementTree.freeSlots` is).
    var freeIndexSlots = ChunkedColumn<Int32>()
    var blocks = ChildBlocks()
    var shapes: ElementShapes
    /// Per node: whether it is a *box hit*, an exposed element whose
    /// frame-policy region is exactly its box in its parent's block or
    /// grid: a view with no transform, explicit frame or path, or an element
    /// node with a frame in container space, no explicit frame or path, and
    /// no children. A frame query that finds the point well inside such a
    /// box has its answer without reading the node's record (a cache miss
    /// on a large tree). Kept with `hot` by `syncHot` and `derive`.
    var boxHits = NodeBits()
    /// The navigation order, built at the first query and kept current.
    var navigation = NavigationCache()
    /// Frame answers in screen space: the engine's own grid or tiles
    /// (`buildOwnScreenGrid()`) or a whole grid (`buildScreenGrid()`), as the
    /// screen was when it was built; nil once an update drops it.
    var screenGrid: ScreenGrid?
    /// Where updates since the grid was built may have changed answers: the
    /// grid is not asked there.
    var staleAreas = StaleAreas()

    /// The rank step between consecutive siblings: room for inserts between.
    static let rankGap: Int64 = 1 << 20
    /// The flattening tolerance of paths on screen, in points.
    public static let pathTolerance: CGFloat = BezierPath.defaultFlatteningTolerance

    /// Builds the engine for `tree`: exposure, z-order, an index for every
    /// wide view, every path filled as polygons (on all cores), and the
    /// screen's own grid where it costs at most 6 bytes a node (views'
    /// bounds leave little of the tree on the screen) and else its tiles
    /// where they decide (a raster that answers most frame queries on a
    /// screen of cells in rows from one read), either kept away from where
    /// updates reach; see `buildScreenGrid()`.
    ///
    /// Every tree an `ElementTree` accepts is taken: paths are flattened, not
    /// filled through GEOS, so nothing here can fail.
    ///
    /// - Complexity: O(n) plus the Hilbert sort of each wide view's children
    ///   and the flattening of paths.
    public init(_ tree: ElementTree) {
        self.tree = tree
        rules = tree.rules
        exposedHidesSubtree = rules.exposedHidesSubtree
        exposureReadsGeometry = rules.exposureInputs.contains(.geometry)
        needsWindows = rules.needsWindows
        shapes = ElementShapes(capacity: tree.capacity)
        growColumns()
        // Every node but the root sits in at most one block.
        blocks.boxes.reserveCapacity(tree.count)
        blocks.nodes.reserveCapacity(tree.count)
        guard !tree.root.isNone else { return }
        ranks[tree.root.index] = Self.rankGap
        deriveSubtree(tree.root, structure: true)
        buildOwnScreenGrid()
    }

    mutating func growColumns() {
        let n = tree.capacity
        guard hot.count < n else { return }
        let extra = n - hot.count
        hot.append(repeating: HotNode(), count: extra)
        exposedCounts.append(repeating: 0, count: extra)
        if needsWindows { windowCounts.append(repeating: 0, count: extra) }
        ranks.append(repeating: 0, count: extra)
        ordinals.append(repeating: -1, count: extra)
        boxHits.grow(to: n)
        shapes.grow(to: n)
    }

    /// The final windows not blocked in node `i`'s subtree (see
    /// `windowCounts`): zero for rules without windows.
    @inline(__always)
    func windowCount(_ i: Int) -> Int32 { needsWindows ? windowCounts[i] : 0 }

    /// Whether a node with record `h` is a box hit (see `boxHits`). Its own
    /// frame and bounds must be moderate too: the exact test subtracts the
    /// bounds' midpoint, and a huge one would round it off. Where an exposed
    /// node does not hide its subtree (`exposedHidesSubtree` false), only a
    /// leaf is: its children would be in front.
    @inline(__always)
    static func isBoxHit(_ h: HotNode, hasChildren: Bool, exposedHidesSubtree: Bool, in tree: ElementTree) -> Bool {
        guard h.state.contains(.exposed), exposedHidesSubtree || !hasChildren,
            h.flags.isDisjoint(with: [.hasAccessibilityFrame, .hasPath]),
            isModerate(h.frame), h.boundsSlot < 0 || isModerate(tree.boundsTable[h.boundsSlot])
        else { return false }
        return h.isView ? h.transformSlot < 0 : h.flags.contains(.hasFrameInContainerSpace) && !hasChildren
    }

    /// Copies into `hot` the tree's fields of `id` that queries read, and
    /// its box-hit bit (which reads whether it has children). O(1); called
    /// after every change of the node, its bounds or whether it has children.
    @inline(__always)
    mutating func syncHot(_ id: NodeID) {
        guard !id.isNone else { return }
        let i = id.index
        var h = hot[i]
        h.frame = Self.recordFrame(id, in: tree)
        let slots = tree.sideSlots[i]
        h.boundsSlot = slots.bounds
        h.transformSlot = slots.transform
        h.flags = tree.flags[i]
        if rules.refusesTouch(id, in: tree) {
            h.state.insert(.refusesTouch)
        } else {
            h.state.remove(.refusesTouch)
        }
        let boxHit = Self.isBoxHit(
            h, hasChildren: !tree.firstChildren[id.index].isNone, exposedHidesSubtree: exposedHidesSubtree, in: tree)
        // Each written only where it changed (a parent synced after an
        // insert or removal below it rarely does).
        hot.set(i, to: h)
        if boxHits[i] != boxHit { boxHits[i] = boxHit }
    }

    /// What `HotNode.frame` holds for `id`.
    @inline(__always)
    static func recordFrame(_ id: NodeID, in tree: ElementTree) -> CGRect {
        tree.has(.hasFrameInContainerSpace, id) ? (tree.frameInContainerSpace(of: id) ?? .zero) : tree.frames[id.index]
    }

    /// `tree.boundsToParent(n)` from the packed record: the map from a
    /// view's bounds space to its parent's (`ViewGeometry.boundsToParent`).
    @inline(__always)
    func boundsToParent(_ h: HotNode) -> CGAffineTransform { boundsAndMap(h).toParent }

    /// A view's bounds and its map to its parent's bounds space, from the
    /// packed record: a query maps the point with the one and tests it
    /// against the other, reading the bounds once.
    @inline(__always)
    func boundsAndMap(_ h: HotNode) -> (bounds: CGRect, toParent: CGAffineTransform) {
        let b = bounds(h)
        guard h.transformSlot >= 0 else { return (b, ViewGeometry.boundsToParent(frame: h.frame, bounds: b)) }
        let t = tree.transformTable[h.transformSlot]
        return (b, ViewGeometry.boundsToParent(frame: h.frame, bounds: b, transform: t))
    }

    /// Box hits (`boxHits`) answer only where rounding can't matter: every
    /// view on the way down has a moderate map to the screen (axis-aligned,
    /// so that a box hit's region is its box; scale within 1/16 ... 16) and
    /// moderate frame and bounds, and the point is moderate too. Then every
    /// coordinate on either way to the answer (through the boxes, or through
    /// the exact screen-space test) stays under about 2^28, its rounding
    /// under 2^-22 a level, far below the room a box hit needs
    /// (`ChildBlocks.holdsWithRoom`, `IndexPolicy.minimumGridStep`). Anything else takes
    /// the exact test.
    ///
    /// The limits keep that bound: where the map only translates (scale 1,
    /// as almost every view's), translations and rects under 2^27
    /// (`translationLimit`), whose sums stay under 2^28: a collection of
    /// millions of rows, or a list scrolled a hundred million points down.
    /// Where it scales, under 2^24 (`scaledLimit`), so that 16 times one
    /// stays under 2^28. Points, and boxes on the screen, under 2^27.
    @inline(__always)
    static func isModerate(_ t: CGAffineTransform) -> Bool {
        let limit = moderateLimit(under: t)
        return hasModerateScale(t) && abs(Double(t.tx)) < limit && abs(Double(t.ty)) < limit
    }

    /// Whether `t` is axis-aligned with a scale within 1/16 ... 16 on each
    /// axis: the linear part of a moderate map.
    @inline(__always)
    private static func hasModerateScale(_ t: CGAffineTransform) -> Bool {
        guard t.b == 0 && t.c == 0 else { return false }
        let a = abs(Double(t.a)), d = abs(Double(t.d))
        return a >= 0x1p-4 && a <= 0x1p4 && d >= 0x1p-4 && d <= 0x1p4
    }

    /// The largest moderate coordinate where the map only translates.
    static let translationLimit = 0x1p27
    /// The largest moderate coordinate where the map scales.
    static let scaledLimit = 0x1p24

    /// The largest moderate coordinate in a space `t` maps to the screen:
    /// `translationLimit` where it only translates, else `scaledLimit`.
    @inline(__always)
    static func moderateLimit(under t: CGAffineTransform) -> Double {
        t.a == 1 && t.d == 1 && t.b == 0 && t.c == 0 ? translationLimit : scaledLimit
    }

    /// See `isModerate(_: CGAffineTransform)`: both edges on each axis
    /// under 2^27 (bounded by origin and size together), for a box on the
    /// screen, or a node's own values checked once for all paths (a box
    /// hit's frame, which a query tests only near the point: inside the
    /// bounds of every view above, themselves checked on the way down).
    /// False for null, infinite and NaN rects.
    @inline(__always)
    static func isModerate(_ r: CGRect) -> Bool { isModerate(r, limit: translationLimit) }

    /// Whether a view's frame (in its parent's space) and bounds are
    /// moderate where `toScreen` maps its bounds to the screen
    /// (`moderateLimit(under:)`). A transform of the view's own
    /// (`hasTransform`) may scale its bounds' space against its frame's:
    /// both then keep the scaled limit.
    @inline(__always)
    static func isModerate(frame: CGRect, bounds: CGRect, under toScreen: CGAffineTransform, hasTransform: Bool) -> Bool
    {
        let limit = hasTransform ? scaledLimit : moderateLimit(under: toScreen)
        return isModerate(frame, limit: limit) && isModerate(bounds, limit: limit)
    }

    /// Whether a view keeps a moderate path moderate, as a query checks it
    /// at every view on its way down: `isModerate(toScreen)` and
    /// `isModerate(frame:bounds:under:hasTransform:)`, with the common case
    /// first (everything under the scaled limit, with no test of the scale)
    /// and the rest out of line, to keep the query's loop small.
    @inline(__always)
    static func keepsPathModerate(
        frame: CGRect, bounds: CGRect, toScreen t: CGAffineTransform, hasTransform: Bool
    ) -> Bool {
        guard hasModerateScale(t) else { return false }
        if _fastPath(
            abs(Double(t.tx)) < scaledLimit && abs(Double(t.ty)) < scaledLimit
                && isModerate(frame, limit: scaledLimit) && isModerate(bounds, limit: scaledLimit))
        {
            return true
        }
        return keepsPathModerateBeyondScaledLimit(frame: frame, bounds: bounds, toScreen: t, hasTransform: hasTransform)
    }

    /// `keepsPathModerate` where a value passes the scaled limit: the two
    /// rules themselves.
    @inline(never)
    private static func keepsPathModerateBeyondScaledLimit(
        frame: CGRect, bounds: CGRect, toScreen t: CGAffineTransform, hasTransform: Bool
    ) -> Bool {
        isModerate(t) && isModerate(frame: frame, bounds: bounds, under: t, hasTransform: hasTransform)
    }

    @inline(__always)
    private static func isModerate(_ r: CGRect, limit: Double) -> Bool {
        abs(Double(r.origin.x)) + abs(Double(r.size.width)) < limit
            && abs(Double(r.origin.y)) + abs(Double(r.size.height)) < limit
    }

    /// See `isModerate(_: CGAffineTransform)`.
    @inline(__always)
    static func isModerate(_ p: CGPoint) -> Bool {
        abs(Double(p.x)) < translationLimit && abs(Double(p.y)) < translationLimit
    }

    /// The view's bounds from the packed record.
    @inline(__always)
    func bounds(_ h: HotNode) -> CGRect {
        h.boundsSlot >= 0 ? tree.boundsTable[h.boundsSlot] : ViewGeometry.defaultBounds(of: h.frame)
    }

    /// Where a point can hit `item` (a child of a view whose map to the
    /// screen is `containerToScreen`) or its subtree (see `ItemBoxes`).
    @inline(__always)
    func itemBoxes(_ item: NodeID, containerToScreen t: CGAffineTransform) -> ItemBoxes {
        let h = hot[item.index]
        if let boxes = ItemBoxes.common(
            record: h, bounds: bounds(h), isLeaf: tree.firstChildren[item.index].isNone, containerToScreen: t)
        {
            return boxes
        }
        return Self.itemBoxes(item, containerToScreen: t, in: tree)
    }

    /// The general case of `itemBoxes(_:containerToScreen:)`. Static, so that
    /// a call from a mutating method borrows the tree rather than copying
    /// the engine.
    static func itemBoxes(
        _ item: NodeID, containerToScreen t: CGAffineTransform, in tree: borrowing ElementTree
    ) -> ItemBoxes {
        ItemBoxes(item: item, containerToScreen: t, in: tree)
    }

    /// Bytes the engine holds beyond the tree: per-node columns (their
    /// chunks whole, and their tables), indexes, the flattened paths and the
    /// screen grid. Storage a snapshot shares is counted in full by each
    /// copy that holds it.
    public var memoryBytes: Int {
        hot.memoryBytes + exposedCounts.memoryBytes + windowCounts.memoryBytes + ranks.memoryBytes
            + ordinals.memoryBytes + indexes.memoryBytes + indexes.reduce(0) { $0 + $1.memoryBytes }
            + blocks.memoryBytes + boxHits.memoryBytes + shapes.memoryBytes + (screenGrid?.memoryBytes ?? 0)
    }
}
