import AXGeometry

/// A column of values, one per node slot, kept in fixed chunks that are
/// shared copy-on-write one by one: a copy of the column (a snapshot of the
/// tree or the engine) shares every chunk, and the first write to an entry
/// afterwards copies that entry's chunk alone, not the column.
///
/// - **Storage:** a table of chunks (`ChunkTable`): the address of each
///   chunk's first entry, contiguous for reads, and apart from them the
///   objects that own the chunks' memory, 32 to a group (`ChunkGroup`),
///   whose holders are counted by hand under the lock of the column's
///   family, the column and its copies (`SharedPart`). A
///   read is `bases[i >> shift][i & mask]`: one load more than an
///   `Array`'s (from a table of 8 bytes per chunk), and no reference
///   counted.
/// - **Chunk size:** 2^`shift` entries: 8 KB over the entry's size
///   rounded down to a power of two (8 to 16 KB a chunk, 64 entries or
///   more) for entries under 256 bytes. Small, so that copying one costs a
///   microsecond or two and its memory comes from the allocator's free
///   lists (a whole-column copy of a large tree is fresh memory, whose page
///   faults were most of what an update under a snapshot cost; chunks of 16
///   to 32 KB, and of 4 to 8 KB, were slower at 1M elements); large enough
///   that a 10M-entry column has a table of thousands. Entries of 256 bytes
///   or more, 8 to a chunk: such records (a wide view's `ContainerIndex`,
///   360 bytes) hold a dozen or more references each, every one retained
///   when their chunk is copied and released when the copy goes, and their
///   columns are short (one entry per wide view). The first chunk starts
///   at 16 entries (a whole chunk when that is less) and doubles, so that
///   a small tree's columns stay small.
/// - **Cost:** a read O(1). A write O(1): three checks that a part is
///   held alone (the table's reference count, the group's and the chunk's
///   holders), except that the first write since the column was copied
///   copies the table (its addresses, and one more holder for each group),
///   and the first write to a group and to a chunk since then copies them
///   (one more holder for each chunk in the group; the chunk's entries).
///   Each copy takes the holders' lock once. A `Writer` checks each chunk
///   once for a run of writes.
/// - **Limits:** indices below `count`, checked as an `Array` checks them.
struct ChunkedColumn<Element> {
    private var table = ChunkTable<Element>.make(capacity: 0)
    /// The entries in use.
    private(set) var count = 0

    /// log2 of the entries a chunk holds (see the chunk size, above).
    @inline(__always)
    static var shift: Int {
        let stride = Swift.max(1, MemoryLayout<Element>.stride)
        return stride >= 256 ? 3 : 13 - (Int.bitWidth - 1 - stride.leadingZeroBitCount)
    }

    @inline(__always) static var chunkSize: Int { 1 << shift }
    @inline(__always) static var mask: Int { chunkSize - 1 }

    /// An empty column.
    init() {}

    /// `count` copies of `value`.
    init(repeating value: Element, count: Int) {
        append(repeating: value, count: count)
    }

    /// The entry at `i`.
    @inline(__always)
    subscript(i: Int) -> Element {
        get {
            precondition(UInt(bitPattern: i) < UInt(bitPattern: count), "ChunkedColumn index out of range")
            return table.base(i &>> Self.shift)[i & Self.mask]
        }
        _modify {
            precondition(UInt(bitPattern: i) < UInt(bitPattern: count), "ChunkedColumn index out of range")
            let base = writableBase(i &>> Self.shift)
            yield &base[i & Self.mask]
        }
    }

    /// The memory of chunk `k`, which this column alone holds. The rule of
    /// every write, in this order: the table is held alone (else copied),
    /// then the chunk's group (else copied, by the table), then the chunk
    /// (else copied). A chunk held once may still sit in a group two tables
    /// share, and a group held once may share chunks with a copy of it, so
    /// no check stands in for another.
    @inline(__always)
    private mutating func writableBase(_ k: Int) -> UnsafeMutablePointer<Element> {
        if _slowPath(!isKnownUniquelyReferenced(&table)) { table = table.copy(reserving: 0) }
        let slot = table.writableSlot(k)
        if _slowPath(!SharedPart.isHeldOnce(slot.pointee)) {
            table.set(k, to: slot.pointee._withUnsafeGuaranteedRef { ColumnChunk(copying: $0, capacity: $0.capacity) })
        }
        return table.base(k)
    }

