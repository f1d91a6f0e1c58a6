import Foundation

// Support for streaming readers. A reader must append a node before its
// children (so ids come out in pre-order), but JSON keys are unordered: a
// node's `id` or `kind` may come after its `children`. The reader then
// appends a *pending* node as far as it is known, builds the children under
// it, and completes it at the end of its object.
//
// This is the bulk path: a reader gathers a node straight into the tree's
// own layout (`LoadedNode`: flags, frame, side-table entries) and appends it
// column by column, with one hash of its id and no `Node` in between. The
// reader checks every value as it reads it, so nothing is validated again.

/// One node's values as a reader gathers them, laid out as `ElementTree`
/// stores them.
struct LoadedNode {
    /// The `id` (empty until read).
    var name = ""
    /// `.element` for element nodes, and the boolean properties. The flags
    /// derived from other values (`translucent`, `has…`) are the tree's to
    /// set.
    var flags = LoadedNode.defaultFlags
    /// Views only.
    var frame = CGRect.zero
    var bounds: CGRect?
    /// nil for the identity.
    var transform: CGAffineTransform?
    /// Meaningful only when `hasExtras`.
    var extras = NodeExtras()
    /// Whether `extras` differs from `NodeExtras()` (the reader knows as it
    /// sets each value, each at most once: no comparison per node).
    var hasExtras = false

    var isElement: Bool { flags.contains(.element) }

    /// A view's flags with every property at its default.
    static let defaultFlags: NodeFlags = [.alive, .userInteractionEnabled]
}

extension ElementTree {
    /// Appends `node` as the frontmost child of `parent` (or as the root):
    /// registered under `node.name` when `named`, else pending (not findable
    /// by name until `completeLoaded(_:as:named:)`).
    ///
    /// Checks what `append(_:under:)` checks, in the same order and with the
    /// same errors, except the values (`Node.validate()`), which the reader
    /// has checked. Unnamed, the errors name no node (the reader does).
    ///
    /// - Complexity: amortized O(1), one hash of the name.
    ///
    /// `node` is inout to be passed by address (it is large). When `final`
    /// (no later `completeLoaded`), its extras are moved into the tree
    /// rather than copied (no retain per string); else it is not changed.
    mutating func appendLoaded(_ node: inout LoadedNode, named: Bool, final: Bool,
                               under parent: NodeID) throws(TreeError) -> NodeID {
        let isElement = node.isElement
        var structural: TreeError?
        if parent.isNone {
            if !root.isNone {
                structural = TreeError("a tree has one root")
            } else if isElement {
                structural = TreeError("the root must be a view", key: "kind")
            }
        } else if !contains(parent) {
            structural = TreeError("parent \(parent) is not in the tree")
        } else if !isElement && kind(of: parent) == .element {
            structural = TreeError("a view cannot be a child of an element node", key: "kind")
        }
        let fresh = freeSlots.isEmpty
        let id = fresh ? NodeID(ids.count) : freeSlots[freeSlots.count - 1]
        if named {
            // One hash: claim the name, and give it back if it was taken.
            if let old = nodeIDsByName.updateValue(id, forKey: node.name) {
                nodeIDsByName[node.name] = old
                throw TreeError("duplicate id", node: node.name, key: "id")
            }
            if var e = structural {
                nodeIDsByName[node.name] = nil
                e.node = node.name
                throw e
            }
        } else if let structural {
            throw structural
        }
        let last = parent.isNone ? NodeID.none : lastChildren[parent.index]
        if fresh {
            // Straight appends: no default value written first, then replaced.
            ids.append(named ? node.name : "")
            flags.append(Self.storedFlags(node))
            parents.append(parent)
            firstChildren.append(.none)
            lastChildren.append(.none)
            nextSiblings.append(.none)
            previousSiblings.append(last)
            if isElement {
                frames.append(.zero)
                boundsSlots.append(-1)
                transformSlots.append(-1)
            } else {
                frames.append(node.frame)
                if let b = node.bounds {
                    boundsSlots.append(Int32(boundsTable.count))
                    boundsTable.append(b)
                } else {
                    boundsSlots.append(-1)
                }
                if let t = node.transform {
                    transformSlots.append(Int32(transformTable.count))
                    transformTable.append(t)
                } else {
                    transformSlots.append(-1)
                }
            }
            if node.hasExtras {
                extraSlots.append(Int32(extras.count))
                extras.append(Self.take(&node, final: final))
            } else {
                extraSlots.append(-1)
            }
        } else {
            freeSlots.removeLast()
            write(&node, named: named, final: final, at: id.index)
            parents[id.index] = parent
            firstChildren[id.index] = .none
            lastChildren[id.index] = .none
            nextSiblings[id.index] = .none
            previousSiblings[id.index] = last
        }
        if parent.isNone {
            root = id
        } else {
            if last.isNone { firstChildren[parent.index] = id } else { nextSiblings[last.index] = id }
            lastChildren[parent.index] = id
        }
        return id
    }

