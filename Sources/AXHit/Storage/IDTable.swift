/// The tree's index from `id` strings to slots: open-addressing hash tables
/// of 8-byte entries, the strings themselves left in the tree's `ids`
/// column.
///
/// - **Space:** one `UInt64` per bucket, at most half the buckets used: 16
///   to 32 bytes per node (a `[String: NodeID]` holds 24-byte buckets at up
///   to 3/4 load, and copies its strings' references with it).
/// - **Entry:** the upper 32 bits of the key's hash, and its slot + 1 (0 is
///   an empty bucket). Growth re-places entries by their stored hash: no
///   string is hashed again, as a `Dictionary`'s growth does every key.
/// - **Hash:** Swift's own (`Hasher`, seeded per process), so that equal
///   strings (canonical equivalence, as `==`) hash alike and no input can
///   choose its collisions.
/// - **Under a snapshot:** ids hash to buckets all over the main table, so
///   an id written there while a snapshot shares the table copies a chunk
///   of it and the chunk's group (8 KB and a holder counted per chunk of
///   the group, per id: a third of what inserting a row under a snapshot
///   cost at 1M nodes). So the main table is written where the bucket's chunk
///   is its own, or where no snapshot is being published between updates
///   (`isPublished`: an engine built from a tree its caller keeps copies
///   each chunk once).
///   Otherwise an id added goes to the first of a few small tables
///   (`levels`, of `levelCapacities` entries), each merged into the next
///   when full and the last into the main table (in bucket order): an
///   entry is written a few times in all rather than copying a chunk. An
///   entry removed then stays in place, *stale*: every lookup compares the
///   slot's id string with its key and, where they are equal, checks that
///   a node holds the slot (its `.alive` flag), so a stale entry never
///   answers; the same id put back in the same slot takes it up again. (A
///   freed slot keeps its last id until it is reused: emptying it would
///   copy a chunk of strings under a snapshot.) Once a quarter of the
///   entries are stale (or the main table grows), a rehash gathers every
///   live entry into a fresh main table.
/// - **Cost:** one hash per lookup, insert or removal, and a probe along a
///   run of used buckets (linear probing; removals in place shift the run
///   back, so there are no tombstones) in the main table and in each level
///   in use; a string comparison only where 32 bits of hash agree. An
///   entry added under a snapshot is placed up to four times (once per
///   level, then in the main table): amortized O(1). A rehash that drops
///   stale entries hashes each entry's id once.
/// - **Limits:** slots below 2^31 (the tree's `Int32` slots), buckets up to
///   2^32 (the stored hash places an entry).
struct IDTable: Sendable {
    /// Every entry but those of `levels`.
    private var main = Buckets()
    /// Entries added while their bucket in `main` was shared, smallest level
    /// first (`levelCapacities`); none until the first such id.
    private var levels: [Buckets] = []
    /// Live entries (each live node's id).
    private(set) var count = 0
    /// Entries removed where they were shared and left in place (an upper
    /// bound: an entry can be counted twice).
    private var stale = 0
    /// Ids added in a row that found the first level held alone
    /// (`isPublished`).
    private var quietAdds = 0

    /// Ids in a row, added with no copy of the table taken between them,
    /// after which the main table is written even where it is shared: more
    /// than one update under a snapshot adds (a row of cells, a screen's
    /// worth of a list), fewer than the first level holds.
    static let quietLimit = 128

    /// The entries each level holds before it merges into the next: each
    /// level 16 times the one before, so that an entry is moved a few times
    /// in all, and the first fits one chunk (4 KB) for the updates under a
    /// snapshot to copy.
    static let levelCapacities = [256, 4_096, 65_536]

    /// A key's hash, computed once per operation.
    @inline(__always)
    static func hash(_ key: String) -> UInt32 {
        UInt32(truncatingIfNeeded: UInt64(bitPattern: Int64(key.hashValue)) >> 32)
    }

    /// Makes room for `n` entries in the main table without growing.
    mutating func reserveCapacity(_ n: Int) {
        if Self.bucketCount(for: n) > main.entries.count { rehash(to: Self.bucketCount(for: n)) }
    }

    /// The slot of `key`, whose hash is `hash`, if an entry holds it; `ids`
    /// and `flags` are the tree's columns of id strings and node flags.
    @inline(__always)
    func slot(of key: String, hash: UInt32, ids: ChunkedColumn<String>, flags: ChunkedColumn<NodeFlags>) -> Int32? {
        // A node added unnamed has an empty id until it is completed: an
        // entry must not answer for "".
        guard !key.isEmpty else { return nil }
        if let slot = main.slot(of: key, hash: hash, ids: ids, flags: flags) { return slot }
        for k in levels.indices where levels[k].used > 0 {
            if let slot = levels[k].slot(of: key, hash: hash, ids: ids, flags: flags) { return slot }
        }
        return nil
    }

