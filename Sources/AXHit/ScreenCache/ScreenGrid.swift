import AXGeometry
import Foundation

/// Every answer a frame query can have on a screen that no longer changes,
/// in a uniform grid in screen space (or one per size class of box): a
/// query reads the one cell under the point instead of descending a record
/// per view.
///
/// **Entries.** In pre-order (back to front), one per place the per-view
/// search can end:
/// - an exposed element reached from the root through views that only
///   translate and keep moderate values: its frame-policy region
///   (`HitTester.viewFrameRegion`, `elementFrameRegion`, as the per-view
///   search computes it) cut by the bounds of every view above it (UIKit
///   prunes by each one), answered from the entry alone;
/// - an exposed element below views that turn or scale gently (at most
///   `maxTurns` views from the first): the same region cut by those views'
///   bounding boxes on the screen, answered only where the point is also
///   inside every edge of their bounds by more than the rounding (`Edges`);
/// - under TalkBack's rules, the hover's entries instead
///   (`HitTester.hoverEntries()`), in the order it offers the point: each
///   node's reach and the nearest exposed node among it and its ancestors;
///   a window with none files a *stop* entry over its bounds
///   (`windowStop`), answered "nothing" (the topmost window holding the
///   point decides);
/// - an *opaque* entry for a subtree the grid does not flatten (a view
///   that turns or scales too much, too many turns, a deep chain), over
///   where that subtree's answers must lie: the view's bounds on the
///   screen, widened by their mapping's rounding and cut by the views
///   above; or the cut alone where that rounding has no small bound (huge
///   or ill-conditioned values), or for the rest of a chain deeper than
///   `maxDepth`. An exposed element whose region is not moderate is opaque
///   over that region. A query whose frontmost candidate is opaque takes
///   the per-view search.
///
/// **Exactness.** Boxes and cuts are computed in screen space, the per-view
/// search maps the point down level by level; on a moderate path the two
/// differ by at most 2^-16 pt (`HitTester.isModerate`: every value under
/// about 2^28, its rounding under 2^-22 a level, at most `maxDepth`
/// levels). Every box is widened by `slack` (2^-16) before it goes into the
/// grid, so a point outside an entry is outside the exact region too, and
/// an answer is taken only with room inside the widened box, so inside the
/// exact region: a cell's room is its quantization step (at least
/// `IndexPolicy.minimumGridStep`, 2^-13), a loose entry's that of
/// `ChildBlocks.holdsWithRoom` (over 2^-14). Below a turn, the views'
/// edges carry a margin of at least 1 pt, far above the rounding of a
/// gentle map: a point that far outside one is surely not reached there
/// (the entry is passed over for the one behind it), one that far inside
/// all of them surely is. Anything closer to an edge is undecided, and the
/// caller searches per view.
///
/// **First read.** Before the cells, a query reads its tile
/// (`ScreenTiles`): on a screen of cells in rows, one 8-byte read answers
/// most points, and the cells decide the rest.
///
/// **Reading ahead.** Many points at once (`HitTester.hit(_:policy:scratch:into:readingAhead:)`)
/// are answered in groups; on a grid larger than the caches keep
/// (`readsAhead`), what each group's queries will read (tiles, cell
/// entries, edges) is asked of memory before any of its points is
/// answered (`readAhead`), so that their misses overlap.
///
/// **Lifetime.** Built on request (`HitTester.buildScreenGrid()`, which
/// keeps the engine's own tiles when none is stale), or with the engine,
/// whole where it costs little and else as tiles alone
/// (`HitTester.buildOwnScreenGrid()`); shared by copies of the engine,
/// never changed. An update marks stale the screen
/// area where it may change answers (`StaleAreas`, kept by the engine), and
/// the grid answers everywhere else; an update whose reach has no small
/// bound, or that leaves half of `elementArea` stale, drops it.
///
/// **Memory.** The grids' 12 bytes per cell entry (two to four per entry,
/// `CellGrid`) and 4 per cell, plus the entry's 8-byte handle (none where
/// the keys are the nodes' slots, `keysAreSlots`); the tiles'
/// 8 bytes each (about one per entry on a full screen); below turns, 4
/// bytes per entry and the edges (`Edges`).
final class ScreenGrid: Sendable {
    /// One grid over every entry, or, when `CellGrid` declines them together
    /// (a screen's large boxes, a full-width banner over rows of small
    /// cells, would size or crowd the cells of its small ones), one per
    /// power of four of a box's longer side: the largest class here and the
    /// rest in `others`. Item keys are entry numbers, or the entries' node
    /// slots (`keysAreSlots`).
    let first: CellGrid
    let others: [CellGrid]
    /// Entry `k`'s node; `.none` for an opaque entry, `windowStop` for a
    /// window's stop (TalkBack). Empty when the keys are the nodes' slots.
    let nodes: [NodeID]
    /// The edges of the views that turn or scale above entries (see
    /// `Edges`); empty when there are none.
    let edges: Edges
    /// The first read: one tile per pitch of the layout (`ScreenTiles`);
    /// nil where the screen's boxes would mark too many tiles.
    let tiles: ScreenTiles?
    /// False for the tiles alone (`init(tiles:)`): the cells are empty, and
    /// what the tiles leave undecided is the per-view search's.
    let hasCells: Bool
    /// Where the grid may decide (an element, or nothing): its tiles'
    /// raster and the union of its boxes. Everywhere else it answers
    /// `.undecided`, so an update's reach matters only within it.
    let answerArea: CGRect
    /// Where the grid may name an element: the union of its boxes (of the
    /// tiles' answerable ones, for the tiles alone). Outside it, the cells
    /// leave a point undecided.
    let elementArea: CGRect
    /// Whether the cells' keys are the entries' node slots: when every
    /// entry is an element of its slot's first generation, in increasing
    /// slot order (the pre-order of a tree read from a file or built in
    /// order), below no turn. A key then is its answer, with no read of
    /// `nodes` (a cache miss on a large screen, and 8 bytes an entry).
    /// Kept after the fields every query reads (`tiles`, `hasCells`):
    /// placed before them it moved them, and a fresh `flat` engine's
    /// queries, which read no cell, were 10–15% slower in two A/Bs.
    let keysAreSlots: Bool
    /// Whether a batch of queries reads the grid ahead (`readAhead`):
    /// where it holds more than `IndexPolicy.readAheadBytes`, beyond what
    /// a core's caches keep.
    let readsAhead: Bool

