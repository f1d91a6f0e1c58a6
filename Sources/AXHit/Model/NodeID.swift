/// A handle to one node of an `ElementTree`: the node's slot (a dense
/// integer, stable for the node's lifetime: removing other nodes never
/// renumbers it) and the slot's generation.
///
/// A removed node's slot is reused by a later insert, under the next
/// generation, so a handle kept past its node's removal never names the
/// node that took the slot: `ElementTree.contains(_:)` is false for it, the
/// tree's subscript gives nil, and updates throw. (A slot whose generations
/// run out is retired, never reused: the check is exact, not probable.)
///
/// Trees built by reading a file number their nodes in pre-order (the root is
/// slot 0), so parents come before children and storage follows z-order.
public struct NodeID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The slot index.
    public let rawValue: Int32
    /// How many nodes held the slot before this one (0 for its first).
    public let generation: UInt32

    /// The handle of the first node a tree puts in slot `rawValue` (every
    /// node of a tree that has never reused a slot, such as one read from a
    /// file). `ElementTree.nodeID(inSlot:)` gives the handle of whichever
    /// node holds a slot now.
    @inline(__always)
    public init(_ rawValue: Int32) {
        self.rawValue = rawValue
        self.generation = 0
    }

    @inline(__always)
    init(slot: Int32, generation: UInt32) {
        self.rawValue = slot
        self.generation = generation
    }

    /// A slot's first-generation handle, or an item number that an index
    /// carries in a `NodeID` until it maps it to its node.
    @inline(__always)
    init(_ index: Int) { self.init(Int32(truncatingIfNeeded: index)) }

    /// The slot as an array index.
    @inline(__always)
    public var index: Int { Int(rawValue) }

    /// "No node": the root's parent, the end of a sibling chain.
    public static let none = NodeID(Int32(-1))

    /// Whether this is `.none`.
    @inline(__always)
    public var isNone: Bool { rawValue < 0 }

    /// Slot order (pre-order for a tree read from a file), then generation.
    public static func < (a: NodeID, b: NodeID) -> Bool {
        a.rawValue != b.rawValue ? a.rawValue < b.rawValue : a.generation < b.generation
    }

    /// `NodeID(slot)`, or `NodeID(slot, generation g)` for a reused slot: a
    /// handle, not the node's `id` (`ElementTree.id(of:)` gives that).
    public var description: String {
        generation == 0 ? "NodeID(\(rawValue))" : "NodeID(\(rawValue), generation \(generation))"
    }
}
