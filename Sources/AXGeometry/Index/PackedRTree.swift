import Foundation

/// A static packed Hilbert R-tree over axis-aligned boxes, after flatbush
/// (mourner/flatbush): built whole, queried without allocation.
///
/// **Coordinate space.** Whatever the caller's; the tree never transforms.
///
/// **Storage.** Boxes are stored as `Float` rounded *outward* (minimums down,
/// maximums up; coordinates beyond `Float`'s range become ±infinity), which
/// halves memory traffic against `Double` and keeps every stored box a
/// superset of the box given. Queries are therefore *conservative*: they
/// return every box that truly matches, plus possibly a few whose exact
/// `Double` box misses the query by less than a `Float` rounding step. An
/// exact check is the caller's business.
///
/// **Boundary rule.** Boxes are closed: a box contains `p` when
/// `minX <= p.x <= maxX` and `minY <= p.y <= maxY`, so points on any edge,
/// and zero-width boxes, match.
///
/// **Empty boxes.** A box with a NaN coordinate, or with `min > max` on an
/// axis, is empty: it keeps its id (and counts in ``count``) but never
/// matches any query.
///
/// **Layout.** Items are sorted by the Hilbert value of their centres on a
/// 2¹⁶×2¹⁶ grid, then packed bottom-up: level 0 holds the items, and the
/// `k`-th node of level `L + 1` bounds nodes `k*nodeSize ..< (k+1)*nodeSize`
/// of level `L`. Children are implicit, so the tree is two flat arrays (plus
/// one offset per level).
///
/// **Complexity.** Building is O(n) (a radix sort of 32-bit Hilbert keys,
/// then one pass per level; a comparison sort would make it O(n log n)).
/// Queries are O(log n + k) for k results on typical data, O(n) at worst
/// when most boxes overlap the query, and allocate nothing. Memory is about
/// 21 bytes per item (16 per node, 4 per id, nodes ≈ n·s/(s−1)).
///
/// **Limits.** Item ids are `Int32`, so at most `Int32.max` boxes (the
/// initialisers trap beyond; a 10M-box tree takes about 210 MB).
///
/// **Errors.** None. Building and querying never throw.
public struct PackedRTree: Sendable {
    /// Every node's box, leaves first (in Hilbert order), then each level up
    /// to the root. Stored as `(minX, minY, -maxX, -maxY)` so that both point
    /// and rectangle tests are one lane-wise `node .<= query` comparison
    /// (see ``PackedRTree/matches(_:_:)``). Empty boxes are all-NaN, which
    /// fails every comparison and is ignored when parents are computed.
    @usableFromInline var nodes: [SIMD4<Float>]

    /// `ids[i]` is the insertion index of the item stored at leaf `i`.
    @usableFromInline let ids: [Int32]

    /// `leaves[id]` is the leaf that stores item `id`: the inverse of `ids`,
    /// so that one item's box can be replaced in place.
    let leaves: [Int32]

    /// Level `L` occupies `nodes[levelStart[L] ..< levelStart[L + 1]]`;
    /// level 0 is the leaves, the last level is the single root. Empty for
    /// an empty tree.
    @usableFromInline let levelStart: [Int]

    /// Children per internal node (the last node of a level may have fewer).
    @usableFromInline let nodeSize: Int

    /// Upper bound on the number of levels: with `nodeSize >= 2` and at most
    /// `Int32.max` items, a tree has at most 32 levels. Sizes the query stack.
    @inlinable static var maxLevels: Int { 32 }

    /// The number of boxes indexed, empty ones included. Ids run `0 ..< count`.
    ///
    /// O(1).
    public var count: Int { ids.count }

