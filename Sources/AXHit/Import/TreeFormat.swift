import Foundation

/// The kinds of input an `ElementTree` can be read from, told apart by
/// content (never by file name).
public enum TreeFormat: String, Sendable, Hashable, CaseIterable {
    /// AXHit's own `axhit/1` JSON (tree-format.md).
    case axhitJSON
    /// An Appium iOS (XCUITest / WebDriverAgent) XML page source.
    case appiumIOS
    /// An Android uiautomator dump: classic or Appium UiAutomator2.
    case uiautomator
    /// A DroidBot state file (JSON with a flat `views` list).
    case droidBot
    /// The old WebDriverAgent JSON page source (`{"value": {"tree": ...}}`).
    case webDriverAgentJSON

    /// The format of `data`, or nil when it is neither a JSON object nor an
    /// XML page source this library reads.
    ///
    /// XML is told by its document element (after any declaration, comments
    /// and doctype): `AppiumAUT` or `XCUIElementType*` is iOS, `hierarchy` (or
    /// a bare `node`) is uiautomator. A JSON object is told by its keys:
    /// top-level `format` or `root` is `axhit/1`, `views` is DroidBot, `value`
    /// holding `tree` is WebDriverAgent; any other JSON object (malformed too)
    /// counts as `axhit/1`, so that its reader reports what is missing.
    ///
    /// - Complexity: O(n) in the worst case (a JSON scan of the top-level
    ///   keys, skipping nested values); XML needs only the prologue.
    public static func detect(_ data: Data) -> TreeFormat? {
        data.withUnsafeBytes { raw -> TreeFormat? in
            let bytes = raw.bindMemory(to: UInt8.self)
            var i = 0
            // A UTF-8 byte order mark, then whitespace.
            if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { i = 3 }
            while i < bytes.count && isSpace(bytes[i]) { i += 1 }
            guard i < bytes.count else { return nil }
            switch bytes[i] {
            case UInt8(ascii: "{"): return detectJSON(bytes, from: i)
            case UInt8(ascii: "<"): return detectXML(bytes, from: i)
            default: return nil
            }
        }
    }

    private static func isSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D
    }

    private static func detectXML(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> TreeFormat? {
        var i = start
        while i < b.count {
            guard b[i] == UInt8(ascii: "<") else {
                if isSpace(b[i]) { i += 1; continue }
                return nil
            }
            let next = i + 1 < b.count ? b[i + 1] : 0
            if next == UInt8(ascii: "?") || next == UInt8(ascii: "!") {
                // Declaration, comment or doctype: skip to its end.
                let close: [UInt8] = next == UInt8(ascii: "?") ? Array("?>".utf8)
                    : (i + 3 < b.count && b[i + 2] == UInt8(ascii: "-") && b[i + 3] == UInt8(ascii: "-")) ? Array("-->".utf8)
                    : Array(">".utf8)
                guard let end = find(close, in: b, from: i + 2) else { return nil }
                i = end + close.count
                continue
            }
            var j = i + 1
            while j < b.count && !isSpace(b[j]) && b[j] != UInt8(ascii: ">") && b[j] != UInt8(ascii: "/") { j += 1 }
            let name = String(decoding: UnsafeBufferPointer(rebasing: b[(i + 1)..<j]), as: UTF8.self)
            if name == "AppiumAUT" || name.hasPrefix("XCUIElementType") { return .appiumIOS }
            if name == "hierarchy" || name == "node" { return .uiautomator }
            return nil
        }
        return nil
    }

    private static func find(_ needle: [UInt8], in b: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard needle.count > 0, b.count >= needle.count, start <= b.count - needle.count else { return nil }
        var i = start
        while i <= b.count - needle.count {
            if b[i] == needle[0] && needle.indices.allSatisfy({ b[i + $0] == needle[$0] }) { return i }
            i += 1
        }
        return nil
    }

    /// Walks the object's top level, reading keys and skipping values
    /// (strings with escapes, nested containers by depth).
    private static func detectJSON(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> TreeFormat {
        var i = start
        var depth = 0
        var keyAtDepth1: String?  // the top-level key whose value we are in
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                // Read the string.
                var j = i + 1
                while j < b.count && b[j] != UInt8(ascii: "\"") { j += b[j] == UInt8(ascii: "\\") ? 2 : 1 }
                let end = min(j, b.count)
                var k = end + 1
                while k < b.count && isSpace(b[k]) { k += 1 }
                let isKey = k < b.count && b[k] == UInt8(ascii: ":")
                if isKey && (depth == 1 || (depth == 2 && keyAtDepth1 == "value")) {
                    let key = String(decoding: UnsafeBufferPointer(rebasing: b[(i + 1)..<end]), as: UTF8.self)
                    if depth == 1 {
                        switch key {
                        case "format", "root": return .axhitJSON
                        case "views": return .droidBot
                        default: keyAtDepth1 = key
                        }
                    } else if key == "tree" {
                        return .webDriverAgentJSON
                    }
                }
                i = end + 1
                continue
            }
            if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") { depth += 1 }
            if c == UInt8(ascii: "}") || c == UInt8(ascii: "]") {
                depth -= 1
                if depth <= 0 { break }
            }
            i += 1
        }
        return .axhitJSON
    }
}

/// Reads `axhit/1` JSON.
///
/// - Throws: `TreeError` naming `file`, the line, the node and the key.
func readAXHitJSON(_ data: Data, file: String?) throws(TreeError) -> ElementTree {
    try ElementTree(axhitJSON: data, file: file)
}