    /// Whether a level holds `entry`.
    private func levelsHold(_ entry: UInt64) -> Bool {
        for k in levels.indices where levels[k].used > 0 && levels[k].bucket(of: entry) != nil { return true }
        return false
    }

    /// Asks memory for the bucket where a key of hash `hash` is looked up
    /// first, without waiting: a reader that learns a node's id well
    /// before it adds the node hashes the id then (once: the hash goes
    /// with the node to `ElementTree.add`), so that the bucket's miss
    /// overlaps the reading of the node's other properties.
    func prefetch(hash: UInt32) {
        guard !main.entries.isEmpty else { return }
        main.entries.prefetch(Int(hash) & (main.entries.count - 1))
    }

    /// Adds an entry for a key (whose hash is `hash`) at `slot`: in the main
    /// table where its bucket there is the table's own (or no snapshot is
    /// being published: `isPublished`), else in the first level. The key
    /// must not be in the table: look it up first. `ids` and `flags` are
    /// the tree's columns, from which a rehash tells stale entries (`slot`'s
    /// own id and flags need not be written yet).
    mutating func insert(hash: UInt32, slot: Int32, ids: ChunkedColumn<String>, flags: ChunkedColumn<NodeFlags>) {
        let entry = Self.entry(hash: hash, slot: slot)
        if stale > 1_024 && 4 * stale > main.used + levelsUsed {
            rehashDroppingStale(to: Self.bucketCount(for: count + 1), ids: ids, flags: flags)
        } else if Self.bucketCount(for: main.used + 1) > main.entries.count {
            rehashDroppingStale(
                to: Swift.max(main.entries.count, Self.bucketCount(for: count + 1)), ids: ids, flags: flags)
        }
        // One walk of the entry's run: the same id back in the same slot (a
        // row removed and put back) finds its stale entry, taken up again
        // rather than doubled; else the empty bucket that takes it.
        let (b, held) = main.find(entry)
        if held || levelsHold(entry) {
            stale = Swift.max(0, stale - 1)
            count += 1
            return
        }
        if main.entries.setInPlace(b, to: entry) {
            main.used += 1
        } else if isPublished(adding: true) {
            addToLevels(entry)
        } else {
            // Copying a chunk shared with an older copy (once). Placed
            // afresh: `isPublished` may just have moved the levels here.
            main.placeIfAbsent(entry)
        }
        count += 1
    }

    /// Whether copies of the table are being taken between its updates
    /// (snapshots published), as the first level tells: held alone, no copy
    /// was taken since the id added before; shared, one was (the rule
    /// `ChunkedColumn.isWritableInPlace` states). A table copied
    /// once and then updated alone (an engine built from a tree its caller
    /// keeps) would otherwise send every id to the levels, and leave every
    /// removed one stale, for good: after `quietLimit` ids added in a row
    /// with the first level held alone, the levels' entries move to the
    /// main table (so that lookups stop probing the levels), and the main
    /// table is written instead, each chunk it shares with that older copy
    /// copied once. `adding` counts an id added.
    private mutating func isPublished(adding: Bool) -> Bool {
        guard !levels.isEmpty, !levels[0].entries.isEmpty, levels[0].entries.isWritableInPlace(0) else {
            quietAdds = 0
            return true
        }
        if adding { quietAdds += 1 }
        // The switch to writing the main table: the levels' few entries go
        // there too, so that lookups stop probing the levels.
        if adding && quietAdds == Self.quietLimit + 1 { mergeLevelsIntoMain() }
        return quietAdds <= Self.quietLimit
    }

    /// Removes the entry of `slot`, whose key hashes to `hash`, if any: in
    /// place where its chunk is the table's own or no snapshot is being
    /// published (`isPublished`), else left stale.
    mutating func remove(hash: UInt32, slot: Int32) {
        let entry = Self.entry(hash: hash, slot: slot)
        if let b = main.bucket(of: entry) {
            if main.entries.isWritableInPlace(b) || !isPublished(adding: false) {
                main.remove(at: b)
            } else {
                stale += 1
            }
            count -= 1
            return
        }
        for k in levels.indices where levels[k].used > 0 {
            guard let b = levels[k].bucket(of: entry) else { continue }
            if levels[k].entries.isWritableInPlace(b) || !isPublished(adding: false) {
                levels[k].remove(at: b)
            } else {
                stale += 1
            }
            count -= 1
            return
        }
    }

