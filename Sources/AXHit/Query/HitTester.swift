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
}

/// What a query reads of one node, packed in one 48-byte record so that
/// visiting a node costs one cache line (rarely two) instead of a miss per
/// column: the engine's own state, and a copy of the tree's fields it needs
/// (kept in step by `syncHot`).
struct HotNode: Sendable {
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
}

/// Caller-owned working memory for queries, so that a query allocates
/// nothing once the arrays have grown to the tree's needs. One per thread.
public struct HitScratch: Sendable {
    struct Entry: Sendable {
        var node: NodeID
        /// Whether the node is the answer with no further test: a box hit
        /// (`HitTester.boxHits`) whose box holds the point with room to
        /// spare.
        var isHit = false
        /// Whether box hits may answer below: a frame query at a moderate
        /// point, through views that all keep moderate values
        /// (`HitTester.isModerate`), so that rounding on the way down stays
        /// far below the room a box hit needs.
        var moderatePath: Bool
        /// The query point in the bounds space of the node's container.
        var point: CGPoint
        /// The container's map to the screen.
        var toScreen: CGAffineTransform
    }
    var stack = SearchStack()
    var candidates: [NodeID] = []

    /// Empty scratch space.
    public init() {}
}

/// A query's stack of entries, in memory it owns: a push is one capacity
/// test, a store and a count (an Array's append also checks uniqueness on
/// every call, and `removeAll(keepingCapacity:)` more).
struct SearchStack: Sendable {
    final class Buffer: @unchecked Sendable {
        // Unchecked: only the stack holding the sole reference writes (see `reset`).
        private(set) var base: UnsafeMutablePointer<HitScratch.Entry>
        private(set) var capacity: Int

        init(capacity: Int) {
            base = .allocate(capacity: capacity)
            self.capacity = capacity
        }

        /// Doubles the room, keeping the first `count` entries.
        func grow(keeping count: Int) {
            let bigger = UnsafeMutablePointer<HitScratch.Entry>.allocate(capacity: 2 * capacity)
            bigger.moveInitialize(from: base, count: count)
            base.deallocate()
            base = bigger
            capacity *= 2
        }

        deinit { base.deallocate() }
    }

    private var buffer = Buffer(capacity: 64)
    private var count = 0

    /// Empties the stack. A copied scratch shares its buffer with the
    /// original until here, where it takes one of its own: two copies used
    /// on two threads never write the same memory.
    mutating func reset() {
        if !isKnownUniquelyReferenced(&buffer) { buffer = Buffer(capacity: buffer.capacity) }
        count = 0
    }

    @inline(__always)
    mutating func push(_ entry: HitScratch.Entry) {
        if count == buffer.capacity { buffer.grow(keeping: count) }
        (buffer.base + count).initialize(to: entry)
        count += 1
    }

    @inline(__always)
    mutating func pop() -> HitScratch.Entry? {
        guard count > 0 else { return nil }
        count -= 1
        return buffer.base[count]
    }
}

/// The hit-testing engine: which exposed element is under a point, as
/// VoiceOver's hit-test answers it (tree-format.md, "Hit-testing"), for trees
/// of millions of nodes, kept current through updates without rebuilds.
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
/// threads may query while the owner updates its own copy (copy-on-write:
/// the first update after a copy duplicates the columns it touches; a scroll
/// touches only the small table of scroll offsets).
///
/// **Boundary rule.** Frames and bounds are closed-open (CGRectContainsPoint);
/// points exactly on the boundary of a rotated or path region may go either
/// way.
public struct HitTester: Sendable {
    /// The tree, as updated.
    public internal(set) var tree: ElementTree
    /// Per node: what queries read (see `HotNode`).
    var hot: [HotNode] = []
    /// Per node: the exposed nodes in its subtree, itself included (queries
    /// read only whether it is positive: `EngineState.subtreeExposed`).
    var exposedCounts: [Int32] = []
    /// Z-order among siblings (larger is in front), with gaps for inserts.
    var ranks: [Int64] = []
    /// A child's item number in its parent's `ContainerIndex`, or its
    /// position in its parent's block of `blocks`, or -1.
    var ordinals: [Int32] = []
    var indexes: [ContainerIndex] = []
    var freeIndexSlots: [Int32] = []
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

    /// Views with at least this many children get a `ContainerIndex`; fewer
    /// get a block of boxes scanned one by one, which is faster for a handful.
    static let indexThreshold = 16
    /// The rank step between consecutive siblings: room for inserts between.
    static let rankGap: Int64 = 1 << 20
    /// The flattening tolerance of paths on screen, in points.
    public static let pathTolerance: CGFloat = BezierPath.defaultFlatteningTolerance

