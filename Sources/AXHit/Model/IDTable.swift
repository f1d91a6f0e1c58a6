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
        // Shift the rest of the run back over the hole, each entry that may
        // move (its home is not between the hole and it), so that lookups
        // never meet a gap before their key.
        var hole = b
        var next = (b + 1) & mask
        while buckets[next] != 0 {
            let home = Int(buckets[next] >> 32) & mask
            // Distances along the run, modulo the table.
            if (next - home) & mask >= (next - hole) & mask {
                buckets[hole] = buckets[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        buckets[hole] = 0
        count -= 1
    }

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