    /// Whether a write to entry `i` would copy nothing: the table, the
    /// entry's group and its chunk are this column's alone. (A writer that
    /// can put an entry elsewhere, as the id table can, checks first.)
    ///
    /// A rule of this type that callers rely on: it is false exactly while
    /// a copy of the column taken since entry `i`'s chunk was last written
    /// is alive, as nothing else holds a chunk, a group or a table (no
    /// cache, no older version kept). The id table reads it as "a snapshot
    /// taken since my last update is still alive" (`IDTable.isPublished`);
    /// storage that kept old chunks alive would break that reading.
    @inline(__always)
    mutating func isWritableInPlace(_ i: Int) -> Bool {
        precondition(UInt(bitPattern: i) < UInt(bitPattern: count), "ChunkedColumn index out of range")
        return isKnownUniquelyReferenced(&table) && table.isHeldAlone(i &>> Self.shift)
    }

    /// Sets entry `i` to `value` if that copies nothing
    /// (`isWritableInPlace`); whether it did.
    @inline(__always)
    mutating func setInPlace(_ i: Int, to value: Element) -> Bool {
        guard isWritableInPlace(i) else { return false }
        table.base(i &>> Self.shift)[i & Self.mask] = value
        return true
    }

    /// Asks memory for entry `i` without waiting (`prefetch`): a reader
    /// that knows an entry it will soon read begins the miss early.
    @inline(__always)
    func prefetch(_ i: Int) {
        guard UInt(bitPattern: i) < UInt(bitPattern: count) else { return }
        AXGeometry.prefetch(UnsafePointer(table.base(i &>> Self.shift) + (i & Self.mask)))
    }

    /// Adds `value` after the last entry (moved in: a value of a few
    /// hundred bytes is not copied and destroyed).
    mutating func append(_ value: consuming Element) {
        let k = count &>> Self.shift, at = count & Self.mask
        let base = writableBase(forAppendingTo: k, at: at, count: 1)
        (base + at).initialize(to: value)
        table.addToCount(ofChunk: k, 1)
        count += 1
    }

    /// Adds `n` copies of `value` after the last entry, a chunk at a time.
    mutating func append(repeating value: Element, count n: Int) {
        append(count: n) { _ in value }
    }

    /// Adds `n` entries after the last, `value(j)` for the `j`th of them, a
    /// chunk at a time: one check that a chunk is held alone per chunk, not
    /// per entry.
    @inline(__always)
    mutating func append(count n: Int, _ value: (Int) -> Element) {
        precondition(n >= 0, "ChunkedColumn: a negative count")
        var done = 0
        while done < n {
            let k = count &>> Self.shift, at = count & Self.mask
            let run = Swift.min(n - done, Self.chunkSize - at)
            let base = writableBase(forAppendingTo: k, at: at, count: run)
            for j in 0 ..< run { (base + at + j).initialize(to: value(done + j)) }
            table.addToCount(ofChunk: k, run)
            count += run
            done += run
        }
    }

    /// The memory of chunk `k`, writable, with room for `n` entries from
    /// `at`: a new chunk at the end, or the first chunk grown (the only one
    /// ever smaller than `chunkSize`).
    @inline(__always)
    private mutating func writableBase(forAppendingTo k: Int, at: Int, count n: Int) -> UnsafeMutablePointer<Element> {
        if k == table.chunkCount {
            addChunk(capacity: k == 0 ? Self.firstChunkCapacity(n) : Self.chunkSize)
        }
        let base = writableBase(k)
        if _slowPath(k == 0 && at + n > table.capacity(ofChunk: 0)) { return growFirstChunk(to: at + n) }
        return base
    }

    /// Moves the first chunk into one with room for `n` entries (doubling,
    /// up to `chunkSize`); returns its memory.
    @inline(never)
    private mutating func growFirstChunk(to n: Int) -> UnsafeMutablePointer<Element> {
        let old = table.chunk(0)
        var capacity = old.capacity
        while capacity < n { capacity *= 2 }
        let grown = ColumnChunk(copying: old, capacity: Swift.min(Self.chunkSize, capacity))
        table.set(0, to: grown)
        return grown.base
    }