    /// The node of a window's stop entry (TalkBack): a point it holds that
    /// no entry in front of it does has no answer.
    static let windowStop = NodeID(Int32(-2))

    /// How far each box is widened (see the type's notes).
    static let slack = 0x1p-16
    /// The longest chain of nodes below the root the grid flattens; deeper
    /// subtrees are opaque (it bounds the rounding, see the type's notes).
    static let maxDepth = 64
    /// The most views, from the first that turns or scales down, above an
    /// element the grid still answers for (each adds its rounding and its
    /// four edges); below more, subtrees are opaque.
    static let maxTurns = 8

    /// What the grid says of a point.
    enum Answer: Equatable {
        /// The frontmost exposed element there.
        case node(NodeID)
        /// No exposed element there.
        case nothing
        /// The point is near an edge, or over a subtree the grid does not
        /// flatten: the per-view search decides.
        case undecided
    }

    /// A grid over `boxes` (widened by `slack`, in pre-order) for `nodes`,
    /// or nil when `CellGrid` declines the boxes of a size class (too
    /// clustered, too many too wide) or its room would be under
    /// `IndexPolicy.minimumGridStep`. Its tiles are `tiles` when given (the
    /// engine's own, still current: `HitTester.buildScreenGrid()`), else
    /// made from the entries.
    init?(boxes: [CGRect], nodes: [NodeID], edges: Edges = Edges(), tiles known: ScreenTiles? = nil) {
        guard !boxes.isEmpty, boxes.count == nodes.count, boxes.count <= Int(Int32.max) else { return nil }
        guard edges.groups.isEmpty || edges.groups.count == nodes.count else { return nil }
        let keysAreSlots = edges.groups.isEmpty && Self.slotsIncrease(nodes)
        // However few: a screen of twenty rows gains as much as a million.
        // Cells keep the room an answer needs however small the boxes (a
        // class of zero-size views shares cells of 8 pt).
        let slots = keysAreSlots ? nodes.map(\.rawValue) : []
        func grid(_ entries: [Int32]?) -> CellGrid? {
            // A class's keys: its entry numbers (nil: all of them), or their slots.
            let keys = keysAreSlots ? entries?.map { slots[Int($0)] } ?? slots : entries
            let grid = CellGrid(
                boxes: entries.map { $0.map { boxes[Int($0)] } } ?? boxes, keys: keys,
                minimumCount: IndexPolicy.screenGridMinimumEntries, minimumStep: IndexPolicy.minimumGridStep)
            return grid.flatMap { $0.cells.quantizationStep >= IndexPolicy.minimumGridStep ? $0 : nil }
        }
        if let one = grid(nil) {
            first = one
            others = []
        } else {
            var classes = [[Int32]](repeating: [], count: 65)
            for (k, r) in boxes.enumerated() {
                let side = min(max(Double(r.width), Double(r.height), 0x1p-64), 0x1p64)
                classes[(Int(side.exponent) + 64) / 2].append(Int32(k))
            }
            var levels: [CellGrid] = []
            for keys in classes.filter({ !$0.isEmpty }).sorted(by: { $0.count > $1.count }) {
                guard let level = grid(keys) else { return nil }
                levels.append(level)
            }
            first = levels[0]
            others = Array(levels.dropFirst())
        }
        self.nodes = keysAreSlots ? [] : nodes
        self.keysAreSlots = keysAreSlots
        self.edges = edges
        tiles =
            known ?? ScreenTiles(boxes: boxes, nodes: nodes, answerable: Self.answerable(nodes: nodes, edges: edges))
        hasCells = true
        elementArea = boxes.reduce(.null) { ItemBoxes.union($0, $1) }
        answerArea = ItemBoxes.union(elementArea, tiles?.raster ?? .null)
        readsAhead = Self.bytes(first, others, self.nodes, edges, tiles) > IndexPolicy.readAheadBytes
    }

