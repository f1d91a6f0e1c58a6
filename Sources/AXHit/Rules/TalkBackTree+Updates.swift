import Foundation

/// Keeping TalkBack's view current across an update of the tree: what a
/// changed subtree gave its parent taken away before, derived again after.
extension TalkBackTree {
    // MARK: Updates

    /// Before a change to the subtree at `x` (an update of `x`, or its
    /// removal): takes away what the subtree's top nodes gave their parent
    /// in the tree TalkBack sees, and returns that parent.
    ///
    /// - Complexity: O(subtree of `x` down to its important nodes).
    mutating func detach(_ x: NodeID, in tree: ElementTree) -> NodeID {
        var parent = NodeID.none
        var stack = [x]
        while let n = stack.popLast() {
            if facts[n.index].contains(.important) {
                parent = parents[n.index]
                if !parent.isNone { add(n, to: parent, sign: -1) }
                continue
            }
            var c = tree.firstChildren[n.index]
            while !c.isNone {
                stack.append(c)
                c = tree.nextSiblings[c.index]
            }
        }
        if parent.isNone {
            // No important node in the subtree: its parent in the tree
            // TalkBack sees is the one it would have.
            var a = tree.backLinks[x.index].parent
            while !a.isNone && !facts[a.index].contains(.important) { a = tree.backLinks[a.index].parent }
            parent = a
        }
        return parent
    }

    /// After a change: derives the subtree at `x` again (when it is still
    /// in the tree: `nil` after a removal), then walks up from `parent`
    /// (what `detach` returned) while a node's speaking changes, with its
    /// focusable and exposed facts; where a node's focusable ancestry
    /// changed, its subtree's exposure is derived again. Returns the top of
    /// the region whose exposure may have changed (`.none`: none).
    ///
    /// - Complexity: O(subtree of `x`) plus the walk up, plus the subtree of
    ///   an ancestor whose focusability changed.
    mutating func reattach(_ x: NodeID?, below parent: NodeID, in tree: ElementTree, rules: AndroidRules) -> NodeID {
        grow(to: tree.capacity)
        var top = NodeID.none
        if let x {
            rederive(x, in: tree, rules: rules)
            top = x
        }
        var a = parent
        var refocus = NodeID.none
        while !a.isNone {
            let old = facts[a.index]
            let grandparent = parents[a.index]
            if !grandparent.isNone { add(a, to: grandparent, sign: -1) }
            updateSpeaks(a)
            updateFocus(a)
            if !grandparent.isNone { add(a, to: grandparent, sign: 1) }
            let new = facts[a.index]
            if old.symmetricDifference(new).contains(.focusableHere) { refocus = a }
            if !old.symmetricDifference(new).isDisjoint(with: [.exposed, .focusableHere]) { top = a }
            // Only a change of speaking changes what it gives its parent.
            guard old.contains(.speaks) != new.contains(.speaks) else { break }
            a = grandparent
        }
        if !refocus.isNone {
            for n in Self.dumpPreOrder(tree, from: refocus) where n != refocus && facts[n.index].contains(.important) {
                updateFocus(n)
            }
        }
        return top
    }
}
