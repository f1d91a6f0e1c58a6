import AXGeometry
import Foundation

/// The screen grid's first read: a raster of tiles on the layout's pitch,
/// each holding the one answer it can have, so that a query on a screen of
/// cells in rows (a collection, a list, a keyboard) reads one 8-byte tile
/// and nothing else.
///
/// **Tiles.** Rectangles of the layout's pitch: the median step from one
/// entry to the next along a row (and from row to row), phased so that a
/// tile's edges fall in the gaps between boxes; where the entries have no
/// pitch, the median box. At most `IndexPolicy.tileBudget` of them (they
/// grow when that binds) and at least 8 points a side, so that a
/// quantization step (1/255 of a side) is far above the rounding
/// (`ScreenGrid.slack`).
///
/// **What a tile says.** Of the entries whose box meets the tile's *core*
/// (the tile less one quantization step on every side), the frontmost
/// decides, if it can (and its node is of its slot's first generation, as
/// every node read from a file is: a tile holds the slot alone):
/// - no entry: nothing anywhere in the core;
/// - one answered from its entry alone (`ScreenGrid`), covering the core
///   with room to spare, or the only one there: that element inside its
///   box with room, nothing outside its box;
/// - anything else (an opaque entry, one below a turn, one partly over
///   others): undecided, and the caller reads the cells.
///
/// A window's stop (TalkBack, `ScreenGrid.windowStop`) that covers the core
/// with room hides every entry behind it there: the tile counts only the
/// entries in front of it.

///
/// A point less than two steps from its tile's edge is undecided too (a
/// neighbour's box may reach into the border, which the core leaves out).
/// The box is quantized as `CellGrid`'s are (255 steps a side here), with
/// its room rule, so a point outside it is outside the entry's widened box
/// and one inside with room is inside its exact region (`ScreenGrid`,
/// "Exactness"). The border and the room leave about 4% of a 40-point
/// tile undecided. (Tiles of 4,095 steps, 12 bytes, left 0.2% of `square`
/// undecided but made a query slower: a fifth more memory, and tiles that
/// straddle cache lines.)
///
/// **Build.** Each entry marks the tiles whose core it meets, in entry
/// order, so the last mark is the frontmost. The marks are bounded
/// (`IndexPolicy.tileMarkLimit`); a screen that needs more (many boxes
/// spanning many tiles) gets no tiles, and its queries read the cells.
///
/// **Memory.** 8 bytes per tile, about one tile per element on a screen
/// full of cells (at most two, and 4,096 more).
struct ScreenTiles: Sendable {
    /// A tile's element (its slot: the tiles answer only for nodes of the
    /// first generation, as every node read from a file is), `nothing`
    /// (with an empty box) or `undecided`, and its answer box in steps of
    /// the tile (`steps` a side).
    struct Tile: Sendable {
        var slot: Int32
        var minX, minY, maxX, maxY: UInt8
    }

    /// The slot of a tile with no element in it.
    static let nothing: Int32 = -1
    /// The slot of a tile that does not decide.
    static let undecided: Int32 = -2
    /// Quantization steps per tile side: a point within about two of an
    /// edge (1.6% of the side) is left to the cells.
    static let steps = 255.0
    /// A tile's side is at least this, so that a step (the room an answer
    /// needs) is at least `IndexPolicy.minimumGridStep` by far.
    static let minimumSide = 8.0

    let originX, originY, sideX, sideY, inverseX, inverseY: Double
    let columns, rows: Int
    let tiles: [Tile]
    /// The union of the answerable entries' exact boxes: where a tile may
    /// name an element.
    let elementArea: CGRect

