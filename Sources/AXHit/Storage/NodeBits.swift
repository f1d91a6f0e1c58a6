/// One bit per node slot, 1/8 byte a node: small enough to stay in cache
/// when the nodes' records don't. Its words are a `ChunkedColumn`, so a
/// snapshot shares them chunk by chunk.
struct NodeBits: Sendable {
    private var words = ChunkedColumn<UInt64>()

    /// Room for slots `0 ..< count` (new bits clear).
    mutating func grow(to count: Int) {
        let needed = (count + 63) >> 6
        if words.count < needed { words.append(repeating: 0, count: needed - words.count) }
    }

    subscript(_ i: Int) -> Bool {
        @inline(__always) get { words[i >> 6] & Self.mask(i) != 0 }
        set {
            if newValue { words[i >> 6] |= Self.mask(i) } else { words[i >> 6] &= ~Self.mask(i) }
        }
    }

    /// Calls `body` with a view that reads bits without bounds checks or
    /// reference counting (for query loops).
    @inline(__always)
    func withView<R>(_ body: (View) -> R) -> R {
        words.withView { body(View(words: $0)) }
    }

    /// `NodeBits` read through its words' view.
    struct View {
        let words: ChunkedColumn<UInt64>.View

        /// Bit `i`.
        @inline(__always)
        func test(_ i: Int) -> Bool { words[i >> 6] & NodeBits.mask(i) != 0 }
    }

    /// Calls `body` with a writer for a run of writes
    /// (`ChunkedColumn.withWriter`).
    mutating func withWriter<R>(_ body: (inout Writer) -> R) -> R {
        words.withWriter { words in
            var writer = Writer(words: words)
            return body(&writer)
        }
    }

    /// Writes bits through its words' writer.
    struct Writer {
        fileprivate var words: ChunkedColumn<UInt64>.Writer

        subscript(_ i: Int) -> Bool {
            @available(*, unavailable) get { fatalError() }
            @inline(__always) set {
                if newValue { words[i >> 6] |= NodeBits.mask(i) } else { words[i >> 6] &= ~NodeBits.mask(i) }
            }
        }
    }

    @inline(__always)
    fileprivate static func mask(_ i: Int) -> UInt64 { 1 << UInt64(i & 63) }

    /// Bytes held.
    var memoryBytes: Int { words.memoryBytes }
}