    /// The entry of a key of hash `hash` at `slot`.
    @inline(__always)
    private static func entry(hash: UInt32, slot: Int32) -> UInt64 {
        UInt64(hash) << 32 | UInt64(UInt32(slot) + 1)
    }

    /// Whether `entry` is a live node's: a node holds its slot, and the
    /// slot's id hashes to its hash.
    private static func isLive(_ entry: UInt64, ids: ChunkedColumn<String>, flags: ChunkedColumn<NodeFlags>) -> Bool {
        let slot = Int(UInt32(truncatingIfNeeded: entry)) - 1
        guard slot < ids.count && flags[slot].contains(.alive) else { return false }
        let id = ids[slot]
        return !id.isEmpty && hash(id) == UInt32(truncatingIfNeeded: entry >> 32)
    }

    private var levelsUsed: Int { levels.reduce(0) { $0 + $1.used } }

    /// Puts `entry` in the first level, merging each full level into the
    /// next first (the last into the main table).
    private mutating func addToLevels(_ entry: UInt64) {
        if levels.isEmpty { levels = Self.levelCapacities.map { _ in Buckets() } }
        for k in levels.indices.reversed() where levels[k].used >= Self.levelCapacities[k] {
            merge(level: k)
        }
        if levels[0].entries.isEmpty { levels[0] = Buckets(count: 2 * Self.levelCapacities[0]) }
        levels[0].placeIfAbsent(entry)
    }

    /// Moves level `k`'s entries into the next level or, from the last
    /// level, into the main table in bucket order, each once (an entry the
    /// target holds already is not placed again). Level `k` is left empty.
    /// Stale entries move with the rest (telling them costs a hash each):
    /// the rehash that `stale` calls for drops them.
    private mutating func merge(level k: Int) {
        let from = levels[k]
        levels[k] = Self.emptiedLevel(k)
        if k + 1 < levels.count {
            if levels[k + 1].entries.isEmpty { levels[k + 1] = Buckets(count: 2 * Self.levelCapacities[k + 1]) }
            for e in from.entries where e != 0 { levels[k + 1].placeIfAbsent(e) }
        } else {
            var moved = from.entries.filter { $0 != 0 }
            placeInMain(&moved)
        }
    }

    /// Level `k` once its entries have moved on: empty, and the first still
    /// allocated (`isPublished` reads it).
    private static func emptiedLevel(_ k: Int) -> Buckets {
        k == 0 ? Buckets(count: 2 * levelCapacities[0]) : Buckets()
    }

    /// Moves every level's entries into the main table (`merge`), the
    /// levels left empty (`emptiedLevel`).
    private mutating func mergeLevelsIntoMain() {
        var moved: [UInt64] = []
        for k in levels.indices where levels[k].used > 0 {
            for e in levels[k].entries where e != 0 { moved.append(e) }
            levels[k] = Self.emptiedLevel(k)
        }
        placeInMain(&moved)
    }

    /// Places `moved` in the main table (grown first if need be), in bucket
    /// order, each once.
    private mutating func placeInMain(_ moved: inout [UInt64]) {
        guard !moved.isEmpty else { return }
        let size = mainSize(adding: moved.count)
        if size > main.entries.count { rehash(to: size) }
        Self.sortByBucket(&moved, bits: main.entries.count.trailingZeroBitCount, radix: moved.count >= 256)
        for e in moved { main.placeIfAbsent(e) }
    }

    /// The main table's entries in a table of `size` buckets.
    private mutating func rehash(to size: Int) {
        var fresh = Buckets(count: size)
        for e in main.entries where e != 0 { fresh.placeIfAbsent(e) }
        main = fresh
    }

    /// The live entries of the main table and the levels (emptied) in a
    /// main table of `size` buckets: stale entries dropped (`isLive`).
    private mutating func rehashDroppingStale(
        to size: Int, ids: ChunkedColumn<String>, flags: ChunkedColumn<NodeFlags>
    ) {
        var fresh = Buckets(count: size)
        for e in main.entries where e != 0 && Self.isLive(e, ids: ids, flags: flags) { fresh.placeIfAbsent(e) }
        for k in levels.indices {
            for e in levels[k].entries where e != 0 && Self.isLive(e, ids: ids, flags: flags) {
                fresh.placeIfAbsent(e)
            }
            levels[k] = Buckets()
        }
        main = fresh
        stale = 0
    }