    /// Adds `other[start...]` after the last entry. Into an empty column,
    /// from the start, `other` is shared, not copied: O(its chunks), and
    /// each chunk is copied only when one of the two writes to it.
    mutating func append(contentsOf other: ChunkedColumn, from start: Int) {
        precondition(start >= 0 && start <= other.count, "ChunkedColumn: a start out of range")
        if count == 0 && start == 0 {
            self = other
        } else {
            append(count: other.count - start) { other[start + $0] }
        }
    }

    /// Adds `values` after the last entry.
    mutating func append(contentsOf values: some Sequence<Element>) {
        for v in values { append(v) }
    }

    /// Removes the last `n` entries. O(n), plus a copy of the last chunk
    /// kept when it is shared.
    mutating func removeLast(_ n: Int) {
        precondition(n >= 0 && n <= count, "ChunkedColumn: removing more entries than there are")
        guard n > 0 else { return }
        let newCount = count - n
        let keptChunks = (newCount + Self.mask) &>> Self.shift
        if !isKnownUniquelyReferenced(&table) { table = table.copy(reserving: 0) }
        // Whole chunks go with their slots (a shared one stays whole in its
        // other tables); the last kept one gives back its tail.
        table.removeLast(table.chunkCount - keptChunks)
        count = newCount
        let tail = newCount & Self.mask
        guard tail > 0 else { return }
        let k = keptChunks - 1
        let base = writableBase(k)
        let chunk = table.chunk(k)
        (base + tail).deinitialize(count: chunk.count - tail)
        chunk.count = tail
    }

    /// Removes and returns the last entry (a stack's pop). O(1), plus a
    /// copy of its chunk when shared.
    @discardableResult
    mutating func removeLast() -> Element {
        precondition(count > 0, "ChunkedColumn: removing more entries than there are")
        let i = count - 1
        // The first entry of its chunk takes the chunk with it: the general
        // path. Else (most pops) one entry moves out.
        guard i & Self.mask != 0 else {
            let last = self[i]
            removeLast(1)
            return last
        }
        let k = i &>> Self.shift
        let last = (writableBase(k) + (i & Self.mask)).move()
        table.addToCount(ofChunk: k, -1)
        count = i
        return last
    }

    /// Removes and returns the last entry, or nil when there is none.
    mutating func popLast() -> Element? { count == 0 ? nil : removeLast() }

    /// Makes room in the table for `n` entries, and in the first chunk when
    /// there is none yet (the others are made as needed).
    mutating func reserveCapacity(_ n: Int) {
        let chunks = (n + Self.mask) &>> Self.shift
        if chunks > table.room { table = table.copy(reserving: chunks) }
        if n > 0 && table.chunkCount == 0 { addChunk(capacity: Self.firstChunkCapacity(n)) }
    }

    /// The first chunk's capacity for `n` entries: at least 16, at most
    /// `chunkSize` (it doubles as it fills, so that small columns stay small).
    private static func firstChunkCapacity(_ n: Int) -> Int { Swift.min(chunkSize, Swift.max(16, n)) }

    private mutating func addChunk(capacity: Int) {
        if !isKnownUniquelyReferenced(&table) || table.chunkCount == table.room {
            table = table.copy(reserving: Swift.max(4, 2 * table.chunkCount))
        }
        table.append(ColumnChunk(capacity: capacity))
    }

    /// Bytes held: every chunk whole, and the table (a chunk shared with a
    /// copy is counted by both).
    var memoryBytes: Int {
        var entries = 0
        for k in 0 ..< table.chunkCount { entries += table.capacity(ofChunk: k) }
        // A chunk: its address and its object; a group: its place in the
        // table, its object and its slots.
        return entries * MemoryLayout<Element>.stride + table.chunkCount * (MemoryLayout<Int>.stride + 56)
            + table.groupBytes
    }

    /// The lock that counts this column's parts' holders (`HolderLock`):
    /// its copies', whatever they write since.
    var holderLock: ObjectIdentifier { ObjectIdentifier(table.lock.takeUnretainedValue()) }

