/// Looks up a fixed set of names from raw UTF-8 bytes without building a
/// `String`: the reader matches every key of every node against it, so the
/// lookup must not allocate.
///
/// Names are bucketed by byte length; a lookup compares against the few
/// names of the same length. O(length of the name) per lookup.
struct KeyTable<Value: Sendable>: Sendable {
    private var buckets: [[(bytes: [UInt8], value: Value)]] = []

    /// A table of `entries` (names are unique).
    init(_ entries: [(String, Value)]) {
        for (name, value) in entries {
            let b = Array(name.utf8)
            while buckets.count <= b.count { buckets.append([]) }
            buckets[b.count].append((b, value))
        }
    }

    /// The value whose name is exactly `text`, or nil.
    @inline(__always)
    func lookup(_ text: UnsafeBufferPointer<UInt8>) -> Value? {
        guard text.count < buckets.count else { return nil }
        for entry in buckets[text.count] where Self.equal(entry.bytes, text) {
            return entry.value
        }
        return nil
    }

    @inline(__always)
    private static func equal(_ a: [UInt8], _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var k = a.count - 1
        // Compare from the end: names sharing a prefix (accessibility…) differ late.
        while k >= 0 {
            if a[k] != b[k] { return false }
            k -= 1
        }
        return true
    }
}
