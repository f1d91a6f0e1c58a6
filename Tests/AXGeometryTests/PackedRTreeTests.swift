import Foundation
import Testing

@testable import AXGeometry

/// SplitMix64: a tiny seeded generator so every run sees the same boxes.
struct PackedRTreeTestRNG: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A multiple of 1/16 in `0 ..< limit`: exact in `Float` for limits up
    /// to 2^20, so the tree's outward rounding changes nothing.
    mutating func grid(_ limit: Double) -> Double {
        Double(Int.random(in: 0 ..< Int(limit * 16), using: &self)) / 16
    }
}

@Suite struct PackedRTreeTests {
    // MARK: References

    /// Ids of boxes containing `p` (closed), by scanning every box.
    static func bruteContaining(_ boxes: [CGRect], _ p: CGPoint) -> [Int32] {
        boxes.indices.filter { i in
            let b = boxes[i]
            return !b.isNull && b.minX <= p.x && p.x <= b.maxX && b.minY <= p.y && p.y <= b.maxY
        }.map { Int32($0) }
    }

    /// Ids of boxes intersecting `r` (both closed), by scanning every box.
    static func bruteIntersecting(_ boxes: [CGRect], _ r: CGRect) -> [Int32] {
        boxes.indices.filter { i in
            let b = boxes[i]
            return !b.isNull && b.minX <= r.maxX && r.minX <= b.maxX && b.minY <= r.maxY && r.minY <= b.maxY
        }.map { Int32($0) }
    }

    static func containing(_ tree: PackedRTree, _ p: CGPoint) -> [Int32] {
        var out: [Int32] = []
        tree.search(containing: p, into: &out)
        return out.sorted()
    }

    static func intersecting(_ tree: PackedRTree, _ r: CGRect) -> [Int32] {
        var out: [Int32] = []
        tree.search(intersecting: r, into: &out)
        return out.sorted()
    }

    /// Random boxes on the 1/16 grid, sizes from 0 (degenerate) up to 40.
    static func gridBoxes(_ n: Int, _ rng: inout PackedRTreeTestRNG) -> [CGRect] {
        (0 ..< n).map { _ in
            CGRect(x: rng.grid(1000), y: rng.grid(1000), width: rng.grid(40), height: rng.grid(40))
        }
    }

    // MARK: Against brute force

    @Test(arguments: [0, 1, 15, 16, 17, 1000, 100_000])
    func pointQueriesMatchBruteForce(n: Int) {
        var rng = PackedRTreeTestRNG(seed: 0xA11CE + UInt64(n))
        let boxes = Self.gridBoxes(n, &rng)
        let tree = PackedRTree(boxes: boxes)
        #expect(tree.count == n)
        let queries = n >= 100_000 ? 60 : 300
        for q in 0 ..< queries {
            // Half the queries on box corners, to exercise the closed edges.
            let p: CGPoint
            if q % 2 == 0, !boxes.isEmpty {
                let b = boxes[Int.random(in: 0 ..< n, using: &rng)]
                p = q % 4 == 0 ? CGPoint(x: b.minX, y: b.minY) : CGPoint(x: b.maxX, y: b.maxY)
            } else {
                p = CGPoint(x: rng.grid(1040) - 20, y: rng.grid(1040) - 20)
            }
            #expect(Self.containing(tree, p) == Self.bruteContaining(boxes, p), "n=\(n) p=\(p)")
        }
    }

    @Test(arguments: [0, 1, 15, 16, 17, 1000, 100_000])
    func rectQueriesMatchBruteForce(n: Int) {
        var rng = PackedRTreeTestRNG(seed: 0xB0B + UInt64(n))
        let boxes = Self.gridBoxes(n, &rng)
        let tree = PackedRTree(boxes: boxes)
        let queries = n >= 100_000 ? 60 : 300
        for _ in 0 ..< queries {
            let r = CGRect(x: rng.grid(1040) - 20, y: rng.grid(1040) - 20, width: rng.grid(60), height: rng.grid(60))
            #expect(Self.intersecting(tree, r) == Self.bruteIntersecting(boxes, r), "n=\(n) r=\(r)")
        }
    }

