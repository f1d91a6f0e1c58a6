import Foundation

/// Many winding regions (`WindingRecord`s) keyed by small integers, packed
/// back to back in a few large buffers instead of several arrays each. A
/// point test reads the key's slot and entry (a copy of the record's summary:
/// a settled grid, one 128-byte line pair), which answer most points; only a point
/// near the rings reads the record too (its header, then its stripe's
/// points). No reference count is touched.
///
/// A value type: a copy shares the buffers until one side changes, and then
/// copies only the buffer it appends to, not every region. Replaced and
/// removed records are left as dead words until they outweigh the live ones;
/// then everything is repacked.
package struct WindingRegionStore: Sendable {
    /// One region: pointers to its summary and its record in the store's
    /// buffers. Valid only while the store it came from is alive and
    /// unchanged, as during a query; not to be kept.
    package struct Region {
        @usableFromInline let summary: UnsafePointer<Double>
        @usableFromInline let record: UnsafePointer<Double>

        @inlinable init(summary: UnsafePointer<Double>, record: UnsafePointer<Double>) {
            self.summary = summary
            self.record = record
        }

        /// Whether `p` is filled, exactly as `WindingRegion.contains`.
        @inlinable @inline(__always)
        package func contains(_ p: CGPoint) -> Bool {
            WindingRecord.contains(summary: summary, record: record, x: Double(p.x), y: Double(p.y))
        }

        /// The tag the record was made with.
        @inlinable @inline(__always)
        package var tag: Bool { summary[2].bitPattern & (1 << 33) != 0 }
    }

    /// Per key: its entry's number, or `none`. Four bytes per key once any
    /// key has a region; empty until then (a screen without paths keeps
    /// none), and every key past its end has none.
    @usableFromInline var slots: [UInt32] = []
    /// The keys the store takes: `0 ..< capacity`.
    private var capacity: Int
    /// Per entry, `summaryWords` words (one line pair): a copy of the
    /// record's summary (its settled grid answers most points without the
    /// record), the low half of word 2 holding the record's place (`place`).
    /// Dense, so that the summaries of a screen's paths stay close.
    var entries = Chunk(capacity: 0)
    @usableFromInline nonisolated(unsafe) var entryBase: UnsafeMutablePointer<Double>
    private var freeEntries: [UInt32] = []

    /// The buffers, and their base addresses apart (read by every query;
    /// `bases[c] == chunks[c].words`). Unsafe: the pointers are only read,
    /// and the words they reach change only as `Chunk` says.
    var chunks: [Chunk] = []
    @usableFromInline nonisolated(unsafe) var bases: [UnsafeMutablePointer<Double>] = []
    /// Words of the live records (a record holds two per vertex, plus its summary and index).
    package private(set) var liveWords = 0
    private var deadWords = 0

    @usableFromInline static let none = UInt32.max
    @usableFromInline static let offsetBits: UInt32 = 18
    /// Records start below this word offset in their chunk (a record longer
    /// than that gets a chunk of its own, at offset 0).
    static let maxChunkWords = 8 << 18
    /// The first chunk's size.
    static let smallChunkWords = 1 << 12
    static let maxChunks = 1 << (32 - 18)

    /// Words allocated once and never moved, so that a `Region` can point
    /// into them; freed with the last store that holds them. Aligned to
    /// 128 bytes, so that records (padded to 128 bytes) start line pairs.
    final class Chunk: @unchecked Sendable {
        // Unchecked: `count` and the words past it change only through a
        // store that holds the sole reference (checked before writing).
        let words: UnsafeMutablePointer<Double>
        let capacity: Int
        private(set) var count = 0

        init(capacity: Int) {
            let bytes = max(capacity, 16) * MemoryLayout<Double>.stride
            var raw: UnsafeMutableRawPointer?
            precondition(posix_memalign(&raw, 128, bytes) == 0 && raw != nil, "WindingRegionStore: out of memory")
            self.capacity = max(capacity, 16)
            words = raw!.bindMemory(to: Double.self, capacity: self.capacity)
        }

        /// The next `length` words, for the caller to initialize.
        func extend(by length: Int) -> UnsafeMutablePointer<Double> {
            precondition(count + length <= capacity)
            count += length
            return words + (count - length)
        }

        func copy() -> Chunk {
            let c = Chunk(capacity: capacity)
            c.extend(by: count).initialize(from: words, count: count)
            return c
        }

        deinit { free(words) }
    }

    /// An empty store for keys `0 ..< capacity`.
    package init(capacity: Int) {
        self.capacity = capacity
        entryBase = entries.words
    }

    /// Makes room for keys `0 ..< capacity`.
    package mutating func grow(to capacity: Int) {
        guard self.capacity < capacity else { return }
        self.capacity = capacity
        if !slots.isEmpty { slots.append(contentsOf: repeatElement(Self.none, count: capacity - slots.count)) }
    }

    /// The region of `key`, or nil when it has none. O(1); no allocation.
    @inlinable @inline(__always)
    package func region(_ key: Int) -> Region? {
        guard key < slots.count else { return nil }
        let k = slots[key]
        guard k != Self.none else { return nil }
        let summary = entryBase + Int(k) * WindingRecord.summaryWords
        let place = UInt32(truncatingIfNeeded: summary[2].bitPattern)
        return Region(
            summary: summary,
            record: bases[Int(place >> Self.offsetBits)] + Int(place & (1 << Self.offsetBits - 1)) << 3)
    }

    /// Bytes held by the buffers (live and dead records) and the slots.
    package var memoryBytes: Int {
        (chunks.reduce(0) { $0 + $1.capacity } + entries.capacity) * MemoryLayout<Double>.stride
            + slots.count * MemoryLayout<UInt32>.stride + bases.count * 16 + freeEntries.capacity * 4
    }

    /// Sets `key` to the region of `record` (a `WindingRecord`), or clears it.
    package mutating func set(_ key: Int, _ record: [Double]?) {
        release(key)
        guard let record else { return }
        let (k, target) = add(key, length: record.count)
        record.withUnsafeBufferPointer { r in
            Self.copy(r, to: target, summary: entryBase + k * WindingRecord.summaryWords)
        }
        compactIfWasteful()
    }

    /// Sets every `keys[i]` to `records[i]` (`WindingRecord`s), copying them
    /// in on all cores: the copy is what first touches fresh pages, and the
    /// kernel's zeroing of them then runs on every core too.
    package mutating func set(_ keys: [Int], _ records: [[Double]]) {
        for key in keys { release(key) }
        // Room for each record first (serial, cheap; entries may move until
        // the last is added, records never), then the copies.
        nonisolated(unsafe) let targets = zip(keys, records).map { add($0, length: $1.count) }
        nonisolated(unsafe) let entryBase = entryBase
        _ = parallelMap(records.count, minimumChunk: 64, makeWorker: {}) { _, i in
            records[i].withUnsafeBufferPointer {
                Self.copy($0, to: targets[i].record, summary: entryBase + targets[i].entry * WindingRecord.summaryWords)
            }
        }
        compactIfWasteful()
    }

    /// Copies a record to its place and its summary to its entry, keeping
    /// the entry's place.
    private static func copy(
        _ record: UnsafeBufferPointer<Double>, to target: UnsafeMutablePointer<Double>,
        summary: UnsafeMutablePointer<Double>
    ) {
        target.initialize(from: record.baseAddress!, count: record.count)
        let s = record.baseAddress! + (record.count - WindingRecord.summaryWords)
        let place = summary[2].bitPattern & 0xffff_ffff
        summary.update(from: s, count: WindingRecord.summaryWords)
        summary[2] = Double(bitPattern: summary[2].bitPattern & ~0xffff_ffff | place)
    }

    /// A new entry for `key` and room for its record of `length` words: the
    /// entry's number (its place set, the rest for the caller; `entryBase`
    /// may change with the next) and the record's words.
    private mutating func add(_ key: Int, length: Int) -> (entry: Int, record: UnsafeMutablePointer<Double>) {
        precondition(key >= 0 && key < capacity, "WindingRegionStore: a key out of range")
        if slots.isEmpty { slots = Array(repeating: Self.none, count: capacity) }
        let (place, words) = reserve(length)
        let n = WindingRecord.summaryWords
        uniqueEntries(room: n)
        let k: Int
        if let free = freeEntries.popLast() {
            k = Int(free)
        } else {
            k = entries.count / n
            _ = entries.extend(by: n)
        }
        let summary = entryBase + k * n
        summary.update(repeating: 0, count: n)
        summary[2] = Double(bitPattern: UInt64(place))
        slots[key] = UInt32(k)
        return (k, words)
    }

    /// Makes `entries` this store's own, with room for `room` more words.
    private mutating func uniqueEntries(room: Int) {
        let full = entries.count + room > entries.capacity
        guard full || !isKnownUniquelyReferenced(&entries) else { return }
        let bigger = Chunk(
            capacity: full ? max(2 * entries.capacity, 64 * WindingRecord.summaryWords) : entries.capacity)
        bigger.extend(by: entries.count).initialize(from: entries.words, count: entries.count)
        entries = bigger
        entryBase = bigger.words
    }

    private static func place(chunk: Int, offset: Int) -> UInt32 {
        UInt32(chunk) << offsetBits | UInt32(offset >> 3)
    }

    private func record(at place: UInt32) -> UnsafeMutablePointer<Double> {
        bases[Int(place >> Self.offsetBits)] + Int(place & (1 << Self.offsetBits - 1)) << 3
    }

    private func place(ofEntry k: UInt32) -> UInt32 {
        UInt32(truncatingIfNeeded: entryBase[Int(k) * WindingRecord.summaryWords + 2].bitPattern)
    }

    /// Clears `key`, counting its record as dead and freeing its entry.
    private mutating func release(_ key: Int) {
        guard key < slots.count else { return }
        let k = slots[key]
        guard k != Self.none else { return }
        let length = WindingRecord.length(record(at: place(ofEntry: k)))
        liveWords -= length
        deadWords += length
        freeEntries.append(k)
        slots[key] = Self.none
    }

    /// Room for a record of `length` words at the end of the last chunk, or
    /// of a new one twice the size of the last (up to `maxChunkWords`): few
    /// chunks, and little unused room for a screen with few paths. The
    /// caller initializes the words.
    private mutating func reserve(_ length: Int) -> (UInt32, UnsafeMutablePointer<Double>) {
        let last = chunks.count - 1
        liveWords += length
        if last >= 0, chunks[last].count + length <= min(chunks[last].capacity, Self.maxChunkWords) {
            // Another store (a copy) shares the chunk: append to a copy of it.
            if !isKnownUniquelyReferenced(&chunks[last]) {
                chunks[last] = chunks[last].copy()
                bases[last] = chunks[last].words
            }
            let place = Self.place(chunk: last, offset: chunks[last].count)
            return (place, chunks[last].extend(by: length))
        }
        let size = min(Self.maxChunkWords, max(Self.smallChunkWords, 2 * (chunks.last?.capacity ?? 0)))
        let chunk = Chunk(capacity: max(length, size))
        precondition(
            chunks.count < Self.maxChunks, "WindingRegionStore: more than \(Self.maxChunks) chunks of live regions")
        chunks.append(chunk)
        bases.append(chunk.words)
        return (Self.place(chunk: chunks.count - 1, offset: 0), chunk.extend(by: length))
    }

    private mutating func compactIfWasteful() {
        if deadWords > liveWords && deadWords >= Self.smallChunkWords { compact() }
    }

    /// Repacks the live records into full chunks, in key order, and points
    /// their entries at the new places. O(live words).
    mutating func compact() {
        let old = self
        chunks = []
        bases = []
        liveWords = 0
        deadWords = 0
        uniqueEntries(room: 0)
        for key in slots.indices where slots[key] != Self.none {
            let k = Int(slots[key])
            let r = old.record(at: old.place(ofEntry: UInt32(k)))
            let length = WindingRecord.length(r)
            let (place, words) = reserve(length)
            words.initialize(from: r, count: length)
            let word = entryBase + k * WindingRecord.summaryWords + 2
            word.pointee = Double(bitPattern: word.pointee.bitPattern & ~0xffff_ffff | UInt64(place))
        }
        withExtendedLifetime(old) {}
    }
}