    // MARK: Batches
    //
    // A batch's keys are looked up and placed in the order of their home
    // buckets, so that the table is walked from one end to the other once,
    // rather than at one random bucket per key: in a table larger than the
    // cache, a miss per key was most of what adding a node cost.

    /// A batch's keys in the order of their home buckets in the table as it
    /// will be once they are in: each entry is a key's hash (upper 32 bits)
    /// and its index in the batch (lower), and keys sharing a bucket stay in
    /// the batch's order.
    struct BatchOrder {
        var entries: [UInt64]
        /// The buckets' mask of the table after the batch.
        let mask: Int
    }

    /// `hashes`, a batch's keys' hashes, in bucket order (`BatchOrder`).
    /// The table is not changed: a batch found to be at fault leaves it as
    /// it was.
    ///
    /// - Complexity: O(n): a radix sort on the bucket's bits, 11 at a time;
    ///   a comparison sort for a batch of under 256 keys, where the
    ///   histograms would cost more. Both give the same order.
    func batchOrder(hashes: [UInt32]) -> BatchOrder {
        let size = mainSize(adding: hashes.count)
        var entries = [UInt64](filling: hashes.count) { out, made in
            for k in hashes.indices { out[k] = UInt64(hashes[k]) << 32 | UInt64(k) }
            made = hashes.count
        }
        Self.sortByBucket(&entries, bits: size.trailingZeroBitCount, radix: entries.count >= 256)
        return BatchOrder(entries: entries, mask: size - 1)
    }

    /// Sorts entries (hash and index) by the low `bits` of the hash, then
    /// by index: a stable least-significant-digit radix sort, or a
    /// comparison sort.
    static func sortByBucket(_ entries: inout [UInt64], bits: Int, radix: Bool) {
        guard radix else {
            let mask = (UInt64(1) << UInt64(bits) - 1) << 32 | 0xFFFF_FFFF
            entries.sort { $0 & mask < $1 & mask }
            return
        }
        var other = [UInt64](repeating: 0, count: entries.count)
        var shift = 32
        while shift < 32 + bits {
            // The last digit holds only what is left of the bucket's bits.
            let digits = UInt64(1) << UInt64(Swift.min(11, 32 + bits - shift)) - 1
            var counts = [Int](repeating: 0, count: Int(digits) + 1)
            for v in entries { counts[Int((v >> UInt64(shift)) & digits)] += 1 }
            var sum = 0
            for d in counts.indices {
                let c = counts[d]
                counts[d] = sum
                sum += c
            }
            for v in entries {
                let d = Int((v >> UInt64(shift)) & digits)
                other[counts[d]] = v
                counts[d] += 1
            }
            swap(&entries, &other)
            shift += 11
        }
    }

    /// The first key of a batch (by its index) that is taken: by an entry of
    /// the table, or by a key earlier in the batch. `key(k)` is the batch's
    /// `k`th key; `ids` the tree's column of id strings.
    ///
    /// - Complexity: O(n) probes, in bucket order; a key is read only where
    ///   32 bits of hash agree. The keys of one home bucket are compared
    ///   with each other by hash (a few, with a hash no input chooses).
    func firstTaken(
        in order: BatchOrder, key: (Int) -> String, ids: ChunkedColumn<String>, flags: ChunkedColumn<NodeFlags>
    ) -> Int? {
        let entries = order.entries
        var first = Int.max
        var run = 0
        for r in entries.indices {
            let hash = UInt32(truncatingIfNeeded: entries[r] >> 32), k = Int(entries[r] & 0xFFFF_FFFF)
            // The keys of one bucket are adjacent, in the batch's order: a
            // key the batch repeats is taken by its first.
            if Int(hash) & order.mask != Int(entries[run] >> 32) & order.mask { run = r }
            if k >= first { continue }
            if main.slot(of: key(k), hash: hash, ids: ids, flags: flags) != nil { first = k }
            for e in run ..< r where k < first && entries[e] >> 32 == entries[r] >> 32 {
                if key(Int(entries[e] & 0xFFFF_FFFF)) == key(k) { first = k }
            }
        }
        // The levels are small (and mostly empty): a lookup per key.
        for k in levels.indices where levels[k].used > 0 {
            for entry in entries where Int(entry & 0xFFFF_FFFF) < first {
                let i = Int(entry & 0xFFFF_FFFF)
                let hash = UInt32(truncatingIfNeeded: entry >> 32)
                if levels[k].slot(of: key(i), hash: hash, ids: ids, flags: flags) != nil {
                    first = i
                }
            }
        }
        return first == Int.max ? nil : first
    }

