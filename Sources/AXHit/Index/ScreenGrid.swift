import AXGeometry
import Foundation

/// Every answer a frame query can have on a screen that no longer changes,
/// in uniform grids in screen space (one per size class of box): a query
/// reads the one cell under the point in each instead of descending a
/// record per view.
///
/// **Entries.** In pre-order (back to front), one per place the per-view
/// search can end:
/// - an exposed element reached from the root through views that only
///   translate and keep moderate values: its frame-policy region
///   (`HitTester.frameRegion`, computed as the per-view search computes it)
///   cut by the bounds of every view above it (UIKit prunes by each one),
///   answered from the entry alone;
/// - an *opaque* entry for a subtree the grid does not flatten (below a
///   view that rotates or scales, or a deep chain): the cut of its parent,
///   where that subtree's answers must lie. A query whose frontmost
///   candidate is opaque takes the per-view search.
///
/// **Exactness.** Boxes and cuts are computed in screen space, the per-view
/// search maps the point down level by level; on a moderate path the two
/// differ by under 2^-20 pt (`HitTester.isModerate`, at most `maxDepth`
/// levels). Every box is widened by `slack` (2^-16) before it goes into the
/// grid, so a point outside an entry is outside the exact region too, and
/// an answer is taken only with the grid's room (at least
/// `HitTester.minimumGridStep`, 2^-13) inside the widened box, so inside the
/// exact region. Anything closer to an edge is undecided, and the caller
/// searches per view.
///
/// **Lifetime.** Built on request (`HitTester.buildScreenGrid()`), shared by
/// copies of the engine, dropped by its next update: it holds screen boxes,
/// which any change may move.
///
/// **Memory.** The grids' 12 bytes per cell entry (two to four per entry,
/// `CellGrid`) and 4 per cell, plus the entry's 8-byte handle.
final class ScreenGrid: Sendable {
    /// The entries by size, one grid per power of four of a box's longer
    /// side, so that a screen's large boxes (a full-width banner over rows of
    /// small cells) don't size, or crowd, the cells of its small ones; in
    /// each, item keys are entry numbers.
    let levels: [CellGrid]
    /// Entry `k`'s node; `.none` for an opaque entry.
    let nodes: [NodeID]

    /// How far each box is widened (see the type's notes).
    static let slack = 0x1p-16
    /// The longest chain of nodes below the root the grid flattens; deeper
    /// subtrees are opaque (it bounds the rounding, see the type's notes).
    static let maxDepth = 64

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
    /// clustered, too uneven) or its room would be under
    /// `HitTester.minimumGridStep`.
    init?(boxes: [CGRect], nodes: [NodeID]) {
        guard !boxes.isEmpty, boxes.count == nodes.count, boxes.count <= Int(Int32.max) else { return nil }
        // A class per power of four of a box's longer side: within one, no
        // box is much larger than the cells its class's mean sizes.
        var classes = [[Int32]](repeating: [], count: 65)
        for (k, r) in boxes.enumerated() {
            let side = min(max(Double(r.width), Double(r.height), 0x1p-64), 0x1p64)
            classes[(Int(side.exponent) + 64) / 2].append(Int32(k))
        }
        var levels: [CellGrid] = []
        for keys in classes where !keys.isEmpty {
            // However few: a screen of twenty rows gains as much as a million.
            guard let grid = CellGrid(boxes: keys.map { boxes[Int($0)] }, keys: keys, minimumCount: 1),
                grid.cells.quantizationStep >= HitTester.minimumGridStep
            else { return nil }
            levels.append(grid)
        }
        self.levels = levels
        self.nodes = nodes
    }

    /// The answer at a moderate screen point `p` (`HitTester.isModerate`).
    ///
    /// - Complexity: O(entries in the point's cell + loose entries) per
    ///   size class; no allocation.
    @inline(__always)
    func answer(_ p: CGPoint) -> Answer {
        // Items come in increasing entry number: the last that holds the
        // point is the frontmost, over all the classes.
        var front: Int32 = -1
        var room = false
        levels.withUnsafeBufferPointer { levels in
            for l in levels.indices {
                let level = levels.baseAddress! + l
                let cells = level.pointee.cells
                cells.forEach(containing: p) { k, withRoom in
                    if k > front {
                        front = k
                        room = withRoom
                    }
                    return true
                }
                if cells.outsideCells > 0 {
                    // Entries too wide for the cells, ascending too.
                    let f = Float(p.x), g = Float(p.y)  // nearest rounding is conservative here
                    let q = SIMD4(f, g, -f, -g)
                    let loose = level.pointee.loose, looseBoxes = level.pointee.looseBoxes
                    for (j, k) in loose.enumerated() where k > front && PackedRTree.matches(looseBoxes[j], q) {
                        front = k
                        room = ChildBlocks.holdsWithRoom(looseBoxes[j], p)
                    }
                }
            }
        }
        guard front >= 0 else { return .nothing }
        let n = nodes[Int(front)]
        return room && !n.isNone ? .node(n) : .undecided
    }

    /// Bytes held.
    var memoryBytes: Int {
        levels.reduce(0) { $0 + $1.memoryBytes } + nodes.count * MemoryLayout<NodeID>.stride
    }
}
