import AXGeometry

/// A column of values, one per node slot, kept in fixed chunks that are
/// shared copy-on-write one by one: a copy of the column (a snapshot of the
/// tree or the engine) shares every chunk, and the first write to an entry
/// afterwards copies that entry's chunk alone, not the column.
///
/// - **Storage:** a table of chunks (`ChunkTable`): the address of each
///   chunk's first entry, contiguous for reads, and apart from them the
///   objects that own the chunks' memory, 32 to a group (`ChunkGroup`). A
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
/// - **Cost:** a read O(1). A write O(1): three reference-count checks
///   (the table's, the group's and the chunk's), except that the first
///   write since the column was copied copies the table (its addresses and
///   a retain per group), and the first write to a group and to a chunk
///   since then copies them (a retain per chunk in the group; the chunk's
///   entries). A `Writer` checks each chunk once for a run of writes.
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
        if _slowPath(!isKnownUniquelyReferenced(&slot.pointee)) {
            table.set(k, to: ColumnChunk(copying: slot.pointee, capacity: slot.pointee.capacity))
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
        table.slot(k).pointee.count += 1
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
            table.slot(k).pointee.count += run
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
        if _slowPath(k == 0 && at + n > table.chunk(0).capacity) { return growFirstChunk(to: at + n) }
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
        table.slot(k).pointee.count -= 1
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
        for k in 0 ..< table.chunkCount { entries += table.chunk(k).capacity }
        // A chunk: its address and its object; a group: its place in the
        // table, its object and its slots.
        return entries * MemoryLayout<Element>.stride + table.chunkCount * (MemoryLayout<Int>.stride + 48)
            + table.groupBytes
    }

    /// The chunks this column shares with `other` (the same chunk object at
    /// the same place), and its chunks in all: what a write since a copy
    /// left shared.
    func sharedChunks(with other: ChunkedColumn) -> (shared: Int, of: Int) {
        var shared = 0
        for k in 0 ..< Swift.min(table.chunkCount, other.table.chunkCount)
        where table.chunk(k) === other.table.chunk(k) {
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

/// One chunk of a `ChunkedColumn`: memory for `capacity` entries, the
/// first `count` of them initialized.
final class ColumnChunk<Element> {
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

/// Up to `ChunkTable.groupSize` consecutive chunks of a column, held
/// together: a copy of the table retains each group once, not each chunk
/// (a retain per chunk, and its release when the snapshot went, were three
/// quarters of what updates under snapshots of a 1M-element tree cost:
/// some 20,000 of them an update). A group is itself shared
/// copy-on-write; copying one retains its chunks.
final class ChunkGroup<Element> {
    let chunks: UnsafeMutablePointer<ColumnChunk<Element>>
    /// Slots for chunks: `groupSize`, or fewer in a column's first group
    /// while it grows (so that a small tree's columns stay small).
    let capacity: Int
    /// Unchecked, as `ColumnChunk.count`: only a table that holds the group
    /// alone changes it.
    @exclusivity(unchecked) var count = 0

    init(capacity: Int) {
        chunks = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    /// The first `count` chunks of `other`, each retained once more, in
    /// `capacity` slots.
    init(copying other: ChunkGroup, count: Int, capacity: Int) {
        chunks = .allocate(capacity: capacity)
        self.capacity = capacity
        initializeReferences(chunks, from: other.chunks, count: count)
        self.count = count
    }

    deinit {
        chunks.deinitialize(count: count)
        chunks.deallocate()
    }
}

/// The table of a `ChunkedColumn`, in two arrays: the address of each
/// chunk's first entry (the elements, contiguous, all a read touches) and
/// the groups of chunks (`groups`, which keep the memory alive).
final class ChunkTable<Element>: ManagedBuffer<ChunkTableHeader<Element>, UnsafeMutablePointer<Element>> {
    /// log2 of the chunks a group holds. 32: at 1M elements a column has
    /// 500 to 4,000 chunks, so that a copy of its table retains 16 to 125
    /// groups, and the copy of a group a write lands in retains 32 chunks.
    /// With 64 chunks to a group, an insert under a snapshot of the 1M
    /// `list` copied 21 tables (about 300 group retains) and 30 groups
    /// (about 1,900 chunk retains), so halving the groups halves the larger
    /// share of those retains (and of their releases when the snapshot
    /// goes): inserts and removals under a snapshot 3–7% faster at 1M,
    /// moves 5–12%, scrolls unchanged
    /// (`results/ab-chunk-groups-of-32-1M-2026-12-05.txt`). Groups of 16
    /// were 5–8% slower (`results/ab-groups-of-16-insert-1M-2026-12-05-not-kept.txt`).
    static var groupShift: Int { 5 }
    static var groupSize: Int { 1 << groupShift }
    static var groupMask: Int { groupSize - 1 }

    /// The groups that hold `chunks` chunks.
    @inline(__always)
    static func groups(_ chunks: Int) -> Int { (chunks + groupMask) &>> groupShift }

    /// An empty table with room for `capacity` chunks.
    static func make(capacity: Int) -> ChunkTable {
        let buffer = create(minimumCapacity: capacity) { _ in
            ChunkTableHeader(chunkCount: 0, room: capacity, groups: .allocate(capacity: groups(capacity)))
        }
        return unsafeDowncast(buffer, to: ChunkTable.self)
    }

    /// The header, through a pointer: ManagedBuffer's `header` property is
    /// a class's stored property, which the runtime checks for exclusive
    /// access at every use (a tenth of a large tree's build).
    @inline(__always)
    private var head: UnsafeMutablePointer<ChunkTableHeader<Element>> { withUnsafeMutablePointerToHeader { $0 } }

    var chunkCount: Int { head.pointee.chunkCount }
    var room: Int { head.pointee.room }
    private var groupCount: Int { Self.groups(head.pointee.chunkCount) }

    /// The address of each chunk's first entry, in order.
    @inline(__always)
    var bases: UnsafeMutablePointer<UnsafeMutablePointer<Element>> { withUnsafeMutablePointerToElements { $0 } }

    /// The address of chunk `k`'s first entry.
    @inline(__always)
    func base(_ k: Int) -> UnsafeMutablePointer<Element> { bases[k] }

    /// Bytes of the groups: each one's place in the table, its object and
    /// its slots.
    var groupBytes: Int {
        var bytes = 0
        for g in 0 ..< groupCount { bytes += MemoryLayout<Int>.stride * (1 + head.pointee.groups[g].capacity) + 48 }
        return bytes
    }

    /// The groups at the same place in `self` and `other`, and `self`'s.
    func sharedGroups(with other: ChunkTable) -> (shared: Int, of: Int) {
        var shared = 0
        for g in 0 ..< Swift.min(groupCount, other.groupCount)
        where head.pointee.groups[g] === other.head.pointee.groups[g] {
            shared += 1
        }
        return (shared, groupCount)
    }

    /// Where chunk `k` is held: its slot in its group (read through it, a
    /// chunk's fields are reached without retaining the chunk).
    @inline(__always)
    func slot(_ k: Int) -> UnsafeMutablePointer<ColumnChunk<Element>> {
        head.pointee.groups[k &>> Self.groupShift].chunks + (k & Self.groupMask)
    }

    /// Chunk `k`, to read.
    @inline(__always)
    func chunk(_ k: Int) -> ColumnChunk<Element> { slot(k).pointee }

    /// Makes group `g` one this table holds alone (a copy, when shared).
    /// This and the methods below that write follow the rule stated on
    /// `ChunkedColumn.writableBase`: the table is held alone.
    @inline(__always)
    private func makeGroupWritable(_ g: Int) {
        let groups = head.pointee.groups
        if _slowPath(!isKnownUniquelyReferenced(&groups[g])) {
            groups[g] = ChunkGroup(copying: groups[g], count: groups[g].count, capacity: groups[g].capacity)
        }
    }

    /// Whether chunk `k` and its group are this table's alone (a chunk held
    /// once may still sit in a shared group: see `ChunkedColumn.writableBase`).
    @inline(__always)
    func isHeldAlone(_ k: Int) -> Bool {
        let groups = head.pointee.groups
        return isKnownUniquelyReferenced(&groups[k &>> Self.groupShift]) && isKnownUniquelyReferenced(&slot(k).pointee)
    }

    /// Where chunk `k` is held, in a group this table holds alone.
    @inline(__always)
    func writableSlot(_ k: Int) -> UnsafeMutablePointer<ColumnChunk<Element>> {
        makeGroupWritable(k &>> Self.groupShift)
        return slot(k)
    }

    /// Puts `chunk` in place of chunk `k` (releasing the old one), in a
    /// group this table holds alone (`writableSlot`).
    func set(_ k: Int, to chunk: ColumnChunk<Element>) {
        slot(k).pointee = chunk
        bases[k] = chunk.base
    }

    /// A table holding the same chunks (each group retained once more),
    /// with room for at least `reserving` chunks.
    func copy(reserving: Int) -> ChunkTable {
        let n = chunkCount
        let copy = ChunkTable.make(capacity: Swift.max(n, reserving))
        initializeReferences(copy.head.pointee.groups, from: head.pointee.groups, count: groupCount)
        copy.bases.initialize(from: bases, count: n)
        copy.head.pointee.chunkCount = n
        return copy
    }

    /// Adds `chunk` at the end (room must be left): in a new group, or in
    /// the last one, copied first when shared.
    func append(_ chunk: ColumnChunk<Element>) {
        let n = head.pointee.chunkCount, g = n &>> Self.groupShift, groups = head.pointee.groups
        if n & Self.groupMask == 0 {
            // A column's first group starts with one slot and doubles.
            (groups + g).initialize(to: ChunkGroup(capacity: g == 0 ? 1 : Self.groupSize))
        } else if groups[g].count == groups[g].capacity {
            // Only a first group fills before `groupSize`: one copy, shared
            // or not, with twice the room.
            groups[g] = ChunkGroup(copying: groups[g], count: groups[g].count, capacity: 2 * groups[g].capacity)
        } else {
            makeGroupWritable(g)
        }
        let group = head.pointee.groups[g]
        (group.chunks + group.count).initialize(to: chunk)
        group.count += 1
        bases[n] = chunk.base
        head.pointee.chunkCount = n + 1
    }

    /// Drops the last `n` chunks (releasing them; a shared group that keeps
    /// some is copied with those).
    func removeLast(_ n: Int) {
        let kept = head.pointee.chunkCount - n, keptGroups = Self.groups(kept)
        (head.pointee.groups + keptGroups).deinitialize(count: groupCount - keptGroups)
        let tail = kept & Self.groupMask, groups = head.pointee.groups
        if tail > 0 && groups[keptGroups - 1].count > tail {
            let g = keptGroups - 1
            if isKnownUniquelyReferenced(&groups[g]) {
                (groups[g].chunks + tail).deinitialize(count: groups[g].count - tail)
                groups[g].count = tail
            } else {
                groups[g] = ChunkGroup(copying: groups[g], count: tail, capacity: groups[g].capacity)
            }
        }
        head.pointee.chunkCount = kept
    }

    deinit {
        head.pointee.groups.deinitialize(count: groupCount)
        head.pointee.groups.deallocate()
    }
}

/// Copies `count` references from `source` into uninitialized `target`,
/// retaining each: a loop of plain retains. (`initialize(from:count:)` goes
/// through the runtime's generic array copy, a call through the type's
/// value witness per reference: a copy of a group or a table with it made
/// inserts under a snapshot of a 1M-element tree 4–8% slower, in
/// `results/ab-retain-loops-insert-1M-2026-12-03.txt`. The same loop for
/// the releases made dropping a snapshot slower, so they stay as they are.)
@inline(__always)
private func initializeReferences<T: AnyObject>(
    _ target: UnsafeMutablePointer<T>, from source: UnsafeMutablePointer<T>, count: Int
) {
    for i in 0 ..< count { (target + i).initialize(to: source[i]) }
}

/// A `ChunkTable`'s chunks in use, its room (in chunks), and its groups.
struct ChunkTableHeader<Element> {
    var chunkCount: Int
    var room: Int
    var groups: UnsafeMutablePointer<ChunkGroup<Element>>
}
