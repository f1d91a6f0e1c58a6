/// One bit per node slot, 1/8 byte a node: small enough to stay in cache
/// when the nodes' records don't.
struct NodeBits: Sendable {
    private var words: [UInt64] = []

    /// Room for slots `0 ..< count` (new bits clear).
    mutating func grow(to count: Int) {
        let needed = (count + 63) >> 6
        if words.count < needed { words.append(contentsOf: repeatElement(0, count: needed - words.count)) }
    }

    subscript(_ i: Int) -> Bool {
        get { words.withUnsafeBufferPointer { Self.test($0, i) } }
        set { words.withUnsafeMutableBufferPointer { Self.set($0, i, newValue) } }
    }

    /// The words, for a query that reads bits with no copy of the array.
    func withUnsafeWords<R>(_ body: (UnsafeBufferPointer<UInt64>) -> R) -> R {
        words.withUnsafeBufferPointer(body)
    }

    /// The words, for a walk that writes bits through a pointer.
    mutating func withUnsafeMutableWords<R>(_ body: (UnsafeMutableBufferPointer<UInt64>) -> R) -> R {
        words.withUnsafeMutableBufferPointer { body($0) }
    }

    /// Bit `i` of `words`.
    @inline(__always)
    static func test(_ words: UnsafeBufferPointer<UInt64>, _ i: Int) -> Bool {
        words[i >> 6] & mask(i) != 0
    }

    /// Sets bit `i` of `words` to `value`.
    @inline(__always)
    static func set(_ words: UnsafeMutableBufferPointer<UInt64>, _ i: Int, _ value: Bool) {
        if value { words[i >> 6] |= mask(i) } else { words[i >> 6] &= ~mask(i) }
    }

    @inline(__always)
    private static func mask(_ i: Int) -> UInt64 { 1 << UInt64(i & 63) }

    /// Bytes held.
    var memoryBytes: Int { words.count * MemoryLayout<UInt64>.stride }
}