    /// The tiles alone, with no cells: the engine's own where a whole grid
    /// would cost too much (see `HitTester.buildOwnScreenGrid()`).
    init(tiles: ScreenTiles) {
        first = CellGrid()
        others = []
        nodes = []
        keysAreSlots = false
        edges = Edges()
        self.tiles = tiles
        hasCells = false
        elementArea = tiles.elementArea
        answerArea = tiles.raster
        readsAhead = Self.bytes(first, others, self.nodes, edges, tiles) > IndexPolicy.readAheadBytes
    }

    /// Whether every entry is an element of its slot's first generation,
    /// in increasing slot order (see `keysAreSlots`).
    private static func slotsIncrease(_ nodes: [NodeID]) -> Bool {
        var last: Int32 = -1
        for n in nodes {
            guard n.rawValue > last, n.generation == 0 else { return false }
            last = n.rawValue
        }
        return true
    }

    /// Per entry, whether it is answered from its box alone: an element
    /// (not opaque, not a stop) on a path that only translates (no edge
    /// group).
    static func answerable(nodes: [NodeID], edges: Edges) -> [Bool] {
        nodes.indices.map { k in !nodes[k].isNone && (edges.groups.isEmpty || edges.groups[k] < 0) }
    }

    /// The answer at a moderate screen point `p` (`HitTester.isModerate`).
    ///
    /// - Complexity: O(entries in the point's cell + loose entries) per
    ///   size class, once more for each entry passed over below a turn
    ///   (each at most 128 + 64, `CellGrid`); no allocation.
    @inline(__always)
    func answer(_ p: CGPoint) -> Answer {
        if let tiles {
            let answer = tiles.answer(p)
            if answer != .undecided { return answer }
        }
        return hasCells ? cellAnswer(p) : .undecided
    }

