/// Looks up a fixed set of names from raw UTF-8 bytes without building a
/// `String`: the reader matches every key of every node against it, so the
/// lookup must neither allocate nor retain.
///
/// Open addressing over a table at least 4x the names: the slot of a name is
/// a multiplicative hash of its length and three of its bytes (first,
/// middle, last), with a multiplier chosen at init so that, if possible, no
/// two names share a slot. A lookup then hashes once and compares one
/// candidate (names that hash alike, if any, sit in the next slots).
///
/// A class (immutable): passing a table around is one reference, not three
/// arrays to retain.
final class KeyTable<Value: Sendable>: Sendable {
    private struct Entry: Sendable {
        let offset: Int
        let count: Int
        let value: Value
    }

    /// Every name's bytes, back to back.
    private let names: [UInt8]
    private let entries: [Entry]
    /// Per slot: an index into `entries`, or -1 (at least 3/4 of them).
    private let slots: [Int32]
    private let multiplier: UInt32
    private let shift: UInt32

    /// A table of `list` (names are unique).
    init(_ list: [(String, Value)]) {
        var names: [UInt8] = []
        var entries: [Entry] = []
        for (name, value) in list {
            entries.append(Entry(offset: names.count, count: name.utf8.count, value: value))
            names.append(contentsOf: name.utf8)
        }
        let keys = list.map { Self.key(Array($0.0.utf8)) }
        var bits: UInt32 = 3
        while (1 << bits) < 4 * list.count { bits += 1 }
        let shift = 32 - bits
        // Deterministic search for a multiplier without collisions; a few
        // dozen names find one in a handful of tries. If none does (two
        // names alike in length and the bytes hashed), the last one tried
        // serves, with probing.
        var state: UInt64 = 0x5EED
        var multiplier: UInt32 = 1
        for _ in 0 ..< 1024 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            multiplier = UInt32(truncatingIfNeeded: z ^ (z >> 31)) | 1
            var used = Set<UInt32>()
            if keys.allSatisfy({ used.insert(($0 &* multiplier) >> shift).inserted }) { break }
        }
        var slots = [Int32](repeating: -1, count: 1 << bits)
        let mask = slots.count - 1
        for (k, key) in keys.enumerated() {
            var slot = Int((key &* multiplier) >> shift)
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(k)
        }
        self.names = names
        self.entries = entries
        self.slots = slots
        self.multiplier = multiplier
        self.shift = shift
    }

    /// What the hash sees of a name: its length and first, middle and last
    /// bytes, mixed so that each lands in different bits.
    @inline(__always)
    private static func key(_ text: UnsafeBufferPointer<UInt8>) -> UInt32 {
        let n = text.count
        guard n > 0 else { return 0 }
        let a = UInt32(text[0]), b = UInt32(text[n >> 1]), c = UInt32(text[n - 1])
        return (UInt32(truncatingIfNeeded: n) &* 0x2F0B_3A49) ^ (a &* 0x0100_0193) ^ (b << 8) ^ (c << 16)
            ^ (c &* 0x9E37)
    }

    private static func key(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { key($0) }
    }

    /// Whether `count` bytes at `a` and `b` are equal: 8 at a time, then the tail.
    @inline(__always)
    private static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool {
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
        var i = 0
        while i &+ 8 <= count {
            if ra.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                != rb.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            {
                return false
            }
            i &+= 8
        }
        while i < count {
            if a[i] != b[i] { return false }
            i &+= 1
        }
        return true
    }

    /// The value whose name is exactly `text`, or nil.
    @inline(__always)
    func lookup(_ text: UnsafeBufferPointer<UInt8>) -> Value? {
        let mask = slots.count - 1
        var slot = Int((Self.key(text) &* multiplier) >> shift)
        return names.withUnsafeBufferPointer { b -> Value? in
            while true {
                let e = Int(slots[slot])
                if e < 0 { return nil }
                let entry = entries[e]
                if entry.count == text.count {
                    if entry.count == 0 { return entry.value }
                    if let nb = b.baseAddress, let tb = text.baseAddress,
                        Self.equal(nb + entry.offset, tb, count: entry.count)
                    {
                        return entry.value
                    }
                }
                slot = (slot + 1) & mask
            }
        }
    }
}