    /// The union of all non-empty boxes (after outward `Float` rounding), in
    /// the caller's coordinate space; `CGRect.null` when there are none.
    ///
    /// A `CGRect` cannot start at -infinity (its max would be NaN), so an
    /// axis whose boxes reach -infinity reports `CGRect.infinite`'s extent
    /// on that axis, which CoreGraphics uses for "unbounded".
    ///
    /// O(1): it is the root's box.
    public var bounds: CGRect {
        guard let root = nodes.last, root.x <= -root.z, root.y <= -root.w else { return .null }
        func axis(_ lo: Float, _ hi: Float, _ unbounded: (Double, Double)) -> (origin: Double, size: Double) {
            lo == -.infinity ? unbounded : (Double(lo), Double(hi) - Double(lo))
        }
        let x = axis(root.x, -root.z, (Double(CGRect.infinite.minX), Double(CGRect.infinite.width)))
        let y = axis(root.y, -root.w, (Double(CGRect.infinite.minY), Double(CGRect.infinite.height)))
        return CGRect(x: x.origin, y: y.origin, width: x.size, height: y.size)
    }

    /// Bytes held by the tree's arrays (their element storage, not capacity
    /// slack or array headers): 16 bytes per node plus 4 per item, about
    /// `20 * count * nodeSize / (nodeSize - 1)` bytes.
    ///
    /// O(1).
    public var memoryBytes: Int {
        nodes.count * MemoryLayout<SIMD4<Float>>.stride
            + (ids.count + leaves.count) * MemoryLayout<Int32>.stride
            + levelStart.count * MemoryLayout<Int>.stride
    }

    // MARK: - Building

    /// Builds a tree over `boxes`; item `i` is `boxes[i]`.
    ///
    /// Rects are read through `minX`/`maxX`/`minY`/`maxY`, so negative sizes
    /// are standardised. `CGRect.null` and rects with NaN components are
    /// empty items that never match.
    ///
    /// - Parameters:
    ///   - boxes: The boxes, in the caller's coordinate space. At most
    ///     `Int32.max` of them (traps beyond).
    ///   - nodeSize: Children per node, clamped to `2...65535`. 16 is a good
    ///     default for point queries; larger sizes build a little faster and
    ///     shallower, smaller ones prune more finely.
    /// - Complexity: O(n) time (a radix sort of 32-bit Hilbert keys) and
    ///   about 32 bytes per item of transient memory. Never throws.
    public init(boxes: [CGRect], nodeSize: Int = 16) {
        self.init(count: boxes.count, nodeSize: nodeSize) { i in
            let r = boxes[i]
            // CGRect.null reports infinite extents; it must stay empty.
            if r.isNull { return (.nan, .nan, .nan, .nan) }
            return (Double(r.minX), Double(r.minY), Double(r.maxX), Double(r.maxY))
        }
    }

