import AXGeometry
import Synchronization

/// A column of values, one per node slot, kept in fixed chunks that are
/// shared copy-on-write one by one: a copy of the column (a snapshot of the
/// tree or the engine) shares every chunk, and the first write to an entry
/// afterwards copies that entry's chunk alone, not the column.
///
/// - **Storage:** a table of chunks (`ChunkTable`): the address of each
///   chunk's first entry, contiguous for reads, and apart from them the
///   objects that own the chunks' memory, 32 to a group (`ChunkGroup`),
///   whose holders are counted by hand under one lock (`SharedPart`). A
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

/// What the parts columns share have in common (a chunk, a group of
/// chunks): the count of their holders (the groups that hold a chunk, the
/// tables that hold a group), kept by hand rather than by ARC. A holder
/// refers to its parts through `Unmanaged` references, which ARC leaves
/// alone; each part is owned by one ARC reference, released when its last
/// holder lets it go.
///
/// **Why.** A copy of a table (or of a group) counts one more holder of
/// each of its groups (or chunks): ~1,000 of them for an insert under a
/// snapshot of a 1M-element tree, and as many fewer when the snapshot
/// goes. ARC makes each an atomic operation (which, by our reading of the
/// profiles, also keeps the next one's cache miss from starting: a probe
/// that made them all non-atomic took 15-18% off such inserts). Here every
/// change of a count happens under one lock (`lock`), taken once per copy
/// or release of a whole table or group, so the counts themselves are
/// plain loads and stores (acquiring and releasing, which cost nothing
/// more on x86-64).
///
/// **The rule.** A count changes only under `lock`. A holder that reads
/// its part's count as 1 (`isHeldOnce`, outside the lock) holds it alone:
/// no one else can add a holder (only a holder can, by copying itself,
/// and the writer's table and group are its own by the checks before). A
/// count above 1 may fall meanwhile, as other holders let go; read stale,
/// it costs a needless copy, never a shared write. The count is released
/// as it falls and acquired as it is read, so a reader's last use of a
/// part happens before a writer's first write to it.
class SharedPart {
    /// The tables (for a group) or groups (for a chunk) that hold this part.
    final let holders = Atomic<Int>(1)

    /// The lock under which every holder count changes (see the rule
    /// above). The counts are atomics read acquiring and written
    /// releasing, so the race detector sees their order even where it does
    /// not see a contended `Mutex` acquired (`ConcurrentQueryTests`).
    private static let lock = Mutex(())

    /// Whether `part`'s one holder is the caller.
    @inline(__always)
    static func isHeldOnce(_ part: Unmanaged<some SharedPart>) -> Bool {
        Unmanaged<SharedPart>.fromOpaque(part.toOpaque())._withUnsafeGuaranteedRef {
            $0.holders.load(ordering: .acquiring) == 1
        }
    }

    /// Counts one more holder of each of the `count` parts at `parts`.
    @inline(__always)
    static func hold(_ parts: UnsafePointer<Unmanaged<some SharedPart>>, count: Int) {
        change(holding: UnsafeRawPointer(parts), count, dropping: UnsafeRawPointer(parts), 0)
    }

    /// Counts one more holder of each of the `count` parts at `parts` and
    /// one fewer of `part`, under one hold of the lock: a copy of a group
    /// that takes the old one's place.
    @inline(__always)
    static func hold(
        _ parts: UnsafePointer<Unmanaged<some SharedPart>>, count: Int, dropping part: Unmanaged<some SharedPart>
    ) {
        withUnsafePointer(to: part.toOpaque()) {
            change(holding: UnsafeRawPointer(parts), count, dropping: UnsafeRawPointer($0), 1)
        }
    }

    /// Counts one holder fewer of each of the `count` parts at `parts`,
    /// and frees each that no one holds any more, after the lock (freeing a
    /// group lets its chunks go, which takes the lock again).
    @inline(__always)
    static func drop(_ parts: UnsafePointer<Unmanaged<some SharedPart>>, count: Int) {
        change(holding: UnsafeRawPointer(parts), 0, dropping: UnsafeRawPointer(parts), count)
    }

    /// `drop` of the `count` parts at `start`, for a generic class's
    /// `deinit`: its generic arguments are not known there (it is not
    /// specialized), and a generic call or a typed pointer's method would
    /// look their metadata up in the runtime's cache (hundreds of
    /// instructions a call, as much as the rest of a scroll under a
    /// snapshot).
    static func drop(raw start: UnsafeRawPointer, count: Int) {
        change(holding: start, 0, dropping: start, count)
    }

    /// `drop` of one part.
    @inline(__always)
    static func drop(_ part: Unmanaged<some SharedPart>) {
        withUnsafePointer(to: part.toOpaque()) {
            change(holding: UnsafeRawPointer($0), 0, dropping: UnsafeRawPointer($0), 1)
        }
    }