    /// Builds the engine for `tree`: exposure, z-order, an index for every
    /// wide view, and every path filled as polygons (on all cores).
    ///
    /// - Complexity: O(n) plus the Hilbert sort of each wide view's children
    ///   and the flattening of paths.
    /// - Throws: `TreeError` for a tree the engine cannot take; every tree an
    ///   `ElementTree` accepts is taken today (paths are flattened, not
    ///   filled), so this does not throw in practice.
    public init(_ tree: ElementTree) throws(TreeError) {
        self.tree = tree
        shapes = ElementShapes(capacity: tree.capacity)
        growColumns()
        // Every node but the root sits in at most one block.
        blocks.boxes.reserveCapacity(tree.count)
        blocks.nodes.reserveCapacity(tree.count)
        guard !tree.root.isNone else { return }
        ranks[tree.root.index] = Self.rankGap
        try deriveSubtree(tree.root, structure: true)
    }

    mutating func growColumns() {
        let n = tree.capacity
        guard hot.count < n else { return }
        let extra = n - hot.count
        hot.append(contentsOf: repeatElement(HotNode(), count: extra))
        exposedCounts.append(contentsOf: repeatElement(0, count: extra))
        ranks.append(contentsOf: repeatElement(0, count: extra))
        ordinals.append(contentsOf: repeatElement(-1, count: extra))
        boxHits.grow(to: n)
        shapes.grow(to: n)
    }

    /// Whether a node with record `h` is a box hit (see `boxHits`). Its own
    /// frame and bounds must be moderate too: the exact test subtracts the
    /// bounds' midpoint, and a huge one would round it off.
    @inline(__always)
    static func isBoxHit(_ h: HotNode, hasChildren: Bool, in tree: ElementTree) -> Bool {
        guard h.state.contains(.exposed), h.flags.isDisjoint(with: [.hasAccessibilityFrame, .hasPath]),
              isModerate(h.frame), h.boundsSlot < 0 || isModerate(tree.boundsTable[Int(h.boundsSlot)]) else { return false }
        return h.isView ? h.transformSlot < 0 : h.flags.contains(.hasFrameInContainerSpace) && !hasChildren
    }

    /// Copies into `hot` the tree's fields of `id` that queries read. O(1);
    /// called after every change of the tree's node or links.
    @inline(__always)
    mutating func syncHot(_ id: NodeID) {
        guard !id.isNone else { return }
        let i = id.index
        hot[i].frame = Self.recordFrame(id, in: tree)
        hot[i].boundsSlot = tree.boundsSlots[i]
        hot[i].transformSlot = tree.transformSlots[i]
        hot[i].flags = tree.flags[i]
        boxHits[i] = Self.isBoxHit(hot[i], hasChildren: !tree.firstChild(of: id).isNone, in: tree)
    }

    /// What `HotNode.frame` holds for `id`.
    @inline(__always)
    static func recordFrame(_ id: NodeID, in tree: ElementTree) -> CGRect {
        tree.has(.hasFrameInContainerSpace, id) ? (tree.frameInContainerSpace(of: id) ?? .zero) : tree.frames[id.index]
    }