    @Test(arguments: [2, 3, 4, 64])
    func otherNodeSizesMatchBruteForce(nodeSize: Int) {
        var rng = PackedRTreeTestRNG(seed: 0xC0DE + UInt64(nodeSize))
        let boxes = Self.gridBoxes(5000, &rng)
        let tree = PackedRTree(boxes: boxes, nodeSize: nodeSize)
        for _ in 0 ..< 200 {
            let p = CGPoint(x: rng.grid(1000), y: rng.grid(1000))
            #expect(Self.containing(tree, p) == Self.bruteContaining(boxes, p))
            let r = CGRect(x: rng.grid(1000), y: rng.grid(1000), width: rng.grid(80), height: rng.grid(80))
            #expect(Self.intersecting(tree, r) == Self.bruteIntersecting(boxes, r))
        }
    }

    /// Coordinates that `Float` cannot hold exactly: the tree must return
    /// every true match (it rounds outward), and any extra must lie within
    /// one `Float` step of its box.
    @Test func arbitraryDoublesAreConservative() {
        var rng = PackedRTreeTestRNG(seed: 0xF10A7)
        let boxes = (0 ..< 20_000).map { _ in
            CGRect(
                x: Double.random(in: -1e5 ... 1e5, using: &rng), y: Double.random(in: -1e5 ... 1e5, using: &rng),
                width: Double.random(in: 0 ... 3000, using: &rng), height: Double.random(in: 0 ... 3000, using: &rng))
        }
        let tree = PackedRTree(boxes: boxes)
        for q in 0 ..< 300 {
            var p = CGPoint(
                x: Double.random(in: -1e5 ... 1e5, using: &rng), y: Double.random(in: -1e5 ... 1e5, using: &rng))
            if q % 2 == 0 {
                // Just outside a box edge, closer than a Float step.
                let b = boxes[Int.random(in: 0 ..< boxes.count, using: &rng)]
                p = CGPoint(x: b.maxX.nextUp, y: b.midY)
            }
            let found = Self.containing(tree, p)
            let exact = Self.bruteContaining(boxes, p)
            #expect(Set(exact).isSubset(of: Set(found)))
            #expect(Set(found).count == found.count, "no duplicates")
            for id in Set(found).subtracting(exact) {
                let grown = boxes[Int(id)].insetBy(dx: -0.02, dy: -0.02)  // ulp(1e5) ≈ 0.008
                #expect(grown.contains(p), "extra \(id) too far from \(p)")
            }
        }
    }

    // MARK: Awkward boxes

    @Test func degenerateBoxesMatchOnTheirLine() {
        let boxes = [
            CGRect(x: 5, y: 0, width: 0, height: 10),  // vertical segment
            CGRect(x: 0, y: 5, width: 10, height: 0),  // horizontal segment
            CGRect(x: 3, y: 3, width: 0, height: 0),  // a point
        ]
        let tree = PackedRTree(boxes: boxes)
        #expect(Self.containing(tree, CGPoint(x: 5, y: 5)) == [0, 1])
        #expect(Self.containing(tree, CGPoint(x: 5, y: 10)) == [0])
        #expect(Self.containing(tree, CGPoint(x: 3, y: 3)) == [2])
        #expect(Self.containing(tree, CGPoint(x: 3.001, y: 3)) == [])
        #expect(Self.intersecting(tree, CGRect(x: 3, y: 3, width: 0, height: 0)) == [2])
    }

