/// A node's parent, last child and previous sibling, `.none` where it has
/// none: the links a walk down the tree reads only to climb back (the
/// parent, once a subtree is done), where it reads its first child and
/// next sibling at every node. One column, not three: a node linked or
/// unlinked writes them together, and under a snapshot each column written
/// copies its table of chunks, a group and a chunk.
struct BackLinks: Sendable {
    var parent = NodeID.none
    var lastChild = NodeID.none
    var previousSibling = NodeID.none
}