    /// `tree.boundsToParent(n)` from the packed record: the map from a
    /// view's bounds space to its parent's, `p ↦ center + T(p - boundsMid)`.
    @inline(__always)
    func boundsToParent(_ h: HotNode) -> CGAffineTransform {
        let f = h.frame
        let b = h.boundsSlot >= 0 ? tree.boundsTable[Int(h.boundsSlot)] : CGRect(origin: .zero, size: f.size)
        let cx = f.midX, cy = f.midY, bx = b.midX, by = b.midY
        guard h.transformSlot >= 0 else {
            return CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: cx - bx, ty: cy - by)
        }
        let t = tree.transformTable[Int(h.transformSlot)]
        return CGAffineTransform(
            a: t.a, b: t.b, c: t.c, d: t.d,
            tx: cx + t.tx - (t.a * bx + t.c * by),
            ty: cy + t.ty - (t.b * bx + t.d * by))
    }

    /// Box hits (`boxHits`) answer only where rounding can't matter: every
    /// view on the way down has a moderate map to the screen (axis-aligned,
    /// so that a box hit's region is its box; scale within 1/16 ... 16;
    /// translation under 2^24) and moderate frame and bounds, and the point
    /// is moderate too. Then every coordinate on either way to the answer
    /// (through the boxes, or through the exact screen-space test) stays
    /// under about 2^28, its rounding under 2^-22 a level, far below the
    /// room a box hit needs (`ChildBlocks.holdsWithRoom`, `minimumGridStep`).
    /// Anything else takes the exact test.
    @inline(__always)
    static func isModerate(_ t: CGAffineTransform) -> Bool {
        guard t.b == 0 && t.c == 0 else { return false }
        let a = abs(Double(t.a)), d = abs(Double(t.d))
        return a >= 0x1p-4 && a <= 0x1p4 && d >= 0x1p-4 && d <= 0x1p4
            && abs(Double(t.tx)) < 0x1p24 && abs(Double(t.ty)) < 0x1p24
    }

    /// See `isModerate(_: CGAffineTransform)`: both edges on each axis
    /// under 2^24 (bounded by origin and size together). False for null,
    /// infinite and NaN rects.
    @inline(__always)
    static func isModerate(_ r: CGRect) -> Bool {
        abs(Double(r.origin.x)) + abs(Double(r.size.width)) < 0x1p24
            && abs(Double(r.origin.y)) + abs(Double(r.size.height)) < 0x1p24
    }

    /// See `isModerate(_: CGAffineTransform)`.
    @inline(__always)
    static func isModerate(_ p: CGPoint) -> Bool {
        abs(Double(p.x)) < 0x1p24 && abs(Double(p.y)) < 0x1p24
    }

    /// Grids whose quantization step (the room a box hit needs there) is
    /// smaller than this don't answer box hits.
    static let minimumGridStep = 0x1p-13

    /// The view's bounds from the packed record.
    @inline(__always)
    func bounds(_ h: HotNode) -> CGRect {
        h.boundsSlot >= 0 ? tree.boundsTable[Int(h.boundsSlot)] : CGRect(origin: .zero, size: h.frame.size)
    }

    // MARK: Building

    /// What the nodes of one sibling list inherit from their parent.
    struct Inherited {
        /// The linear part of the parent's map to the screen (its
        /// container's, for an element node): all that boxes under a
        /// rotation and flattening tolerances depend on.
        var linear: CGAffineTransform
        /// Accessibility is blocked for every child: the parent is blocked or
        /// is itself an accessibility element.
        var blocked: Bool
        /// The parent's frontmost visible modal child, which suppresses the others.
        var modal: NodeID
        /// The rank of the next child visited (children are visited in order).
        var nextRank: Int64 = HitTester.rankGap
    }

    /// What the children of `node` (whose state is `state`) inherit, given
    /// what `node` inherited.
    static func inherited(by node: NodeID, state: EngineState, from parent: Inherited, in tree: ElementTree) -> Inherited {
        var linear = parent.linear
        let slot = tree.transformSlots[node.index]
        if slot >= 0 && tree.isView(node) {
            let t = tree.transformTable[Int(slot)]
            linear = CGAffineTransform(a: t.a, b: t.b, c: t.c, d: t.d, tx: 0, ty: 0).concatenating(linear)
        }
        return Inherited(
            linear: linear,
            blocked: state.contains(.blocked) || tree.has(.accessibilityElement, node),
            modal: state.contains(.hasModalChild) ? ScreenSpace.frontmostModalChild(of: node, in: tree) : .none)
    }

    /// The frontmost visible modal child of `node`, or `.none`: O(1) when no
    /// child is modal (the common case), else O(children).
    func frontmostModalChild(of node: NodeID) -> NodeID {
        hot[node.index].state.contains(.hasModalChild) ? ScreenSpace.frontmostModalChild(of: node, in: tree) : .none
    }

    /// Looks afresh for a modal child of `node`. O(children).
    mutating func countModalChildren(of node: NodeID) {
        if Self.hasModalChild(node, in: tree) {
            hot[node.index].state.insert(.hasModalChild)
        } else {
            hot[node.index].state.remove(.hasModalChild)
        }
    }

    /// Whether some child of `node` has `accessibilityViewIsModal`, visible or not. O(children).
    static func hasModalChild(_ node: NodeID, in tree: ElementTree) -> Bool {
        var c = tree.firstChild(of: node)
        while !c.isNone && !tree.has(.modal, c) { c = tree.nextSibling(of: c) }
        return !c.isNone
    }

    /// Whether accessibility hides `id` itself (not counting its ancestors).
    @inline(__always) func hiddenItself(_ id: NodeID) -> Bool { tree.isHiddenItself(id) }

    /// Derives the engine's state for the subtree at `top` (its ancestors'
    /// state is current): exposure and exposed counts, which it then adds to
    /// the ancestors; with `structure`, also ranks below `top`, container
    /// indexes and shapes (for a new subtree); without, exposure only (after
    /// a change of hidden, alpha, modal or element flags).
    ///
    /// Iterative: a chain of any depth is fine. Memory O(depth) plus the
    /// views whose index waits for the walk to end. O(subtree).
    mutating func deriveSubtree(_ top: NodeID, structure: Bool) throws(TreeError) {
        let before = exposedCounts[top.index]
        let start = Self.inheritedFromAncestors(of: top, in: self)
        var work = DeriveWork()
        // The walk writes the columns through pointers (no uniqueness check
        // per store) and reads a reference to the same tree.
        let tree = self.tree
        hot.withUnsafeMutableBufferPointer { hot in
            exposedCounts.withUnsafeMutableBufferPointer { counts in
                ranks.withUnsafeMutableBufferPointer { ranks in
                    boxHits.withUnsafeMutableWords { boxHits in
                        Self.derive(top, structure: structure, start, tree, hot, counts, ranks, boxHits, &work)
                    }
                }
            }
        }
        addExposedCount(exposedCounts[top.index] - before, aboveAndExcluding: top)
        for (view, linear) in work.pending { buildIndex(view, toScreen: work.linears[Int(linear)]) }
        shapes.fill(work.jobs)
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
    /// node's record on the way down, exposed counts on the way up.
    static func derive(_ top: NodeID, structure: Bool, _ start: Inherited, _ tree: ElementTree,
                       _ hot: UnsafeMutableBufferPointer<HotNode>, _ counts: UnsafeMutableBufferPointer<Int32>,
                       _ ranks: UnsafeMutableBufferPointer<Int64>, _ boxHits: UnsafeMutableBufferPointer<UInt64>,
                       _ work: inout DeriveWork) {
        /// Children are done: the node's count is final, and goes to its parent.
        func finish(_ n: NodeID) {
            let i = n.index
            if hot[i].state.contains(.exposed) { counts[i] += 1 }
            if counts[i] > 0 { hot[i].state.insert(.subtreeExposed) } else { hot[i].state.remove(.subtreeExposed) }
            if n != top { counts[tree.parent(of: n).index] += counts[i] }
        }
        var frames = [start]
        var n = top
        while true {
            let up = frames[frames.count - 1]
            let i = n.index
            let flags = tree.flags[i]
            let child = tree.firstChild(of: n)
            var state: EngineState = []
            if up.blocked || tree.isHiddenItself(n) || (!up.modal.isNone && up.modal != n) { state.insert(.blocked) }
            if !state.contains(.blocked) && flags.contains(.accessibilityElement) { state.insert(.exposed) }
            // The children's slot and the modal bit are the engine's own and
            // stay, but a new node (with `structure`) looks for a modal child.
            let kept = hot[i]
            let modal = structure ? !child.isNone && hasModalChild(n, in: tree) : kept.state.contains(.hasModalChild)
            if modal { state.insert(.hasModalChild) }
            hot[i] = HotNode(frame: recordFrame(n, in: tree), boundsSlot: tree.boundsSlots[i], transformSlot: tree.transformSlots[i],
                             childSlot: kept.childSlot, flags: flags, state: state, blockCount: kept.blockCount)
            NodeBits.set(boxHits, i, isBoxHit(hot[i], hasChildren: !child.isNone, in: tree))
            counts[i] = 0
            if structure && n != top {
                ranks[i] = frames[frames.count - 1].nextRank
                frames[frames.count - 1].nextRank += rankGap
            }
            // Leaves without a path (most nodes) pass nothing down.
            if !child.isNone || (structure && flags.contains(.hasPath)) {
                let down = inherited(by: n, state: state, from: up, in: tree)
                if structure {
                    if flags.contains(.hasPath), let path = tree.accessibilityPath(of: n) {
                        work.jobs.append(shapeJob(n, path, viewToScreen: down.linear))
                    }
                    if !child.isNone && !flags.contains(.element) {
                        if work.linears.last != down.linear { work.linears.append(down.linear) }
                        work.pending.append((n, Int32(work.linears.count - 1)))
                    }
                }
                if !child.isNone { frames.append(down); n = child; continue }
            }
            finish(n)
            while n != top && tree.nextSibling(of: n).isNone {
                n = tree.parent(of: n)
                frames.removeLast()
                finish(n)
            }
            if n == top { break }
            n = tree.nextSibling(of: n)
        }
    }

    /// What `top` inherits from its ancestors, computed from their current state.
    static func inheritedFromAncestors(of top: NodeID, in engine: HitTester) -> Inherited {
        let parent = engine.tree.parent(of: top)
        guard !parent.isNone else { return Inherited(linear: .identity, blocked: false, modal: .none) }
        let t = engine.tree.toScreen(of: parent)
        return Inherited(
            linear: CGAffineTransform(a: t.a, b: t.b, c: t.c, d: t.d, tx: 0, ty: 0),
            blocked: engine.hot[parent.index].state.contains(.blocked) || engine.tree.has(.accessibilityElement, parent),
            modal: engine.frontmostModalChild(of: parent))
    }

    /// Adds `delta` to the exposed counts of the ancestors of `id`. O(depth).
    mutating func addExposedCount(_ delta: Int32, aboveAndExcluding id: NodeID) {
        guard delta != 0 else { return }
        var a = tree.parent(of: id)
        while !a.isNone {
            let i = a.index
            exposedCounts[i] += delta
            if exposedCounts[i] > 0 { hot[i].state.insert(.subtreeExposed) } else { hot[i].state.remove(.subtreeExposed) }
            a = tree.parent(of: a)
        }
    }

    /// The job that fills `path` of node `n`: a screen path stays in screen
    /// space; a view-space path stays in its view's space and is flattened
    /// finely enough for the view's largest stretch to the screen.
    static func shapeJob(_ n: NodeID, _ path: AccessibilityPath, viewToScreen t: CGAffineTransform) -> ElementShapes.Job {
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
        var c = tree.firstChild(of: v)
        while !c.isNone && count < Self.indexThreshold { count += 1; c = tree.nextSibling(of: c) }
        guard count >= Self.indexThreshold else {
            dropIndex(of: v)
            buildBlock(v, toScreen: toScreen)
            return
        }
        var items: [NodeID] = []
        c = tree.firstChild(of: v)
        while !c.isNone { items.append(c); c = tree.nextSibling(of: c) }
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
        let index = ContainerIndex(items: items, local: localBoxes, screen: screenBoxes,
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
        let start = blocks.boxes.count
        var count = 0
        var c = tree.firstChild(of: v)
        while !c.isNone {
            let boxes = itemBoxes(c, containerToScreen: toScreen)
            guard boxes.screen.isNull else {
                blocks.truncate(to: start)
                var c = tree.firstChild(of: v)
                while !c.isNone { ordinals[c.index] = -1; c = tree.nextSibling(of: c) }
                return
            }
            ordinals[c.index] = Int32(count)
            blocks.append(c, boxes.local)
            count += 1
            c = tree.nextSibling(of: c)
        }
        guard count > 0 else { return }
        hot[v.index].childSlot = Int32(start)
        hot[v.index].blockCount = UInt8(count)
    }

    /// Forgets the block of `v`, if any (its entries become garbage).
    mutating func dropBlock(of v: NodeID) {
        let h = hot[v.index]
        guard h.blockStart >= 0 else { return }
        blocks.garbage += Int(h.blockCount)
        hot[v.index].childSlot = -1
        hot[v.index].blockCount = 0
    }

    /// Copies the live blocks into fresh arrays when dropped ones take half
    /// the room. O(nodes), once per as many dropped entries as live ones.
    mutating func compactBlocksIfNeeded() {
        guard blocks.needsCompaction else { return }
        var fresh = ChildBlocks()
        fresh.boxes.reserveCapacity(blocks.boxes.count - blocks.garbage)
        fresh.nodes.reserveCapacity(blocks.boxes.count - blocks.garbage)
        for i in hot.indices where hot[i].blockStart >= 0 {
            let start = Int(hot[i].blockStart), end = start + Int(hot[i].blockCount)
            hot[i].childSlot = Int32(fresh.boxes.count)
            fresh.boxes.append(contentsOf: blocks.boxes[start ..< end])
            fresh.nodes.append(contentsOf: blocks.nodes[start ..< end])
        }
        blocks = fresh
    }

    mutating func dropIndex(of v: NodeID) {
        let slot = hot[v.index].indexSlot
        guard slot >= 0 else { return }
        indexes[Int(slot)] = ContainerIndex()
        freeIndexSlots.append(slot)
        hot[v.index].childSlot = -1
    }

    static func corners(_ r: CGRect) -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        r.isNull ? (.nan, .nan, .nan, .nan) : (Double(r.minX), Double(r.minY), Double(r.maxX), Double(r.maxY))
    }

    /// Where a point can hit `item` (a child of a view whose map to the
    /// screen is `containerToScreen`) or anything in its subtree, under
    /// either policy, whatever its exposure: a box in the view's bounds space
    /// and one in screen space.
    ///
    /// A view's subtree is cut by its bounds, so the converted bounds hold
    /// it; its own frame-policy region is the screen box of those bounds,
    /// which under a rotation of the container is larger: its preimage is
    /// added. An element node adds its frame in container space (with the
    /// same preimage), its explicit screen frame and its path, and those of
    /// its element descendants.
    @inline(__always)
    func itemBoxes(_ item: NodeID, containerToScreen t: CGAffineTransform) -> ItemBoxes {
        // The common cases from the item's record (current: it is written
        // before any index that holds the item is built or refitted).
        let h = hot[item.index]
        if h.transformSlot < 0 && h.flags.isDisjoint(with: [.hasAccessibilityFrame, .hasPath]) && t.b == 0 && t.c == 0 {
            if h.isView {
                // Its bounds' quad in the parent: its frame resized about the
                // centre to the bounds' size.
                let f = h.frame, b = bounds(h)
                return ItemBoxes(local: CGRect(x: f.midX - b.width / 2, y: f.midY - b.height / 2, width: b.width, height: b.height))
            }
            if tree.firstChild(of: item).isNone {
                // An element leaf: its frame in container space, if any.
                return ItemBoxes(local: h.flags.contains(.hasFrameInContainerSpace) ? h.frame : .null)
            }
        }
        return Self.itemBoxes(item, containerToScreen: t, in: tree)
    }

    /// `itemBoxes(_:containerToScreen:)` in general. Static, so that a call
    /// from a mutating method borrows the tree rather than copying the engine.
    static func itemBoxes(_ item: NodeID, containerToScreen t: CGAffineTransform, in tree: ElementTree) -> ItemBoxes {
        var boxes = ItemBoxes()
        let linear = CGAffineTransform(a: t.a, b: t.b, c: t.c, d: t.d, tx: 0, ty: 0)
        let aligned = t.b == 0 && t.c == 0
        let inverse = linear.isInvertible ? linear.inverted() : nil
        /// The screen box of `r` (in container space), as a box in container space.
        func addFrameRegion(_ r: CGRect) {
            boxes.addLocal(r)
            if !aligned, let inverse { boxes.addLocal(r.applying(linear).applying(inverse)) }
        }
        func addPath(_ n: NodeID, toContainer: CGAffineTransform) {
            guard let path = tree.accessibilityPath(of: n) else { return }
            let bounds = path.path.controlPointBounds  // holds the filled region
            guard !bounds.isNull else { return }
            switch path.coordinateSpace {
            case .screen: boxes.screen = ItemBoxes.union(boxes.screen, bounds)
            case .view: boxes.addLocal(bounds.applying(toContainer))
            }
        }
        if tree.isView(item) {
            let toContainer = tree.boundsToParent(item)
            let quad = tree.bounds(of: item).applying(toContainer)
            if let f = tree.explicitAccessibilityFrame(of: item) {
                boxes.addLocal(quad)
                boxes.addScreen(f)
            } else {
                addFrameRegion(quad)
            }
            addPath(item, toContainer: toContainer)
        } else {
            tree.forEachInPreOrder(from: item) { e in
                if let fic = tree.frameInContainerSpace(of: e) {
                    addFrameRegion(fic)
                } else if let f = tree.explicitAccessibilityFrame(of: e) {
                    boxes.addScreen(f)
                }
                addPath(e, toContainer: .identity)
            }
        }
        return boxes
    }

    // MARK: Queries

    /// The frontmost exposed element whose region under `policy` holds the
    /// screen point `p`, or nil.
    ///
    /// - Complexity: O(depth + log(children)) per level on typical layouts;
    ///   no GEOS call, no lock, and no allocation once `scratch` has grown.
    public func hit(_ p: CGPoint, policy: HitPolicy = .frame, scratch: inout HitScratch) -> NodeID? {
        var found: NodeID?
        search(p, policy: policy, scratch: &scratch) { found = $0; return false }
        return found
    }

    /// The frontmost exposed element under `p` (see `hit(_:policy:scratch:)`);
    /// allocates its working memory.
    public func hit(_ p: CGPoint, policy: HitPolicy = .frame) -> NodeID? {
        var scratch = HitScratch()
        return hit(p, policy: policy, scratch: &scratch)
    }

    /// Every exposed element whose region under `policy` holds `p`, front to
    /// back (the reverse of pre-order).
    public func hitAll(_ p: CGPoint, policy: HitPolicy = .frame) -> [NodeID] {
        var scratch = HitScratch()
        var all: [NodeID] = []
        search(p, policy: policy, scratch: &scratch) { all.append($0); return true }
        return all
    }

    /// The answers for many points, computed on all cores.
    ///
    /// - Complexity: the points' queries divided among the cores; one scratch
    ///   per worker.
    public func hit(_ points: [CGPoint], policy: HitPolicy = .frame) -> [NodeID?] {
        parallelMap(points.count, minimumChunk: 256, makeWorker: { HitScratch() }) { scratch, i in
            hit(points[i], policy: policy, scratch: &scratch)
        }
    }

    /// Visits the exposed elements whose region holds `p`, front to back,
    /// until `visit` returns false.
    @inline(__always)
    func search(_ p: CGPoint, policy: HitPolicy, scratch: inout HitScratch, _ visit: (NodeID) -> Bool) {
        let root = tree.root
        guard !root.isNone, hot[root.index].state.contains(.subtreeExposed) else { return }
        scratch.stack.reset()
        // Box hits serve the frame policy only, at a moderate point (checked
        // once here; each view on the way down checks its own values).
        scratch.stack.push(.init(node: root, moderatePath: policy == .frame && Self.isModerate(p), point: p, toScreen: .identity))
        while let entry = scratch.stack.pop() {
            let n = entry.node
            if entry.isHit {
                if !visit(n) { return }
                continue
            }
            let h = hot[n.index]
            guard h.state.contains(.subtreeExposed) else { continue }
            let exposed = h.state.contains(.exposed)
            if h.isView {
                let toParent = boundsToParent(h)
                // Nil for a view scaled to nothing: its bounds have no area and
                // hold no point (though its screen-aligned frame may).
                let q = Self.inverseApply(toParent, entry.point)
                let toScreen = toParent.concatenating(entry.toScreen)
                if exposed {
                    // An exposed element hides its subtree: only its region counts.
                    if viewRegionContains(n, h, policy, own: q, screen: p, toScreen: toScreen), !visit(n) { return }
                    continue
                }
                let b = bounds(h)
                guard let q, b.containsClosedOpen(q) else { continue }
                let moderatePath = entry.moderatePath && Self.isModerate(toScreen) && Self.isModerate(h.frame) && Self.isModerate(b)
                pushChildren(of: n, h, local: q, screen: p, toScreen: toScreen, moderatePath: moderatePath, scratch: &scratch)
            } else {
                if exposed {
                    if elementRegionContains(n, h, policy, container: entry.point, screen: p, containerToScreen: entry.toScreen),
                       !visit(n) { return }
                    continue
                }
                var c = tree.firstChild(of: n)
                while !c.isNone {
                    scratch.stack.push(.init(node: c, moderatePath: entry.moderatePath, point: entry.point, toScreen: entry.toScreen))
                    c = tree.nextSibling(of: c)
                }
            }
        }
    }

    /// Pushes the children of view `h` that may hold the point, backmost
    /// first so that the frontmost is searched first.
    @inline(__always)
    func pushChildren(of n: NodeID, _ h: HotNode, local q: CGPoint, screen p: CGPoint, toScreen: CGAffineTransform,
                      moderatePath: Bool, scratch: inout HitScratch) {
        // Children are pushed without reading their records (a cache miss
        // each): the search checks the exposed count when it pops them,
        // unless the child is a box hit with the point well inside its box
        // (on a moderate path only).
        if h.blockStart >= 0 {
            let qv = ChildBlocks.query(q)
            let start = Int(h.blockStart), end = start + Int(h.blockCount)
            blocks.boxes.withUnsafeBufferPointer { boxes in
                blocks.nodes.withUnsafeBufferPointer { nodes in
                    boxHits.withUnsafeWords { boxHits in
                        for k in start ..< end where PackedRTree.matches(boxes[k], qv) {
                            let c = nodes[k]
                            let isHit = moderatePath && NodeBits.test(boxHits, c.index) && ChildBlocks.holdsWithRoom(boxes[k], q)
                            scratch.stack.push(.init(node: c, isHit: isHit, moderatePath: moderatePath, point: q, toScreen: toScreen))
                        }
                    }
                }
            }
            return
        }
        let slot = h.indexSlot
        if slot < 0 {
            var c = tree.firstChild(of: n)
            while !c.isNone {
                scratch.stack.push(.init(node: c, moderatePath: moderatePath, point: q, toScreen: toScreen))
                c = tree.nextSibling(of: c)
            }
            return
        }
        // Through a pointer: the array's subscript would copy the index
        // (a retain of each of its arrays) for every query.
        let pushed = indexes.withUnsafeBufferPointer { indexes -> Bool in
            let index = indexes.baseAddress! + Int(slot)
            // (No `&&` on the index itself: its autoclosure would capture,
            // and copy, the index.)
            // Numbers only: reading an array or dictionary through the
            // pointer would retain and release it.
            let grid = index.pointee.grid.count > 0, keysAreNodes = index.pointee.gridKeysAreNodes
            let noRemovals = index.pointee.removed == 0, noOverflow = index.pointee.overflow.count == 0
            guard grid && keysAreNodes && noRemovals && noOverflow else { return false }
            // The common wide view: the grid's answers are the children
            // themselves, back to front, straight onto the stack.
            // The cells as plain values: no copy of the grid, no retain.
            let cells = index.pointee.grid.cells
            if cells.outsideCells == 0 {
                let gridHits = moderatePath && cells.quantizationStep >= Self.minimumGridStep
                boxHits.withUnsafeWords { boxHits in
                    cells.forEach(containing: q) { key, withRoom in
                        let isHit = gridHits && withRoom && NodeBits.test(boxHits, Int(key))
                        scratch.stack.push(.init(node: NodeID(key), isHit: isHit, moderatePath: moderatePath, point: q,
                                                 toScreen: toScreen))
                        return true
                    }
                }
            } else {
                index.pointee.grid.forEach(containing: q) { key in
                    scratch.stack.push(.init(node: NodeID(key), moderatePath: moderatePath, point: q, toScreen: toScreen))
                    return true
                }
            }
            return true
        }
        if pushed { return }
        scratch.candidates.removeAll(keepingCapacity: true)
        let overflow = indexes.withUnsafeBufferPointer { indexes in
            Self.collectCandidates(indexes.baseAddress! + Int(slot), local: q, screen: p, into: &scratch.candidates)
        }
        if overflow { sortByRank(&scratch.candidates) }
        var last = NodeID.none
        for c in scratch.candidates where c != last {
            last = c
            scratch.stack.push(.init(node: c, moderatePath: moderatePath, point: q, toScreen: toScreen))
        }
    }

    /// Appends the children of an indexed view whose boxes hold the point
    /// (`q` in the view's space, `p` on the screen), back to front, then its
    /// overflow; returns whether there was any (then the caller must sort by
    /// rank). A grid answers in z-order; a tree's item numbers are in
    /// z-order, so sorting them orders the children without touching the
    /// nodes' memory. Takes the index by pointer: a copy would retain each
    /// of its arrays.
    @inline(__always)
    static func collectCandidates(_ index: UnsafePointer<ContainerIndex>, local q: CGPoint, screen p: CGPoint,
                                  into candidates: inout [NodeID]) -> Bool {
        let start = candidates.count
        if index.pointee.grid.count > 0 {
            // Already in z-order, each once (a grid implies no screen boxes).
            // The common case, nothing added or removed, never gets here
            // (see `pushChildren`).
            index.pointee.forEachChild(containing: q) { c in
                candidates.append(c)
                return true
            }
        } else {
            index.pointee.local.forEach(containing: q) { k in
                candidates.append(NodeID(k))
                return true
            }
            mapToNodes(index, screen: p, &candidates, from: start)
        }
        if index.pointee.overflow.isEmpty { return false }
        index.pointee.overflow.forEach(local: q, screen: p) { candidates.append($0) }
        return true
    }

    /// Adds the items of the screen tree that hold `p` to the item numbers
    /// in `candidates[start...]`, then sorts them, drops duplicates and maps
    /// them to nodes.
    @inline(__always)
    static func mapToNodes(_ index: UnsafePointer<ContainerIndex>, screen p: CGPoint, _ candidates: inout [NodeID], from start: Int) {
        if index.pointee.screen.count > 0 {
            index.pointee.screen.forEach(containing: p) { k in
                candidates.append(NodeID(k))
                return true
            }
        }
        // Item numbers for now: sort, drop duplicates, then map to nodes.
        if candidates.count - start > 1 {
            candidates[start...].sort()
        }
        index.pointee.items.withUnsafeBufferPointer { items in
            var write = start
            var last = Int32(-1)
            for read in start ..< candidates.count {
                let k = candidates[read].rawValue
                if k == last || items[Int(k)].isNone { continue }
                last = k
                candidates[write] = items[Int(k)]
                write += 1
            }
            candidates.removeSubrange(write...)
        }
    }

    /// Sorts nodes back to front by rank: insertion sort, since a point
    /// rarely lies in more than a few children's boxes.
    @inline(__always)
    func sortByRank(_ nodes: inout [NodeID]) {
        if nodes.count > 32 { nodes.sort { ranks[$0.index] < ranks[$1.index] }; return }
        var i = 1
        while i < nodes.count {
            let x = nodes[i], rx = ranks[x.index]
            var j = i - 1
            while j >= 0 && ranks[nodes[j].index] > rx { nodes[j + 1] = nodes[j]; j -= 1 }
            nodes[j + 1] = x
            i += 1
        }
    }

    /// `t⁻¹(p)`, or nil when `t` is singular.
    @inline(__always)
    static func inverseApply(_ t: CGAffineTransform, _ p: CGPoint) -> CGPoint? {
        let x = p.x - t.tx, y = p.y - t.ty
        if t.b == 0 && t.c == 0 {
            guard t.a != 0 && t.d != 0 else { return nil }
            return CGPoint(x: x / t.a, y: y / t.d)
        }
        let det = t.a * t.d - t.b * t.c
        guard det != 0 && det.isFinite else { return nil }
        return CGPoint(x: (t.d * x - t.c * y) / det, y: (t.a * y - t.b * x) / det)
    }

    /// Whether the region of view `n` holds the point, given as `q` in the
    /// view's own bounds space (nil when that space is singular) and `p` on
    /// the screen.
    @inline(__always)
    func viewRegionContains(_ n: NodeID, _ h: HotNode, _ policy: HitPolicy, own q: CGPoint?, screen p: CGPoint,
                            toScreen: CGAffineTransform) -> Bool {
        switch policy {
        case .frame:
            if h.flags.contains(.hasAccessibilityFrame), let f = tree.explicitAccessibilityFrame(of: n) {
                return f.containsClosedOpen(p)
            }
            return bounds(h).applying(toScreen).containsClosedOpen(p)
        case .shape:
            if h.flags.contains(.hasPath), let shape = shapes.shape(of: n) {
                if shape.inScreenSpace { return shape.region.contains(p) }
                return q.map { shape.region.contains($0) } ?? false
            }
            return q.map { bounds(h).containsClosedOpen($0) } ?? false
        }
    }

    /// Whether the region of element node `n` holds the point, given as `pc`
    /// in its container's bounds space and `p` on the screen.
    @inline(__always)
    func elementRegionContains(_ n: NodeID, _ h: HotNode, _ policy: HitPolicy, container pc: CGPoint, screen p: CGPoint,
                               containerToScreen: CGAffineTransform) -> Bool {
        switch policy {
        case .frame:
            if h.flags.contains(.hasFrameInContainerSpace) { return h.frame.applying(containerToScreen).containsClosedOpen(p) }
            return (tree.explicitAccessibilityFrame(of: n) ?? .zero).containsClosedOpen(p)
        case .shape:
            if h.flags.contains(.hasPath), let shape = shapes.shape(of: n) {
                return shape.region.contains(shape.inScreenSpace ? p : pc)
            }
            if h.flags.contains(.hasFrameInContainerSpace) { return h.frame.containsClosedOpen(pc) }
            return (tree.explicitAccessibilityFrame(of: n) ?? .zero).containsClosedOpen(p)
        }
    }

    /// Bytes the engine holds beyond the tree: per-node columns and indexes
    /// (not the flattened paths).
    public var memoryBytes: Int {
        hot.count * (MemoryLayout<HotNode>.stride + 2 * MemoryLayout<Int32>.stride + MemoryLayout<Int64>.stride)
            + indexes.reduce(0) { $0 + $1.memoryBytes } + blocks.memoryBytes + boxHits.memoryBytes
    }
}
