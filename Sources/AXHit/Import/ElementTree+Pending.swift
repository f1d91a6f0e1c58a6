// Support for streaming readers. A reader must append a node before its
// children (so ids come out in pre-order), but JSON keys are unordered: a
// node's `id` or `kind` may come after its `children`. The reader then
// appends a *pending* node as far as it is known, builds the children under
// it, and completes it at the end of its object.

extension ElementTree {
    /// Appends `node` as the frontmost child of `parent` (or as the root),
    /// without its name: `node.id` is ignored and the slot is not findable by
    /// name until `completePending(_:as:)`. The caller has validated the
    /// values; structure is checked as in `append(_:under:)`.
    ///
    /// - Complexity: amortized O(1).
    mutating func appendPending(_ node: Node, under parent: NodeID) throws(TreeError) -> NodeID {
        if parent.isNone {
            if !root.isNone { throw TreeError("a tree has one root") }
            if node.kind != .view { throw TreeError("the root must be a view", key: "kind") }
        } else {
            guard contains(parent) else { throw TreeError("parent \(parent) is not in the tree") }
            if node.kind == .view && kind(of: parent) == .element {
                throw TreeError("a view cannot be a child of an element node", key: "kind")
            }
        }
        let id = allocateSlot()
        var unnamed = node
        unnamed.id = ""
        store(unnamed, at: id.index)
        if parent.isNone { root = id } else { link(id, under: parent, before: .none) }
        return id
    }

    /// Gives a node appended early (pending, or appended with what was known
    /// then) its final properties, name and kind. Unlike `update(_:to:)` the
    /// kind may change, as long as the tree stays valid: the root stays a
    /// view, a view is not under an element node, and an element node has
    /// only element children.
    ///
    /// - Complexity: O(1), plus O(children) when the kind becomes `.element`.
    /// - Throws: `TreeError` naming the node and key when `node` is invalid,
    ///   its id is taken, or the new kind does not fit.
    mutating func completePending(_ id: NodeID, as node: Node) throws(TreeError) {
        try node.validate()
        let i = id.index
        let old = ids[i]
        if node.id != old && nodeIDsByName[node.id] != nil {
            throw TreeError("duplicate id", node: node.id, key: "id")
        }
        if node.kind != kind(of: id) {
            let parent = parents[i]
            if node.kind == .element {
                if parent.isNone { throw TreeError("the root must be a view", node: node.id, key: "kind") }
                var c = firstChildren[i]
                while !c.isNone {
                    if kind(of: c) == .view {
                        throw TreeError("an element node cannot have a view child (\"\(ids[c.index])\")",
                                        node: node.id, key: "kind")
                    }
                    c = nextSiblings[c.index]
                }
            } else if !parent.isNone && kind(of: parent) == .element {
                throw TreeError("a view cannot be a child of an element node", node: node.id, key: "kind")
            }
        }
        if node.id != old {
            if !old.isEmpty { nodeIDsByName[old] = nil }
            nodeIDsByName[node.id] = id
        }
        store(node, at: i)
    }
}
