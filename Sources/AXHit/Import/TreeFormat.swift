import Foundation

/// The kinds of input an `ElementTree` is read from, told apart by content
/// (never by file name).
public enum TreeFormat: String, Sendable, Hashable, CaseIterable {
    /// AXHit's own `axhit/1` JSON (tree-format.md).
    case axhitJSON
    /// An Appium iOS (XCUITest / WebDriverAgent) XML page source.
    case appiumIOS
    /// `idb ui describe-all` JSON: a flat list of elements, or nested ones.
    case idbJSON
    /// An Android uiautomator dump: classic, Appium UiAutomator2, or as
    /// `adb exec-out uiautomator dump /dev/tty` prints it.
    case uiautomator
    /// A DroidBot state file (JSON with a flat `views` list), of the 2017
    /// or the 2016 (`device_state`) schema.
    case droidBot
    /// The old WebDriverAgent JSON page source (`{"value": {"tree": ...}}`).
    case webDriverAgentJSON

    /// The format in words, as errors name it.
    public var displayName: String {
        switch self {
        case .axhitJSON: return "an axhit/1 JSON file"
        case .appiumIOS: return "an Appium iOS page source"
        case .idbJSON: return "idb ui describe-all JSON (flat or nested)"
        case .uiautomator:
            return "an Android uiautomator dump (also as adb exec-out uiautomator dump /dev/tty prints it)"
        case .droidBot: return "a DroidBot state (either schema)"
        case .webDriverAgentJSON: return "an old WebDriverAgent JSON page source"
        }
    }

    /// Every format that is read, in words, for the error that input of an
    /// unknown kind gets.
    static var everyDisplayName: String {
        let names = allCases.map(\.displayName)
        return names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    }

    /// The format of `data`, or nil when it is none that this library
    /// reads.
    ///
    /// JSON is told by its keys: a top-level `format` or `root` is
    /// `axhit/1`; `views` is DroidBot; `value` holding `tree` is
    /// WebDriverAgent; a top-level array of objects with idb's keys
    /// (`AXFrame`, `AXLabel`, `AXUniqueId`, `AXValue`, `role`, or both
    /// `type` and `frame`), or one such object, is idb. XML is told by its document element (after any
    /// declaration, comments and doctype): `AppiumAUT` or
    /// `XCUIElementType*` is iOS, `hierarchy` (or a bare `node`) is
    /// uiautomator, also after adb's `UI hierchary dumped to:` line.
    ///
    /// - Complexity: O(n) in the worst case (a scan of a JSON object's
    ///   top-level keys, stepping over nested values); XML needs only the
    ///   prologue.
    public static func detect(_ data: Data) -> TreeFormat? {
        if case let .read(format) = recognize(data) { return format }
        return nil
    }

    /// What detection found.
    enum Recognition: Equatable {
        /// A format this library reads.
        case read(TreeFormat)
        /// A known format this library does not read, in words
        /// ("a Maestro Studio screen JSON").
        case refused(String)
        /// Nothing known.
        case unknown
    }

    /// What `data` is: a format that is read, one that is recognised and
    /// refused, or unknown. See `detect`.
    static func recognize(_ data: Data) -> Recognition {
        data.withUnsafeBytes { raw -> Recognition in
            let bytes = raw.bindMemory(to: UInt8.self)
            var i = 0
            // A UTF-8 byte order mark, then whitespace.
            if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { i = 3 }
            while i < bytes.count && isSpace(bytes[i]) { i += 1 }
            guard i < bytes.count else { return .unknown }
            switch bytes[i] {
            case UInt8(ascii: "{"):
                return detectJSON(bytes, from: i)
            case UInt8(ascii: "["):
                // idb's flat list: its first element tells.
                var j = i + 1
                while j < bytes.count && isSpace(bytes[j]) { j += 1 }
                guard j < bytes.count, bytes[j] == UInt8(ascii: "{") else { return .unknown }
                let r = detectJSON(bytes, from: j)
                return r == .read(.idbJSON) ? r : .unknown
            case UInt8(ascii: "<"):
                return detectXML(bytes, from: i)
            default:
                guard let end = devTTYBannerEnd(bytes) else { return .unknown }
                let r = detectXML(bytes, from: end)
                return r == .read(.uiautomator) ? r : .unknown
            }
        }
    }

