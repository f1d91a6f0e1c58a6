import Foundation

/// Reads `idb ui describe-all` JSON into a snapshot tree (`platform` ios,
/// `source` snapshot) of view nodes. Both shapes idb prints:
///
/// - flat (`--json`): a top-level array of elements with no parent links.
///   Every entry is a top-level node, under a synthetic root `screen`
///   covering their union, in list order (back to front).
/// - nested (`--nested`): the same elements, each with `children`.
///
/// Each element's fields, all optional:
///
/// - `frame` `{x, y, width, height}`, else `AXFrame` `"{{x, y}, {w, h}}"`:
///   screen points; neither → an empty frame at the origin. A frame that is
///   not one, a number that is not finite or a negative size is an error
///   naming the node and the key.
/// - `type` (`Button`, `StaticText`, `Heading`, `Group`...; else `role`
///   without its `AX` prefix, else `Element`) names the node: `id` is
///   `<type>#<n>`, n the element's 0-based pre-order number. The type
///   decides `isAccessibilityElement` as for an Appium source without
///   `accessible` (`AppiumPageSource`: the spec's default element types,
///   Image with a label; `Heading` and `Group` are not among them) and the
///   traits (`Heading` → header).
/// - `AXLabel` → `accessibilityLabel`, `AXValue` → `accessibilityValue`
///   (a number is written out), `AXUniqueId` → `accessibilityIdentifier`,
///   `help` → `accessibilityHint`; null or empty is absent.
/// - `enabled: false` → the `notEnabled` trait.
/// - `role`, `role_description`, `subrole`, `title`, `content_required` and
///   `custom_actions` are not used: the model has nothing that they would
///   change (custom actions are VoiceOver rotor entries, not geometry).
///
/// idb has no visibility flag: `visibleInSnapshot` stays unset.
/// `screenBounds` is the first `Application`'s frame.
enum IDBDescribeAll {
    /// The tree of an idb describe-all document.
    ///
    /// - Complexity: O(n) in the input size; iterative.
    /// - Throws: `TreeError` with `file`, line, node id and key for malformed
    ///   JSON, a bad frame, or no element.
    static func read(_ data: Data, file: String?, options: ImportOptions) throws(TreeError) -> ElementTree {
        try withBytes(of: data) { bytes throws(TreeError) in
            let lines = SourceLines(bytes: bytes)
            let document = try ForeignJSON.parse(bytes, file: file)
            let elements = document.array ?? [document]
            var hierarchy = ImportedHierarchy()
            var stack: [(element: ForeignJSON, parent: Int)] = elements.reversed().map { ($0, -1) }
            while let (e, parent) = stack.popLast() {
                guard e.isObject else {
                    throw TreeError(.input, "an element is not an object", file: file, line: lines.line(at: e.offset))
                }
                var type =
                    e["type"]?.string ?? e["role"]?.string.map { $0.hasPrefix("AX") ? String($0.dropFirst(2)) : $0 }
                    ?? ""
                if type.isEmpty { type = "Element" }
                let id = "\(type)#\(hierarchy.nodes.count)"
                func fail(_ kind: TreeError.Kind, _ message: String, _ key: String, at value: ForeignJSON) -> TreeError
                {
                    TreeError(kind, message, file: file, line: lines.line(at: value.offset), node: id, key: key)
                }
                var frame = CGRect.zero
                if let f = e["frame"] {
                    guard let x = f["x"]?.number, let y = f["y"]?.number, let w = f["width"]?.number,
                        let h = f["height"]?.number
                    else {
                        throw fail(.input, "expected {x, y, width, height} of numbers", "frame", at: f)
                    }
                    frame = CGRect(x: x, y: y, width: w, height: h)
                    if let problem = ValueRules.rectProblem(frame) { throw fail(.validation, problem, "frame", at: f) }
                } else if let f = e["AXFrame"] {
                    guard let s = f.string, let r = axFrame(s) else {
                        throw fail(
                            .input,
                            "expected \"{{x, y}, {width, height}}\", got \(SourceValue.echo(f.text ?? "a non-string"))",
                            "AXFrame", at: f)
                    }
                    if let problem = ValueRules.rectProblem(r) { throw fail(.validation, problem, "AXFrame", at: f) }
                    frame = r
                }
                let facts = IOSElementFacts(
                    type: type, frame: frame, name: e["AXUniqueId"]?.text, label: e["AXLabel"]?.text,
                    value: e["AXValue"]?.text, hint: e["help"]?.text, enabled: e["enabled"]?.bool,
                    visible: nil, accessible: nil, selected: nil, traits: nil)
                let index = hierarchy.nodes.count
                hierarchy.add(facts.node(id: id), parent: parent, offset: e.offset)
                if let c = e["children"] {
                    guard let children = c.array else { throw fail(.input, "expected an array", "children", at: c) }
                    for child in children.reversed() { stack.append((child, index)) }
                }
            }
            let top = ImportedHierarchy.TopLevel(screen: hierarchy.applicationFrame)
            return try hierarchy.makeTree(platform: .ios, top: top, options: options, file: file, lines: lines)
        }
    }

    /// `"{{x, y}, {w, h}}"` (NSStringFromCGRect) → a rect, or nil.
    static func axFrame(_ s: String) -> CGRect? {
        let parts = s.split(whereSeparator: { "{}, ".contains($0) })
        guard parts.count == 4 else { return nil }
        var v: [Double] = []
        for p in parts {
            guard let d = Double(p) else { return nil }
            v.append(d)
        }
        return CGRect(x: v[0], y: v[1], width: v[2], height: v[3])
    }
}