    /// The chunks this column shares with `other` (the same chunk object at
    /// the same place), and its chunks in all: what a write since a copy
    /// left shared.
    func sharedChunks(with other: ChunkedColumn) -> (shared: Int, of: Int) {
        var shared = 0
        for k in 0 ..< Swift.min(table.chunkCount, other.table.chunkCount)
        where table.slot(k).pointee.toOpaque() == other.table.slot(k).pointee.toOpaque() {
            shared += 1
        }
        return (shared, table.chunkCount)
    }

    /// The groups of chunks this column shares with `other` (the same group
    /// object at the same place), and its groups in all.
    func sharedGroups(with other: ChunkedColumn) -> (shared: Int, of: Int) {
        table.sharedGroups(with: other.table)
    }

    /// Calls `body` with a view that reads entries without bounds checks or
    /// reference counting (for query loops over valid indices).
    @inline(__always)
    func withView<R>(_ body: (View) throws -> R) rethrows -> R {
        try withExtendedLifetime(table) { try body(View(bases: table.bases)) }
    }

    /// `ChunkedColumn` read through its table.
    struct View {
        fileprivate let bases: UnsafeMutablePointer<UnsafeMutablePointer<Element>>

        @inline(__always)
        subscript(i: Int) -> Element { bases[i &>> ChunkedColumn.shift][i & ChunkedColumn.mask] }

        /// The address of entry `i`; the entries after it up to the end of
        /// its chunk follow it in memory.
        @inline(__always)
        func pointer(_ i: Int) -> UnsafePointer<Element> {
            UnsafePointer(bases[i &>> ChunkedColumn.shift] + (i & ChunkedColumn.mask))
        }
    }

    /// Calls `body` with a writer for a run of writes: it checks each chunk
    /// it writes once, not at every store (the column is held by `body`
    /// throughout, so no copy can share a chunk in between).
    mutating func withWriter<R>(_ body: (inout Writer) throws -> R) rethrows -> R {
        try withUnsafeMutablePointer(to: &self) { column in
            var writer = Writer(column: column)
            return try body(&writer)
        }
    }

    /// Writes to a column, remembering the chunk it last made writable.
    struct Writer {
        fileprivate let column: UnsafeMutablePointer<ChunkedColumn>
        /// The column's count (which a writer does not change).
        private let count: Int
        private var chunk = -1
        private var base: UnsafeMutablePointer<Element>?

        fileprivate init(column: UnsafeMutablePointer<ChunkedColumn>) {
            self.column = column
            count = column.pointee.count
        }

        /// The address of entry `i`, writable. It stays valid while the
        /// writer lives: a chunk made writable is not copied again.
        @inline(__always)
        mutating func pointer(_ i: Int) -> UnsafeMutablePointer<Element> {
            precondition(UInt(bitPattern: i) < UInt(bitPattern: count), "ChunkedColumn index out of range")
            let k = i &>> ChunkedColumn.shift
            if k != chunk {
                base = column.pointee.writableBase(k)
                chunk = k
            }
            return base.unsafelyUnwrapped + (i & ChunkedColumn.mask)
        }

        @inline(__always)
        subscript(i: Int) -> Element {
            mutating get { pointer(i).pointee }
            _modify { yield &pointer(i).pointee }
        }
    }
}

extension ChunkedColumn: RandomAccessCollection, MutableCollection {
    var startIndex: Int { 0 }
    var endIndex: Int { count }
}

// Unchecked: a chunk another copy holds is only read; a write first copies
// any table or chunk this column does not hold alone (`writableBase`).
extension ChunkedColumn: @unchecked Sendable where Element: Sendable {}

extension ChunkedColumn where Element: Equatable {
    /// Sets entry `i` to `value` unless it holds it already: a read copies
    /// nothing, where a write under a snapshot copies the entry's chunk
    /// (and the table and group), so an update that rewrites what mostly
    /// stays the same (a parent's record brought up to date after a change
    /// below it, a node's side slots) writes only what changed.
    @inline(__always)
    mutating func set(_ i: Int, to value: Element) {
        if self[i] != value { self[i] = value }
    }
}
