import Foundation

/// The errors of the `axhit/1` reader: what a value was expected to be, and
/// which node an error is about (by its id, read or found ahead, or else by
/// its position).
extension AXHitJSONReader {
    func expected(_ what: StaticString, _ found: JSONScanner.Token, key: StaticString) -> TreeError {
        TreeError(.input, "expected \(what), found \(found.noun)", line: scanner.tokenLine, key: "\(key)")
    }

    /// `error` naming the node of `frames[i]`, when it is about a key of that
    /// node and names no node yet: by its id, read or found ahead, or else by
    /// its position.
    func named(_ error: TreeError, _ frames: UnsafeMutableBufferPointer<NodeFrame>, _ i: Int) -> TreeError {
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
    func positionName(_ frames: UnsafeMutableBufferPointer<NodeFrame>, _ i: Int) -> String {
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

extension AXHitJSONReader.NodeFrame {
    /// Where to report an error the tree threw about this node.
    func offset(of error: TreeError) -> Int {
        if error.key == "id" && has(.id) { return idOffset }
        if error.key == "kind" && has(.kind) { return kindOffset }
        return offset
    }
}
