/// Looks up a fixed set of names from raw UTF-8 bytes without building a
/// `String`: the reader matches every key of every node against it, so the
/// lookup must neither allocate nor retain.
///
/// The names' bytes are stored back to back, grouped by length; a lookup
/// compares against the few names of the same length. O(length of the name)
/// per lookup.
struct KeyTable<Value: Sendable>: Sendable {
    private struct Entry: Sendable {
        let offset: Int
        let value: Value
    }

    /// Every name's bytes, shortest names first.
    private let names: [UInt8]
    /// One per name, in the order of `names`.
    private let entries: [Entry]
    /// The names of length n are `entries[starts[n] ..< starts[n + 1]]`.
    private let starts: [Int]

    /// A table of `list` (names are unique).
    init(_ list: [(String, Value)]) {
        let sorted = list.sorted { $0.0.utf8.count < $1.0.utf8.count }
        let longest = sorted.last?.0.utf8.count ?? 0
        var names: [UInt8] = []
        var entries: [Entry] = []
        for (name, value) in sorted {
            entries.append(Entry(offset: names.count, value: value))
            names.append(contentsOf: name.utf8)
        }
        var starts: [Int] = []
        var k = 0
        for n in 0...(longest + 1) {
            while k < sorted.count && sorted[k].0.utf8.count < n { k += 1 }
            starts.append(k)
        }
        self.names = names
        self.entries = entries
        self.starts = starts
    }

    /// The value whose name is exactly `text`, or nil.
    @inline(__always)
    func lookup(_ text: UnsafeBufferPointer<UInt8>) -> Value? {
        let n = text.count
        guard n + 1 < starts.count else { return nil }
        let first = starts[n], end = starts[n + 1]
        guard first < end else { return nil }
        return names.withUnsafeBufferPointer { b -> Value? in
            var e = first
            while e < end {
                let offset = entries[e].offset
                var i = n - 1
                // From the end: names sharing a prefix (accessibility…) differ late.
                while i >= 0 && b[offset + i] == text[i] { i -= 1 }
                if i < 0 { return entries[e].value }
                e += 1
            }
            return nil
        }
    }
}