    @Test func hugeCoordinatesStayConservative() {
        var boxes = [
            CGRect(x: -1e300, y: -1e300, width: 2e300, height: 2e300),  // beyond Float: ±inf
            CGRect(x: 1e300, y: 0, width: 1e300, height: 1),  // entirely beyond Float's max
        ]
        var rng = PackedRTreeTestRNG(seed: 7)
        boxes += Self.gridBoxes(500, &rng)
        // CGRect cannot hold -inf ... 0 (its maxX would be NaN): use the column entry.
        let tree = PackedRTree(count: boxes.count + 1) { i in
            i == boxes.count ? (-.infinity, 0, 0, 1) : (boxes[i].minX, boxes[i].minY, boxes[i].maxX, boxes[i].maxY)
        }
        let infiniteID = Int32(boxes.count)
        for _ in 0 ..< 200 {
            let p = CGPoint(x: rng.grid(1000), y: rng.grid(1000))
            let found = Set(Self.containing(tree, p))
            #expect(Set(Self.bruteContaining(boxes, p)).isSubset(of: found))
            #expect(found.contains(0))
        }
        #expect(Set(Self.containing(tree, CGPoint(x: 1.5e300, y: 0.5))).isSuperset(of: [0, 1]))
        #expect(Set(Self.containing(tree, CGPoint(x: -1e200, y: 0.5))).isSuperset(of: [0, infiniteID]))
        #expect(Set(Self.containing(tree, CGPoint(x: -Double.infinity, y: 0.5))) == [0, infiniteID])
        // x reaches -inf: reported as CGRect.infinite's x extent; y is -inf too (box 0).
        #expect(tree.bounds == .infinite)
        let beyond = PackedRTree(boxes: [boxes[1], CGRect(x: 0, y: 0, width: 1, height: 1)]).bounds
        #expect(beyond.maxX == .infinity)
        let farBox = PackedRTree(boxes: [boxes[1]]).bounds
        #expect(farBox.minX.bitPattern == Double(Float.greatestFiniteMagnitude).bitPattern, "\(farBox)")
        // Outward rounding at the Float boundary.
        #expect(PackedRTree.roundedDown(1e300) == .greatestFiniteMagnitude)
        #expect(PackedRTree.roundedUp(1e300) == .infinity)
        #expect(PackedRTree.roundedDown(-1e300) == -.infinity)
        #expect(Double(PackedRTree.roundedDown(0.1)) <= 0.1 && Double(PackedRTree.roundedUp(0.1)) >= 0.1)
        #expect(PackedRTree.roundedDown(0.5) == 0.5 && PackedRTree.roundedUp(0.5) == 0.5)
    }

    @Test func nanAndEmptyBoxesNeverMatch() {
        var boxes = [
            CGRect(x: Double.nan, y: 0, width: 10, height: 10),
            CGRect(x: 0, y: 0, width: Double.nan, height: 10),
            CGRect.null,
            CGRect(x: 0, y: 0, width: 10, height: 10),
        ]
        boxes += Array(repeating: CGRect(x: 0, y: Double.nan, width: 1, height: 1), count: 40)
        let tree = PackedRTree(boxes: boxes)
        #expect(tree.count == 44)
        #expect(Self.containing(tree, CGPoint(x: 5, y: 5)) == [3])
        #expect(Self.containing(tree, CGPoint(x: Double.nan, y: 5)) == [])
        #expect(Self.intersecting(tree, .infinite) == [3])
        #expect(Self.intersecting(tree, .null) == [])
        #expect(Self.intersecting(tree, CGRect(x: Double.nan, y: 0, width: 1, height: 1)) == [])
        #expect(tree.bounds == CGRect(x: 0, y: 0, width: 10, height: 10))

        // Inverted boxes through the column entry are empty too.
        let inverted = PackedRTree(count: 2) { i in i == 0 ? (5, 5, 1, 9) : (1, 1, 9, 9) }
        #expect(Self.containing(inverted, CGPoint(x: 3, y: 6)) == [1])

        let allEmpty = PackedRTree(boxes: [.null, CGRect(x: Double.nan, y: Double.nan, width: 1, height: 1)])
        #expect(allEmpty.bounds.isNull)
        #expect(Self.intersecting(allEmpty, .infinite) == [])
        #expect(PackedRTree(boxes: [.null]).bounds.isNull)
    }

    /// 100k equal Hilbert keys: the sort must stay linear and shallow, and
    /// every box must be found.
    @Test func identicalBoxes() {
        let box = CGRect(x: 10, y: 20, width: 30, height: 40)
        let n = 100_000
        let tree = PackedRTree(boxes: Array(repeating: box, count: n))
        #expect(Self.containing(tree, CGPoint(x: 25, y: 25)) == (0 ..< Int32(n)).map { $0 })
        #expect(Self.containing(tree, CGPoint(x: 9, y: 25)) == [])
        #expect(Self.intersecting(tree, CGRect(x: 40, y: 60, width: 1, height: 1)).count == n)
        #expect(tree.bounds == box)
    }

    // MARK: API details

    @Test func emptyTree() {
        let tree = PackedRTree(boxes: [])
        #expect(tree.count == 0)
        #expect(tree.bounds.isNull)
        #expect(tree.memoryBytes == 0)
        #expect(Self.containing(tree, .zero) == [])
        #expect(Self.intersecting(tree, .infinite) == [])
    }

