import Foundation

/// Reads the old WebDriverAgent JSON page source (`/source?format=json`, the
/// UIAutomation-era schema: `{"value": {"tree": node}}`, each node with
/// `type` such as `UIAButton`, `name`, `label`, `value`, `isEnabled` and
/// `isVisible` as "1"/"0", `rect: {origin: {x, y}, size: {width, height}}` in
/// screen points, and `children`) into a snapshot tree (`platform` ios,
/// `source` snapshot) of view nodes.
///
/// The mapping is `AppiumPageSource`'s, after dropping the `UIA` prefix and
/// renaming the old types to XCUITest's (TableCell → Cell, TableView → Table,
/// SearchBar → SearchField, Element → Other). One difference: a generic
/// `UIAElement` with a label is an accessibility element, since UIAutomation
/// listed only elements and their containers (the status bar's items).
/// `isVisible` → `visibleInSnapshot`. `id`: `<Type>#<n>` in pre-order. A
/// node without `rect` gets an empty frame at the origin; negative origins
/// (an off-screen page) are kept.
enum WebDriverAgentJSON {
    /// The tree of an old WebDriverAgent JSON page source.
    ///
    /// - Complexity: O(n) in the input size; iterative, so any depth is fine.
    /// - Throws: `TreeError` with `file`, line, node id and key for malformed
    ///   JSON, a bad `rect`, or a source with no tree.
    static func read(_ data: Data, file: String?, options: ImportOptions) throws(TreeError) -> ElementTree {
        try withBytes(of: data) { bytes throws(TreeError) in
            let lines = SourceLines(bytes: bytes)
            let document = try ForeignJSON.parse(bytes, file: file)
            guard let root = document["value"]?["tree"], root.isObject else {
                throw TreeError(
                    .input, "expected {\"value\": {\"tree\": {...}}}", file: file,
                    line: lines.line(at: document.offset), key: "value.tree")
            }
            var hierarchy = ImportedHierarchy()
            var stack: [(node: ForeignJSON, parent: Int)] = [(root, -1)]
            while let (raw, parent) = stack.popLast() {
                let rawType = raw["type"]?.string ?? ""
                let type = oldTypeName(rawType)
                let id = "\(type)#\(hierarchy.nodes.count)"
                var frame = CGRect.zero
                if let r = raw["rect"] {
                    frame = try rect(r, node: id, file: file, lines: lines)
                }
                let label = raw["label"]?.string
                var facts = IOSElementFacts(
                    type: type, frame: frame, name: raw["name"]?.text, label: label, value: raw["value"]?.text,
                    enabled: raw["isEnabled"]?.bool, visible: raw["isVisible"]?.bool,
                    accessible: nil, selected: nil, traits: nil)
                if rawType == "UIAElement" { facts.accessible = SourceValue.text(label) != nil }
                let index = hierarchy.nodes.count
                hierarchy.add(facts.node(id: id), parent: parent, offset: raw.offset)
                if let c = raw["children"] {
                    guard let children = c.array else {
                        throw TreeError(
                            .input, "expected an array", file: file, line: lines.line(at: c.offset),
                            node: id, key: "children")
                    }
                    for child in children.reversed() {
                        guard child.isObject else {
                            throw TreeError(
                                .input, "a child is not an object", file: file, line: lines.line(at: child.offset),
                                node: id, key: "children")
                        }
                        stack.append((child, index))
                    }
                }
            }
            let top = ImportedHierarchy.TopLevel(screen: hierarchy.applicationFrame)
            return try hierarchy.makeTree(platform: .ios, top: top, options: options, file: file, lines: lines)
        }
    }

    /// `UIATableCell` → `Cell`, `UIAButton` → `Button`.
    static func oldTypeName(_ raw: String) -> String {
        let t = raw.hasPrefix("UIA") ? String(raw.dropFirst(3)) : raw
        switch t {
        case "TableCell": return "Cell"
        case "TableView": return "Table"
        case "SearchBar": return "SearchField"
        case "Element", "": return "Other"
        default: return IOSElementFacts.shortType(t)
        }
    }

    /// `{origin: {x, y}, size: {width, height}}`.
    ///
    /// - Throws: `TreeError` naming the node and key `rect`: `.input` when
    ///   the shape is wrong, `.validation` for a number that is not finite
    ///   or a negative size.
    private static func rect(
        _ value: ForeignJSON, node: String, file: String?, lines: SourceLines
    ) throws(TreeError) -> CGRect {
        guard let o = value["origin"], let s = value["size"], let x = o["x"]?.number, let y = o["y"]?.number,
            let w = s["width"]?.number, let h = s["height"]?.number
        else {
            throw TreeError(
                .input, "expected {origin: {x, y}, size: {width, height}} of numbers", file: file,
                line: lines.line(at: value.offset), node: node, key: "rect")
        }
        let r = CGRect(x: x, y: y, width: w, height: h)
        if let problem = ValueRules.rectProblem(x: x, y: y, width: w, height: h) {
            throw TreeError(
                .validation, problem, file: file, line: lines.line(at: value.offset), node: node, key: "rect")
        }
        return r
    }
}
