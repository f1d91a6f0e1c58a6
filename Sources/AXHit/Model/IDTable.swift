/// The tree's index from `id` strings to slots: an open-addressing hash
/// table of 8-byte entries, the strings themselves left in the tree's `ids`
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
/// - **Cost:** one hash per lookup, insert or removal, and a probe along a
///   run of used buckets (linear probing; removals shift the run back, so
///   there are no tombstones); a string comparison only where 32 bits of
///   hash agree.
/// - **Limits:** slots below 2^31 (the tree's `Int32` slots), buckets up to
///   2^32 (the stored hash places an entry).
struct IDTable: Sendable {
    private var buckets = ChunkedColumn<UInt64>()
    /// Entries in use.
    private(set) var count = 0

    /// A key's hash, computed once per operation.
    @inline(__always)
    static func hash(_ key: String) -> UInt32 {
        UInt32(truncatingIfNeeded: UInt64(bitPattern: Int64(key.hashValue)) >> 32)
    }

    /// Makes room for `n` entries without growing.
    mutating func reserveCapacity(_ n: Int) {
        if Self.bucketCount(for: n) > buckets.count { rehash(to: Self.bucketCount(for: n)) }
    }

    /// The slot of `key`, whose hash is `hash`, if an entry holds it; `ids`
    /// is the tree's column of id strings.
    @inline(__always)
    func slot(of key: String, hash: UInt32, ids: ChunkedColumn<String>) -> Int32? {
        guard !buckets.isEmpty else { return nil }
        let mask = buckets.count - 1
        var b = Int(hash) & mask
        while true {
            let e = buckets[b]
            if e == 0 { return nil }
            if UInt32(truncatingIfNeeded: e >> 32) == hash {
                let slot = Int32(truncatingIfNeeded: e & 0xFFFF_FFFF) - 1
                if ids[Int(slot)] == key { return slot }
            }
            b = (b + 1) & mask
        }
    }

    /// Asks memory for the bucket where a key of hash `hash` is looked up
    /// first, without waiting: a reader that learns a node's id well
    /// before it adds the node hashes the id then (once: the hash goes
    /// with the node to `ElementTree.add`), so that the bucket's miss
    /// overlaps the reading of the node's other properties.
    func prefetch(hash: UInt32) {
        guard !buckets.isEmpty else { return }
        buckets.prefetch(Int(hash) & (buckets.count - 1))
    }

    /// Adds an entry for a key (whose hash is `hash`) at `slot`. The key
    /// must not be in the table: look it up first.
    mutating func insert(hash: UInt32, slot: Int32) {
        if Self.bucketCount(for: count + 1) > buckets.count { rehash(to: Self.bucketCount(for: count + 1)) }
        place(UInt64(hash) << 32 | UInt64(UInt32(slot) + 1))
        count += 1
    }

    /// Removes the entry of `slot`, whose key hashes to `hash`, if any.
    mutating func remove(hash: UInt32, slot: Int32) {
        guard !buckets.isEmpty else { return }
        let mask = buckets.count - 1
        let entry = UInt64(hash) << 32 | UInt64(UInt32(slot) + 1)
        var b = Int(hash) & mask
        while buckets[b] != entry {
            if buckets[b] == 0 { return }
            b = (b + 1) & mask
        }
        buckets.removeProbed(at: b, empty: 0, isEmpty: { $0 == 0 }, home: { Int($0 >> 32) & mask })
        count -= 1
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
        let size = Swift.max(buckets.count, Self.bucketCount(for: count + hashes.count))
        var entries = [UInt64](unsafeUninitializedCapacity: hashes.count) { out, made in
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
    func firstTaken(in order: BatchOrder, key: (Int) -> String, ids: ChunkedColumn<String>) -> Int? {
        let entries = order.entries
        let mask = buckets.count - 1
        var first = Int.max
        var run = 0
        for r in entries.indices {
            let hash = UInt32(truncatingIfNeeded: entries[r] >> 32), k = Int(entries[r] & 0xFFFF_FFFF)
            // The keys of one bucket are adjacent, in the batch's order: a
            // key the batch repeats is taken by its first.
            if Int(hash) & order.mask != Int(entries[run] >> 32) & order.mask { run = r }
            if k >= first { continue }
            if !buckets.isEmpty {
                var b = Int(hash) & mask
                while buckets[b] != 0 {
                    let e = buckets[b]
                    if UInt32(truncatingIfNeeded: e >> 32) == hash
                        && ids[Int(UInt32(truncatingIfNeeded: e & 0xFFFF_FFFF)) - 1] == key(k)
                    {
                        first = k
                        break
                    }
                    b = (b + 1) & mask
                }
            }
            for e in run ..< r where k < first && entries[e] >> 32 == entries[r] >> 32 {
                if key(Int(entries[e] & 0xFFFF_FFFF)) == key(k) { first = k }
            }
        }
        return first == Int.max ? nil : first
    }

    /// Adds a batch's entries, growing the table first: each key of `order`
    /// at `slot(k)`. None may be taken (`firstTaken`).
    mutating func insert(_ order: BatchOrder, slot: (Int) -> Int32) {
        reserveCapacity(count + order.entries.count)
        for entry in order.entries {
            let k = Int(entry & 0xFFFF_FFFF)
            place(entry & 0xFFFF_FFFF_0000_0000 | UInt64(UInt32(slot(k)) + 1))
        }
        count += order.entries.count
    }

    /// The number of buckets (for tests).
    var bucketCount: Int { buckets.count }

    /// Buckets for `n` entries: a power of two, at least twice `n`.
    private static func bucketCount(for n: Int) -> Int {
        n == 0 ? 0 : max(16, (2 * n - 1).nextPowerOfTwo)
    }

    private mutating func place(_ entry: UInt64) {
        let mask = buckets.count - 1
        var b = Int(entry >> 32) & mask
        while buckets[b] != 0 { b = (b + 1) & mask }
        buckets[b] = entry
    }

    private mutating func rehash(to size: Int) {
        let old = buckets
        buckets = ChunkedColumn(repeating: 0, count: size)
        for e in old where e != 0 { place(e) }
    }
}

extension Int {
    /// The least power of two at or above a positive value.
    fileprivate var nextPowerOfTwo: Int { self <= 1 ? 1 : 1 << (Int.bitWidth - (self - 1).leadingZeroBitCount) }
}