    /// Builds a tree over `count` boxes supplied by `box(i)` for `i` in
    /// `0 ..< count`, in that order; item `i` is the box `box(i)` returns.
    ///
    /// This is the column-friendly entry: callers that keep coordinates in
    /// flat arrays can build without first materialising `[CGRect]`.
    ///
    /// - Parameters:
    ///   - count: The number of boxes, `0 ... Int32.max` (traps otherwise:
    ///     ids are `Int32`).
    ///   - nodeSize: Children per node, clamped to `2...65535`.
    ///   - box: Returns item `i`'s closed box in the caller's coordinate
    ///     space. A NaN coordinate or `min > max` makes the item empty.
    ///     Called exactly once per item, in increasing `i`.
    /// - Complexity: O(n) time plus `count` calls of `box`; about 32 bytes
    ///   per item of transient memory. Never throws.
    public init(
        count: Int,
        nodeSize: Int = 16,
        box: (Int) -> (minX: Double, minY: Double, maxX: Double, maxY: Double)
    ) {
        precondition(count >= 0 && count <= Int(Int32.max), "PackedRTree holds 0...Int32.max boxes")
        let n = count
        let nodeSize = min(max(nodeSize, 2), 65535)
        self.nodeSize = nodeSize

        // 1. Round each box outward to Float, in insertion order.
        var items = [SIMD4<Float>]()
        items.reserveCapacity(n)
        for i in 0 ..< n {
            items.append(Self.storedBox(box(i)))
        }

        // 2. Level sizes: n, ⌈n/s⌉, ⌈n/s²⌉, … down to one root.
        var levelStart = [0]
        if n > 0 {
            var size = n
            levelStart.append(n)
            while size > 1 {
                size = (size + nodeSize - 1) / nodeSize
                levelStart.append(levelStart[levelStart.count - 1] + size)
            }
        } else {
            levelStart = []
        }
        self.levelStart = levelStart
        let nodeCount = levelStart.last ?? 0

        // 3. Sort item ids by the Hilbert value of their box centres.
        // A single leaf node needs no spatial order: keep insertion order and
        // skip the sort (most container views have a handful of children).
        let order = n <= nodeSize ? (0 ..< UInt64(n)).map { $0 } : Self.hilbertOrder(items)

        // 4. Leaves in Hilbert order, then each parent level bottom-up.
        var nodes = [SIMD4<Float>]()
        nodes.reserveCapacity(nodeCount)
        var ids = [Int32]()
        ids.reserveCapacity(n)
        for key in order {
            let id = Int32(truncatingIfNeeded: key)  // low 32 bits hold the id
            ids.append(id)
            nodes.append(items[Int(id)])
        }
        for level in 0 ..< max(levelStart.count - 2, 0) {
            var child = levelStart[level]
            let end = levelStart[level + 1]
            while child < end {
                let blockEnd = min(child + nodeSize, end)
                // All four stored lanes are minimums (maxima are negated), so
                // a parent is the lane-wise min of its children. `.<` is false
                // for NaN, so empty children leave the accumulator unchanged.
                var parent = SIMD4<Float>(repeating: .infinity)
                while child < blockEnd {
                    let c = nodes[child]
                    parent.replace(with: c, where: c .< parent)
                    child += 1
                }
                nodes.append(parent)
            }
        }
        self.nodes = nodes
        var leaves = [Int32](repeating: 0, count: n)
        for (leaf, id) in ids.enumerated() { leaves[Int(id)] = Int32(truncatingIfNeeded: leaf) }
        self.leaves = leaves
        self.ids = ids
    }

    /// Replaces the box of item `id` and refits the boxes above it, keeping
    /// the tree's shape (its Hilbert order is not redone: a box moved far
    /// from its old place still works but prunes less well, so rebuild after
    /// many such moves). `CGRect.null` empties the item.
    ///
    /// - Complexity: O(nodeSize × levels), no allocation unless the tree's
    ///   storage is shared with a copy (copy-on-write).
    public mutating func setBox(ofItem id: Int32, to box: CGRect) {
        guard id >= 0, Int(id) < leaves.count else { return }
        var pos = Int(leaves[Int(id)])
        nodes[pos] = Self.storedBox(box)
        var level = 0
        while level + 2 < levelStart.count {
            let k = (pos - levelStart[level]) / nodeSize
            let first = levelStart[level] + k * nodeSize
            let end = min(first + nodeSize, levelStart[level + 1])
            var parent = SIMD4<Float>(repeating: .infinity)
            for child in first ..< end {
                let c = nodes[child]
                parent.replace(with: c, where: c .< parent)
            }
            pos = levelStart[level + 1] + k
            nodes[pos] = parent
            level += 1
        }
    }

    /// `box` rounded outward to `Float` in stored form
    /// `(minX, minY, -maxX, -maxY)`, or all-NaN when empty.
    package static func storedBox(_ box: (minX: Double, minY: Double, maxX: Double, maxY: Double)) -> SIMD4<Float> {
        // `!(a <= b)` is also true when either is NaN.
        guard box.minX <= box.maxX, box.minY <= box.maxY else { return SIMD4(repeating: .nan) }
        return SIMD4(roundedDown(box.minX), roundedDown(box.minY), -roundedUp(box.maxX), -roundedUp(box.maxY))
    }

    /// `rect` in stored form; all-NaN for `CGRect.null` (whose edges
    /// Foundation reports as infinite) and rects with NaN components.
    package static func storedBox(_ rect: CGRect) -> SIMD4<Float> {
        let e = rect.edges
        return storedBox((Double(e.minX), Double(e.minY), Double(e.maxX), Double(e.maxY)))
    }