    @Test func forEachStopsEarly() {
        let tree = PackedRTree(boxes: Array(repeating: CGRect(x: 0, y: 0, width: 1, height: 1), count: 1000))
        var seen = 0
        tree.forEach(containing: CGPoint(x: 0.5, y: 0.5)) { _ in
            seen += 1
            return seen < 7
        }
        #expect(seen == 7)
        seen = 0
        tree.forEach(intersecting: CGRect(x: 0, y: 0, width: 5, height: 5)) { _ in
            seen += 1
            return false
        }
        #expect(seen == 1)
    }

    @Test func searchAppendsWithoutClearing() {
        let tree = PackedRTree(boxes: [CGRect(x: 0, y: 0, width: 1, height: 1)])
        var out: [Int32] = [42]
        tree.search(containing: CGPoint(x: 1, y: 1), into: &out)
        #expect(out == [42, 0])
    }

    @Test func columnInitMatchesRectInit() {
        var rng = PackedRTreeTestRNG(seed: 99)
        let boxes = Self.gridBoxes(3000, &rng)
        let a = PackedRTree(boxes: boxes)
        let b = PackedRTree(count: boxes.count) { i in
            (boxes[i].minX, boxes[i].minY, boxes[i].maxX, boxes[i].maxY)
        }
        #expect(a.nodes == b.nodes && a.ids == b.ids)
        #expect(a.bounds == b.bounds)
    }

    @Test func boundsAndMemory() {
        let boxes = [CGRect(x: -5, y: 2, width: 10, height: 1), CGRect(x: 0, y: -3, width: 1, height: 1)]
        let tree = PackedRTree(boxes: boxes, nodeSize: 16)
        #expect(tree.bounds == CGRect(x: -5, y: -3, width: 10, height: 6))
        // 2 leaves + 1 root, 16 bytes each; 2 ids and their 2 leaf positions; 3 level offsets.
        #expect(tree.memoryBytes == 3 * 16 + 2 * 4 + 2 * 4 + 3 * MemoryLayout<Int>.stride)
    }

    /// The Hilbert function is one-to-one and continuous on a corner block.
    @Test func hilbertCurve() {
        #expect(PackedRTree.hilbert(0, 0) == 0)
        var seen = Set<UInt32>()
        for x: UInt32 in 0 ..< 64 { for y: UInt32 in 0 ..< 64 { seen.insert(PackedRTree.hilbert(x, y)) } }
        #expect(seen.count == 64 * 64)
        // The curve starts in the corner, so its first 256 cells fill the
        // 16×16 corner block; consecutive ones must be edge-adjacent.
        let cells = (0 ..< 256).map { (x: UInt32($0 % 16), y: UInt32($0 / 16)) }
        let ordered = cells.sorted { PackedRTree.hilbert($0.x, $0.y) < PackedRTree.hilbert($1.x, $1.y) }
        var jumps = 0
        for (a, b) in zip(ordered, ordered.dropFirst()) where abs(Int(a.x) - Int(b.x)) + abs(Int(a.y) - Int(b.y)) != 1 {
            jumps += 1
        }
        #expect(jumps == 0)
    }
}

@Suite struct PackedRTreeRefitTests {
    @Test func setBoxMovesAnItemAndRefitsItsAncestors() {
        // 100 unit boxes on a row; move box 37 far away, then empty box 5.
        var tree = PackedRTree(
            boxes: (0 ..< 100).map { CGRect(x: Double($0) * 2, y: 0, width: 1, height: 1) }, nodeSize: 4)
        var found: [Int32] = []
        tree.search(containing: CGPoint(x: 74.5, y: 0.5), into: &found)
        #expect(found == [37])
        tree.setBox(ofItem: 37, to: CGRect(x: 1000, y: 1000, width: 5, height: 5))
        found.removeAll()
        tree.search(containing: CGPoint(x: 74.5, y: 0.5), into: &found)
        #expect(found.isEmpty)
        tree.search(containing: CGPoint(x: 1002, y: 1002), into: &found)
        #expect(found == [37])
        tree.setBox(ofItem: 5, to: .null)
        found.removeAll()
        tree.search(containing: CGPoint(x: 10.5, y: 0.5), into: &found)
        #expect(found.isEmpty)
        #expect(tree.bounds.maxX >= 1005)
    }
}
