import Foundation
import Testing

@testable import AXGeometry

@Suite struct CellGridTests {
    /// Items whose box holds `p` (closed), by scanning every box.
    static func brute(_ boxes: [CGRect], _ p: CGPoint) -> Set<Int32> {
        Set(
            boxes.indices.filter { i in
                let b = boxes[i]
                return !b.isNull && b.minX <= p.x && p.x <= b.maxX && b.minY <= p.y && p.y <= b.maxY
            }.map { Int32($0) })
    }

    /// Whether `p` lies within `d` of box `b` (so a quantized box may hold it).
    static func near(_ b: CGRect, _ p: CGPoint, _ d: Double) -> Bool {
        b.insetBy(dx: -d, dy: -d).contains(p)
            || (p.x >= b.minX - d && p.x <= b.maxX + d && p.y >= b.minY - d && p.y <= b.maxY + d)
    }

    static func containing(_ grid: CellGrid, _ p: CGPoint) -> [Int32] {
        var out: [Int32] = []
        grid.forEach(containing: p) {
            out.append($0)
            return true
        }
        return out
    }

    static func randomBoxes(_ n: Int, _ rng: inout SplitMix64) -> [CGRect] {
        (0 ..< n).map { _ in
            CGRect(
                x: Double.random(in: 0 ... 1000, using: &rng), y: Double.random(in: 0 ... 1000, using: &rng),
                width: Double.random(in: 5 ... 40, using: &rng), height: Double.random(in: 5 ... 40, using: &rng))
        }
    }

    @Test func aRegularLayoutAnswersExactly() throws {
        // 20 × 20 boxes of 10 × 10 tiling 0...200: closed boxes, so a shared
        // corner belongs to four of them.
        let boxes = (0 ..< 400).map { k in CGRect(x: Double(k % 20) * 10, y: Double(k / 20) * 10, width: 10, height: 10)
        }
        let grid = try #require(CellGrid(boxes: boxes))
        #expect(Self.containing(grid, CGPoint(x: 15, y: 25)) == [41])
        #expect(Self.containing(grid, CGPoint(x: 20, y: 20)) == [21, 22, 41, 42])
        #expect(Self.containing(grid, CGPoint(x: 199.5, y: 0.5)) == [19])
        #expect(Self.containing(grid, CGPoint(x: 200.5, y: 5)) == [])
        #expect(Self.containing(grid, CGPoint(x: -1, y: -1)) == [])
        #expect(Self.containing(grid, CGPoint(x: Double.nan, y: 5)) == [])
    }

