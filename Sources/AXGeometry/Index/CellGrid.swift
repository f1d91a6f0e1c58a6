import Foundation

/// A uniform grid over axis-aligned boxes of similar size: a point query
/// reads the one cell under the point, a short contiguous list, instead of
/// descending a tree. Built whole, queried without allocation.
///
/// **When.** `init?(boxes:)` declines (returns nil) when the boxes don't suit
/// a grid (too few, too uneven in size, too clustered); the caller then uses
/// a `PackedRTree`, which has no bad case.
///
/// **Cells.** Rectangles twice the mean box's width and height, so a box
/// meets two to four cells, and boxes of one shape (rows 40,000 points wide
/// and 40 tall, cells 40 square) share a cell with a few others, not with as
/// many as a square cell would hold. A cell lists, for every box that meets
/// it, the part of the box inside the cell, quantized to 16 bits per axis
/// relative to the cell and rounded outward, with its item: 12 bytes, so the
/// list is read as one short sequential stream and no box is fetched from
/// elsewhere.
///
/// **Order.** A point query reports matching items in increasing item
/// number, each once, so items numbered in z-order come back back-to-front
/// with no sort.
///
/// **Conservative.** Like `PackedRTree`, a query returns every box that holds
/// the point (boxes closed) and possibly some whose box misses it by less
/// than a quantization step; an exact check is the caller's. Empty boxes
/// (NaN, `min > max`) never match.
///
/// **Loose items.** A box spanning more than `maxCellsPerItem` cells, or with
/// an infinite coordinate, is kept in a short list every query scans. So is a
/// box given to `setBox`: its old cell entries stay (a query may still
/// report the item where its old box was, which the exact check rejects)
/// and its new box is scanned by every query until the caller rebuilds
/// (see `movedCount`).
///
/// **Complexity.** Building is O(n + cells), on up to `maxRuns` cores from
/// `parallelMinimum` boxes; a point query O(entries in the cell + loose
/// items). Memory about 12 bytes per cell entry (two to four per
/// item) plus 4 per cell (at most one per item).
public struct CellGrid: Sendable {
    /// One box's part inside one cell, quantized: `0` is the cell's low edge
    /// and `65535` its high edge on each axis.
    @usableFromInline struct Entry: Sendable {
        @usableFromInline var minX, minY, maxX, maxY: UInt16
        @usableFromInline var item: Int32
    }

    /// Owns the cell lists that `cells` points into.
    let storage: Storage
    /// The cells' geometry and lists, as plain values (see `Cells`).
    @usableFromInline package private(set) var cells: Cells
    /// Items scanned by every query, ascending, with their boxes in
    /// `PackedRTree`'s stored form.
    @usableFromInline package internal(set) var loose: [Int32]
    @usableFromInline package internal(set) var looseBoxes: [SIMD4<Float>]
    /// The number of items. O(1).
    public let count: Int
    /// How many items `setBox` made loose since the build.
    public private(set) var movedCount = 0

    /// A box spanning more cells than this is loose.
    static let maxCellsPerItem = 16
    /// The grid declines sets smaller than this (a tree of a few levels is as fast).
    public static let minimumCount = 256
    /// The grid declines when more items than this would be loose at build.
    static let maxLoose = 64
    /// The grid declines when a cell would list more entries than this (clustered boxes).
    static let maxPerCell = 128
    /// Boxes from which the build counts and files them on every core: a
    /// million boxes take about half a second on one.
    static let parallelMinimum = 1 << 16
    /// The most runs a build uses: each holds a count a cell while it
    /// builds, and merging the counts reads them all once.
    static let maxRuns = 8

    /// The runs a build of `n` boxes uses: one a core from
    /// `parallelMinimum` boxes, at most `maxRuns`, none under half of
    /// `parallelMinimum` boxes.
    static func runCount(_ n: Int) -> Int {
        guard n >= parallelMinimum else { return 1 }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        return Swift.max(1, Swift.min(cores, maxRuns, n / (parallelMinimum / 2)))
    }
    /// Quantization steps per cell side.
    @usableFromInline static let steps = 65535.0

