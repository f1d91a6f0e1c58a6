/// A node's entries in the tree's side tables, or -1 for none: explicit
/// bounds (else the frame's size at the origin), a transform (else the
/// identity), rare properties (else their defaults). One column, not
/// three: a node added or removed writes all three, and under a snapshot
/// each column written copies its table of chunks, a group and a chunk.
struct SideSlots: Sendable, Equatable {
    var bounds: Int32 = -1
    var transform: Int32 = -1
    var extra: Int32 = -1
}
