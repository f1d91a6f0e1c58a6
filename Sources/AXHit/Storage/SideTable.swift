/// One of the tree's side tables (explicit bounds, transforms, rare
/// properties): entries addressed by an `Int32` slot, with a free list so
/// that entries a node gives up are reused and a long-lived tree that
/// inserts and removes forever does not grow.
struct SideTable<Element: Sendable>: Sendable {
    private var entries = ChunkedColumn<Element>()
    /// Freed entries, a stack chunked as the entries are (see `freeSlots`).
    private var free = ChunkedColumn<Int32>()

    /// The entry in `slot`.
    @inline(__always)
    subscript(slot: Int32) -> Element {
        // A read copies the entry out: `ChunkedColumn` has a `get`, not a
        // `_read` (giving it one would read a field in place again).
        _read { yield entries[Int(slot)] }
        _modify { yield &entries[Int(slot)] }
    }

    /// The number of entries, live or free.
    var count: Int { entries.count }

    /// Stores `value` in a free entry or a new one; returns its slot.
    mutating func add(_ value: consuming Element) -> Int32 {
        if let slot = free.popLast() {
            entries[Int(slot)] = value
            return slot
        }
        entries.append(value)
        return Int32(entries.count - 1)
    }

    /// Gives `slot` back, leaving `blank` in it (so that it holds no strings
    /// or paths while free).
    mutating func remove(_ slot: Int32, leaving blank: Element) {
        entries[Int(slot)] = blank
        free.append(slot)
    }

    mutating func reserveCapacity(_ n: Int) { entries.reserveCapacity(n) }

    /// Whether a removal left an entry to reuse.
    var hasFreeEntries: Bool { !free.isEmpty }

    /// Stores `values[from...]` in new entries at the end (free ones stay
    /// free: callers take them first, with `add`); returns the first one's
    /// slot. Into an empty table, the column is shared, not copied: O(its
    /// chunks).
    mutating func append(contentsOf values: ChunkedColumn<Element>, from start: Int) -> Int32 {
        let first = Int32(truncatingIfNeeded: entries.count)
        entries.append(contentsOf: values, from: start)
        return first
    }
}