    /// The cell lists: written once by the build, then only read, and freed
    /// with the last grid that shares them.
    final class Storage: @unchecked Sendable {
        // Unchecked: the words never change after `init` returns.
        let cellStarts: UnsafeMutablePointer<Int32>
        let entries: UnsafeMutablePointer<Entry>
        let cellCount: Int
        let entryCount: Int

        /// `cells + 1` starts (all zero) and room for `entries` entries.
        init(cells: Int, entries: Int) {
            cellCount = cells
            entryCount = entries
            cellStarts = .allocate(capacity: cells + 1)
            cellStarts.initialize(repeating: 0, count: cells + 1)
            self.entries = .allocate(capacity: Swift.max(entries, 1))
        }

        deinit {
            cellStarts.deallocate()
            entries.deallocate()
        }
    }

    /// Shared by every empty grid (an index with no grid holds one).
    static let emptyStorage = Storage(cells: 0, entries: 0)

    /// Bytes held by the grid's lists.
    public var memoryBytes: Int {
        storage.entryCount * MemoryLayout<Entry>.stride + (storage.cellCount + 1) * MemoryLayout<Int32>.stride
            + loose.count * (MemoryLayout<Int32>.stride + MemoryLayout<SIMD4<Float>>.stride)
    }

    /// An empty grid: no items, no cells.
    public init() {
        storage = Self.emptyStorage
        cells = Cells(originX: 0, originY: 0, sideX: 1, sideY: 1, columns: 0, rows: 0, storage: storage)
        loose = []
        looseBoxes = []
        count = 0
    }

    /// A grid over `boxes`, or nil when they don't suit one (see the type's
    /// notes). Item `i` is `boxes[i]`, reported as `keys[i]` (as `i` when
    /// `keys` is nil); keys must increase with `i` and not be negative. A
    /// caller that wants a grid however few the boxes (for its other
    /// properties) lowers `minimumCount`; one that needs a quantization step
    /// of at least `minimumStep` (room for its exact check) gets cells at
    /// least `minimumStep` × 65,535 wide, however small the boxes.
    ///
    /// - Complexity: O(n + cells) time, the boxes divided among up to
    ///   `maxRuns` cores from `parallelMinimum` boxes, plus O(cells × runs)
    ///   on one core to merge their counts; while building, 4 bytes a cell
    ///   a run. No sort.
    public init?(
        boxes: [CGRect], keys: [Int32]? = nil, minimumCount: Int = CellGrid.minimumCount, minimumStep: Double = 0
    ) {
        self.init(
            boxes: boxes, keys: keys, minimumCount: minimumCount, minimumStep: minimumStep,
            runs: Self.runCount(boxes.count))
    }

