import Foundation

/// Reads a DroidBot state file (JSON: a flat `views` list whose entries name
/// their `parent` index) into a snapshot tree (`platform` android, `source`
/// snapshot) of view nodes. Both schemas:
///
/// - 2017 (`state_*.json`): `content_description`, `resource_id`,
///   `long_clickable`, JSON booleans, `visible`, `parent: -1` for the root.
/// - 2016 (`device_state_*.json`): uiautomator's own names
///   (`content-desc`, `resource-id`, `long-clickable`), booleans written as
///   `"true"`/`"false"`, `parent: null` for the root, no visibility flag.
///
/// Each view maps as a uiautomator node does (`UIAutomatorDump`): `class`,
/// `text`, the content description, the resource id, `clickable`,
/// long-clickable, `checkable`, `focusable`, `scrollable` (→ `actions`),
/// `class` (→ `className`), `package` (→ `packageName`), `checked`,
/// `selected`, `enabled`, `visible` (→ `visibleInSnapshot`) and
/// `bounds: [[x1, y1], [x2, y2]]` in screen pixels, kept in pixels (an
/// empty frame at the origin when absent). Children follow their parent in
/// list order; `children` lists are not needed. `id`:
/// `<SimpleClass>#<i>` with `i` the view's index in `views` (`View` when a
/// view has no class). Each root is a window; several get a synthetic root
/// `screen`, reversed into back-to-front order as uiautomator's windows (a
/// DroidBot state is read from a dump, topmost first). `screenBounds` is the
/// root's frame; `screenScale` is left unset.
enum DroidBotState {
    /// The tree of a DroidBot state.
    ///
    /// - Complexity: O(n) in the input size.
    /// - Throws: `TreeError` with `file`, line, node id and key for malformed
    ///   JSON, a view whose `bounds` or `parent` is unusable, a parent cycle,
    ///   or a state with no view.
    static func read(_ data: Data, file: String?, options: ImportOptions) throws(TreeError) -> ElementTree {
        try withBytes(of: data) { bytes throws(TreeError) in
            let lines = SourceLines(bytes: bytes)
            let document = try ForeignJSON.parse(bytes, file: file)
            guard let views = document["views"]?.array else {
                throw TreeError(
                    .input, "expected an object with a \"views\" list", file: file,
                    line: lines.line(at: document.offset), key: "views")
            }
            // Read every view, then emit them in pre-order so parents precede
            // children whatever order the list uses.
            var nodes: [ImportedNode] = []
            var parents: [Int] = []
            var ids: [String] = []
            var classes = AndroidClasses()
            nodes.reserveCapacity(views.count)
            for (i, v) in views.enumerated() {
                guard v.isObject else {
                    throw TreeError(
                        .input, "view \(i) is not an object", file: file, line: lines.line(at: v.offset), key: "views")
                }
                let className = v["class"]?.string ?? ""
                let kind = className.isEmpty ? "View" : classes.facts(ofClass: className).0
                let id = "\(kind)#\(i)"
                func fail(_ kind: TreeError.Kind, _ message: String, _ key: String, at value: ForeignJSON) -> TreeError
                {
                    TreeError(kind, message, file: file, line: lines.line(at: value.offset), node: id, key: key)
                }
                var bounds = CGRect.zero
                if let b = v["bounds"] {
                    guard let rect = pixelRect(b) else {
                        throw fail(.input, "expected [[x1, y1], [x2, y2]] of numbers", "bounds", at: b)
                    }
                    if let problem = ValueRules.rectProblem(rect) { throw fail(.validation, problem, "bounds", at: b) }
                    bounds = rect
                }
                var parent = -1
                if let p = v["parent"] {
                    guard let d = p.number, d == d.rounded(), abs(d) < 1e15 else {
                        throw fail(.input, "expected a view index, -1 or null", "parent", at: p)
                    }
                    parent = Int(d)
                    guard parent >= -1 && parent < views.count && parent != i else {
                        throw fail(.validation, "parent \(parent) is not a view index", "parent", at: p)
                    }
                }
                parents.append(parent)
                ids.append(id)
                func flag(_ keys: String...) -> Bool {
                    keys.lazy.compactMap { v[$0]?.bool }.first ?? false
                }
                var actions: NodeActions = []
                if flag("clickable") { actions.insert(.click) }
                if flag("long_clickable", "long-clickable") { actions.insert(.longClick) }
                if flag("checkable") { actions.insert(.check) }
                if flag("focusable") { actions.insert(.focus) }
                if flag("scrollable") { actions.insert(.scroll) }
                var facts = AndroidNodeFacts(
                    classTraits: classes.facts(ofClass: className).1, bounds: bounds,
                    text: v["text"]?.text, contentDescription: v[either: "content_description", "content-desc"]?.text,
                    resourceID: v[either: "resource_id", "resource-id"]?.text, hint: nil, actions: actions,
                    selected: flag("selected"), enabled: v["enabled"]?.bool ?? true,
                    visible: v["visible"]?.bool, heading: false)
                facts.className = className.isEmpty ? nil : className
                facts.packageName = v["package"]?.text
                facts.checkedFlag = v["checked"]?.bool
                facts.password = flag("is_password", "password")
                nodes.append(facts.node(id: id))
            }
            var children = [[Int]](repeating: [], count: nodes.count)
            var roots: [Int] = []
            for (i, p) in parents.enumerated() {
                if p < 0 { roots.append(i) } else { children[p].append(i) }
            }
            var hierarchy = ImportedHierarchy()
            hierarchy.reserveCapacity(nodes.count)
            var reached = [Bool](repeating: false, count: nodes.count)
            var stack: [(view: Int, parentNode: Int)] = roots.reversed().map { ($0, -1) }
            while let (i, parentNode) = stack.popLast() {
                reached[i] = true
                let index = hierarchy.nodes.count
                hierarchy.add(nodes[i], parent: parentNode, offset: views[i].offset)
                for c in children[i].reversed() { stack.append((c, index)) }
            }
            // A view never reached from a root sits on a parent cycle.
            if let lost = reached.firstIndex(of: false) {
                throw TreeError(
                    .validation, "parent chain loops without reaching a root", file: file,
                    line: lines.line(at: views[lost].offset), node: ids[lost], key: "parent")
            }
            return try hierarchy.makeTree(
                platform: .android, top: .init(frontFirst: true, areWindows: true),
                options: options, file: file, lines: lines)
        }
    }

    /// `[[x1, y1], [x2, y2]]` → a rect with size >= 0 (maybe not finite), or
    /// nil when it is not two pairs of numbers.
    private static func pixelRect(_ value: ForeignJSON) -> CGRect? {
        guard let corners = value.array, corners.count == 2,
            let a = corners[0].array, let b = corners[1].array, a.count == 2, b.count == 2
        else { return nil }
        var v: [Double] = []
        for n in a + b {
            guard let d = n.number else { return nil }
            v.append(d)
        }
        return CGRect(x: v[0], y: v[1], width: max(0, v[2] - v[0]), height: max(0, v[3] - v[1]))
    }
}