    /// Adds a batch's entries to the main table, growing it first: each
    /// key of `order` at `slot(k)`. None may be taken (`firstTaken`).
    mutating func insert(_ order: BatchOrder, slot: (Int) -> Int32) {
        let size = mainSize(adding: order.entries.count)
        if size > main.entries.count { rehash(to: size) }
        for entry in order.entries {
            let k = Int(entry & 0xFFFF_FFFF)
            main.placeIfAbsent(entry & 0xFFFF_FFFF_0000_0000 | UInt64(UInt32(slot(k)) + 1))
        }
        count += order.entries.count
    }

    /// The main table's buckets once it holds `n` more entries.
    private func mainSize(adding n: Int) -> Int {
        Swift.max(main.entries.count, Self.bucketCount(for: main.used + n))
    }

    /// The number of buckets of the main table (for tests).
    var bucketCount: Int { main.entries.count }

    /// The entries held by levels, live or stale (for tests).
    var entriesInLevels: Int { levelsUsed }

    /// The entries removed and left stale since the last rehash (for tests).
    var staleEntries: Int { stale }

    /// The main table's chunks shared with `other`'s, and its chunks (for
    /// tests: what updates under a snapshot copied of it).
    func sharedMainChunks(with other: IDTable) -> (shared: Int, of: Int) {
        main.entries.sharedChunks(with: other.main.entries)
    }

    /// Buckets for `n` entries: a power of two, at least twice `n`.
    private static func bucketCount(for n: Int) -> Int {
        n == 0 ? 0 : max(16, (2 * n - 1).nextPowerOfTwo)
    }
}

/// One open-addressing table of `IDTable` entries: `entries.count` buckets
/// (a power of two, or none), `used` of them taken by live or stale
/// entries.
private struct Buckets {
    var entries = ChunkedColumn<UInt64>()
    var used = 0

    init() {}

    /// `n` empty buckets.
    init(count n: Int) { entries = ChunkedColumn(repeating: 0, count: n) }

    /// The slot of `key` (of hash `hash`), if an entry holds it, the
    /// slot's id is `key` and a node holds the slot.
    @inline(__always)
    func slot(of key: String, hash: UInt32, ids: ChunkedColumn<String>, flags: ChunkedColumn<NodeFlags>) -> Int32? {
        guard !entries.isEmpty else { return nil }
        let mask = entries.count - 1
        var b = Int(hash) & mask
        while true {
            let e = entries[b]
            if e == 0 { return nil }
            if UInt32(truncatingIfNeeded: e >> 32) == hash {
                let slot = Int(UInt32(truncatingIfNeeded: e)) - 1
                if slot < ids.count && ids[slot] == key && flags[slot].contains(.alive) { return Int32(slot) }
            }
            b = (b + 1) & mask
        }
    }

    /// The bucket holding `entry` (`held`), or else the empty bucket at the
    /// end of its run (there must be one): the one walk that placing,
    /// finding and removing an entry share.
    @inline(__always)
    func find(_ entry: UInt64) -> (bucket: Int, held: Bool) {
        let mask = entries.count - 1
        var b = Int(entry >> 32) & mask
        while true {
            let e = entries[b]
            if e == entry { return (b, true) }
            if e == 0 { return (b, false) }
            b = (b + 1) & mask
        }
    }

    /// Adds `entry` unless it is held (room must be left).
    mutating func placeIfAbsent(_ entry: UInt64) {
        let (b, held) = find(entry)
        guard !held else { return }
        entries[b] = entry
        used += 1
    }

    /// The bucket holding `entry`, if any.
    func bucket(of entry: UInt64) -> Int? {
        guard !entries.isEmpty else { return nil }
        let (b, held) = find(entry)
        return held ? b : nil
    }

    /// Empties bucket `b`, shifting its run back over it.
    mutating func remove(at b: Int) {
        let mask = entries.count - 1
        entries.removeProbed(at: b, empty: 0, isEmpty: { $0 == 0 }, home: { Int($0 >> 32) & mask })
        used -= 1
    }
}

extension Int {
    /// The least power of two at or above a positive value.
    fileprivate var nextPowerOfTwo: Int { self <= 1 ? 1 : 1 << (Int.bitWidth - (self - 1).leadingZeroBitCount) }
}