    /// The work itself, on the parts as `SharedPart`s through raw pointers:
    /// not generic, so that a generic class's `deinit` (which is not
    /// specialized) looks no type's metadata up to call it. A count of 0
    /// reads nothing at its pointer.
    private static func change(
        holding held: UnsafeRawPointer, _ holdCount: Int, dropping dropped: UnsafeRawPointer, _ dropCount: Int
    ) {
        guard holdCount > 0 || dropCount > 0 else { return }
        held.withMemoryRebound(to: Unmanaged<SharedPart>.self, capacity: holdCount) { held in
            dropped.withMemoryRebound(to: Unmanaged<SharedPart>.self, capacity: dropCount) { dropped in
                withUnsafeTemporaryAllocation(of: Unmanaged<SharedPart>.self, capacity: dropCount) { unheld in
                    var n = 0
                    lock.withLock { _ in
                        for i in 0 ..< holdCount {
                            held[i]._withUnsafeGuaranteedRef { part in
                                part.holders.store(part.holders.load(ordering: .acquiring) &+ 1, ordering: .releasing)
                            }
                        }
                        for i in 0 ..< dropCount {
                            let left = dropped[i]._withUnsafeGuaranteedRef { part in
                                let left = part.holders.load(ordering: .acquiring) &- 1
                                part.holders.store(left, ordering: .releasing)
                                return left
                            }
                            if left == 0 {
                                unheld[n] = dropped[i]
                                n += 1
                            }
                        }
                    }
                    for i in 0 ..< n { unheld[i].release() }
                }
            }
        }
    }
}

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

    init(capacity: Int) {
        chunks = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    /// The first `count` chunks of `other`, in `capacity` slots. Their
    /// holders are not counted yet: the caller counts the copy as one more
    /// (`ChunkTable.replaceGroup(_:withCopyOf:capacity:)`).
    init(sharing other: ChunkGroup, count: Int, capacity: Int) {
        chunks = .allocate(capacity: capacity)
        self.capacity = capacity
        chunks.initialize(from: other.chunks, count: count)
        self.count = count
    }

    /// Adds `chunk`, which no one else holds yet, after the last.
    func append(_ chunk: ColumnChunk<Element>) {
        (chunks + count).initialize(to: .passRetained(chunk))
        count += 1
    }

    deinit {
        let chunks = UnsafeMutableRawPointer(chunks)
        SharedPart.drop(raw: chunks, count: count)
        chunks.deallocate()
    }
}

