import Foundation

/// Nodes gathered to enter a tree together, with
/// `ElementTree.append(_:under:)`: a whole tree, or a subtree grafted onto
/// one.
///
/// Each node goes under a node added to the batch before it (by the index
/// `append` returned), or, with `nil`, under the node the batch is appended
/// under. A node's own values are checked as it is added
/// (`Node.validate()`); its id and its place, against the tree, when the
/// batch is appended.
///
/// Why a batch: a node is laid out as the tree stores it when it is added
/// (about 70 bytes, its rare properties apart, not a 392-byte `Node`), and
/// the tree takes the batch in one pass: each of its columns grows by the
/// whole batch at once, and the ids are looked up and registered in the
/// order of the id table's buckets rather than at one random bucket per
/// node.
public struct NodeBatch: Sendable {
    // One entry per node, in the order added. Chunked as the tree's
    // columns are, so that a tree with none of its own takes them whole,
    // without a copy (`ChunkedColumn.append(contentsOf:from:)`), and growing
    // one never copies what it holds.
    var names = ChunkedColumn<String>()
    /// The flags the tree stores (`ElementTree.storedFlags`).
    var flags = ChunkedColumn<NodeFlags>()
    /// The index of the node's parent in the batch, or -1 for the node the
    /// batch goes under.
    var parents: [Int32] = []
    /// Views only (`.zero` for an element node).
    var frames = ChunkedColumn<CGRect>()
    // Rare values: an index into the table beside, or -1.
    var boundsSlots: [Int32] = []
    var transformSlots: [Int32] = []
    var extraSlots: [Int32] = []
    var boundsTable = ChunkedColumn<CGRect>()
    var transformTable = ChunkedColumn<CGAffineTransform>()
    var extras = ChunkedColumn<NodeExtras>()

    /// An empty batch.
    public init() {}

    /// The number of nodes.
    public var count: Int { names.count }

    /// Reserves room for `n` nodes.
    public mutating func reserveCapacity(_ n: Int) {
        names.reserveCapacity(n)
        flags.reserveCapacity(n)
        parents.reserveCapacity(n)
        frames.reserveCapacity(n)
        boundsSlots.reserveCapacity(n)
        transformSlots.reserveCapacity(n)
        extraSlots.reserveCapacity(n)
    }

    /// Adds `node` as the frontmost (last) child of the batch's node
    /// `parent`, or, when `parent` is nil, of the node the batch is appended
    /// under (as the root when that is `.none`). Returns the node's index in
    /// the batch, which is also its place in what
    /// `ElementTree.append(_:under:)` returns.
    ///
    /// - Complexity: amortized O(1).
    /// - Throws: `TreeError` naming the node and key when the node is invalid
    ///   (`Node.validate()`), or when `parent` is not the index of a node
    ///   added before (key `parent`). The batch is unchanged then.
    @discardableResult
    public mutating func append(_ node: Node, under parent: Int?) throws(TreeError) -> Int {
        try node.validate()
        let index = count
        if let parent, parent < 0 || parent >= index {
            throw TreeError(
                .validation, "the parent \(parent) is not the index of a node added to the batch before it",
                node: node.id, key: "parent")
        }
        guard index < Int(Int32.max) else {
            throw TreeError(.validation, "a batch holds at most \(Int32.max) nodes", node: node.id)
        }
        // Laid out as `NodeRecord(node)` lays it out, field by field: a
        // whole record would cost a copy and a destruction of every field.
        let (frame, bounds, transform) = NodeRecord.geometry(of: node)
        names.append(node.id)
        if NodeExtras.areDefault(in: node) {
            flags.append(ElementTree.storedFlags(NodeRecord.flags(of: node), extras: NodeExtras.none, hasExtras: false))
            extraSlots.append(-1)
        } else {
            let extra = NodeExtras(of: node)
            flags.append(ElementTree.storedFlags(NodeRecord.flags(of: node), extras: extra, hasExtras: true))
            extraSlots.append(Int32(truncatingIfNeeded: extras.count))
            extras.append(consume extra)
        }
        parents.append(parent.map { Int32(truncatingIfNeeded: $0) } ?? -1)
        frames.append(frame)
        boundsSlots.append(Self.add(bounds, to: &boundsTable))
        transformSlots.append(Self.add(transform, to: &transformTable))
        return index
    }

    /// Node `k` as a record (for a slot the tree reuses).
    func record(_ k: Int) -> NodeRecord {
        NodeRecord(
            name: names[k], flags: flags[k], frame: frames[k],
            bounds: boundsSlots[k] < 0 ? nil : boundsTable[Int(boundsSlots[k])],
            transform: transformSlots[k] < 0 ? nil : transformTable[Int(transformSlots[k])],
            extras: extraSlots[k] < 0 ? nil : extras[Int(extraSlots[k])])
    }

    /// Whether node `k` is an element node (`NodeKind.element`), not a view.
    func isElement(_ k: Int) -> Bool { flags[k].contains(.element) }

    private static func add<T>(_ value: T?, to table: inout ChunkedColumn<T>) -> Int32 {
        guard let value else { return -1 }
        table.append(value)
        return Int32(truncatingIfNeeded: table.count - 1)
    }
}
