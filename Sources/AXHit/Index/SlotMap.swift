/// A map from node slots to small values: open addressing in a
/// `ChunkedColumn`, so that under a snapshot a write copies the chunk it
/// lands in, not the map (a `Dictionary` shared with a snapshot is copied
/// whole by its first write: the children added to a wide view since its
/// index was built made each insert under a snapshot O(their number)).
///
/// - **Space:** one entry (the slot + 1, 0 for an empty bucket, and the
///   value) per bucket, at most half the buckets used.
/// - **Hash:** a multiplication by a 64-bit odd constant (Fibonacci
///   hashing): slots are the engine's, dense and not chosen by input.
/// - **Cost:** O(1) expected per lookup, write or removal: a probe along a
///   run of used buckets (linear probing; a removal shifts the run back,
///   so there are no tombstones). Growth doubles the buckets, O(count).
/// - **Limits:** slots from 0 to `Int32.max`.
struct SlotMap<Value: Sendable>: Sendable {
    private struct Entry {
        /// The slot + 1; 0 for an empty bucket.
        var key: UInt32
        var value: Value
    }

    /// None until the first entry: most wide views never get one, and an
    /// empty column still allocates its table.
    private var buckets: ChunkedColumn<Entry>?
    private let filler: Value
    /// Entries in use.
    private(set) var count = 0

    /// An empty map; `filler` is the value empty buckets hold.
    init(filler: Value) {
        self.filler = filler
    }

    /// The home bucket of `key` among `size` (a power of two) buckets.
    @inline(__always)
    private static func home(_ key: UInt32, _ size: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> 32) & (size - 1)
    }

    /// The bucket holding `slot`'s entry, if any (none for a negative
    /// slot, such as `NodeID.none`'s, whose key would be an empty bucket's).
    @inline(__always)
    private func bucket(of slot: Int32) -> Int? {
        guard count > 0, slot >= 0, let buckets else { return nil }
        let key = UInt32(bitPattern: slot) &+ 1, mask = buckets.count - 1
        var b = Self.home(key, buckets.count)
        while true {
            let k = buckets[b].key
            if k == key { return b }
            if k == 0 { return nil }
            b = (b + 1) & mask
        }
    }

    /// The value of `slot`, or nil.
    subscript(slot: Int32) -> Value? {
        bucket(of: slot).map { buckets.unsafelyUnwrapped[$0].value }
    }

    /// Stores `value` for `slot`, replacing any.
    mutating func set(_ slot: Int32, _ value: Value) {
        precondition(slot >= 0, "SlotMap: a negative slot")
        if let b = bucket(of: slot) {
            buckets![b].value = value
            return
        }
        if 2 * (count + 1) > (buckets?.count ?? 0) { grow() }
        place(Entry(key: UInt32(bitPattern: slot) &+ 1, value: value))
        count += 1
    }

    /// Removes `slot`'s entry; returns its value, or nil when there was none.
    @discardableResult
    mutating func removeValue(forSlot slot: Int32) -> Value? {
        guard let b = bucket(of: slot) else { return nil }
        let value = buckets![b].value, size = buckets!.count
        buckets!.removeProbed(
            at: b, empty: Entry(key: 0, value: filler), isEmpty: { $0.key == 0 }, home: { Self.home($0.key, size) })
        count -= 1
        return value
    }

    /// Memory held, in bytes.
    var memoryBytes: Int { buckets?.memoryBytes ?? 0 }

    /// The chunks of buckets this map shares with `other`, and its chunks
    /// in all (for tests: what a write since a copy left shared).
    func sharedChunks(with other: SlotMap) -> (shared: Int, of: Int) {
        guard let buckets else { return (0, 0) }
        return buckets.sharedChunks(with: other.buckets ?? ChunkedColumn())
    }

    /// Puts `entry` in the first free bucket from its home (there is one:
    /// at most half are used).
    private static func place(_ entry: Entry, in buckets: inout ChunkedColumn<Entry>) {
        let mask = buckets.count - 1
        var b = home(entry.key, buckets.count)
        while buckets[b].key != 0 { b = (b + 1) & mask }
        buckets[b] = entry
    }

    private mutating func place(_ entry: Entry) { Self.place(entry, in: &buckets!) }

    private mutating func grow() {
        let old = buckets
        var grown = ChunkedColumn(repeating: Entry(key: 0, value: filler), count: Swift.max(16, 2 * (old?.count ?? 0)))
        for e in old ?? ChunkedColumn() where e.key != 0 { Self.place(e, in: &grown) }
        buckets = grown
    }
}
