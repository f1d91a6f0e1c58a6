/// Up to `ChunkTable.groupSize` consecutive chunks of a column, held
/// together: a copy of the table counts each group once more, not each
/// chunk (a count per chunk, and its release when the snapshot went, were
/// three quarters of what updates under snapshots of a 1M-element tree
/// cost: some 20,000 of them an update). A group is itself shared
/// copy-on-write; copying one counts its chunks once more. Held by tables
/// (`SharedPart`).
final class ChunkGroup<Element>: SharedPart {
    let chunks: UnsafeMutablePointer<Unmanaged<ColumnChunk<Element>>>
    /// Slots for chunks: `groupSize`, or fewer in a column's first group
    /// while it grows (so that a small tree's columns stay small).
    let capacity: Int
    /// Unchecked, as `ColumnChunk.count`: only a table that holds the group
    /// alone changes it.
    @exclusivity(unchecked) var count = 0
    /// The lock of the family of tables that hold it, which counts its
    /// chunks' holders (`HolderLock`).
    let lock: Unmanaged<HolderLock>

    init(capacity: Int, lock: Unmanaged<HolderLock>) {
        chunks = .allocate(capacity: capacity)
        self.capacity = capacity
        self.lock = lock
    }

    /// The first `count` chunks of `other`, in `capacity` slots. Their
    /// holders are not counted yet: the caller counts the copy as one more
    /// (`ChunkTable.replaceGroup(_:withCopyOf:capacity:)`).
    init(sharing other: ChunkGroup, count: Int, capacity: Int) {
        chunks = .allocate(capacity: capacity)
        self.capacity = capacity
        chunks.initialize(from: other.chunks, count: count)
        self.count = count
        lock = other.lock
    }

    /// Adds `chunk`, which no one else holds yet, after the last.
    func append(_ chunk: ColumnChunk<Element>) {
        (chunks + count).initialize(to: .passRetained(chunk))
        count += 1
    }

    deinit {
        let chunks = UnsafeMutableRawPointer(chunks)
        SharedPart.drop(raw: chunks, count: count, under: lock)
        chunks.deallocate()
    }
}