    /// The largest `Float` not above `x` (`-inf` below `Float`'s range).
    static func roundedDown(_ x: Double) -> Float {
        let f = Float(x)  // nearest; overflows to ±inf, never traps
        return Double(f) > x ? f.nextDown : f
    }

    /// The smallest `Float` not below `x` (`+inf` above `Float`'s range).
    static func roundedUp(_ x: Double) -> Float {
        let f = Float(x)
        return Double(f) < x ? f.nextUp : f
    }

    /// Keys `hilbert << 32 | id` for all items, sorted: the ids in Hilbert
    /// order, ties kept in insertion order.
    ///
    /// O(n): an LSD radix sort on the 32 Hilbert bits, four 8-bit passes,
    /// skipping passes whose digit is the same for every key (so identical
    /// boxes cost one counting pass). No recursion, so no input can deepen
    /// the stack, and no comparison sort to go quadratic.
    static func hilbertOrder(_ items: [SIMD4<Float>]) -> [UInt64] {
        let n = items.count
        guard n > 1 else { return n == 1 ? [0] : [] }

        // Grid the centres' extent (finite centres only: infinite or huge
        // boxes must not flatten everyone else onto one cell). Double, since
        // Float centres' differences can overflow Float.
        @inline(__always) func centre(_ b: SIMD4<Float>) -> (x: Double, y: Double) {
            ((Double(b.x) - Double(b.z)) / 2, (Double(b.y) - Double(b.w)) / 2)
        }
        var lo = (x: Double.infinity, y: Double.infinity)
        var hi = (x: -Double.infinity, y: -Double.infinity)
        for b in items {
            let c = centre(b)
            if c.x.isFinite {
                lo.x = min(lo.x, c.x)
                hi.x = max(hi.x, c.x)
            }
            if c.y.isFinite {
                lo.y = min(lo.y, c.y)
                hi.y = max(hi.y, c.y)
            }
        }
        let gridMax = Double(UInt16.max)
        let scaleX = hi.x > lo.x ? gridMax / (hi.x - lo.x) : 0
        let scaleY = hi.y > lo.y ? gridMax / (hi.y - lo.y) : 0
        @inline(__always) func cell(_ c: Double, _ lo: Double, _ scale: Double) -> UInt32 {
            let t = ((c - lo) * scale).rounded(.down)
            if !(t > 0) { return 0 }  // also NaN (e.g. centre of -inf...+inf)
            return t >= gridMax ? UInt32(UInt16.max) : UInt32(t)
        }

        var keys = [UInt64](repeating: 0, count: n)
        for i in 0 ..< n {
            let b = items[i]
            // Empty boxes sort last, out of the way of real neighbours.
            let h: UInt32
            if b.x.isNaN {
                h = .max
            } else {
                let c = centre(b)
                h = hilbert(cell(c.x, lo.x, scaleX), cell(c.y, lo.y, scaleY))
            }
            keys[i] = UInt64(h) << 32 | UInt64(i)
        }

        var scratch = [UInt64](repeating: 0, count: n)
        var counts = [Int](repeating: 0, count: 256)
        for shift in stride(from: 32, to: 64, by: 8) {
            for i in 0 ..< 256 { counts[i] = 0 }
            for k in keys { counts[Int(truncatingIfNeeded: k >> UInt64(shift)) & 0xFF] += 1 }
            if counts.contains(n) { continue }  // one bucket: already in order
            var sum = 0
            for i in 0 ..< 256 {
                let c = counts[i]
                counts[i] = sum
                sum += c
            }
            for k in keys {
                let digit = Int(truncatingIfNeeded: k >> UInt64(shift)) & 0xFF
                scratch[counts[digit]] = k
                counts[digit] += 1
            }
            swap(&keys, &scratch)
        }
        return keys
    }

