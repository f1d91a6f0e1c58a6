/// One chunk of a `ChunkedColumn`: memory for `capacity` entries, the
/// first `count` of them initialized. Held by groups (`SharedPart`).
final class ColumnChunk<Element>: SharedPart {
    let base: UnsafeMutablePointer<Element>
    /// Entries the memory holds: the column's `chunkSize`, or less for a
    /// first chunk still growing.
    let capacity: Int
    /// Unchecked: only the column that holds the chunk alone writes it
    /// (an append), so the runtime's exclusivity check per append, a
    /// tenth of a large tree's build, guards nothing.
    @exclusivity(unchecked) var count = 0

    init(capacity: Int) {
        base = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    /// A copy of `other`'s entries, in memory for `capacity` of them.
    init(copying other: ColumnChunk, capacity: Int) {
        base = .allocate(capacity: capacity)
        self.capacity = capacity
        base.initialize(from: other.base, count: other.count)
        count = other.count
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }
}