/// The table of a `ChunkedColumn`, in two arrays: the address of each
/// chunk's first entry (the elements, contiguous, all a read touches) and
/// the groups of chunks (`groups`, which keep the memory alive).
final class ChunkTable<Element>: ManagedBuffer<ChunkTableHeader<Element>, UnsafeMutablePointer<Element>> {
    /// log2 of the chunks a group holds. 32: at 1M elements a column has
    /// 500 to 4,000 chunks, so that a copy of its table holds 16 to 125
    /// groups once more, and the copy of a group a write lands in holds 32
    /// chunks once more. With 64 chunks to a group, an insert under a
    /// snapshot of the 1M `list` copied 21 tables (about 300 group counts)
    /// and 30 groups (about 1,900 chunk counts), so halving the groups
    /// halves the larger share of those counts (and of their releases when
    /// the snapshot goes): inserts and removals under a snapshot 3–7%
    /// faster at 1M, moves 5–12%, scrolls unchanged
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
        for g in 0 ..< groupCount {
            bytes +=
                MemoryLayout<Int>.stride * (1 + head.pointee.groups[g]._withUnsafeGuaranteedRef { $0.capacity }) + 56
        }
        return bytes
    }

    /// The groups at the same place in `self` and `other`, and `self`'s.
    func sharedGroups(with other: ChunkTable) -> (shared: Int, of: Int) {
        var shared = 0
        for g in 0 ..< Swift.min(groupCount, other.groupCount)
        where head.pointee.groups[g].toOpaque() == other.head.pointee.groups[g].toOpaque() {
            shared += 1
        }
        return (shared, groupCount)
    }

    /// Where chunk `k` is held: its slot in its group (read through it, a
    /// chunk's fields are reached without retaining the chunk).
    @inline(__always)
    func slot(_ k: Int) -> UnsafeMutablePointer<Unmanaged<ColumnChunk<Element>>> {
        head.pointee.groups[k &>> Self.groupShift]._withUnsafeGuaranteedRef { $0.chunks } + (k & Self.groupMask)
    }

    /// Chunk `k`, to read.
    @inline(__always)
    func chunk(_ k: Int) -> ColumnChunk<Element> { slot(k).pointee.takeUnretainedValue() }

    /// Chunk `k`'s capacity.
    @inline(__always)
    func capacity(ofChunk k: Int) -> Int { slot(k).pointee._withUnsafeGuaranteedRef { $0.capacity } }

    /// Adds `n` to chunk `k`'s count of entries in use (an append or a
    /// pop, in a chunk this table holds alone).
    @inline(__always)
    func addToCount(ofChunk k: Int, _ n: Int) { slot(k).pointee._withUnsafeGuaranteedRef { $0.count += n } }

    /// Makes group `g` one this table holds alone (a copy, when shared).
    /// This and the methods below that write follow the rule stated on
    /// `ChunkedColumn.writableBase`: the table is held alone.
    @inline(__always)
    private func makeGroupWritable(_ g: Int) {
        let groups = head.pointee.groups
        if _slowPath(!SharedPart.isHeldOnce(groups[g])) {
            let (count, capacity) = groups[g]._withUnsafeGuaranteedRef { ($0.count, $0.capacity) }
            replaceGroup(g, withCopyOf: count, capacity: capacity)
        }
    }

    /// Puts in place of group `g`, which this table lets go, a copy of its
    /// first `count` chunks (each held once more) in `capacity` slots.
    private func replaceGroup(_ g: Int, withCopyOf count: Int, capacity: Int) {
        let groups = head.pointee.groups
        let old = groups[g]
        let copy = old._withUnsafeGuaranteedRef { ChunkGroup(sharing: $0, count: count, capacity: capacity) }
        groups[g] = .passRetained(copy)
        SharedPart.hold(copy.chunks, count: count, dropping: old)
    }

    /// Whether chunk `k` and its group are this table's alone (a chunk held
    /// once may still sit in a shared group: see `ChunkedColumn.writableBase`).
    @inline(__always)
    func isHeldAlone(_ k: Int) -> Bool {
        SharedPart.isHeldOnce(head.pointee.groups[k &>> Self.groupShift]) && SharedPart.isHeldOnce(slot(k).pointee)
    }

    /// Where chunk `k` is held, in a group this table holds alone.
    @inline(__always)
    func writableSlot(_ k: Int) -> UnsafeMutablePointer<Unmanaged<ColumnChunk<Element>>> {
        makeGroupWritable(k &>> Self.groupShift)
        return slot(k)
    }

    /// Puts `chunk`, which no one else holds yet, in place of chunk `k`
    /// (letting the old one go), in a group this table holds alone
    /// (`writableSlot`).
    func set(_ k: Int, to chunk: ColumnChunk<Element>) {
        let slot = slot(k)
        let old = slot.pointee
        slot.pointee = .passRetained(chunk)
        bases[k] = chunk.base
        SharedPart.drop(old)
    }

    /// A table holding the same chunks (each group held once more), with
    /// room for at least `reserving` chunks.
    func copy(reserving: Int) -> ChunkTable {
        let n = chunkCount
        let copy = ChunkTable.make(capacity: Swift.max(n, reserving))
        copy.head.pointee.groups.initialize(from: head.pointee.groups, count: groupCount)
        SharedPart.hold(copy.head.pointee.groups, count: groupCount)
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
            (groups + g).initialize(to: .passRetained(ChunkGroup(capacity: g == 0 ? 1 : Self.groupSize)))
        } else if groups[g]._withUnsafeGuaranteedRef({ $0.count == $0.capacity }) {
            // Only a first group fills before `groupSize`: one copy, shared
            // or not, with twice the room.
            let (count, capacity) = groups[g]._withUnsafeGuaranteedRef { ($0.count, $0.capacity) }
            replaceGroup(g, withCopyOf: count, capacity: 2 * capacity)
        } else {
            makeGroupWritable(g)
        }
        head.pointee.groups[g]._withUnsafeGuaranteedRef { $0.append(chunk) }
        bases[n] = chunk.base
        head.pointee.chunkCount = n + 1
    }

    /// Drops the last `n` chunks (letting them go; a shared group that keeps
    /// some is copied with those).
    func removeLast(_ n: Int) {
        let kept = head.pointee.chunkCount - n, keptGroups = Self.groups(kept)
        SharedPart.drop(head.pointee.groups + keptGroups, count: groupCount - keptGroups)
        let tail = kept & Self.groupMask, groups = head.pointee.groups
        if tail > 0 && groups[keptGroups - 1]._withUnsafeGuaranteedRef({ $0.count > tail }) {
            let g = keptGroups - 1
            if SharedPart.isHeldOnce(groups[g]) {
                groups[g]._withUnsafeGuaranteedRef { group in
                    SharedPart.drop(group.chunks + tail, count: group.count - tail)
                    group.count = tail
                }
            } else {
                replaceGroup(g, withCopyOf: tail, capacity: groups[g]._withUnsafeGuaranteedRef { $0.capacity })
            }
        }
        head.pointee.chunkCount = kept
    }

    deinit {
        let groups = UnsafeMutableRawPointer(head.pointee.groups)
        SharedPart.drop(raw: groups, count: groupCount)
        groups.deallocate()
    }
}

/// A `ChunkTable`'s chunks in use, its room (in chunks), and its groups.
struct ChunkTableHeader<Element> {
    var chunkCount: Int
    var room: Int
    var groups: UnsafeMutablePointer<Unmanaged<ChunkGroup<Element>>>
}