    /// The position of cell `(x, y)` (each `0 ..< 2¹⁶`) along the Hilbert
    /// curve of order 16, in `0 ..< 2³²`.
    ///
    /// O(1), branch-free: the fast algorithm by threadlocalmutex.com
    /// (rawrunprotected/hilbert_curves, public domain), as flatbush uses it.
    static func hilbert(_ x: UInt32, _ y: UInt32) -> UInt32 {
        var a = x ^ y
        var b = 0xFFFF ^ a
        var c = 0xFFFF ^ (x | y)
        var d = x & (y ^ 0xFFFF)

        var A = a | (b >> 1)
        var B = (a >> 1) ^ a
        var C = ((c >> 1) ^ (b & (d >> 1))) ^ c
        var D = ((a & (c >> 1)) ^ (d >> 1)) ^ d

        a = A
        b = B
        c = C
        d = D
        A = (a & (a >> 2)) ^ (b & (b >> 2))
        B = (a & (b >> 2)) ^ (b & ((a ^ b) >> 2))
        C ^= (a & (c >> 2)) ^ (b & (d >> 2))
        D ^= (b & (c >> 2)) ^ ((a ^ b) & (d >> 2))

        a = A
        b = B
        c = C
        d = D
        A = (a & (a >> 4)) ^ (b & (b >> 4))
        B = (a & (b >> 4)) ^ (b & ((a ^ b) >> 4))
        C ^= (a & (c >> 4)) ^ (b & (d >> 4))
        D ^= (b & (c >> 4)) ^ ((a ^ b) & (d >> 4))

        a = A
        b = B
        c = C
        d = D
        C ^= (a & (c >> 8)) ^ (b & (d >> 8))
        D ^= (b & (c >> 8)) ^ ((a ^ b) & (d >> 8))

        a = C ^ (C >> 1)
        b = D ^ (D >> 1)

        var i0 = x ^ y
        var i1 = b | (0xFFFF ^ (i0 | a))

        // Interleave: bit k of i0 goes to bit 2k, of i1 to bit 2k+1.
        i0 = (i0 | (i0 << 8)) & 0x00FF_00FF
        i0 = (i0 | (i0 << 4)) & 0x0F0F_0F0F
        i0 = (i0 | (i0 << 2)) & 0x3333_3333
        i0 = (i0 | (i0 << 1)) & 0x5555_5555

        i1 = (i1 | (i1 << 8)) & 0x00FF_00FF
        i1 = (i1 | (i1 << 4)) & 0x0F0F_0F0F
        i1 = (i1 | (i1 << 2)) & 0x3333_3333
        i1 = (i1 | (i1 << 1)) & 0x5555_5555

        return (i1 << 1) | i0
    }

    // MARK: - Queries

    /// Calls `body` with the id of every box that contains `p`, stopping as
    /// soon as `body` returns `false`.
    ///
    /// Boxes are closed (edges match) and conservative (see the type's
    /// notes): an exact test is the caller's. Ids come in tree order, not
    /// insertion order. A point with a NaN coordinate matches nothing.
    ///
    /// - Parameters:
    ///   - p: A point in the coordinate space the boxes were given in.
    ///   - body: Receives an item id in `0 ..< count`; returns whether to
    ///     continue.
    /// - Complexity: O(log n + k) for k matches on typical (non-pathological)
    ///   data; O(n) worst case when boxes overlap heavily. No allocation:
    ///   the traversal stack is a fixed 512-byte stack buffer.
    @inlinable
    public func forEach(containing p: CGPoint, _ body: (Int32) -> Bool) {
        let x = Float(p.x), y = Float(p.y)  // nearest rounding is conservative here
        visit(SIMD4(x, y, -x, -y), body)
    }

