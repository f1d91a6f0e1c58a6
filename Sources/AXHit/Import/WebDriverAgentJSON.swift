import Foundation

/// Reads the old WebDriverAgent JSON page source (`/source?format=json`, the
/// UIAutomation-era schema: `{"value": {"tree": node}}`, each node with
/// `type` such as `UIAButton`, `name`, `label`, `value`, `isEnabled` and
/// `isVisible` as "1"/"0", `rect: {origin: {x, y}, size: {width, height}}` in
/// screen points, and `children`) into a tree of view nodes.
///
/// The mapping is `AppiumPageSource`'s, after dropping the `UIA` prefix and
/// renaming the old types to XCUITest's (TableCell → Cell, TableView → Table,
/// SearchBar → SearchField, Element → Other). One difference: a generic
/// `UIAElement` with a label is an accessibility element, since UIAutomation listed only elements and their
/// containers (the status bar's items). `id`: `<Type>#<n>` in pre-order.
/// Negative origins (an off-screen page) are kept.
enum WebDriverAgentJSON {
    /// The tree of an old WebDriverAgent JSON page source.
    ///
    /// - Complexity: O(n) in the input size; iterative, so any depth is fine.
    /// - Throws: `TreeError` with `file`, node id and key for malformed JSON,
    ///   a node without a usable `rect`, or a source with no tree.
    static func read(_ data: Data, file: String?, options: ImportOptions) throws(TreeError) -> ElementTree {
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            throw TreeError(.input, "malformed JSON", file: file)
        }
        guard let top = object as? [String: Any], let value = top["value"] as? [String: Any],
              let root = value["tree"] as? [String: Any] else {
            throw TreeError(.input, "expected {\"value\": {\"tree\": ...}}", file: file, key: "value.tree")
        }
        var hierarchy = ImportedHierarchy()
        var stack: [(node: [String: Any], parent: Int)] = [(root, -1)]
        while let (raw, parent) = stack.popLast() {
            let type = oldTypeName(raw["type"] as? String ?? "")
            let id = "\(type)#\(hierarchy.nodes.count)"
            guard let frame = rect(raw["rect"]) else {
                throw TreeError(.input, "expected {origin: {x, y}, size: {width, height}} of finite numbers, sizes >= 0",
                                file: file, node: id, key: "rect")
            }
            let label = raw["label"] as? String
            var facts = IOSElementFacts(
                type: type, frame: frame, name: raw["name"] as? String, label: label,
                value: stringValue(raw["value"]),
                enabled: SourceValue.bool(stringValue(raw["isEnabled"])),
                visible: SourceValue.bool(stringValue(raw["isVisible"])),
                accessible: nil, selected: nil, traits: nil)
            if (raw["type"] as? String) == "UIAElement" { facts.accessible = SourceValue.text(label) != nil }
            let index = hierarchy.nodes.count
            hierarchy.add(facts.node(id: id, options: options), parent: parent)
            if let children = raw["children"] as? [Any] {
                for child in children.reversed() {
                    guard let c = child as? [String: Any] else {
                        throw TreeError(.input, "a child is not an object", file: file, node: id, key: "children")
                    }
                    stack.append((c, index))
                }
            }
        }
        var tree = try hierarchy.makeTree(file: file)
        if !tree.root.isNone { tree.screenBounds = tree[tree.root].frame }
        return tree
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

    private static func stringValue(_ v: Any?) -> String? {
        if let s = v as? String { return s }
        if let b = v as? Bool { return b ? "1" : "0" }
        if let d = ForeignJSONScalar.double(v) { return d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d) }
        return nil
    }

    private static func rect(_ value: Any?) -> CGRect? {
        guard let r = value as? [String: Any], let o = r["origin"] as? [String: Any],
              let s = r["size"] as? [String: Any] else { return nil }
        func num(_ d: [String: Any], _ k: String) -> CGFloat? {
            guard let v = ForeignJSONScalar.double(d[k]), v.isFinite else { return nil }
            return CGFloat(v)
        }
        guard let x = num(o, "x"), let y = num(o, "y"), let w = num(s, "width"), let h = num(s, "height"),
              w >= 0, h >= 0 else { return nil }
        return CGRect(x: x, y: y, width: w, height: h)
    }
}