    /// `init?(boxes:keys:minimumCount:minimumStep:)` counting and filing
    /// the boxes in `runs` runs (tests compare the grids of any number).
    init?(boxes: [CGRect], keys: [Int32]?, minimumCount: Int, minimumStep: Double, runs parts: Int) {
        let n = boxes.count
        guard n >= Swift.max(1, minimumCount), n <= Int(Int32.max), keys == nil || keys!.count == n else { return nil }
        @Sendable func key(_ k: Int) -> Int32 { keys?[k] ?? Int32(k) }
        var lo = (x: Double.infinity, y: Double.infinity), hi = (x: -Double.infinity, y: -Double.infinity)
        var widths = 0.0, heights = 0.0, finite = 0
        for r in boxes {
            let (minX, minY, maxX, maxY) = Self.edges(r)
            guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else { continue }
            lo = (Swift.min(lo.x, minX), Swift.min(lo.y, minY))
            hi = (Swift.max(hi.x, maxX), Swift.max(hi.y, maxY))
            widths += maxX - minX
            heights += maxY - minY
            finite += 1
        }
        let width = hi.x - lo.x, height = hi.y - lo.y
        guard finite > 0, width > 0, height > 0, (width * height).isFinite else { return nil }
        // Twice the mean box on each axis (no thinner than a hundred-thousandth
        // of the canvas), grown evenly when that makes more cells than boxes.
        var sideX = Swift.max(2 * widths / Double(finite), width * 1e-5)
        var sideY = Swift.max(2 * heights / Double(finite), height * 1e-5)
        sideX = Swift.max(sideX, minimumStep * Self.steps)
        sideY = Swift.max(sideY, minimumStep * Self.steps)
        let cellCount = (width / sideX + 1) * (height / sideY + 1)
        if cellCount > Double(n) {
            let grow = (cellCount / Double(n)).squareRoot()
            sideX *= grow
            sideY *= grow
        }
        guard sideX > 0, sideX.isFinite, sideY > 0, sideY.isFinite else { return nil }
        let inverseX = 1 / sideX, inverseY = 1 / sideY
        let columns = Int(width * inverseX) + 1, rows = Int(height * inverseY) + 1
        guard columns <= 2 * n, rows <= 2 * n, columns * rows <= 2 * n else { return nil }

        // The cells a box spans, or nil when it is empty or loose.
        let origin = lo, sides = (x: sideX, y: sideY)
        @Sendable func span(
            _ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double
        ) -> (x0: Int, x1: Int, y0: Int, y1: Int)? {
            guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else { return nil }
            let x0 = Int((minX - origin.x) * inverseX), x1 = Swift.min(Int((maxX - origin.x) * inverseX), columns - 1)
            let y0 = Int((minY - origin.y) * inverseY), y1 = Swift.min(Int((maxY - origin.y) * inverseY), rows - 1)
            guard (x1 - x0 + 1) * (y1 - y0 + 1) <= Self.maxCellsPerItem else { return nil }
            return (x0, x1, y0, y1)
        }
        // The boxes are counted, then filed, in consecutive runs, a run on
        // a core (`runCount`): in every cell a run's entries follow those
        // of the runs before it, so each cell lists its items in increasing
        // order, as one pass would.
        let cellTotal = columns * rows
        let runs = consecutiveRuns(n, parts: parts)
        // Per run and cell: first how many entries the run files there;
        // after the merge below, where it files its next one.
        nonisolated(unsafe) let counts = UnsafeMutablePointer<Int32>.allocate(capacity: runs.count * cellTotal)
        defer { counts.deallocate() }
        let looseRuns = [(items: [Int32], boxes: [SIMD4<Float>])](filling: runs.count) { out, made in
            nonisolated(unsafe) let out = out
            DispatchQueue.concurrentPerform(iterations: runs.count) { r in
                let mine = counts + r * cellTotal
                mine.initialize(repeating: 0, count: cellTotal)
                var loose: [Int32] = [], looseBoxes: [SIMD4<Float>] = []
                for k in runs[r] {
                    let (minX, minY, maxX, maxY) = Self.edges(boxes[k])
                    guard let s = span(minX, minY, maxX, maxY) else {
                        // Empty boxes (NaN edges) match nothing and go
                        // nowhere; wide or infinite ones are loose.
                        if minX <= maxX && minY <= maxY {
                            loose.append(key(k))
                            looseBoxes.append(PackedRTree.storedBox((minX, minY, maxX, maxY)))
                        }
                        continue
                    }
                    for y in s.y0 ... s.y1 { for x in s.x0 ... s.x1 { mine[y * columns + x] += 1 } }
                }
                out.initializeElement(at: r, to: (loose, looseBoxes))
            }
            made = runs.count
        }
        let loose = looseRuns.flatMap(\.items), looseBoxes = looseRuns.flatMap(\.boxes)
        guard loose.count <= Self.maxLoose else { return nil }
        var starts = [Int32](repeating: 0, count: cellTotal + 1)
        var most: Int32 = 0
        for c in 0 ..< cellTotal {
            var inCell: Int32 = 0
            for r in runs.indices {
                let count = counts[r * cellTotal + c]
                counts[r * cellTotal + c] = starts[c] + inCell
                inCell += count
            }
            most = Swift.max(most, inCell)
            starts[c + 1] = starts[c] + inCell
        }
        guard most <= Int32(Self.maxPerCell) else { return nil }
        let storage = Storage(cells: cellTotal, entries: Int(starts[cellTotal]))
        storage.cellStarts.update(from: starts, count: cellTotal + 1)
        nonisolated(unsafe) let entries = storage.entries
        DispatchQueue.concurrentPerform(iterations: runs.count) { r in
            let cursor = counts + r * cellTotal
            for k in runs[r] {
                let (minX, minY, maxX, maxY) = Self.edges(boxes[k])
                guard let s = span(minX, minY, maxX, maxY) else { continue }
                let item = key(k)
                for y in s.y0 ... s.y1 {
                    let cellY = origin.y + Double(y) * sides.y
                    let qy0 = Self.quantizedDown(minY, cellY, inverseY), qy1 = Self.quantizedUp(maxY, cellY, inverseY)
                    for x in s.x0 ... s.x1 {
                        let cellX = origin.x + Double(x) * sides.x
                        let c = y * columns + x
                        (entries + Int(cursor[c])).initialize(
                            to: Entry(
                                minX: Self.quantizedDown(minX, cellX, inverseX), minY: qy0,
                                maxX: Self.quantizedUp(maxX, cellX, inverseX), maxY: qy1,
                                item: item))
                        cursor[c] += 1
                    }
                }
            }
        }
        self.storage = storage
        cells = Cells(
            originX: lo.x, originY: lo.y, sideX: sideX, sideY: sideY, columns: columns, rows: rows, storage: storage)
        cells.outsideCells = loose.count
        self.loose = loose
        self.looseBoxes = looseBoxes
        count = n
    }