    /// Asks memory, without waiting, for what answering `points` will read
    /// (a group of a few dozen at most), stage by stage: each point's tile
    /// and where its cell lists lie; then the front ends of the lists its
    /// tile leaves undecided; then, where entries carry edges or handles,
    /// its frontmost candidate's edge group and handle; then that group's
    /// lines and its parent link; then the parent group's lines. Each stage
    /// reads what the one before asked for, so that the group's misses
    /// overlap instead of following one another. Points beyond moderate
    /// coordinates, which the grid does not answer, are passed over.
    func readAhead(_ points: UnsafeBufferPointer<CGPoint>) {
        for p in points where HitTester.isModerate(p) { prefetchFirst(p) }
        guard hasCells else { return }
        // Per point: `toCells` where its tile leaves it to the cells, then
        // its frontmost candidate there; -1 for none.
        let toCells: Int32 = -2
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: points.count) { fronts in
            for (i, p) in points.enumerated() {
                let cells = HitTester.isModerate(p) && tileLeavesUndecided(p)
                fronts[i] = cells ? toCells : -1
                if cells { prefetchCells(p) }
            }
            // Keys are entry numbers from here on: a grid whose keys are the
            // nodes' slots has neither edges nor handles.
            guard !edges.groups.isEmpty || !nodes.isEmpty else { return }
            for (i, p) in points.enumerated() where fronts[i] == toCells {
                let front = frontmost(p, below: .max).front
                fronts[i] = front
                guard front >= 0 else { continue }
                if !edges.groups.isEmpty {
                    edges.groups.withUnsafeBufferPointer { prefetch($0.baseAddress! + Int(front)) }
                }
                if !nodes.isEmpty { nodes.withUnsafeBufferPointer { prefetch($0.baseAddress! + Int(front)) } }
            }
            guard !edges.groups.isEmpty else { return }
            edges.groups.withUnsafeBufferPointer { groups in
                edges.lines.withUnsafeBufferPointer { lines in
                    edges.parents.withUnsafeBufferPointer { parents in
                        // A group's four lines are two cache lines.
                        func prefetchLines(_ g: Int) {
                            prefetch(lines.baseAddress! + 4 * g)
                            prefetch(lines.baseAddress! + 4 * g + 2)
                        }
                        for front in fronts where front >= 0 {
                            let g = Int(groups[Int(front)])
                            guard g >= 0 else { continue }
                            prefetchLines(g)
                            prefetch(parents.baseAddress! + g)
                        }
                        // The view above's lines, which the query reads next.
                        for front in fronts where front >= 0 {
                            let g = Int(groups[Int(front)])
                            guard g >= 0, parents[g] >= 0 else { continue }
                            prefetchLines(Int(parents[g]))
                        }
                    }
                }
            }
        }
    }

    /// Whether `p`'s tile, if any, leaves it to the cells.
    @inline(__always)
    private func tileLeavesUndecided(_ p: CGPoint) -> Bool {
        tiles.map { $0.answer(p) == .undecided } ?? true
    }

    /// Asks for `p`'s tile and where its cell lists lie (`readAhead`).
    @inline(__always)
    private func prefetchFirst(_ p: CGPoint) {
        tiles?.prefetch(p)
        guard hasCells else { return }
        first.cells.prefetchBounds(containing: p)
        if !others.isEmpty {
            others.withUnsafeBufferPointer { levels in
                for level in levels.indices { levels[level].cells.prefetchBounds(containing: p) }
            }
        }
    }

    /// Asks for the front ends of `p`'s cell lists (`readAhead`).
    @inline(__always)
    private func prefetchCells(_ p: CGPoint) {
        first.cells.prefetchEntries(containing: p)
        if !others.isEmpty {
            others.withUnsafeBufferPointer { levels in
                for level in levels.indices { levels[level].cells.prefetchEntries(containing: p) }
            }
        }
    }

    /// The answer at `p` from the cells (see `answer(_:)`): out of line, so
    /// that a tile's answer inlines into its caller as a few instructions.
    @inline(never)
    private func cellAnswer(_ p: CGPoint) -> Answer {
        let x = Double(p.x), y = Double(p.y)
        guard x >= Double(elementArea.minX), x <= Double(elementArea.maxX), y >= Double(elementArea.minY),
            y <= Double(elementArea.maxY)
        else { return .undecided }
        // Items come in increasing entry number: the last that holds the
        // point is the frontmost, over all the classes. Below a turn, the
        // frontmost box may be one whose views' edges surely exclude the
        // point: then the next one behind it is the candidate, and so on
        // (each round scans the same few cells, below the last candidate).
        var limit = Int32.max
        while true {
            let (front, room) = frontmost(p, below: limit)
            guard front >= 0 else { return .nothing }
            let side = edges.groups.isEmpty ? .inside : edges.side(of: p, entry: front)
            if side == .outside {
                limit = front
                continue
            }
            guard room && side == .inside else { return .undecided }
            if keysAreSlots { return .node(NodeID(front)) }
            let n = nodes[Int(front)]
            if n == Self.windowStop { return .nothing }
            return n.isNone ? .undecided : .node(n)
        }
    }

    /// The frontmost entry below `limit` whose box holds `p`, over every
    /// size class, with whether it holds `p` with room; -1 for none.
    @inline(__always)
    private func frontmost(_ p: CGPoint, below limit: Int32) -> (front: Int32, room: Bool) {
        var front: Int32 = -1
        var room = false
        Self.scan(first, p, below: limit, &front, &room)
        if !others.isEmpty {
            others.withUnsafeBufferPointer { levels in
                for level in levels.indices { Self.scan(levels[level], p, below: limit, &front, &room) }
            }
        }
        return (front, room)
    }

    /// Raises `front` to the frontmost entry of `grid` below `limit` whose
    /// box holds `p`, if any is in front of it, with whether it holds `p`
    /// with room.
    @inline(__always)
    private static func scan(
        _ grid: borrowing CellGrid, _ p: CGPoint, below limit: Int32, _ front: inout Int32, _ room: inout Bool
    ) {
        let cells = grid.cells
        var found = front, withRoom = room
        // From the cell's front end: only the entries in front of the answer are read.
        if let (k, r) = cells.scan(containing: p).frontmost(below: limit, above: found) {
            found = k
            withRoom = r
        }
        if cells.outsideCells > 0 {
            // Entries too wide for the cells, ascending too.
            let f = Float(p.x), g = Float(p.y)  // nearest rounding is conservative here
            let q = SIMD4(f, g, -f, -g)
            for (j, k) in grid.loose.enumerated()
            where k > found && k < limit && PackedRTree.matches(grid.looseBoxes[j], q) {
                found = k
                withRoom = ChildBlocks.holdsWithRoom(grid.looseBoxes[j], p)
            }
        }
        front = found
        room = withRoom
    }

    /// The edges of the bounds of the views that turn or scale above an
    /// entry, as lines in screen space: a group per such view (and per view
    /// below one), its four lines and the group of the view above it, so
    /// that the entries below a view share its group. Each line carries its
    /// margin (the rounding of mapping a point down to that view,
    /// `HitTester`). A point more than the margin inside every line of an
    /// entry's chain of groups is surely reached by the per-view search, one
    /// more than the margin outside any line surely is not, and anything
    /// between is left to the search.
    ///
    /// **Memory.** 4 bytes per entry (its group), and 132 per group.
    struct Edges: Sendable {
        /// Entry `k`'s group, or -1 above every turn; empty with no group.
        var groups: [Int32] = []
        /// Group `g`'s lines are `lines[4g ..< 4g + 4]`: `(nx, ny, offset,
        /// margin)`, where `nx·x + ny·y + offset` is the distance of `(x, y)`
        /// inside the line, in points.
        var lines: [SIMD4<Double>] = []
        /// Group `g`'s parent group (the view above's), or -1.
        var parents: [Int32] = []

        /// Which side of entry `k`'s edges `p` lies on.
        enum Side { case inside, near, outside }

        /// Adds a group of four `lines` below group `parent` (-1: none);
        /// returns its number.
        mutating func addGroup(_ lines: [SIMD4<Double>], parent: Int32) -> Int32 {
            self.lines += lines
            parents.append(parent)
            return Int32(parents.count - 1)
        }

        /// The side of entry `k`'s edges `p` is on: each group up its chain
        /// (at most `maxTurns`), four lines each.
        @inline(__always)
        func side(of p: CGPoint, entry k: Int32) -> Side {
            var g = Int(groups[Int(k)])
            var side = Side.inside
            let x = Double(p.x), y = Double(p.y)
            while g >= 0 {
                for line in lines[4 * g ..< 4 * g + 4] {
                    let distance = line.x * x + line.y * y + line.z
                    if distance <= -line.w { return .outside }
                    if distance < line.w { side = .near }
                }
                g = Int(parents[g])
            }
            return side
        }

        /// Bytes held.
        var memoryBytes: Int {
            (groups.count + parents.count) * MemoryLayout<Int32>.stride
                + lines.count * MemoryLayout<SIMD4<Double>>.stride
        }
    }

    /// A grid's bytes for each entry it files, before it is built: the
    /// cells' 12 bytes for each of the two to four cells an entry meets,
    /// 4 for its share of the cells, its handle, its edge group and its
    /// tile (see **Memory**).
    static let estimatedBytesPerEntry = 44
    /// The edges' bytes for each group (four lines and a parent).
    static let bytesPerGroup = 4 * MemoryLayout<SIMD4<Double>>.stride + MemoryLayout<Int32>.stride

    /// Bytes held.
    var memoryBytes: Int { Self.bytes(first, others, nodes, edges, tiles) }

    /// Bytes held by a grid of these parts.
    private static func bytes(
        _ first: CellGrid, _ others: [CellGrid], _ nodes: [NodeID], _ edges: Edges, _ tiles: ScreenTiles?
    ) -> Int {
        others.reduce(first.memoryBytes) { $0 + $1.memoryBytes } + nodes.count * MemoryLayout<NodeID>.stride
            + edges.memoryBytes + (tiles?.memoryBytes ?? 0)
    }
}
