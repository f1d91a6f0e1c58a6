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
///   (`HitTester.viewFrameRegion`, `elementFrameRegion`, as the per-view search computes it)
///   cut by the bounds of every view above it (UIKit prunes by each one),
///   answered from the entry alone;
/// - an *opaque* entry for a subtree the grid does not flatten (below a
///   view that rotates or scales, or a deep chain), over where that
///   subtree's answers must lie: the view's bounds on the screen, widened
///   by their mapping's rounding and cut by the views above; or the cut
///   alone where that rounding has no small bound (huge or ill-conditioned
///   values), or for the rest of a chain deeper than `maxDepth`. An exposed
///   element whose region is not moderate is opaque over that region. A
///   query whose frontmost candidate is opaque takes the per-view search.
///
/// **Exactness.** Boxes and cuts are computed in screen space, the per-view
/// search maps the point down level by level; on a moderate path the two
/// differ by under 2^-20 pt (`HitTester.isModerate`, at most `maxDepth`
/// levels). Every box is widened by `slack` (2^-16) before it goes into the
/// grid, so a point outside an entry is outside the exact region too, and
/// an answer is taken only with room inside the widened box, so inside the
/// exact region: a cell's room is its quantization step (at least
/// `HitTester.minimumGridStep`, 2^-13), a loose entry's that of
/// `ChildBlocks.holdsWithRoom` (over 2^-14). Anything closer to an edge is
/// undecided, and the caller searches per view.
///
/// **Lifetime.** Built on request (`HitTester.buildScreenGrid()`), shared by
/// copies of the engine, dropped by its next update: it holds screen boxes,
/// which any change may move.
///
/// **Memory.** The grids' 12 bytes per cell entry (two to four per entry,
/// `CellGrid`) and 4 per cell, plus the entry's 8-byte handle.
final class ScreenGrid: Sendable {
    /// One grid over every entry, or, when `CellGrid` declines them together
    /// (a screen's large boxes, a full-width banner over rows of small
    /// cells, would size or crowd the cells of its small ones), one per
    /// power of four of a box's longer side: the largest class here and the
    /// rest in `others`. Item keys are entry numbers.
    let first: CellGrid
    let others: [CellGrid]
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
    /// clustered, too many too wide) or its room would be under
    /// `HitTester.minimumGridStep`.
    init?(boxes: [CGRect], nodes: [NodeID]) {
        guard !boxes.isEmpty, boxes.count == nodes.count, boxes.count <= Int(Int32.max) else { return nil }
        // However few: a screen of twenty rows gains as much as a million.
        // Cells keep the room an answer needs however small the boxes (a
        // class of zero-size views shares cells of 8 pt).
        func grid(_ keys: [Int32]?) -> CellGrid? {
            let grid = CellGrid(
                boxes: keys.map { $0.map { boxes[Int($0)] } } ?? boxes, keys: keys, minimumCount: 1,
                minimumStep: HitTester.minimumGridStep)
            return grid.flatMap { $0.cells.quantizationStep >= HitTester.minimumGridStep ? $0 : nil }
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
        Self.scan(first, p, &front, &room)
        if !others.isEmpty {
            others.withUnsafeBufferPointer { levels in
                for level in levels.indices { Self.scan(levels[level], p, &front, &room) }
            }
        }
        guard front >= 0 else { return .nothing }
        let n = nodes[Int(front)]
        return room && !n.isNone ? .node(n) : .undecided
    }

    /// Raises `front` to the frontmost entry of `grid` whose box holds `p`,
    /// if any is in front of it, with whether it holds `p` with room.
    @inline(__always)
    private static func scan(_ grid: borrowing CellGrid, _ p: CGPoint, _ front: inout Int32, _ room: inout Bool) {
        let cells = grid.cells
        var found = front, withRoom = room
        cells.forEach(containing: p) { k, r in
            if k > found {
                found = k
                withRoom = r
            }
            return true
        }
        if cells.outsideCells > 0 {
            // Entries too wide for the cells, ascending too.
            let f = Float(p.x), g = Float(p.y)  // nearest rounding is conservative here
            let q = SIMD4(f, g, -f, -g)
            for (j, k) in grid.loose.enumerated() where k > found && PackedRTree.matches(grid.looseBoxes[j], q) {
                found = k
                withRoom = ChildBlocks.holdsWithRoom(grid.looseBoxes[j], p)
            }
        }
        front = found
        room = withRoom
    }

    /// Bytes held.
    var memoryBytes: Int {
        others.reduce(first.memoryBytes) { $0 + $1.memoryBytes } + nodes.count * MemoryLayout<NodeID>.stride
    }
}
