import Foundation

/// A winding region encoded in one run of `Double` words, laid out so that a
/// point test reads a header, one stripe-table entry and one contiguous run
/// of points: a few cache lines, however many regions share the buffer.
///
/// Layout, in words from the record's start:
///
/// | words | content |
/// | --- | --- |
/// | 0–3 | the rings' box: minX, maxX, minY, maxY |
/// | 4 | stripes per unit of y (as `EdgeStripes.scale`) |
/// | 5 | bit pattern: stripe count (low 32 bits), flags (`evenOdd`, `tag`) |
/// | 6 | bit pattern: the record's length in words |
/// | 7… | stripe table: `count + 1` point offsets, two `UInt32` a word |
/// | … | points `(x, y)`, grouped by stripe |
/// | last 16 | summary: a 20 × 20 grid of settled cells, in one 128-byte line pair (`writeSummary`) |
///
/// Stripe `s` (as `EdgeStripes`: equal heights over the box) holds, as
/// polylines in ring order, every edge whose closed y-span meets it; runs of
/// consecutive edges share their points and runs are parted by a NaN point.
/// An edge touching a NaN point never counts (every comparison with NaN is
/// false), so a query simply scans the stripe's consecutive point pairs with
/// `WindingRegion`'s crossing test: same edges, same arithmetic, same
/// answers, and no edge ids or vertex array to chase.
package enum WindingRecord {
    static let headerWords = 7
    static let evenOddFlag: UInt64 = 1 << 32
    static let tagFlag: UInt64 = 1 << 33
    /// Edges per stripe aimed at; fewer stripes if they would duplicate too
    /// many points (see `make`).
    static let edgesPerStripe = 4
    /// Up to this many stripes the table shares the header's 128 bytes, so
    /// a query waits for two lines (header, then its stripe's points) rather
    /// than three; beyond, stripes grow to `longStripeEdges` edges instead.
    static let headerStripes = 16
    static let longStripeEdges = 32
    /// Records are padded to this many words (128 bytes, a pair of lines).
    static let alignmentWords = 16
    /// The summary at a record's end, one 128-byte line pair (fetched
    /// together): the grid's origin and scales (as `Float` pairs), flags
    /// with 32 bits for the store's use (`place`), and the grid's 400
    /// two-bit cells. Twenty cells a side rather than the twelve that fit in
    /// one line: a point lands in a cell the boundary crosses (and reads
    /// the record, two more misses) 40% less often.
    package static let summaryWords = 16
    @usableFromInline static let gridSize = 20
    @usableFromInline static let filledCell: UInt64 = 2
    @usableFromInline static let emptyCell: UInt64 = 1

    /// The record of the region `rings` fill by `rule` (rings as in
    /// `WindingRegion.init(rings:rule:)`), with `tag` kept for the caller,
    /// padded to whole 128-byte line pairs.
    ///
    /// - Complexity: O(points × log stripes + stored points); the stripe
    ///   count is halved until the stored points stay within about three
    ///   per edge, so tall edges (a comb's teeth) cannot blow up memory or
    ///   time.
    package static func make(rings: [[CGPoint]], rule: FillRule, tag: Bool = false) -> [Double] {
        var vertices: [CGPoint] = []
        var starts: [Int] = [0]
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for ring in rings where ring.count >= 2 && ring.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) {
            for p in ring {
                vertices.append(p)
                minX = min(minX, Double(p.x))
                minY = min(minY, Double(p.y))
                maxX = max(maxX, Double(p.x))
                maxY = max(maxY, Double(p.y))
            }
            if let first = ring.first, first != ring.last { vertices.append(first) }
            starts.append(vertices.count)
        }
        var flags = rule == .evenOdd ? evenOddFlag : 0
        if tag { flags |= tagFlag }
        guard !vertices.isEmpty else {
            // A box no point is in (x >= 0 and x < 0), one empty stripe, and
            // a grid of one cell (scale 0), settled empty.
            let length = (headerWords + 1 + summaryWords + alignmentWords - 1) / alignmentWords * alignmentWords
            var empty = [Double](repeating: 0, count: length)
            empty[5] = Double(bitPattern: flags | 1)
            empty[6] = Double(bitPattern: UInt64(length))
            empty[length - summaryWords + 2] = Double(bitPattern: flags)
            empty[length - summaryWords + 3] = Double(bitPattern: emptyCell)
            return empty
        }
        let edgeCount = vertices.count - (starts.count - 1)
        // A height that overflows (coordinates near ±1e308) gets one stripe
        // holding every edge: slow but right.
        let height = maxY - minY
        let usable = height > 0 && height.isFinite
        // A few dozen contiguous points cost about one cache miss; another
        // table line costs a whole one: stripes stay few for small paths.
        let wanted = min(edgeCount / edgesPerStripe, max(headerStripes, edgeCount / longStripeEdges))
        var count = usable ? min(max(wanted, 1), 1 << 16) : 1
        let budget = 3 * edgeCount + 64
        // Every edge stores at least one point per stripe it meets, so while
        // that count alone is over the budget, halve without laying out: a
        // layout costs as much as it stores, and laying out first made a
        // flat subpath of 300,000 curves (every edge in every stripe) take
        // minutes.
        while count > 1 && stripeVisits(vertices, starts, minY: minY, height: height, count: count) > budget {
            count = max(1, count / 2)
        }
        var offsets = layout(vertices, starts, minY: minY, height: height, count: count)
        while offsets[count] > budget && count > 1 {
            count = max(1, count / 2)
            offsets = layout(vertices, starts, minY: minY, height: height, count: count)
        }
        let scale = count > 1 ? Double(count) / height : 0
        let tableWords = (count + 2) / 2
        let pointsBase = headerWords + tableWords
        let length =
            (pointsBase + 2 * offsets[count] + summaryWords + alignmentWords - 1) / alignmentWords * alignmentWords
        return [Double](unsafeUninitializedCapacity: length) { words, initialized in
            words.initialize(repeating: 0)
            words[0] = minX
            words[1] = maxX
            words[2] = minY
            words[3] = maxY
            words[4] = scale
            words[5] = Double(bitPattern: flags | UInt64(count))
            words[6] = Double(bitPattern: UInt64(length))
            for j in 0 ..< tableWords {
                let lo = UInt64(offsets[2 * j])
                let hi = 2 * j + 1 <= count ? UInt64(offsets[2 * j + 1]) : 0
                words[headerWords + j] = Double(bitPattern: lo | hi << 32)
            }
            // The walk of `layout` again, writing the points this time.
            var cursor = offsets
            forEachEdgeInStripes(vertices, starts, minY: minY, scale: scale, count: count) { e, s, continuesRun in
                var k = pointsBase + 2 * cursor[s]
                if !continuesRun {
                    if cursor[s] > offsets[s] {
                        words[k] = .nan
                        words[k + 1] = .nan
                        k += 2
                    }
                    words[k] = Double(vertices[e].x)
                    words[k + 1] = Double(vertices[e].y)
                    k += 2
                }
                words[k] = Double(vertices[e + 1].x)
                words[k + 1] = Double(vertices[e + 1].y)
                cursor[s] = (k + 2 - pointsBase) / 2
            }
            writeSummary(
                words.baseAddress!, length: length, vertices: vertices, starts: starts, rule: rule, flags: flags)
            initialized = length
        }
    }

    /// Writes the summary (the record's last `summaryWords` words, which a
    /// store copies out to keep apart): a 20 × 20 grid over the box, whose
    /// cells the rings' edges keep away from are each marked filled or not.
    ///
    /// A cell is every point whose `cell(of:)` in x and in y is that cell's
    /// (the outer cells reach to infinity). It is clear when no edge's box,
    /// grown by `margin`, reaches it (the cell functions are monotone, so a
    /// point whose cell lies outside the cells of the grown box's ends lies
    /// outside the grown box). Then no point of the cell is within rounding
    /// of an edge it might cross, so `winding` computes the true winding
    /// number there (0 outside the box, as the true one), and that is the
    /// same all over the cell, and over a row of clear cells side by side
    /// (connected, and never meeting the rings): one exact test at a centre
    /// settles the whole run. The rest are left undecided. The grid's origin
    /// and scales are `Float`s, exact as `Double`s, so that query and build
    /// compute cells alike and the summary fits one line pair.
    private static func writeSummary(
        _ w: UnsafeMutablePointer<Double>, length: Int, vertices: [CGPoint], starts: [Int],
        rule: FillRule, flags: UInt64
    ) {
        let minX = w[0], maxX = w[1], minY = w[2], maxY = w[3]
        let g = Double(gridSize)
        var ox = Float(minX), oy = Float(minY)
        var fx = Float(g / (maxX - minX)), fy = Float(g / (maxY - minY))
        // Out of Float's range, or a box of no width: one column (or row).
        if !ox.isFinite || !fx.isFinite || fx <= 0 {
            ox = 0
            fx = 0
        }
        if !oy.isFinite || !fy.isFinite || fy <= 0 {
            oy = 0
            fy = 0
        }
        let x0 = Double(ox), y0 = Double(oy), sx = Double(fx), sy = Double(fy)
        // Far above the few ulps a crossing's arithmetic can be off by.
        let margin = 1e-9 * max(abs(minX), abs(maxX), abs(minY), abs(maxY)) + Double.leastNormalMagnitude
        var blocked = [Bool](repeating: false, count: gridSize * gridSize)
        vertices.withUnsafeBufferPointer { v in
            for r in 0 ..< (starts.count - 1) {
                for e in starts[r] ..< (starts[r + 1] - 1) {
                    let ax = Double(v[e].x), ay = Double(v[e].y), bx = Double(v[e + 1].x), by = Double(v[e + 1].y)
                    let c0 = cell(of: min(ax, bx) - margin, min: x0, scale: sx),
                        c1 = cell(of: max(ax, bx) + margin, min: x0, scale: sx)
                    let r0 = cell(of: min(ay, by) - margin, min: y0, scale: sy),
                        r1 = cell(of: max(ay, by) + margin, min: y0, scale: sy)
                    for cy in r0 ... r1 { for cx in c0 ... c1 { blocked[cy * gridSize + cx] = true } }
                }
            }
        }
        var grid = [UInt64](repeating: 0, count: summaryWords - 3)
        for cy in 0 ..< gridSize {
            let py = y0 + (Double(cy) + 0.5) / sy
            var cx = 0
            while cx < gridSize {
                guard !blocked[cy * gridSize + cx] else {
                    cx += 1
                    continue
                }
                var end = cx
                while end < gridSize && !blocked[cy * gridSize + end] { end += 1 }
                let px = x0 + (Double(cx) + 0.5) / sx
                // A centre that rounds into another cell settles nothing.
                if cell(of: px, min: x0, scale: sx) == cx, cell(of: py, min: y0, scale: sy) == cy {
                    let code = rule.fills(winding: winding(UnsafePointer(w), x: px, y: py)) ? filledCell : emptyCell
                    for k in (cy * gridSize + cx) ..< (cy * gridSize + end) {
                        grid[k >> 5] |= code << UInt64((k & 31) * 2)
                    }
                }
                cx = end
            }
        }
        let s = w + (length - summaryWords)
        s[0] = Double(bitPattern: UInt64(ox.bitPattern) | UInt64(oy.bitPattern) << 32)
        s[1] = Double(bitPattern: UInt64(fx.bitPattern) | UInt64(fy.bitPattern) << 32)
        s[2] = Double(bitPattern: flags)
        for j in grid.indices { s[3 + j] = Double(bitPattern: grid[j]) }
    }

    /// The first and last stripe that the closed y-span of an edge meets.
    @inline(__always)
    private static func span(_ y0: CGFloat, _ y1: CGFloat, minY: Double, scale: Double, count: Int) -> (Int, Int) {
        let lo = min(Double(y0), Double(y1)), hi = max(Double(y0), Double(y1))
        return (
            stripe(of: lo, minY: minY, scale: scale, count: count),
            stripe(of: hi, minY: minY, scale: scale, count: count)
        )
    }

    /// How many (edge, stripe) pairs `count` stripes make: the stripes each
    /// edge's closed y-span meets, summed. O(edges).
    private static func stripeVisits(
        _ vertices: [CGPoint], _ starts: [Int], minY: Double, height: Double,
        count: Int
    ) -> Int {
        let scale = count > 1 ? Double(count) / height : 0
        var total = 0
        for r in 0 ..< (starts.count - 1) {
            for e in starts[r] ..< (starts[r + 1] - 1) {
                let (a, b) = span(vertices[e].y, vertices[e + 1].y, minY: minY, scale: scale, count: count)
                total += b - a + 1
            }
        }
        return total
    }

    /// Where each stripe's points go with `count` stripes: stripe `s` gets
    /// points `offsets[s] ..< offsets[s + 1]`: in each stripe a run of edges
    /// goes on (one more point) or starts (two, after a NaN unless it is the
    /// stripe's first).
    private static func layout(
        _ vertices: [CGPoint], _ starts: [Int], minY: Double, height: Double,
        count: Int
    ) -> [Int] {
        let scale = count > 1 ? Double(count) / height : 0
        var sizes = [Int](repeating: 0, count: count + 1)
        forEachEdgeInStripes(vertices, starts, minY: minY, scale: scale, count: count) { _, s, continuesRun in
            sizes[s + 1] += continuesRun ? 1 : (sizes[s + 1] == 0 ? 2 : 3)
        }
        for s in 0 ..< count { sizes[s + 1] += sizes[s] }
        return sizes
    }

    /// Calls `body` for every edge `e` (from `vertices[e]` to
    /// `vertices[e + 1]`, in ring order) and each stripe `s` its closed
    /// y-span meets, saying whether the edge goes on the stripe's current
    /// run (the stripe's previous edge was `e - 1`). The one walk behind
    /// `layout`, which counts, and `make`, which writes. Edges `e` and
    /// `e + 1` are never in two rings (the closing vertex sits between), so
    /// `e - 1` before `e` means the same ring.
    @inline(__always)
    private static func forEachEdgeInStripes(
        _ vertices: [CGPoint], _ starts: [Int], minY: Double, scale: Double, count: Int,
        _ body: (_ e: Int, _ s: Int, _ continuesRun: Bool) -> Void
    ) {
        var last = [Int](repeating: -2, count: count)
        vertices.withUnsafeBufferPointer { v in
            for r in 0 ..< (starts.count - 1) {
                for e in starts[r] ..< (starts[r + 1] - 1) {
                    let (a, b) = span(v[e].y, v[e + 1].y, minY: minY, scale: scale, count: count)
                    for s in a ... b {
                        body(e, s, last[s] == e - 1)
                        last[s] = e
                    }
                }
            }
        }
    }

    /// The stripe of `y` (clamped to `0 ..< count`): one monotone formula for
    /// building and querying, so that an edge registered from the stripe of
    /// its lower end to that of its upper end is found by every query point
    /// within its span. As `EdgeStripes.stripe(of:)`.
    @inlinable @inline(__always)
    static func stripe(of y: Double, minY: Double, scale: Double, count: Int) -> Int {
        let s = (y - minY) * scale
        // The guard keeps Int(_:) from trapping on NaN or out-of-range values.
        guard s > 0 else { return 0 }
        let last = count - 1
        return s < Double(last) ? Int(s) : last
    }

    /// The grid column (or row) of `v`, clamped to the grid: as `stripe(of:)`.
    @inlinable @inline(__always)
    static func cell(of v: Double, min: Double, scale: Double) -> Int {
        stripe(of: v, minY: min, scale: scale, count: gridSize)
    }

    /// Whether `(x, y)` is filled, from a record's summary `s` alone when
    /// the point's grid cell is settled, else from the record itself: the
    /// same answer as `winding` always.
    @inlinable @inline(__always)
    package static func contains(
        summary s: UnsafePointer<Double>, record: UnsafePointer<Double>, x: Double, y: Double
    ) -> Bool {
        let origin = s[0].bitPattern, scale = s[1].bitPattern
        let cx = cell(
            of: x, min: Double(Float(bitPattern: UInt32(truncatingIfNeeded: origin))),
            scale: Double(Float(bitPattern: UInt32(truncatingIfNeeded: scale))))
        let cy = cell(
            of: y, min: Double(Float(bitPattern: UInt32(truncatingIfNeeded: origin >> 32))),
            scale: Double(Float(bitPattern: UInt32(truncatingIfNeeded: scale >> 32))))
        let k = cy * gridSize + cx
        let code = s[3 + k >> 5].bitPattern >> UInt64((k & 31) * 2) & 3
        if code != 0 { return code == filledCell }
        return rule(record).fills(winding: winding(record, x: x, y: y))
    }

    /// The record's length in words.
    package static func length(_ record: UnsafePointer<Double>) -> Int {
        Int(truncatingIfNeeded: record[6].bitPattern)
    }

    /// The `tag` the record was made with.
    @inlinable @inline(__always)
    package static func tag(_ record: UnsafePointer<Double>) -> Bool {
        record[5].bitPattern & (1 << 33) != 0
    }

    /// The fill rule the record was made with.
    @inlinable @inline(__always)
    package static func rule(_ record: UnsafePointer<Double>) -> FillRule {
        record[5].bitPattern & (1 << 32) != 0 ? .evenOdd : .nonZero
    }

    /// The winding number of the record's rings around `(x, y)` (0 outside
    /// their half-open box). Edge `a -> b` counts when
    /// `(a.y <= y) != (b.y <= y)` and `x` is left of its crossing, computed
    /// exactly as `WindingRegion` always has.
    ///
    /// - Complexity: O(points in the stripe of `y`); no allocation.
    @inlinable @inline(__always)
    package static func winding(_ w: UnsafePointer<Double>, x: Double, y: Double) -> Int {
        guard x >= w[0], x < w[1], y >= w[2], y < w[3] else { return 0 }
        let count = Int(truncatingIfNeeded: w[5].bitPattern & 0xffff_ffff)
        let s = stripe(of: y, minY: w[2], scale: w[4], count: count)
        let table = 7
        let first = w[table + s >> 1].bitPattern >> (UInt64(s & 1) * 32) & 0xffff_ffff
        let end = w[table + (s + 1) >> 1].bitPattern >> (UInt64((s + 1) & 1) * 32) & 0xffff_ffff
        let points = table + (count + 2) / 2
        var i = points + 2 * Int(truncatingIfNeeded: first)
        let stop = points + 2 * Int(truncatingIfNeeded: end)
        guard i < stop else { return 0 }
        var ax = w[i], ay = w[i + 1]
        i += 2
        var winding = 0
        while i < stop {
            let bx = w[i], by = w[i + 1]
            if (ay <= y) != (by <= y), x < ax + (y - ay) / (by - ay) * (bx - ax) {
                winding += by > ay ? 1 : -1
            }
            ax = bx
            ay = by
            i += 2
        }
        return winding
    }
}
