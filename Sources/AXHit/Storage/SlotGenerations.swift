/// Each slot's generation (`NodeID.generation`), stored only up to the last
/// slot ever freed: the slots beyond are in their first generation, so a
/// tree that never removes a node stores none.
struct SlotGenerations: Sendable {
    private var stored = ChunkedColumn<UInt32>()

    /// The generation of the node in `slot` now.
    @inline(__always)
    subscript(slot: Int) -> UInt32 { slot < stored.count ? stored[slot] : 0 }

    /// The handle of the node in `slot` now.
    @inline(__always)
    func nodeID(_ slot: Int32) -> NodeID { NodeID(slot: slot, generation: self[Int(slot)]) }

    /// Ends the generation of `slot`'s node; returns whether the slot may
    /// hold another (false once its generations have run out).
    ///
    /// - Complexity: O(1) amortized; the first call stores the generations
    ///   up to the slot.
    mutating func advance(_ slot: Int) -> Bool {
        if stored.count <= slot { stored.append(repeating: 0, count: slot + 1 - stored.count) }
        stored[slot] &+= 1
        return stored[slot] != .max
    }

    /// Calls `body` with a view that reads generations without retaining
    /// the storage (for query loops).
    @inline(__always)
    func withView<R>(_ body: (View) throws -> R) rethrows -> R {
        let count = stored.count
        return try stored.withView { try body(View(stored: $0, count: count)) }
    }

    /// `SlotGenerations` read through its column's view.
    struct View {
        let stored: ChunkedColumn<UInt32>.View
        let count: Int

        /// The handle of the node in `slot` now.
        @inline(__always)
        func nodeID(_ slot: Int32) -> NodeID {
            NodeID(slot: slot, generation: Int(slot) < count ? stored[Int(slot)] : 0)
        }
    }
}
