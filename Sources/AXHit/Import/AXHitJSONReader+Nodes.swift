import Foundation

/// The nodes of a document, read without recursion on an explicit stack of
/// frames: each added to the tree before its first child, and checked and
/// completed at its end.
extension AXHitJSONReader {
    // MARK: Nodes

    /// An open node object.
    struct NodeFrame {
        /// The node's values as read so far, in the tree's layout.
        var values = NodeRecord()
        /// `NodeKey.bit`s of the keys read so far.
        var seen: UInt64 = 0
        /// Where the node's `{` is.
        var offset = 0
        /// The scanner's depth inside the node's object.
        var depth = 0
        /// The parent's frame index, or -1 for the root.
        var parentFrame = -1
        var parentID = NodeID.none
        /// 1-based position among its siblings (0 for the root).
        var position = 0
        /// Where the node is in the tree, once appended.
        var treeID = NodeID.none
        /// Whether it was appended as an element node.
        var appendedElement = false
        /// Whether it was appended with its id (else pending).
        var appendedNamed = false
        /// Whether a property was read after the node was appended.
        var dirty = false
        var inChildren = false
        var childCount = 0
        /// `IDTable.hash` of the id, once read (`ElementTree.add`'s `nameHash`).
        var nameHash: UInt32 = 0
        // Where keys were, for errors found later.
        var idOffset = 0
        var kindOffset = 0
        var containerSpaceFrameOffset = 0
        /// The first view-only key read, for element nodes that carry one.
        var viewKey: NodeKey?
        var viewKeyOffset = 0

        init(offset: Int, depth: Int, parentFrame: Int, parentID: NodeID, position: Int) {
            reset(offset: offset, depth: depth, parentFrame: parentFrame, parentID: parentID, position: position)
        }

        /// Makes this slot a fresh frame, in place (no frame built and
        /// copied per node).
        mutating func reset(offset: Int, depth: Int, parentFrame: Int, parentID: NodeID, position: Int) {
            // Field by field: assigning a whole `NodeRecord()` builds one
            // and copies it in. Extras at their defaults stay as they are.
            values.name = ""
            values.flags = NodeRecord.defaultFlags
            values.frame = .zero
            values.bounds = nil
            values.transform = nil
            if values.hasExtras {
                values.extras = NodeExtras()
                values.hasExtras = false
            }
            seen = 0
            self.offset = offset
            self.depth = depth
            self.parentFrame = parentFrame
            self.parentID = parentID
            self.position = position
            treeID = .none
            appendedElement = false
            appendedNamed = false
            dirty = false
            inChildren = false
            childCount = 0
            viewKey = nil
        }

        func has(_ key: NodeKey) -> Bool { seen & key.bit != 0 }

        /// Whether the node is an element node as far as known.
        var isElement: Bool { values.flags.contains(.element) }

        /// Where to report an error the tree threw about this node.
        func offset(of error: TreeError) -> Int {
            if error.key == "id" && has(.id) { return idOffset }
            if error.key == "kind" && has(.kind) { return kindOffset }
            return offset
        }

        /// Sets `isAccessibilityElement` to its kind's default unless given.
        mutating func resolveAccessibilityElement() {
            if !has(.isAccessibilityElement) {
                if isElement {
                    values.flags.insert(.accessibilityElement)
                } else {
                    values.flags.remove(.accessibilityElement)
                }
            }
        }

        mutating func set(_ flag: NodeFlags, _ on: Bool) {
            if on { values.flags.insert(flag) } else { values.flags.remove(flag) }
        }
    }

