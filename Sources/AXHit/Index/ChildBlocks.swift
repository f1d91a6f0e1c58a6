import AXGeometry
import Foundation

/// The children of every narrow view (fewer than
/// `IndexPolicy.wideViewChildren` children), as boxes in the view's bounds
/// space: each view's children in one contiguous block, in z-order, all
/// blocks in two shared columns.
///
/// A query through a narrow view then reads one or two cache lines of boxes
/// and touches only the children under the point, instead of following the
/// sibling links through every child's record (a chain of dependent cache
/// misses on a large tree). One allocation for all views, not one per view.
///
/// Boxes are those of `ContainerIndex.local` (`ItemBoxes`),
/// rounded outward to `Float` as `PackedRTree` stores them, so the filter
/// is conservative. A view with a child whose region is fixed in screen
/// space has no block: its few children are tried one by one.
struct ChildBlocks: Sendable {
    /// Boxes in `PackedRTree`'s stored form `(minX, minY, -maxX, -maxY)`.
    var boxes = ChunkedColumn<SIMD4<Float>>()
    /// The child each box belongs to.
    var nodes = ChunkedColumn<NodeID>()
    /// Entries of blocks that were dropped or replaced: reclaimed by
    /// `HitTester.compactBlocksIfNeeded()` once they make up half the arrays.
    var garbage = 0

    /// Where the next block starts: after padding to the next chunk when a
    /// block of `IndexPolicy.wideViewChildren` would not fit in the current
    /// one, so that no block straddles two chunks and a query reads one
    /// through plain pointers (`withBlock`). Padding is garbage: NaN boxes,
    /// no node.
    mutating func startBlock() -> Int {
        let room = ChunkedColumn<SIMD4<Float>>.chunkSize - (boxes.count & ChunkedColumn<SIMD4<Float>>.mask)
        if room < IndexPolicy.wideViewChildren {
            boxes.append(repeating: SIMD4(repeating: .nan), count: room)
            nodes.append(repeating: .none, count: room)
            garbage += room
        }
        return boxes.count
    }

    /// Calls `body` with the boxes and nodes of the block of `count`
    /// entries at `start` (made by `startBlock`, so in one chunk of each).
    @inline(__always)
    func withBlock<R>(
        start: Int, count: Int, _ body: (UnsafePointer<SIMD4<Float>>, UnsafePointer<NodeID>) -> R
    ) -> R {
        boxes.withView { boxes in nodes.withView { nodes in body(boxes.pointer(start), nodes.pointer(start)) } }
    }

    /// Whether dropped blocks take enough room to be worth a compaction
    /// (`IndexPolicy.blocksNeedCompaction`).
    var needsCompaction: Bool { IndexPolicy.blocksNeedCompaction(garbage: garbage, entries: boxes.count) }

    /// Appends one child's box (its local box, `.null` for none).
    @inline(__always)
    mutating func append(_ node: NodeID, _ local: CGRect) {
        boxes.append(PackedRTree.storedBox(local))
        nodes.append(node)
    }

    /// Replaces the box at `position`.
    mutating func setBox(at position: Int, to local: CGRect) {
        boxes[position] = PackedRTree.storedBox(local)
    }

    /// Forgets the last entries back to `count` (a block abandoned while built).
    mutating func truncate(to count: Int) {
        boxes.removeLast(boxes.count - count)
        nodes.removeLast(nodes.count - count)
    }

    /// The query form of point `q` for `PackedRTree.matches`.
    @inline(__always)
    static func query(_ q: CGPoint) -> SIMD4<Float> {
        let x = Float(q.x), y = Float(q.y)  // nearest rounding is conservative here
        return SIMD4(x, y, -x, -y)
    }

    /// Whether `q` lies inside stored box `b` with room to spare: by more
    /// than four `Float` steps of the box's edges (their outward rounding is
    /// at most one) plus 2^-14, so inside the exact box, with the same room
    /// for rounding elsewhere (see `HitTester.isModerate`). NaN and
    /// infinite edges never have room.
    @inline(__always)
    static func holdsWithRoom(_ b: SIMD4<Float>, _ q: CGPoint) -> Bool {
        let minX = Double(b.x), minY = Double(b.y), maxX = -Double(b.z), maxY = -Double(b.w)
        let rx = (abs(minX) + abs(maxX)) * 0x1p-21 + 0x1p-14, ry = (abs(minY) + abs(maxY)) * 0x1p-21 + 0x1p-14
        let x = Double(q.x), y = Double(q.y)
        return minX + rx < x && x < maxX - rx && minY + ry < y && y < maxY - ry
    }

    /// Bytes held.
    var memoryBytes: Int { boxes.memoryBytes + nodes.memoryBytes }
}