    /// Gives a node appended early (pending, or appended with what was known
    /// then) its final values, name and kind, registering the name when
    /// `named` and it is new. Unlike `update(_:to:)` the kind may change, as
    /// long as the tree stays valid: the root stays a view, a view is not
    /// under an element node, and an element node has only element children.
    ///
    /// This is the node's final write: its extras are moved into the tree.
    ///
    /// - Complexity: O(1) (one hash when the name is new), plus O(children)
    ///   when the kind becomes `.element`.
    /// - Throws: `TreeError` naming the node and key when its id is taken or
    ///   the new kind does not fit (the id first, as `completePending` did).
    mutating func completeLoaded(_ id: NodeID, as node: inout LoadedNode) throws(TreeError) {
        let i = id.index
        let old = ids[i]
        let rename = node.name != old
        let kindChanges = node.isElement != flags[i].contains(.element)
        if kindChanges {
            // Rare: check the id first (a lookup), then the kind.
            if rename && nodeIDsByName[node.name] != nil {
                throw TreeError("duplicate id", node: node.name, key: "id")
            }
            let parent = parents[i]
            if node.isElement {
                if parent.isNone { throw TreeError("the root must be a view", node: node.name, key: "kind") }
                var c = firstChildren[i]
                while !c.isNone {
                    if kind(of: c) == .view {
                        throw TreeError("an element node cannot have a view child (\"\(ids[c.index])\")",
                                        node: node.name, key: "kind")
                    }
                    c = nextSiblings[c.index]
                }
            } else if !parent.isNone && kind(of: parent) == .element {
                throw TreeError("a view cannot be a child of an element node", node: node.name, key: "kind")
            }
        }
        if rename {
            if let taken = nodeIDsByName.updateValue(id, forKey: node.name) {
                nodeIDsByName[node.name] = taken
                throw TreeError("duplicate id", node: node.name, key: "id")
            }
            if !old.isEmpty { nodeIDsByName[old] = nil }
        }
        write(&node, named: true, final: true, at: i)
    }

    /// The flags to store for `node`: its own, plus those derived from its
    /// values, as `store(_:at:)` sets them.
    @inline(__always)
    private static func storedFlags(_ node: borrowing LoadedNode) -> NodeFlags {
        var f = node.flags
        f.insert(.alive)
        guard node.hasExtras else { return f }
        if node.extras.alpha != 1 { f.insert(.translucent) }
        if node.extras.accessibilityFrame != nil { f.insert(.hasAccessibilityFrame) }
        if node.isElement && node.extras.frameInContainerSpace != nil { f.insert(.hasFrameInContainerSpace) }
        if node.extras.path != nil { f.insert(.hasPath) }
        return f
    }

    /// Overwrites slot `i` with `node`'s values (not its links), reusing its
    /// side-table entries as `store(_:at:)` does.
    private mutating func write(_ node: inout LoadedNode, named: Bool, final: Bool, at i: Int) {
        ids[i] = named ? node.name : ""
        flags[i] = Self.storedFlags(node)
        let isView = !node.isElement
        frames[i] = isView ? node.frame : .zero
        Self.setEntry(&boundsSlots[i], in: &boundsTable, to: isView ? node.bounds : nil)
        Self.setEntry(&transformSlots[i], in: &transformTable, to: isView ? node.transform : nil)
        let old = extraSlots[i]
        if node.hasExtras {
            if old >= 0 {
                extras[Int(old)] = Self.take(&node, final: final)
            } else {
                extraSlots[i] = Int32(extras.count)
                extras.append(Self.take(&node, final: final))
            }
        } else if old >= 0 {
            // Left in `extras` unreferenced; `compacted()` reclaims it.
            extras[Int(old)] = NodeExtras()
            extraSlots[i] = -1
        }
    }

    /// The node's extras: moved out (leaving defaults, `hasExtras` false)
    /// when `final`, else copied.
    @inline(__always)
    private static func take(_ node: inout LoadedNode, final: Bool) -> NodeExtras {
        guard final else { return node.extras }
        var e = NodeExtras()
        swap(&e, &node.extras)
        node.hasExtras = false
        return e
    }

    private static func setEntry<T>(_ slot: inout Int32, in table: inout [T], to value: T?) {
        if let value {
            if slot >= 0 { table[Int(slot)] = value } else { slot = Int32(table.count); table.append(value) }
        } else {
            slot = -1
        }
    }

    /// Reserves room for about `n` more nodes read in bulk, and `extraCount`
    /// entries of the rare-property table.
    mutating func reserveForLoading(_ n: Int, extras extraCount: Int) {
        reserveCapacity(n)
        extras.reserveCapacity(extraCount)
    }
}
