import Foundation

/// Every threshold that decides which index or cache a view or a screen
/// gets, and when one is rebuilt, compacted or dropped: one home, so each
/// rule is stated once (`Docs/architecture.md`, "Indexes and caches", has
/// the table). Constants are literals, which the compiler folds into the
/// code that reads them.
enum IndexPolicy {
    // MARK: A view's children

    /// A view with at least this many children gets a `ContainerIndex`;
    /// fewer get a block of `ChildBlocks`, scanned one by one: a cache line
    /// or two of boxes, no allocation per view, faster for a handful than
    /// any index. `ChildBlocks` starts a new chunk when less room than this
    /// is left, so that no block straddles two.
    static let wideViewChildren = 16

    /// A wide view tries a `CellGrid` (a point reads one cell, in z-order)
    /// from this many children; fewer, or boxes the grid declines (too
    /// clustered, too many loose: `CellGrid`'s own rules), get an R-tree,
    /// a few levels deep and as fast there. Passed to the grid as its
    /// `minimumCount`.
    static let gridMinimumChildren = 256

    /// Children a wide view's index takes after its build (in
    /// `OverflowLevels`, or moved and made loose in its grid) before it is
    /// rebuilt: as many as it holds, at least 256, so the O(n) rebuild
    /// costs O(1) a change amortized.
    @inline(__always)
    static func overflowLimit(itemCount: Int) -> Int { max(256, itemCount) }

    /// Whether removed children call for a rebuild of a wide view's index:
    /// more than half its items (at least 64), whose empty entries queries
    /// would still read.
    @inline(__always)
    static func removalsCallForRebuild(_ removed: Int, itemCount: Int) -> Bool { removed > max(64, itemCount / 2) }

    /// The children added to a wide view wait in a list scanned one by one
    /// until it holds this many, then merge into `OverflowLevels`' R-trees:
    /// fewer would build many tiny trees, more would lengthen the scan
    /// every query through the view makes.
    static let overflowListLimit = 64

    /// Whether the dropped blocks of `ChildBlocks` (`garbage` of `entries`)
    /// call for a compaction: over 4,096 and half the arrays, so a
    /// compaction (O(entries)) comes once per as many drops.
    @inline(__always)
    static func blocksNeedCompaction(garbage: Int, entries: Int) -> Bool { garbage > 4096 && garbage * 2 > entries }

    /// A grid (a wide view's or the screen's) whose quantization step, the
    /// room a box hit needs there, is under this answers no box hit, and
    /// the screen grid declines it: the rounding on a moderate path
    /// (`HitTester.isModerate`) stays under 2^-16, far below.
    static let minimumGridStep = 0x1p-13

    /// TalkBack's hover filing finds the overlaps among more siblings than
    /// this through a packed R-tree of their reaches, O(k log k); among
    /// fewer, pair by pair.
    static let hoverPairwiseSiblings = 16

    // MARK: The screen

    /// The engine builds its own whole screen grid when it is estimated at
    /// no more than this many bytes a node of the tree, else its tiles
    /// alone: a small part of its budget of 100 bytes a node beyond the
    /// tree (the harness's `corpus`, 125,000 entries on the screen for a
    /// million nodes, is estimated at 5.5 and takes 3.5;
    /// `Benchmarks/results/ab-frontmost-first-1M-2026-12-04.txt`).
    static let ownGridBytesPerNode = 6

    /// The screen grid files every entry however few: a screen of twenty
    /// rows gains as much as one of a million.
    static let screenGridMinimumEntries = 1

    /// Whether `queries` frame queries repay a whole screen grid on a tree
    /// of `nodes` (`HitTester.prepare(forQueries:policy:)`): at least half
    /// as many as nodes. At 1M a grid takes 23–306 ms to build and saves up
    /// to about 600 ns a query where the engine's own tiles do not decide
    /// (`Benchmarks/results/hit-1M-engine-tiles-2026-12-03.*`).
    @inline(__always)
    static func queriesRepayScreenGrid(_ queries: Int, nodes: Int) -> Bool { queries >= max(1, nodes / 2) }

    /// Whether tiles alone, `decided` of `tiles` deciding, are worth
    /// keeping: at least half decide, else most queries would read a tile
    /// and then search per view anyway.
    @inline(__always)
    static func tilesAloneDecide(_ decided: Int, of tiles: Int) -> Bool { decided * 2 >= tiles }

    /// The most tiles a screen's `entries` answerable ones get (8 bytes
    /// each): twice as many and 4,096 more; larger tiles when the pitch
    /// would need more.
    @inline(__always)
    static func tileBudget(entries: Int) -> Double { 2 * Double(entries) + 4096 }

    /// The most marks (an entry meeting a tile) the tiles' build makes,
    /// for `tiles` tiles and `entries` entries; a screen that needs more
    /// (many boxes spanning many tiles) gets no tiles, and its queries read
    /// the cells.
    @inline(__always)
    static func tileMarkLimit(tiles: Int, entries: Int) -> Int { 4 * (tiles + entries) }

    /// A batch of queries reads a screen grid ahead when it holds more than
    /// this, beyond what a core's caches keep: larger grids gained up to a
    /// third a point beyond reading the tree
    /// (`Benchmarks/results/ab-read-ahead-cli-hit-10M-2026-12-04.txt`);
    /// a smaller grid's reads mostly hit the cache, and reading it ahead
    /// only added work (13–14% more a point on `nested` and `list`).
    static let readAheadBytes = 8 << 20

    /// The most boxes `StaleAreas` keeps (32 bytes each): every query with
    /// a grid tests them, one vector compare each, so few; past it, an area
    /// joins the box its union grows least, stale wider but never wrong.
    static let staleAreaCapacity = 16

    /// Whether a `stale` area calls for dropping the screen grid, out of the
    /// `elementArea` where it may name an element: half or more, where it
    /// would name few while every query still read it first.
    @inline(__always)
    static func staleAreaDropsGrid(_ stale: Double, elementArea: Double) -> Bool { stale * 2 >= elementArea }

    /// The most cells TalkBack's focus map asks the hover about: 4M, about
    /// a second of queries, far above a real screen's arrangement (the
    /// corpus's largest has under 200,000); more throws.
    static let hoverMapCellBudget = 1 << 22
}
