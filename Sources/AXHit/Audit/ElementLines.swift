import Foundation

/// Where each node of a tree was written in its file (1-based lines), for
/// reports that point into the file (SARIF's `region.startLine`):
///
/// - `axhit/1` JSON: the line of the node's `"id"` key, for ids written
///   without escapes;
/// - an XML page source under a wrapper (`hierarchy`, `AppiumAUT`): the
///   line of the start tag of the node `<Kind>#<n>` names, the n-th element
///   below the wrapper (tree-format.md, "Node ids of imported trees").
///
/// Other sources give no lines.
public enum ElementLines {
    /// The line of each node of `tree` found in `data`, the file it was read from.
    public static func lines(in data: Data, of tree: ElementTree) -> [NodeID: Int] {
        let bytes = [UInt8](data)
        guard let first = bytes.firstIndex(where: { $0 > 0x20 }) else { return [:] }
        return bytes[first] == UInt8(ascii: "<") ? xml(bytes, tree) : json(bytes, tree)
    }

    static func json(_ bytes: [UInt8], _ tree: ElementTree) -> [NodeID: Int] {
        var out: [NodeID: Int] = [:]
        let key = Array("\"id\"".utf8)
        var line = 1
        var i = 0
        var inString = false
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x0A { line += 1 }
            if inString {
                if b == UInt8(ascii: "\\") {
                    i += 2
                    continue
                }
                if b == UInt8(ascii: "\"") { inString = false }
                i += 1
                continue
            }
            if b == UInt8(ascii: "\""), i + key.count <= bytes.count, Array(bytes[i ..< i + key.count]) == key {
                // `"id"`, blanks, `:`, blanks, then a string value.
                var j = i + key.count
                while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x09 || bytes[j] == 0x0A || bytes[j] == 0x0D {
                    j += 1
                }
                if j < bytes.count, bytes[j] == UInt8(ascii: ":") {
                    j += 1
                    while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x09 { j += 1 }
                    if j < bytes.count, bytes[j] == UInt8(ascii: "\"") {
                        var k = j + 1
                        while k < bytes.count, bytes[k] != UInt8(ascii: "\""), bytes[k] != UInt8(ascii: "\\") { k += 1 }
                        if k < bytes.count, bytes[k] == UInt8(ascii: "\"") {
                            let id = String(decoding: bytes[(j + 1) ..< k], as: UTF8.self)
                            if let n = tree.node(withID: id), out[n] == nil { out[n] = line }
                            i = k + 1
                            continue
                        }
                    }
                }
            }
            if b == UInt8(ascii: "\"") { inString = true }
            i += 1
        }
        return out
    }

    static func xml(_ bytes: [UInt8], _ tree: ElementTree) -> [NodeID: Int] {
        // The line of every start tag, in document order.
        var starts: [Int] = []
        var names: [String] = []
        var line = 1
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x0A { line += 1 }
            if b == UInt8(ascii: "<"), i + 1 < bytes.count {
                let c = bytes[i + 1]
                if c == UInt8(ascii: "!") || c == UInt8(ascii: "?") {
                    // A comment, declaration or instruction: skip to its end.
                    var j = i + 1
                    while j < bytes.count, bytes[j] != UInt8(ascii: ">") {
                        if bytes[j] == 0x0A { line += 1 }
                        j += 1
                    }
                    i = j + 1
                    continue
                }
                if c != UInt8(ascii: "/") {
                    var j = i + 1
                    while j < bytes.count, bytes[j] > 0x20, bytes[j] != UInt8(ascii: ">"), bytes[j] != UInt8(ascii: "/")
                    {
                        j += 1
                    }
                    starts.append(line)
                    if names.count < 1 { names.append(String(decoding: bytes[(i + 1) ..< j], as: UTF8.self)) }
                }
            }
            i += 1
        }
        guard let wrapper = names.first, ["hierarchy", "AppiumAUT"].contains(wrapper) else { return [:] }
        var out: [NodeID: Int] = [:]
        for n in tree.preOrder {
            let id = tree.id(of: n)
            guard let hash = id.lastIndex(of: "#"), let k = Int(id[id.index(after: hash)...]), k >= 0,
                k + 1 < starts.count
            else { continue }
            out[n] = starts[k + 1]
        }
        return out
    }
}