    /// `(v - cell) / side` in steps (`inverse` is `1 / side` of the axis):
    /// the same monotone function for boxes and points, so a point inside a
    /// box quantizes inside the box's outward-rounded quantization.
    @inlinable @inline(__always)
    static func steps(_ v: Double, _ cell: Double, _ inverse: Double) -> Double { (v - cell) * inverse * steps }

    @inlinable @inline(__always)
    static func quantizedDown(_ v: Double, _ cell: Double, _ inverse: Double) -> UInt16 {
        // For 0 < t < steps, converting truncates, which is the floor (and
        // needs no call into libm, as `rounded(.down)` does on baseline x86-64).
        let t = steps(v, cell, inverse)
        return !(t > 0) ? 0 : (t >= steps ? UInt16.max : UInt16(t))  // NaN → 0
    }

    @inlinable @inline(__always)
    static func quantizedUp(_ v: Double, _ cell: Double, _ inverse: Double) -> UInt16 {
        let t = steps(v, cell, inverse).rounded(.up)
        return t <= 0 ? 0 : (t >= steps ? UInt16.max : UInt16(t))
    }

    /// The edges of `r` as `CGRect.minX` etc. give them (standardized), read
    /// from its stored fields; all NaN for `CGRect.null`.
    @inline(__always)
    static func edges(_ r: CGRect) -> (Double, Double, Double, Double) {
        let x = Double(r.origin.x), y = Double(r.origin.y), w = Double(r.size.width), h = Double(r.size.height)
        if x == .infinity || y == .infinity { return (.nan, .nan, .nan, .nan) }  // CGRect.null
        return (w < 0 ? x + w : x, h < 0 ? y + h : y, w < 0 ? x : x + w, h < 0 ? y : y + h)
    }

    /// Calls `body` with every item whose box holds `p`, in increasing item
    /// number, each once, until `body` returns false.
    ///
    /// - Complexity: O(entries in `p`'s cell + loose items). No allocation.
    @inlinable
    public func forEach(containing p: CGPoint, _ body: (Int32) -> Bool) {
        if cells.outsideCells == 0 {
            cells.forEach(containing: p) { k, _ in body(k) }
            return
        }
        forEach(containing: p) { k, _ in body(k) }
    }

    /// As `forEach(containing:_:)`, with whether `p` lies inside the item's
    /// box with room (as `Cells.forEach(containing:_:)` gives it): never
    /// for a loose item, nor for the old entries of an item `setBox` moved,
    /// whose place they no longer tell.
    ///
    /// - Complexity: O(entries in `p`'s cell + loose items). No allocation.
    @inlinable
    package func forEach(containing p: CGPoint, _ body: (_ item: Int32, _ withRoom: Bool) -> Bool) {
        if cells.outsideCells == 0 {
            cells.forEach(containing: p, body)
            return
        }
        let scan = cells.scan(containing: p)
        var i = scan.i
        let entries = cells.entries
        let q = Self.looseQuery(p)
        // Merge the cell's entries and the loose items, both ascending.
        var j = 0
        var last: Int32 = -1
        while i < scan.end || j < loose.count {
            let k: Int32
            let holds: Bool, room: Bool
            if j == loose.count || (i < scan.end && entries[i].item <= loose[j]) {
                let e = entries[i]
                i += 1
                k = e.item
                holds = scan.holds(e)
                // A loose item with entries is a moved one (`setBox`).
                room = holds && (j == loose.count || loose[j] != k) && scan.hasRoom(e)
            } else {
                k = loose[j]
                holds = PackedRTree.matches(looseBoxes[j], q)
                room = false
                j += 1
            }
            // A moved item is in both lists: its loose box counts, its
            // old entry may too (the caller's exact check decides).
            guard holds, k != last else { continue }
            last = k
            if !body(k, room) { return }
        }
    }