    /// Reads the root node's object and every node under it, without
    /// recursion.
    mutating func readNodes() throws(TreeError) {
        let t = try scanner.next()
        guard t == .beginObject else { throw expected("a view node (an object)", t, key: "root") }
        // Open nodes, innermost last: `frames[..<open]`. Slots above `open`
        // are kept for reuse rather than removed, which would move a whole
        // frame out and destroy it for every node.
        var frames = [
            NodeFrame(offset: scanner.tokenOffset, depth: scanner.depth, parentFrame: -1, parentID: .none, position: 0)
        ]
        frames.reserveCapacity(64)
        var open = 1
        while open > 0 {
            // The loop runs on the frames' buffer (no uniqueness check per
            // access), and comes back here only to add a frame.
            if open == frames.count {
                frames.append(NodeFrame(offset: 0, depth: 0, parentFrame: -1, parentID: .none, position: 0))
            }
            let result: Result<Void, TreeError> = frames.withUnsafeMutableBufferPointer { buffer in
                do throws(TreeError) {
                    try readNodes(in: buffer, open: &open)
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            if case let .failure(error) = result { throw error }
        }
    }

    /// The node loop over `frames[..<open]`, until every node is closed or a
    /// child needs a frame beyond `frames`.
    private mutating func readNodes(in frames: UnsafeMutableBufferPointer<NodeFrame>, open: inout Int) throws(TreeError)
    {
        while open > 0 {
            let top = open - 1
            if frames[top].inChildren {
                if open == frames.count { return }  // before the child's `{`: the caller adds a frame
                let t = try scanner.next()
                if t == .endArray {
                    frames[top].inChildren = false
                    continue
                }
                guard t == .beginObject else {
                    throw named(expected("a node (an object)", t, key: "children"), frames, top)
                }
                let offset = scanner.tokenOffset
                do throws(TreeError) {
                    let parent = frames[top].parentID
                    let parentIsElement = !parent.isNone && tree.kind(of: parent) == .element
                    try materialize(&frames[top], parentIsElement: parentIsElement)
                } catch {
                    throw named(error, frames, top)
                }
                frames[top].childCount += 1
                frames[open].reset(
                    offset: offset, depth: scanner.depth, parentFrame: top,
                    parentID: frames[top].treeID, position: frames[top].childCount)
                open += 1
                continue
            }
            let t = try scanner.next()
            if t == .endObject {
                try finish(frames, top)
                open -= 1
                continue
            }
            // A key: the grammar allows nothing else here.
            guard let key = scanner.lookup(in: Self.nodeKeys) else {
                try skipValue()  // unknown keys are allowed, but must be valid JSON
                continue
            }
            do throws(TreeError) {
                try readProperty(key, into: &frames[top])
            } catch {
                throw named(error, frames, top)
            }
        }
    }

    /// Appends the node of `f` before its first child: with its name if it
    /// has been read, else pending. A kind not read yet is taken as the
    /// parent's kind allows (an element node's children are elements), and
    /// checked again at the node's end.
    private mutating func materialize(_ f: inout NodeFrame, parentIsElement: Bool) throws(TreeError) {
        guard f.treeID.isNone else { return }
        if !f.has(.kind) && parentIsElement { f.values.flags.insert(.element) }
        f.resolveAccessibilityElement()
        let named = f.has(.id)
        do throws(TreeError) {
            // What `Node.validate()` said of a named view with an element-only
            // frame when the tree validated every node (values are otherwise
            // checked as read). A kind still to come is left to `finish`.
            if named && f.has(.kind) && !f.isElement && f.has(.accessibilityFrameInContainerSpace) {
                throw TreeError(
                    .validation, "view nodes have no accessibilityFrameInContainerSpace (an element property)",
                    node: f.values.name, key: "accessibilityFrameInContainerSpace")
            }
            f.treeID = try tree.add(
                &f.values, named: named, final: false, under: f.parentID, nameHash: named ? f.nameHash : nil)
        } catch {
            throw error.located(file: nil, line: scanner.line(at: f.offset(of: error)))
        }
        f.appendedElement = f.isElement
        f.appendedNamed = named
        f.dirty = false
        if !f.has(.kind) { f.values.flags.remove(.element) }  // the default, until a `kind` key says otherwise
    }

    /// Checks the finished node `frames[i]` as a whole and appends it (or
    /// completes it, when it was appended before its children). Works on the
    /// frame in place: no copy of the node's values.
    private mutating func finish(_ frames: UnsafeMutableBufferPointer<NodeFrame>, _ i: Int) throws(TreeError) {
        frames[i].resolveAccessibilityElement()
        guard frames[i].has(.id) else {
            throw TreeError(
                .input, "required key is missing", line: scanner.line(at: frames[i].offset),
                node: positionName(frames, i), key: "id")
        }
        let isView = !frames[i].isElement
        if isView && !frames[i].has(.frame) {
            throw TreeError(
                .input, "required key is missing (views need a frame)", line: scanner.line(at: frames[i].offset),
                node: frames[i].values.name, key: "frame")
        }
        if isView && frames[i].has(.accessibilityFrameInContainerSpace) {
            throw TreeError(
                .validation, "view nodes have no accessibilityFrameInContainerSpace (an element property)",
                line: scanner.line(at: frames[i].containerSpaceFrameOffset), node: frames[i].values.name,
                key: "accessibilityFrameInContainerSpace")
        }
        do throws(TreeError) {
            if frames[i].treeID.isNone {
                // Checks the id is new.
                _ = try tree.add(
                    &frames[i].values, named: true, final: true, under: frames[i].parentID,
                    nameHash: frames[i].nameHash)
            } else if frames[i].dirty || frames[i].isElement != frames[i].appendedElement || !frames[i].appendedNamed {
                try tree.complete(frames[i].treeID, as: &frames[i].values)
            }
        } catch {
            var e = error
            if e.node == nil { e.node = frames[i].values.name }
            throw e.located(file: nil, line: scanner.line(at: frames[i].offset(of: e)))
        }
    }

    /// `error` naming the node of `frames[i]`, when it is about a key of that
    /// node and names no node yet: by its id, read or found ahead, or else by
    /// its position.
    private func named(_ error: TreeError, _ frames: UnsafeMutableBufferPointer<NodeFrame>, _ i: Int) -> TreeError {
        guard error.key != nil && error.node == nil else { return error }
        var e = error
        if !frames[i].values.name.isEmpty {
            e.node = frames[i].values.name
        } else if let id = lookAheadForID(depth: frames[i].depth) {
            e.node = id
        } else {
            e.node = positionName(frames, i)
        }
        return e
    }

    /// The node's `id` from the rest of its object, scanning ahead on a copy
    /// of the scanner; nil when there is none or the JSON breaks first.
    /// O(rest of the object); used only on the way to an error.
    private func lookAheadForID(depth: Int) -> String? {
        var s = scanner
        while true {
            guard let t = try? s.next() else { return nil }
            if s.depth < depth || t == .end { return nil }
            if t == .key && s.depth == depth && s.withText({ $0.elementsEqual("id".utf8) }) {
                guard (try? s.next()) == .string else { return nil }
                let id = s.text
                return id.isEmpty ? nil : id
            }
        }
    }

    /// A name for a node without an id: `(child 3 of "list")`, going up to
    /// the nearest named ancestor (at most a few levels).
    private func positionName(_ frames: UnsafeMutableBufferPointer<NodeFrame>, _ i: Int) -> String {
        if frames[i].parentFrame < 0 { return "(the root)" }
        var text = ""
        var open = 0
        var j = i
        while true {
            let f = frames[j]
            if f.parentFrame < 0 {
                text += "the root"
                break
            }
            text += "(child \(f.position) of "
            open += 1
            let p = frames[f.parentFrame]
            if !p.values.name.isEmpty {
                text += "\"\(p.values.name)\""
                break
            }
            if open == 4 {
                text += "…"
                break
            }
            j = f.parentFrame
        }
        return text + String(repeating: ")", count: open)
    }
}