    /// Tiles for the screen grid's `boxes` (widened by `ScreenGrid.slack`,
    /// in pre-order) and `nodes`, where `answerable[k]` says whether entry
    /// `k` is answered from its box alone; nil when no entry is, or the
    /// marks would exceed their bound.
    init?(boxes: [CGRect], nodes: [NodeID], answerable: [Bool]) {
        let n = boxes.count
        guard n > 0, nodes.count == n, answerable.count == n else { return nil }
        // The extent, sizes and steps of the answerable entries (the exact
        // regions: the widened boxes less the slack).
        let slack = ScreenGrid.slack
        var lo = (x: Double.infinity, y: Double.infinity), hi = (x: -Double.infinity, y: -Double.infinity)
        var widths: [Double] = [], heights: [Double] = [], stepsX: [Double] = [], stepsY: [Double] = []
        var minXs: [Double] = [], minYs: [Double] = []
        let stride = max(1, n / 4096)  // a sample bounds the sorting
        var answerableCount = 0
        for k in 0 ..< n where answerable[k] {
            let b = boxes[k]
            answerableCount += 1
            lo = (min(lo.x, b.minX + slack), min(lo.y, b.minY + slack))
            hi = (max(hi.x, b.maxX - slack), max(hi.y, b.maxY - slack))
            guard k % stride == 0 else { continue }
            widths.append(b.width - 2 * slack)
            heights.append(b.height - 2 * slack)
            minXs.append(b.minX + slack)
            minYs.append(b.minY + slack)
            // Along a row: the next cell to the right; down: the first
            // entry of the next row (within 64 entries).
            if k + 1 < n, answerable[k + 1], boxes[k + 1].minY == b.minY, boxes[k + 1].minX > b.minX {
                stepsX.append(boxes[k + 1].minX - b.minX)
            }
            if let j = (k + 1 ..< min(n, k + 65)).first(where: { answerable[$0] && boxes[$0].minY != b.minY }),
                boxes[j].minY > b.minY
            {
                stepsY.append(boxes[j].minY - b.minY)
            }
        }
        guard !widths.isEmpty, hi.x > lo.x, hi.y > lo.y, (hi.x - lo.x) * (hi.y - lo.y) < 0x1p100 else { return nil }
        let width = Self.median(widths), height = Self.median(heights)
        var sideX = max(stepsX.isEmpty ? width : Self.median(stepsX), Self.minimumSide)
        var sideY = max(stepsY.isEmpty ? height : Self.median(stepsY), Self.minimumSide)
        // Tile edges in the middle of the gaps: the boxes' usual phase on the
        // pitch, less half the gap.
        func phase(_ mins: [Double], _ side: Double, _ size: Double) -> Double {
            let gap = max(0, side - size)
            return Self.median(mins.map { $0 - ($0 / side).rounded(.down) * side }) - gap / 2
        }
        var originX = lo.x, originY = lo.y
        if sideX >= width {
            let p = phase(minXs, sideX, width)
            originX = ((lo.x - p) / sideX).rounded(.down) * sideX + p
        }
        if sideY >= height {
            let p = phase(minYs, sideY, height)
            originY = ((lo.y - p) / sideY).rounded(.down) * sideY + p
        }
        let budget = IndexPolicy.tileBudget(entries: answerableCount)
        let area = ((hi.x - originX) / sideX + 1) * ((hi.y - originY) / sideY + 1)
        if area > budget {
            let grow = (area / budget).squareRoot()
            sideX *= grow
            sideY *= grow
        }
        let columns = max(1, Int(((hi.x - originX) / sideX).rounded(.up)))
        let rows = max(1, Int(((hi.y - originY) / sideY).rounded(.up)))
        guard originX.isFinite, originY.isFinite, Double(columns) * Double(rows) <= 2 * budget else { return nil }
        self.originX = originX
        self.originY = originY
        self.sideX = sideX
        self.sideY = sideY
        inverseX = 1 / sideX
        inverseY = 1 / sideY
        self.columns = columns
        self.rows = rows
        elementArea = CGRect(x: lo.x, y: lo.y, width: hi.x - lo.x, height: hi.y - lo.y)

        // Marks: each tile's frontmost entry meeting its core, and whether
        // another meets it too.
        let count = columns * rows
        var front = [Int32](repeating: -1, count: count)
        var shared = [Bool](repeating: false, count: count)
        var marks = 0
        let maxMarks = IndexPolicy.tileMarkLimit(tiles: count, entries: n)
        let stepX = sideX / Self.steps, stepY = sideY / Self.steps
        for k in 0 ..< n {
            let b = boxes[k]
            // An entry the tiles cannot place could be anywhere.
            guard b.minX.isFinite, b.minY.isFinite, b.maxX.isFinite, b.maxY.isFinite else { return nil }
            guard let (x0, x1) = Self.span(b.minX, b.maxX, originX, sideX, stepX, columns),
                let (y0, y1) = Self.span(b.minY, b.maxY, originY, sideY, stepY, rows)
            else { continue }
            marks += (x1 - x0 + 1) * (y1 - y0 + 1)
            guard marks <= maxMarks else { return nil }
            let stop = nodes[k] == ScreenGrid.windowStop
            for y in y0 ... y1 {
                for x in x0 ... x1 {
                    let t = y * columns + x
                    if stop
                        && Self.covers(
                            b, x: originX + Double(x) * sideX, y: originY + Double(y) * sideY, sideX: sideX,
                            sideY: sideY)
                    {
                        // Nothing behind a window's stop shows in the core: as
                        // if no entry met it.
                        front[t] = -1
                        shared[t] = false
                        continue
                    }
                    if front[t] >= 0 { shared[t] = true }
                    front[t] = Int32(k)
                }
            }
        }
        var tiles = [Tile](repeating: Tile(slot: Self.nothing, minX: 1, minY: 1, maxX: 0, maxY: 0), count: count)
        for y in 0 ..< rows {
            let cellY = originY + Double(y) * sideY
            for x in 0 ..< columns {
                let t = y * columns + x
                let k = Int(front[t])
                guard k >= 0 else { continue }  // nothing
                guard answerable[k], nodes[k].generation == 0 else {
                    tiles[t].slot = Self.undecided
                    continue
                }
                let cellX = originX + Double(x) * sideX
                let b = boxes[k]
                if Self.covers(b, x: cellX, y: cellY, sideX: sideX, sideY: sideY) {
                    // Every point of the core is the entry's, with room.
                    tiles[t] = Tile(slot: nodes[k].rawValue, minX: 0, minY: 0, maxX: .max, maxY: .max)
                } else if shared[t] {
                    tiles[t].slot = Self.undecided
                } else {
                    tiles[t] = Tile(
                        slot: nodes[k].rawValue, minX: Self.quantizedDown(b.minX, cellX, inverseX),
                        minY: Self.quantizedDown(b.minY, cellY, inverseY),
                        maxX: Self.quantizedUp(b.maxX, cellX, inverseX),
                        maxY: Self.quantizedUp(b.maxY, cellY, inverseY))
                }
            }
        }
        self.tiles = tiles
    }