    @Test func pointQueriesMatchABruteForceScanInOrder() throws {
        var rng = SplitMix64(seed: 11)
        let boxes = Self.randomBoxes(5000, &rng)
        let grid = try #require(CellGrid(boxes: boxes))
        for _ in 0 ..< 3000 {
            let p = CGPoint(
                x: Double.random(in: -10 ... 1050, using: &rng), y: Double.random(in: -10 ... 1050, using: &rng))
            let got = Self.containing(grid, p)
            #expect(got == got.sorted() && Set(got).count == got.count)
            let truth = Self.brute(boxes, p)
            #expect(truth.isSubset(of: Set(got)))
            // Extras only where quantization (a step of side / 65535) allows.
            for k in Set(got).subtracting(truth) { #expect(Self.near(boxes[Int(k)], p, 1e-2)) }
        }
    }

    @Test func rectQueriesReportEachItemOnce() throws {
        var rng = SplitMix64(seed: 12)
        let boxes = Self.randomBoxes(3000, &rng)
        let grid = try #require(CellGrid(boxes: boxes))
        for _ in 0 ..< 300 {
            let r = CGRect(
                x: Double.random(in: -50 ... 1000, using: &rng), y: Double.random(in: -50 ... 1000, using: &rng),
                width: Double.random(in: 0 ... 200, using: &rng), height: Double.random(in: 0 ... 200, using: &rng))
            var got: [Int32] = []
            grid.forEach(intersecting: r) {
                got.append($0)
                return true
            }
            #expect(Set(got).count == got.count)
            let truth = Set(
                boxes.indices.filter { i in
                    let b = boxes[i]
                    return b.minX <= r.maxX && r.minX <= b.maxX && b.minY <= r.maxY && r.minY <= b.maxY
                }.map { Int32($0) })
            #expect(truth.isSubset(of: Set(got)))
            for k in Set(got).subtracting(truth) { #expect(boxes[Int(k)].insetBy(dx: -1e-2, dy: -1e-2).intersects(r)) }
        }
    }

    @Test func roomMeansMoreThanAStepInsideEveryEdge() throws {
        // `withRoom` promises the point lies more than one quantization step
        // inside the exact box on every side: checked on points placed at
        // and near the edges, where the step matters.
        var rng = SplitMix64(seed: 11)
        let boxes = Self.randomBoxes(2000, &rng)
        let grid = try #require(CellGrid(boxes: boxes))
        let step = grid.cells.quantizationStep
        var withRoom = 0, without = 0
        for k in 0 ..< 4000 {
            let b = boxes[k % boxes.count]
            let offsets = [0, step * 0.5, step, step * 1.5, step * 2.5, step * 4, b.width / 2]
            let p = CGPoint(x: b.minX + offsets[k % offsets.count], y: b.minY + offsets[(k / 7) % offsets.count])
            grid.cells.forEach(containing: p) { item, room in
                guard Int(item) == k % boxes.count else { return true }
                if room {
                    withRoom += 1
                    let c = boxes[Int(item)]
                    #expect(p.x - c.minX > step * 0.999 && c.maxX - p.x > step * 0.999, "x \(p.x) in \(c)")
                    #expect(p.y - c.minY > step * 0.999 && c.maxY - p.y > step * 0.999, "y \(p.y) in \(c)")
                } else {
                    without += 1
                }
                return true
            }
        }
        // Both answers occur: the test saw points with and without room.
        #expect(withRoom > 100 && without > 100)
    }

    /// A cell read from its front end: `previous()` gives the items that
    /// hold the point in decreasing order and leaves the scan over those
    /// behind the last one it gave; `frontmost(below:above:)` stops at the
    /// first item under the limit and gives up at the floor.
    @Test func aCellReadsFromEitherEnd() throws {
        // 400 boxes of 10 × 10 tiling 0...200, and over them three larger
        // ones, numbered last, that all hold (55, 55): 400, 401 and 402.
        var boxes = (0 ..< 400).map { k in
            CGRect(x: Double(k % 20) * 10, y: Double(k / 20) * 10, width: 10, height: 10)
        }
        boxes += [
            CGRect(x: 50, y: 50, width: 30, height: 30), CGRect(x: 40, y: 45, width: 20, height: 20),
            CGRect(x: 52, y: 52, width: 4, height: 4),
        ]
        let grid = try #require(CellGrid(boxes: boxes))
        let p = CGPoint(x: 55, y: 55)
        // The tile under p is 5 + 5 × 20 = 105.
        #expect(Self.containing(grid, p) == [105, 400, 401, 402])
        var scan = grid.cells.scan(containing: p)
        #expect(scan.previous()?.item == 402)
        #expect(scan.previous()?.item == 401)
        // What is left reads forward: the items behind 401.
        var rest: [Int32] = []
        while let (item, _) = scan.next() { rest.append(item) }
        #expect(rest == [105, 400])
        #expect(scan.previous() == nil)
        let cell = grid.cells.scan(containing: p)
        #expect(cell.frontmost(below: .max, above: -1)?.item == 402)
        #expect(cell.frontmost(below: 402, above: -1)?.item == 401)
        #expect(cell.frontmost(below: 400, above: -1)?.item == 105)
        #expect(cell.frontmost(below: 400, above: 105) == nil)
        #expect(cell.frontmost(below: 105, above: -1) == nil)
        // Room: (55, 55) is at least a point inside each of 402's edges,
        // far more than a quantization step.
        #expect(cell.frontmost(below: .max, above: -1)?.withRoom == true)
        let edge = grid.cells.scan(containing: CGPoint(x: 52, y: 54))
        #expect(edge.frontmost(below: .max, above: -1)?.item == 402)
        #expect(edge.frontmost(below: .max, above: -1)?.withRoom == false, "on 402's left edge")
    }

    /// An entry holds a quantized point exactly when the point lies within
    /// its closed edges on both axes: at the ends of the 16-bit range, on
    /// each edge and a step either side, and for boxes one step wide (the
    /// scan's one-branch test wraps its differences; a mistake there would
    /// show at these values first).
    @Test func anEntryHoldsExactlyThePointsWithinItsClosedEdges() {
        let edges: [UInt16] = [0, 1, 2, 300, 301, 32767, 32768, 65534, 65535]
        var near = Set<UInt16>()
        for e in edges { near.formUnion([e &- 1, e, e &+ 1]) }
        var checked = 0, held = 0
        for minX in edges {
            for maxX in edges where maxX >= minX {
                let (minY, maxY) = (maxX, maxX == 65535 ? 65535 : maxX + 1)
                let e = CellGrid.Entry(minX: minX, minY: minY, maxX: maxX, maxY: maxY, item: 0)
                for qx in near {
                    for qy in [minY &- 1, minY, maxY, maxY &+ 1] {
                        let holds = withUnsafePointer(to: e) {
                            CellGrid.Cells.Scan(entries: $0, i: 0, end: 1, qx: qx, qy: qy).holds(e)
                        }
                        let expected = minX <= qx && qx <= maxX && minY <= qy && qy <= maxY
                        #expect(holds == expected, "entry \(e), point (\(qx), \(qy))")
                        checked += 1
                        if expected { held += 1 }
                    }
                }
            }
        }
        // Guards: both answers were asked for, many times.
        #expect(checked > 2000 && held > 400 && checked - held > 1000)
    }

    /// From `CellGrid.parallelMinimum` boxes the build counts and files
    /// them a run per core. However many runs, the grid must be the one a
    /// single pass makes, byte for byte: every cell's entries in increasing
    /// item order (a run's entries ahead of an earlier run's would reorder a
    /// cell; a shared cursor would lose or overwrite entries), and the loose
    /// items in order. The single pass itself is checked against a scan of
    /// all boxes.
    @Test func runsOnManyCoresBuildTheGridOnePassBuilds() throws {
        var rng = SplitMix64(seed: 15)
        // Fewer boxes than the build would share out by itself: the runs
        // are asked for.
        let n = 20_000
        var boxes = (0 ..< n).map { _ in
            CGRect(
                x: Double.random(in: 0 ... 1900, using: &rng), y: Double.random(in: 0 ... 1900, using: &rng),
                width: Double.random(in: 5 ... 40, using: &rng), height: Double.random(in: 5 ... 40, using: &rng))
        }
        // Loose boxes in the first, middle and last runs, however many.
        let wide = [3, n / 2 + 1, n - 2]
        for k in wide { boxes[k] = CGRect(x: 10, y: Double(k % 1800), width: 1800, height: 2) }
        let keys = (0 ..< n).map { Int32(2 * $0 + 1) }
        func build(_ runs: Int) throws -> CellGrid {
            try #require(CellGrid(boxes: boxes, keys: keys, minimumCount: 256, minimumStep: 0, runs: runs))
        }
        let one = try build(1)
        #expect(one.loose == wide.map { Int32(2 * $0 + 1) })
        var checked = 0
        for _ in 0 ..< 150 {
            let p = CGPoint(
                x: Double.random(in: 0 ... 1900, using: &rng), y: Double.random(in: 0 ... 1900, using: &rng))
            var truth: [Int32] = []
            for (k, b) in boxes.enumerated() where b.minX <= p.x && p.x <= b.maxX && b.minY <= p.y && p.y <= b.maxY {
                truth.append(Int32(2 * k + 1))
            }
            let got = Self.containing(one, p)
            #expect(got == got.sorted() && Set(got).count == got.count)
            #expect(Set(truth).isSubset(of: Set(got)), "\(p)")
            checked += truth.count
        }
        // Not vacuous: the points met boxes (about three each).
        #expect(checked > 150)
        let cells = one.storage.cellCount, entries = one.storage.entryCount
        #expect(cells > 1000 && entries > n)
        for runs in [2, 3, 7, CellGrid.maxRuns] {
            let other = try build(runs)
            #expect(other.storage.cellCount == cells && other.storage.entryCount == entries)
            #expect(memcmp(other.storage.cellStarts, one.storage.cellStarts, (cells + 1) * 4) == 0, "\(runs) runs")
            let entryBytes = entries * MemoryLayout<CellGrid.Entry>.stride
            #expect(memcmp(other.storage.entries, one.storage.entries, entryBytes) == 0, "\(runs) runs")
            #expect(other.loose == one.loose && other.looseBoxes == one.looseBoxes)
        }
        // The build's own choice: one run below `parallelMinimum` boxes, at
        // most one a core and `maxRuns`.
        let cores = ProcessInfo.processInfo.activeProcessorCount
        #expect(CellGrid.runCount(CellGrid.parallelMinimum - 1) == 1)
        #expect(CellGrid.runCount(1 << 24) == min(cores, CellGrid.maxRuns))
        #expect(CellGrid.runCount(CellGrid.parallelMinimum) == min(cores, 2))
    }

    @Test func keysAreReportedInsteadOfIndices() throws {
        var rng = SplitMix64(seed: 13)
        let boxes = Self.randomBoxes(1000, &rng)
        let keys = (0 ..< 1000).map { Int32(3 * $0 + 7) }
        let grid = try #require(CellGrid(boxes: boxes, keys: keys))
        for _ in 0 ..< 500 {
            let p = CGPoint(
                x: Double.random(in: 0 ... 1000, using: &rng), y: Double.random(in: 0 ... 1000, using: &rng))
            let truth = Set(Self.brute(boxes, p).map { 3 * $0 + 7 })
            let got = Self.containing(grid, p)
            #expect(got == got.sorted())
            #expect(truth.isSubset(of: Set(got)))
        }
    }

    @Test func movedAndWideItemsAreFoundThroughTheLooseList() throws {
        var rng = SplitMix64(seed: 14)
        var boxes = Self.randomBoxes(2000, &rng)
        // Two wide boxes and one reaching infinity, from the start.
        boxes[5] = CGRect(x: 0, y: 500, width: 1000, height: 3)
        boxes[6] = CGRect(x: 300, y: 0, width: 2, height: 1000)
        boxes[7] = CGRect(x: 800, y: 800, width: Double.infinity, height: 10)
        var grid = try #require(CellGrid(boxes: boxes))
        #expect(grid.movedCount == 0)
        var moved = Set<Int32>()
        for _ in 0 ..< 100 {
            let k = Int.random(in: 0 ..< boxes.count, using: &rng)
            let b = CGRect(
                x: Double.random(in: 0 ... 1000, using: &rng), y: Double.random(in: 0 ... 1000, using: &rng),
                width: Double.random(in: 0 ... 60, using: &rng), height: Double.random(in: 0 ... 60, using: &rng))
            boxes[k] = b
            grid.setBox(ofItem: Int32(k), to: b)
            moved.insert(Int32(k))
        }
        #expect(grid.movedCount == moved.subtracting([5, 6, 7]).count)
        for _ in 0 ..< 3000 {
            let p = CGPoint(
                x: Double.random(in: 0 ... 1100, using: &rng), y: Double.random(in: 0 ... 1100, using: &rng))
            let got = Self.containing(grid, p)
            #expect(got == got.sorted() && Set(got).count == got.count)
            let truth = Self.brute(boxes, p)
            #expect(truth.isSubset(of: Set(got)))
            // Extras: near a box, or a moved item at its old place.
            for k in Set(got).subtracting(truth) { #expect(moved.contains(k) || Self.near(boxes[Int(k)], p, 1e-2)) }
        }
        #expect(Self.containing(grid, CGPoint(x: 5000, y: 805)).contains(7) == !moved.contains(7))
    }

    @Test func declinesSetsThatDontSuitAGrid() {
        var rng = SplitMix64(seed: 15)
        // Too few.
        #expect(CellGrid(boxes: Self.randomBoxes(100, &rng)) == nil)
        // Clustered: 1000 boxes on one spot and one far away.
        var clustered = (0 ..< 1000).map { _ in CGRect(x: 10, y: 10, width: 1, height: 1) }
        clustered.append(CGRect(x: 1e6, y: 1e6, width: 1, height: 1))
        #expect(CellGrid(boxes: clustered) == nil)
        // Too many boxes spanning the whole extent.
        let wide = (0 ..< 300).map { k in CGRect(x: 0, y: Double(k), width: 1000, height: 1000) }
        #expect(CellGrid(boxes: wide) == nil)
        // Nothing finite.
        #expect(CellGrid(boxes: Array(repeating: CGRect.null, count: 500)) == nil)
    }

    @Test func emptyBoxesMatchNothingAndHugeLayoutsAreDeclined() throws {
        var boxes = (0 ..< 300).map { k in CGRect(x: Double(k % 20) * 10, y: Double(k / 20) * 10, width: 10, height: 10)
        }
        boxes[3] = .null
        boxes[4] = CGRect(x: Double.nan, y: 0, width: 1, height: 1)
        let grid = try #require(CellGrid(boxes: boxes))
        #expect(Self.containing(grid, CGPoint(x: 35, y: 5)).isEmpty)
        #expect(Self.containing(grid, CGPoint(x: 45, y: 5)).isEmpty)
        #expect(Self.containing(grid, CGPoint(x: 55, y: 5)) == [5])
        // An extent whose area overflows: the caller's R-tree takes it.
        let huge = (0 ..< 300).map { k in
            CGRect(x: Double(k % 20) * 2.5e298, y: Double(k / 20) * 2.5e298, width: 1e298, height: 1e298)
        }
        #expect(CellGrid(boxes: huge) == nil)
    }
}