    /// `p` in the form `PackedRTree.matches` compares the loose boxes with
    /// (nearest rounding to `Float` is conservative there).
    @inlinable @inline(__always)
    static func looseQuery(_ p: CGPoint) -> SIMD4<Float> {
        let f = Float(p.x), g = Float(p.y)
        return SIMD4(f, g, -f, -g)
    }

    /// The frontmost item (the highest number) whose box holds `p`, with
    /// whether `p` lies inside its box with room (never for a loose or moved
    /// item, as `forEach(containing:_:)` with room gives it); nil when none
    /// does. Reads the cell from its front end to the first item that holds
    /// `p`, and the loose items from the top down to it.
    ///
    /// - Complexity: O(entries in front of the answer + loose items above it).
    @inlinable
    package func frontmost(containing p: CGPoint) -> (item: Int32, withRoom: Bool)? {
        var scan = cells.scan(containing: p)
        var front = scan.previous()
        guard cells.outsideCells > 0 else { return front }
        let q = Self.looseQuery(p)
        var j = loose.count
        while j > 0 {
            j -= 1
            let k = loose[j]
            if let cell = front, k <= cell.item {
                // Loose and in the cells: a moved item, whose entry may be old.
                if k == cell.item { front = (k, false) }
                break
            }
            if PackedRTree.matches(looseBoxes[j], q) { return (k, false) }
        }
        return front
    }

    /// Calls `body` with every item whose box meets `rect` (both closed),
    /// in no particular order and possibly more than once (an item is listed
    /// in every cell it covers), until it returns false: for callers that
    /// order and deduplicate what they gather anyway.
    ///
    /// - Complexity: O(entries of the cells the rect meets + loose items).
    ///   Allocates nothing.
    public func forEachUnordered(intersecting rect: CGRect, _ body: (Int32) -> Bool) {
        guard !rect.isNull, count > 0 else { return }
        let (originX, originY, sideX, sideY) = (cells.originX, cells.originY, cells.sideX, cells.sideY)
        let (inverseX, inverseY) = (cells.inverseX, cells.inverseY)
        let (columns, rows, cellStarts, entries) = (cells.columns, cells.rows, cells.cellStarts, cells.entries)
        let q = SIMD4(Float(rect.maxX), Float(rect.maxY), -Float(rect.minX), -Float(rect.minY))
        for (j, k) in loose.enumerated() where PackedRTree.matches(looseBoxes[j], q) {
            if !body(k) { return }
        }
        func cell(_ v: Double, _ origin: Double, _ inverse: Double, _ n: Int) -> Int {
            let c = (v - origin) * inverse
            return c.isNaN ? 0 : Int(Swift.min(Swift.max(c, 0), Double(n - 1)))
        }
        guard columns > 0 && Double(rect.maxX) >= originX && Double(rect.maxY) >= originY else { return }
        let x0 = cell(Double(rect.minX), originX, inverseX, columns)
        let x1 = cell(Double(rect.maxX), originX, inverseX, columns)
        let y0 = cell(Double(rect.minY), originY, inverseY, rows), y1 = cell(Double(rect.maxY), originY, inverseY, rows)
        for y in y0 ... y1 {
            let cellY = originY + Double(y) * sideY
            let lowY = Self.quantizedDown(Double(rect.minY), cellY, inverseY)
            let highY = Self.quantizedUp(Double(rect.maxY), cellY, inverseY)
            for x in x0 ... x1 {
                let cellX = originX + Double(x) * sideX
                let lowX = Self.quantizedDown(Double(rect.minX), cellX, inverseX)
                let highX = Self.quantizedUp(Double(rect.maxX), cellX, inverseX)
                let c = y * columns + x
                for e in UnsafeBufferPointer(
                    start: entries + Int(cellStarts[c]), count: Int(cellStarts[c + 1] - cellStarts[c]))
                where e.minX <= highX && lowX <= e.maxX && e.minY <= highY && lowY <= e.maxY {
                    if !body(e.item) { return }
                }
            }
        }
    }

