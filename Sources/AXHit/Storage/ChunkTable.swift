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

    /// An empty table with room for `capacity` chunks, counting under
    /// `lock` (a copy's: its family's), or under a new family's
    /// (`HolderLock`).
    static func make(capacity: Int, lock: Unmanaged<HolderLock>? = nil) -> ChunkTable {
        let buffer = create(minimumCapacity: capacity) { buffer in
            ChunkTableHeader(
                chunkCount: 0, room: capacity, groups: .allocate(capacity: groups(capacity)),
                lock: lock ?? HolderLock.forFamily(of: Unmanaged.passUnretained(buffer).toOpaque()))
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
    /// The lock of this table's family, which counts its parts' holders
    /// (`SharedPart`).
    var lock: Unmanaged<HolderLock> { head.pointee.lock }

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
        SharedPart.hold(copy.chunks, count: count, dropping: old, under: lock)
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
        SharedPart.drop(old, under: lock)
    }

    /// A table holding the same chunks (each group held once more), with
    /// room for at least `reserving` chunks.
    func copy(reserving: Int) -> ChunkTable {
        let n = chunkCount
        let copy = ChunkTable.make(capacity: Swift.max(n, reserving), lock: lock)
        copy.head.pointee.groups.initialize(from: head.pointee.groups, count: groupCount)
        SharedPart.hold(copy.head.pointee.groups, count: groupCount, under: lock)
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
            (groups + g).initialize(
                to: .passRetained(ChunkGroup(capacity: g == 0 ? 1 : Self.groupSize, lock: lock)))
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
        SharedPart.drop(head.pointee.groups + keptGroups, count: groupCount - keptGroups, under: lock)
        let tail = kept & Self.groupMask, groups = head.pointee.groups
        if tail > 0 && groups[keptGroups - 1]._withUnsafeGuaranteedRef({ $0.count > tail }) {
            let g = keptGroups - 1
            if SharedPart.isHeldOnce(groups[g]) {
                groups[g]._withUnsafeGuaranteedRef { group in
                    SharedPart.drop(group.chunks + tail, count: group.count - tail, under: lock)
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
        SharedPart.drop(raw: groups, count: groupCount, under: lock)
        groups.deallocate()
    }
}

/// A `ChunkTable`'s chunks in use, its room (in chunks), its groups, and
/// its family's lock (`HolderLock`).
struct ChunkTableHeader<Element> {
    var chunkCount: Int
    var room: Int
    var groups: UnsafeMutablePointer<Unmanaged<ChunkGroup<Element>>>
    let lock: Unmanaged<HolderLock>
}
