import Foundation

/// Markup the scanner steps over: processing instructions, comments, CDATA
/// sections and the DOCTYPE.
extension XMLScanner {
    /// Steps past the next `terminator` from `from`.
    mutating func skip(past terminator: StaticString, from: Int) throws(TreeError) {
        let t = UnsafeBufferPointer(start: terminator.utf8Start, count: terminator.utf8CodeUnitCount)
        let n = bytes.count
        var p = from
        while p + t.count <= n {
            if bytes[p] == t[0] && slice(p, p + t.count).elementsEqual(t) {
                position = p + t.count
                return
            }
            p += 1
        }
        throw error("unexpected end of input (truncated?)", at: n)
    }

    func hasPrefix(_ prefix: StaticString, at p: Int) -> Bool {
        let t = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        return p + t.count <= bytes.count && slice(p, p + t.count).elementsEqual(t)
    }

    /// A comment, CDATA section or DOCTYPE at `position` (its `<!`).
    mutating func skipDeclaration() throws(TreeError) {
        let at = position
        if hasPrefix("<!--", at: at) {
            try skip(past: "-->", from: at + 4)
        } else if hasPrefix("<![CDATA[", at: at) {
            guard !open.isEmpty else { throw error("CDATA outside the document element", at: at) }
            try skip(past: "]]>", from: at + 9)
        } else if hasPrefix("<!DOCTYPE", at: at) {
            guard !sawDocumentElement else { throw error("DOCTYPE after the document element", at: at) }
            try skipDoctype()
        } else {
            throw error("broken markup declaration", at: at)
        }
    }

    /// Steps over a DOCTYPE: up to its `>` outside quotes and outside its
    /// internal subset (`[...]`, whose comments may hold anything). What it
    /// declares is ignored: no entity it defines is ever expanded.
    mutating func skipDoctype() throws(TreeError) {
        let n = bytes.count
        var p = position + 9
        var inSubset = false
        while p < n {
            let b = bytes[p]
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                p += 1
                while p < n && bytes[p] != b { p += 1 }
            } else if inSubset && hasPrefix("<!--", at: p) {
                position = p
                try skip(past: "-->", from: p + 4)
                p = position
                continue
            } else if b == UInt8(ascii: "[") {
                inSubset = true
            } else if b == UInt8(ascii: "]") {
                inSubset = false
            } else if b == Self.gt && !inSubset {
                position = p + 1
                return
            }
            p += 1
        }
        throw error("unexpected end of input (truncated?)", at: n)
    }
}