    /// The words `adb exec-out uiautomator dump /dev/tty` prints with the
    /// dump (adb's own spelling, and the corrected one).
    private static let devTTYBanners = ["UI hierchary dumped to:", "UI hierarchy dumped to:"]

    /// When `bytes` begin (after a byte order mark and whitespace) with
    /// adb's `UI hierchary dumped to: ...` line: the offset after that line.
    static func devTTYBannerEnd(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { i = 3 }
        while i < bytes.count && isSpace(bytes[i]) { i += 1 }
        guard
            devTTYBanners.contains(where: { banner in
                let b = Array(banner.utf8)
                return i + b.count <= bytes.count && bytes[i ..< (i + b.count)].elementsEqual(b)
            })
        else { return nil }
        while i < bytes.count && bytes[i] != 0x0A { i += 1 }
        return i
    }

    private static func isSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D
    }

    private static func detectXML(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> Recognition {
        var i = start
        while i < b.count {
            guard b[i] == UInt8(ascii: "<") else {
                if isSpace(b[i]) {
                    i += 1
                    continue
                }
                return .unknown
            }
            let next = i + 1 < b.count ? b[i + 1] : 0
            if next == UInt8(ascii: "?") || next == UInt8(ascii: "!") {
                // Declaration, comment or doctype: skip to its end.
                let close: [UInt8] =
                    next == UInt8(ascii: "?")
                    ? Array("?>".utf8)
                    : (i + 3 < b.count && b[i + 2] == UInt8(ascii: "-") && b[i + 3] == UInt8(ascii: "-"))
                        ? Array("-->".utf8)
                        : Array(">".utf8)
                guard let end = find(close, in: b, from: i + 2) else { return .unknown }
                i = end + close.count
                continue
            }
            var j = i + 1
            while j < b.count && !isSpace(b[j]) && b[j] != UInt8(ascii: ">") && b[j] != UInt8(ascii: "/") { j += 1 }
            let name = String(decoding: UnsafeBufferPointer(rebasing: b[(i + 1) ..< j]), as: UTF8.self)
            if name == "AppiumAUT" || name.hasPrefix("XCUIElementType") { return .read(.appiumIOS) }
            if name == "hierarchy" || name == "node" { return .read(.uiautomator) }
            if name == "UI" { return .refused("an Appium universal-xml page source (a <UI> document)") }
            return .unknown
        }
        return .unknown
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

    /// The top-level keys of idb's elements that no other format has.
    private static let idbKeys: Set<String> = ["AXFrame", "AXLabel", "AXUniqueId", "AXValue", "role"]

    /// Walks the object at `start`'s top level, reading keys and skipping
    /// values (strings with escapes, nested containers by depth). Malformed
    /// JSON is told as far as it goes; its reader reports what is wrong.
    private static func detectJSON(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> Recognition {
        var i = start
        var depth = 0
        var keyAtDepth1: String?  // the top-level key whose value we are in
        var keys: Set<String> = []
        var wdaTree = false
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                var j = i + 1
                while j < b.count && b[j] != UInt8(ascii: "\"") { j += b[j] == UInt8(ascii: "\\") ? 2 : 1 }
                let end = min(j, b.count)
                var k = end + 1
                while k < b.count && isSpace(b[k]) { k += 1 }
                let isKey = k < b.count && b[k] == UInt8(ascii: ":")
                if isKey && (depth == 1 || (depth == 2 && keyAtDepth1 == "value")) {
                    let key = String(decoding: UnsafeBufferPointer(rebasing: b[(i + 1) ..< end]), as: UTF8.self)
                    if depth == 1 {
                        // Only a top-level `format` or `root` makes axhit/1.
                        if key == "format" || key == "root" { return .read(.axhitJSON) }
                        keyAtDepth1 = key
                        keys.insert(key)
                    } else if key == "tree" {
                        wdaTree = true
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
        if keys.contains("views") { return .read(.droidBot) }
        if wdaTree { return .read(.webDriverAgentJSON) }
        if keys.contains("screenshot") && keys.contains("elements") { return .refused("a Maestro Studio screen JSON") }
        if !keys.isDisjoint(with: idbKeys) || keys.isSuperset(of: ["type", "frame"]) { return .read(.idbJSON) }
        return .unknown
    }
}
