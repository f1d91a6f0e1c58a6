import Foundation

/// Caller-owned working memory for queries, so that a query allocates
/// nothing once the arrays have grown to the tree's needs. One per thread.
public struct HitScratch: Sendable {
    /// What a query does with an entry when it pops it.
    enum Step: UInt8, Sendable {
        /// Search the node: test it, or its children when it is not an
        /// exposed element that hides them.
        case visit
        /// The node is the answer with no further test: a box hit
        /// (`HitTester.boxHits`) whose box holds the point with room to
        /// spare.
        case answer
        /// Test the node's own region, its children having answered nothing
        /// (where exposed nodes do not hide their subtrees).
        case testItself
        /// A final window's children answered nothing: the search ends.
        case stop
    }

    struct Entry: Sendable {
        var node: NodeID
        var step = Step.visit
        /// Whether box hits may answer below: a frame query at a moderate
        /// point, through views that all keep moderate values
        /// (`HitTester.isModerate`), so that rounding on the way down stays
        /// far below the room a box hit needs.
        var moderatePath: Bool
        /// The query point in the bounds space of the node's container.
        var point: CGPoint
        /// The container's map to the screen.
        var toScreen: CGAffineTransform
    }
    var stack = SearchStack()
    /// The child index's buffer (`HitTester.forEachChild`).
    var candidates: [NodeID] = []
    /// TalkBack's hover (`HitTester.hover`): the nodes being offered it,
    /// and their children that hold the point, front to back.
    var hoverFrames: [HoverFrame] = []
    var hoverChildren: [Entry] = []

    /// A node offered the hover, while its children are.
    struct HoverFrame: Sendable {
        /// The nearest exposed node among it and its ancestors (`.none`).
        var nearest: NodeID
        /// Its children that hold the point: `hoverChildren[start ..< end]`.
        var start: Int
        var end: Int
        /// The next of them to offer the hover to.
        var next: Int
        /// The answer of the last report below it that has one.
        var answer = NodeID.none
        /// It takes the hover: it, or a node of its subtree that was
        /// offered it, is enabled and declares `click` or `longClick`.
        var takes: Bool
    }

    /// Empty scratch space.
    public init() {}
}

/// A query's stack of entries, in memory it owns: a push is one capacity
/// test, a store and a count (an Array's append also checks uniqueness on
/// every call, and `removeAll(keepingCapacity:)` more).
struct SearchStack: Sendable {
    final class Buffer: @unchecked Sendable {
        // Unchecked: only the stack holding the sole reference writes (see `reset`).
        private(set) var base: UnsafeMutablePointer<HitScratch.Entry>
        private(set) var capacity: Int

        init(capacity: Int) {
            base = .allocate(capacity: capacity)
            self.capacity = capacity
        }

        /// Doubles the room, keeping the first `count` entries.
        func grow(keeping count: Int) {
            let bigger = UnsafeMutablePointer<HitScratch.Entry>.allocate(capacity: 2 * capacity)
            bigger.moveInitialize(from: base, count: count)
            base.deallocate()
            base = bigger
            capacity *= 2
        }

        deinit { base.deallocate() }
    }

    private var buffer = Buffer(capacity: 64)
    private(set) var count = 0

    /// Empties the stack. A copied scratch shares its buffer with the
    /// original until here, where it takes one of its own: two copies used
    /// on two threads never write the same memory.
    mutating func reset() {
        if !isKnownUniquelyReferenced(&buffer) { buffer = Buffer(capacity: buffer.capacity) }
        count = 0
    }

    @inline(__always)
    mutating func push(_ entry: HitScratch.Entry) {
        if count == buffer.capacity { buffer.grow(keeping: count) }
        (buffer.base + count).initialize(to: entry)
        count += 1
    }

    @inline(__always)
    mutating func pop() -> HitScratch.Entry? {
        guard count > 0 else { return nil }
        count -= 1
        return buffer.base[count]
    }
}