    /// Whether the widened box `b` holds, with room, the core of the tile
    /// at (`x`, `y`): the core as the query bounds it (a step in), the
    /// region with room (the widened box less twice the slack).
    private static func covers(_ b: CGRect, x: Double, y: Double, sideX: Double, sideY: Double) -> Bool {
        let inner = 2 * ScreenGrid.slack
        let stepX = sideX / steps, stepY = sideY / steps
        return b.minX + inner <= x + stepX && x + sideX - stepX <= b.maxX - inner && b.minY + inner <= y + stepY
            && y + sideY - stepY <= b.maxY - inner
    }

    /// The answer at `p` (moderate), from its tile alone.
    ///
    /// - Complexity: O(1): one tile read.
    @inline(__always)
    func answer(_ p: CGPoint) -> ScreenGrid.Answer {
        guard let (x, y) = tile(containing: p) else { return .undecided }
        let px = Double(p.x), py = Double(p.y)
        // The point's steps in the tile, unrounded: for a whole number m,
        // floor(t) >= m exactly when t >= m, and floor(t) <= m when t < m + 1,
        // so comparing t answers as comparing its floor (the point's step, as
        // for the boxes' edges) would, with no conversion. NaN fails every test.
        let tx = Self.steps(px, originX + Double(x) * sideX, inverseX)
        let ty = Self.steps(py, originY + Double(y) * sideY, inverseY)
        // In the core with a step to spare (steps 2 ... 252): no other tile's
        // box reaches here.
        guard tx >= 2, ty >= 2, tx < Self.steps - 2, ty < Self.steps - 2 else { return .undecided }
        let tile = tiles[y * columns + x]
        if tile.slot == Self.undecided { return .undecided }
        let minX = Double(tile.minX), maxX = Double(tile.maxX), minY = Double(tile.minY), maxY = Double(tile.maxY)
        // More than a whole step inside every edge (as `CellGrid`'s room):
        // steps minX + 2 ... maxX - 3.
        if tx >= minX + 2 && tx < maxX - 2 && ty >= minY + 2 && ty < maxY - 2 { return .node(NodeID(tile.slot)) }
        // In the box (steps minX ... maxX) without room: the cells decide.
        let holds = tx >= minX && tx < maxX + 1 && ty >= minY && ty < maxY + 1
        return holds ? .undecided : .nothing
    }

