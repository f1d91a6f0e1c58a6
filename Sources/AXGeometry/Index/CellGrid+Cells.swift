import Foundation

extension CellGrid {
    /// A grid's cells as plain values, with no reference to its storage:
    /// a query loop that reads them through a pointer to the grid retains
    /// nothing (reading the grid's arrays would retain and release each, and
    /// calling the grid's own methods there can copy it). Valid only while
    /// the grid they came from is alive (they don't keep its storage):
    /// hence `package`, for a caller that reads them through its own grid.
    @usableFromInline package struct Cells: @unchecked Sendable {
        // Unchecked: the pointers reach words that never change.
        @usableFromInline let originX: Double
        @usableFromInline let originY: Double
        /// A cell's width and height, and their inverses.
        @usableFromInline let sideX: Double
        @usableFromInline let sideY: Double
        @usableFromInline let inverseX: Double
        @usableFromInline let inverseY: Double
        @usableFromInline let columns: Int
        @usableFromInline let rows: Int
        /// Cell `c` (row-major) is `entries[cellStarts[c] ..< cellStarts[c + 1]]`, by item.
        @usableFromInline let cellStarts: UnsafePointer<Int32>
        @usableFromInline let entries: UnsafePointer<Entry>
        /// Items the cells don't answer for exactly: the loose ones, and
        /// every `setBox` since the build (counted whatever the new box: an
        /// emptied item's old entries stay too). While any, this type's
        /// `forEach(containing:_:)` may miss items or name them where they
        /// were, and the grid's own must be used.
        @usableFromInline package internal(set) var outsideCells = 0

        init(
            originX: Double, originY: Double, sideX: Double, sideY: Double, columns: Int, rows: Int, storage: Storage
        ) {
            self.originX = originX
            self.originY = originY
            self.sideX = sideX
            self.sideY = sideY
            inverseX = 1 / sideX
            inverseY = 1 / sideY
            self.columns = columns
            self.rows = rows
            cellStarts = UnsafePointer(storage.cellStarts)
            entries = UnsafePointer(storage.entries)
        }

        /// The entries of one cell that hold a point, read one at a time.
        @frozen @usableFromInline
        package struct Scan {
            @usableFromInline let entries: UnsafePointer<Entry>
            @usableFromInline var i: Int
            @usableFromInline var end: Int
            @usableFromInline let qx: UInt16, qy: UInt16

            @inlinable
            init(entries: UnsafePointer<Entry>, i: Int, end: Int, qx: UInt16, qy: UInt16) {
                self.entries = entries
                self.i = i
                self.end = end
                self.qx = qx
                self.qy = qy
            }

            /// The next item whose entry holds the point, in increasing item
            /// number, and whether it holds it with room (see
            /// `forEach(containing:_:)`).
            @inlinable @inline(__always)
            package mutating func next() -> (item: Int32, withRoom: Bool)? {
                while i < end {
                    let e = entries[i]
                    i += 1
                    if holds(e) { return (e.item, hasRoom(e)) }
                }
                return nil
            }

            /// The next item from the other end: the frontmost not yet
            /// read, in decreasing item number, with whether its entry holds
            /// the point with room; the scan then covers the entries behind
            /// it. A caller that wants the frontmost first reads only the
            /// entries in front of it to find it.
            @inlinable @inline(__always)
            package mutating func previous() -> (item: Int32, withRoom: Bool)? {
                while end > i {
                    end -= 1
                    let e = entries[end]
                    if holds(e) { return (e.item, hasRoom(e)) }
                }
                return nil
            }

            /// The frontmost item below `limit` whose entry holds the point,
            /// with whether it holds it with room, reading the cell from its
            /// front end (its last entries) and no further; nil when none is
            /// above `floor`.
            @inlinable @inline(__always)
            package func frontmost(below limit: Int32, above floor: Int32) -> (item: Int32, withRoom: Bool)? {
                var k = end
                while k > i {
                    k -= 1
                    let e = entries[k]
                    if e.item <= floor { return nil }
                    if e.item < limit && holds(e) { return (e.item, hasRoom(e)) }
                }
                return nil
            }

            /// Whether entry `e`'s quantized box holds the point, with one
            /// branch: an entry's edges are ordered (`min <= max`), so on
            /// each axis the point's wrapped offset from the low edge is at
            /// most the width just when the point is within; the two
            /// differences are negative (sign bit set) when it is not. Four
            /// compares with `&&` cost a mispredicted branch each in a scan.
            @inlinable @inline(__always)
            func holds(_ e: Entry) -> Bool {
                let outX = Int32(e.maxX &- e.minX) &- Int32(qx &- e.minX)
                let outY = Int32(e.maxY &- e.minY) &- Int32(qy &- e.minY)
                return outX | outY >= 0
            }

            /// Whether the point is more than a whole step inside every edge
            /// of `e` (see `forEach(containing:_:)`), given `holds(e)`.
            @inlinable @inline(__always)
            func hasRoom(_ e: Entry) -> Bool {
                Int(e.minX) + 2 <= Int(qx) && Int(qx) + 3 <= Int(e.maxX) && Int(e.minY) + 2 <= Int(qy)
                    && Int(qy) + 3 <= Int(e.maxY)
            }
        }

        /// The side of a quantization step on the finer axis (a cell's
        /// shorter side over 65535): the least room `forEach(containing:_:)`
        /// reports (on the other axis a step is at least as long).
        @inlinable package var quantizationStep: Double { Swift.min(sideX, sideY) / CellGrid.steps }

        /// The column and row of the cell under `p`, or nil outside the
        /// cells. From the exact point: a box that truly holds `p` is filed
        /// there.
        @inlinable @inline(__always)
        func cell(containing p: CGPoint) -> (x: Int, y: Int)? {
            let cx = (Double(p.x) - originX) * inverseX, cy = (Double(p.y) - originY) * inverseY
            guard cx >= 0, cy >= 0, cx < Double(columns), cy < Double(rows) else { return nil }
            return (Int(cx), Int(cy))
        }

        /// The cell entries that hold `p` (loose items are not in them).
        @inlinable @inline(__always)
        package func scan(containing p: CGPoint) -> Scan {
            guard let (x, y) = cell(containing: p) else { return Scan(entries: entries, i: 0, end: 0, qx: 0, qy: 0) }
            return Scan(
                entries: entries, i: Int(cellStarts[y * columns + x]), end: Int(cellStarts[y * columns + x + 1]),
                qx: CellGrid.quantizedDown(Double(p.x), originX + Double(x) * sideX, inverseX),
                qy: CellGrid.quantizedDown(Double(p.y), originY + Double(y) * sideY, inverseY))
        }

        /// Starts fetching where `p`'s cell list starts and ends, with no
        /// wait: the first of a query's two dependent reads, begun for many
        /// points before any is answered (`prefetchEntries`), so that their
        /// cache misses overlap.
        @inlinable @inline(__always)
        package func prefetchBounds(containing p: CGPoint) {
            guard let (x, y) = cell(containing: p) else { return }
            prefetch(cellStarts + (y * columns + x))
        }

        /// Starts fetching the front end of `p`'s cell list (its last
        /// entries, which a frontmost scan reads first), reading where it
        /// ends (best fetched first, `prefetchBounds`).
        @inlinable @inline(__always)
        package func prefetchEntries(containing p: CGPoint) {
            guard let (x, y) = cell(containing: p) else { return }
            let c = y * columns + x
            let start = Int(cellStarts[c]), end = Int(cellStarts[c + 1])
            guard end > start else { return }
            prefetch(entries + (end - 1))
            // The line before, where most of a cell of a few entries lies.
            prefetch(entries + Swift.max(start, end - 6))
        }

        /// Calls `body` with every item of the cells (not the loose ones)
        /// whose box holds `p` (as `CellGrid.forEach(containing:_:)`), in
        /// increasing item number, until `body` returns false; and with
        /// whether `p` lies inside the box with room: more than one
        /// quantization step from every edge of the exact box, in the
        /// grid's step units `s(v) = (v - cell) / side * 65535` on each axis
        /// with that axis's side (monotone in `v`). The box's quantized
        /// edges are `floor(s(min))` and `ceil(s(max))`, the point's
        /// `floor(s(x))`; two steps above the first and three below the
        /// second leave `s(min) + 1 < s(x) < s(max) - 1`, clamped edges
        /// included.
        ///
        /// - Complexity: O(entries in `p`'s cell). No allocation, no retain.
        @inlinable @inline(__always)
        package func forEach(containing p: CGPoint, _ body: (_ item: Int32, _ withRoom: Bool) -> Bool) {
            var scan = scan(containing: p)
            while let (k, room) = scan.next(), body(k, room) {}
        }
    }
}