    /// Calls `body` with the id of every box that intersects `rect`,
    /// stopping as soon as `body` returns `false`.
    ///
    /// Both are closed: boxes that merely touch `rect` match, and a
    /// zero-size `rect` acts as a point. `CGRect.null` and rects with NaN
    /// components match nothing; an infinite rect matches every non-empty
    /// box. Conservative as the type's notes say.
    ///
    /// - Parameters:
    ///   - rect: A rect in the coordinate space the boxes were given in.
    ///   - body: Receives an item id in `0 ..< count`; returns whether to
    ///     continue.
    /// - Complexity: O(log n + k) for k matches on typical data. No
    ///   allocation.
    @inlinable
    public func forEach(intersecting rect: CGRect, _ body: (Int32) -> Bool) {
        guard !rect.isNull else { return }
        visit(SIMD4(Float(rect.maxX), Float(rect.maxY), -Float(rect.minX), -Float(rect.minY)), body)
    }

    /// Appends to `results` the id of every box that contains `p`.
    ///
    /// Same rules as ``forEach(containing:_:)``. Allocates only if
    /// `results` must grow: reuse one array across queries and empty it
    /// with `removeAll(keepingCapacity: true)`.
    ///
    /// - Complexity: O(log n + k) for k matches on typical data.
    @inlinable
    public func search(containing p: CGPoint, into results: inout [Int32]) {
        forEach(containing: p) {
            results.append($0)
            return true
        }
    }

    /// Appends to `results` the id of every box that intersects `rect`.
    ///
    /// Same rules as ``forEach(intersecting:_:)``. Allocates only if
    /// `results` must grow.
    ///
    /// - Complexity: O(log n + k) for k matches on typical data.
    @inlinable
    public func search(intersecting rect: CGRect, into results: inout [Int32]) {
        forEach(intersecting: rect) {
            results.append($0)
            return true
        }
    }

    /// Whether stored node box `node` matches query `q`: both queries reduce
    /// to `node .<= q` in every lane. For a point, `q = (x, y, -x, -y)`
    /// gives `minX <= x`, `minY <= y`, `-maxX <= -x`, `-maxY <= -y`. For a
    /// rect, `q = (r.maxX, r.maxY, -r.minX, -r.minY)` gives the four
    /// closed-interval overlap tests. NaN in either side fails.
    @inlinable @inline(__always)
    package static func matches(_ node: SIMD4<Float>, _ q: SIMD4<Float>) -> Bool {
        all(node .<= q)
    }

    /// Depth-first traversal from the root, calling `body` on matching
    /// leaves until it returns `false`.
    ///
    /// The stack holds, per level, the rest of the sibling range being
    /// scanned there: one `(position, end)` pair per level, at most
    /// ``maxLevels`` deep, so it fits in a fixed stack buffer.
    @inlinable
    func visit(_ q: SIMD4<Float>, _ body: (Int32) -> Bool) {
        let levels = levelStart.count - 1  // -1 for an empty tree
        guard levels > 0 else { return }
        let nodeSize = self.nodeSize
        nodes.withUnsafeBufferPointer { nodes in
            ids.withUnsafeBufferPointer { ids in
                levelStart.withUnsafeBufferPointer { levelStart in
                    withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * Self.maxLevels) { stack in
                        // Scanning nodes[pos ..< end] on `level`; start with the root level.
                        var level = levels - 1
                        var pos = levelStart[level]
                        var end = levelStart[level + 1]
                        while true {
                            if level == 0 {
                                // Leaves: test the whole block, then resume the parent level.
                                while pos < end {
                                    if Self.matches(nodes[pos], q), !body(ids[pos]) { return }
                                    pos += 1
                                }
                            }
                            if pos == end {
                                level += 1
                                if level == levels { return }
                                pos = stack[2 * level]
                                end = stack[2 * level + 1]
                                continue
                            }
                            let node = pos
                            pos += 1
                            guard Self.matches(nodes[node], q) else { continue }
                            // Descend: save this level's place, scan the node's children.
                            stack[2 * level] = pos
                            stack[2 * level + 1] = end
                            let k = node - levelStart[level]
                            level -= 1
                            pos = levelStart[level] + k * nodeSize
                            end = min(pos + nodeSize, levelStart[level + 1])
                        }
                    }
                }
            }
        }
    }
}