    /// Calls `body` with every item whose box meets `rect` (both closed),
    /// each once, in increasing item number, until it returns false.
    ///
    /// - Complexity: O(entries of the cells the rect meets, log of them to
    ///   sort, + loose items). Allocates its result list.
    public func forEach(intersecting rect: CGRect, _ body: (Int32) -> Bool) {
        guard !rect.isNull, count > 0 else { return }
        let (originX, originY, sideX, sideY) = (cells.originX, cells.originY, cells.sideX, cells.sideY)
        let (inverseX, inverseY) = (cells.inverseX, cells.inverseY)
        let (columns, rows, cellStarts, entries) = (cells.columns, cells.rows, cells.cellStarts, cells.entries)
        var found: [Int32] = []
        let q = SIMD4(Float(rect.maxX), Float(rect.maxY), -Float(rect.minX), -Float(rect.minY))
        for (j, k) in loose.enumerated() where PackedRTree.matches(looseBoxes[j], q) { found.append(k) }
        func cell(_ v: Double, _ origin: Double, _ inverse: Double, _ n: Int) -> Int {
            let c = (v - origin) * inverse
            return c.isNaN ? 0 : Int(Swift.min(Swift.max(c, 0), Double(n - 1)))
        }
        let x0 = cell(Double(rect.minX), originX, inverseX, columns)
        let x1 = cell(Double(rect.maxX), originX, inverseX, columns)
        let y0 = cell(Double(rect.minY), originY, inverseY, rows), y1 = cell(Double(rect.maxY), originY, inverseY, rows)
        if columns > 0 && Double(rect.maxX) >= originX && Double(rect.maxY) >= originY {
            for y in y0 ... y1 {
                let cellY = originY + Double(y) * sideY
                let lowY = Self.quantizedDown(Double(rect.minY), cellY, inverseY)
                let highY = Self.quantizedUp(Double(rect.maxY), cellY, inverseY)
                for x in x0 ... x1 {
                    let cellX = originX + Double(x) * sideX
                    let lowX = Self.quantizedDown(Double(rect.minX), cellX, inverseX)
                    let highX = Self.quantizedUp(Double(rect.maxX), cellX, inverseX)
                    let c = y * columns + x
                    for e in UnsafeBufferPointer(
                        start: entries + Int(cellStarts[c]), count: Int(cellStarts[c + 1] - cellStarts[c]))
                    where e.minX <= highX && lowX <= e.maxX && e.minY <= highY && lowY <= e.maxY {
                        found.append(e.item)
                    }
                }
            }
        }
        found.sort()
        var last: Int32 = -1
        for k in found where k != last {
            last = k
            if !body(k) { return }
        }
    }

    /// Gives the item with key `id` a new box: it becomes loose (see the type's notes);
    /// `CGRect.null` takes it out of the loose list (its cell entries stay,
    /// for the caller to ignore).
    ///
    /// - Complexity: O(loose items).
    public mutating func setBox(ofItem id: Int32, to rect: CGRect) {
        guard id >= 0 else { return }
        // Whatever the new box, the item's entries may now be wrong.
        cells.outsideCells += 1
        var at = 0
        while at < loose.count && loose[at] < id { at += 1 }
        let present = at < loose.count && loose[at] == id
        let empty = rect.isNull || !(rect.minX <= rect.maxX && rect.minY <= rect.maxY)
        if empty {
            if present {
                loose.remove(at: at)
                looseBoxes.remove(at: at)
            }
        } else if present {
            looseBoxes[at] = PackedRTree.storedBox(rect)
        } else {
            loose.insert(id, at: at)
            looseBoxes.insert(PackedRTree.storedBox(rect), at: at)
            movedCount += 1
        }
    }
}
