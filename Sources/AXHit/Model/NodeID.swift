/// A node's slot in an `ElementTree`: a dense integer, stable for the node's
/// lifetime (removing other nodes never renumbers it).
///
/// Trees built by reading a file number their nodes in pre-order (the root is
/// 0), so parents come before children and storage follows z-order.
public struct NodeID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The slot index.
    public let rawValue: Int32

    /// A node id from a slot index. Only ids an `ElementTree` handed out are
    /// meaningful to it.
    @inline(__always)
    public init(_ rawValue: Int32) { self.rawValue = rawValue }

    @inline(__always)
    init(_ index: Int) { self.rawValue = Int32(truncatingIfNeeded: index) }

    /// The slot as an array index.
    @inline(__always)
    public var index: Int { Int(rawValue) }

    /// "No node": the root's parent, the end of a sibling chain.
    public static let none = NodeID(Int32(-1))

    /// Whether this is `.none`.
    @inline(__always)
    public var isNone: Bool { rawValue < 0 }

    /// Slot order (pre-order for a tree read from a file).
    public static func < (a: NodeID, b: NodeID) -> Bool { a.rawValue < b.rawValue }
    /// `NodeID(slot)`: a handle, not the node's `id` (`ElementTree.id(of:)` gives that).
    public var description: String { "NodeID(\(rawValue))" }
}