    /// The column and row of the tile under `p`, or nil outside them.
    @inline(__always)
    private func tile(containing p: CGPoint) -> (x: Int, y: Int)? {
        let cx = (Double(p.x) - originX) * inverseX, cy = (Double(p.y) - originY) * inverseY
        guard cx >= 0, cy >= 0, cx < Double(columns), cy < Double(rows) else { return nil }
        return (Int(cx), Int(cy))
    }

    /// Starts fetching `p`'s tile, with no wait (see `ScreenGrid.readAhead`).
    @inline(__always)
    func prefetch(_ p: CGPoint) {
        guard let (x, y) = tile(containing: p) else { return }
        tiles.withUnsafeBufferPointer { AXGeometry.prefetch($0.baseAddress! + (y * columns + x)) }
    }

    /// The first and last tile along one axis whose core (the tile less
    /// `step` at each end) meets `[lo, hi]`, or nil for none.
    private static func span(
        _ lo: Double, _ hi: Double, _ origin: Double, _ side: Double, _ step: Double, _ count: Int
    ) -> (Int, Int)? {
        guard lo <= hi, lo.isFinite, hi.isFinite else { return nil }
        // Estimates from the inverse, then exact against each tile's own
        // edges, computed as the query computes them.
        var first = max(0, Int(max(-1, min(Double(count), ((lo - origin) / side).rounded(.down)))) - 1)
        var last = min(count - 1, Int(max(-1, min(Double(count), ((hi - origin) / side).rounded(.down)))) + 1)
        while first <= last && origin + Double(first + 1) * side - step < lo { first += 1 }
        while last >= first && origin + Double(last) * side + step > hi { last -= 1 }
        return first <= last ? (first, last) : nil
    }

    /// `(v - tile) / side` in steps (`inverse` is `1 / side`): the same
    /// monotone function for boxes and points, so a point inside a box
    /// quantizes inside the box's outward-rounded steps.
    @inline(__always)
    private static func steps(_ v: Double, _ tile: Double, _ inverse: Double) -> Double { (v - tile) * inverse * steps }

    /// A point's or a box's low edge: the floor of its steps, clamped.
    @inline(__always)
    private static func quantizedDown(_ v: Double, _ tile: Double, _ inverse: Double) -> UInt8 {
        // For 0 < t < steps, converting truncates, which is the floor.
        let t = steps(v, tile, inverse)
        return !(t > 0) ? 0 : (t >= steps ? .max : UInt8(t))  // NaN → 0
    }

    /// A box's high edge: the ceiling of its steps, clamped.
    private static func quantizedUp(_ v: Double, _ tile: Double, _ inverse: Double) -> UInt8 {
        let t = steps(v, tile, inverse).rounded(.up)
        return t <= 0 ? 0 : (t >= steps ? .max : UInt8(t))
    }

    /// The median of `values` (not empty), by sorting them (callers pass a
    /// sample of at most a few thousand).
    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }

    /// The rect of the tiles: a point outside it is undecided.
    var raster: CGRect {
        CGRect(x: originX, y: originY, width: Double(columns) * sideX, height: Double(rows) * sideY)
    }

    /// The tiles that decide (an element or nothing) where no edge is near.
    var decidedCount: Int { tiles.reduce(0) { $0 + ($1.slot == Self.undecided ? 0 : 1) } }

    /// Bytes held.
    var memoryBytes: Int { tiles.count * MemoryLayout<Tile>.stride }
}
