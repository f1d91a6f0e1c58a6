/// One bit per node slot, 1/8 byte a node: small enough to stay in cache
/// when the nodes' records don't.
struct NodeBits: Sendable {
    private var words: [UInt64] = []

    /// Room for slots `0 ..< count` (new bits clear).
    mutating func grow(to count: Int) {
        let needed = (count + 63) >> 6
        if words.count < needed { words.append(contentsOf: repeatElement(0, count: needed - words.count)) }
    }

    @inline(__always)
    subscript(_ i: Int) -> Bool {
        get { words[i >> 6] & (1 << UInt64(i & 63)) != 0 }
        set {
            if newValue { words[i >> 6] |= 1 << UInt64(i & 63) } else { words[i >> 6] &= ~(1 << UInt64(i & 63)) }
        }
    }

    /// The words, for a walk that writes bits through a pointer.
    mutating func withUnsafeMutableWords<R>(_ body: (UnsafeMutableBufferPointer<UInt64>) -> R) -> R {
        words.withUnsafeMutableBufferPointer { body($0) }
    }

    /// The words, for a query that reads bits with no copy of the array.
    func withUnsafeWords<R>(_ body: (UnsafeBufferPointer<UInt64>) -> R) -> R {
        words.withUnsafeBufferPointer(body)
    }

    /// Bit `i` of `words`.
    @inline(__always)
    static func test(_ words: UnsafeBufferPointer<UInt64>, _ i: Int) -> Bool {
        words[i >> 6] & (1 << UInt64(i & 63)) != 0
    }

    /// Sets bit `i` of `words` (as `subscript`'s setter, through a pointer).
    @inline(__always)
    static func set(_ words: UnsafeMutableBufferPointer<UInt64>, _ i: Int, _ value: Bool) {
        if value { words[i >> 6] |= 1 << UInt64(i & 63) } else { words[i >> 6] &= ~(1 << UInt64(i & 63)) }
    }

    /// Bytes held.
    var memoryBytes: Int { words.count * MemoryLayout<UInt64>.stride }
}
