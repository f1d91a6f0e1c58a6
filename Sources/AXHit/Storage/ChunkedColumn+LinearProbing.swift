extension ChunkedColumn {
    /// Linear probing's removal, with no tombstones, for a hash table of
    /// `count` buckets (a power of two) in this column: empties bucket
    /// `hole` and shifts back over it each entry of the run after it whose
    /// home is not between the hole and it, so that no lookup meets a gap
    /// before its key. `isEmpty` tells an empty bucket, `home` an entry's
    /// home bucket; `empty` is what an emptied bucket holds. The id table
    /// and `SlotMap` remove this way.
    ///
    /// - Complexity: O(the run after the hole).
    @inline(__always)
    mutating func removeProbed(
        at hole: Int, empty: Element, isEmpty: (Element) -> Bool, home: (Element) -> Int
    ) {
        let mask = count - 1
        var hole = hole
        var next = (hole + 1) & mask
        var entry = self[next]
        while !isEmpty(entry) {
            // Distances along the run, modulo the table.
            if (next - home(entry)) & mask >= (next - hole) & mask {
                self[hole] = entry
                hole = next
            }
            next = (next + 1) & mask
            entry = self[next]
        }
        self[hole] = empty
    }
}
