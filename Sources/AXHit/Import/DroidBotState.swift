import Foundation

/// Reads a DroidBot state file (JSON: a flat `views` list whose entries name
/// their `parent` index, -1 for a root) into a tree of view nodes.
///
/// Each view maps as a uiautomator node does (see `UIAutomatorDump`): `class`,
/// `text`, `content_description`, `resource_id`, `clickable`,
/// `long_clickable`, `checkable`, `checked`, `selected`, `enabled`, `visible`
/// and `bounds: [[x1, y1], [x2, y2]]` in screen pixels, divided by the
/// density. Children follow their parent in list order; `children` lists are
/// not needed. `id`: `<SimpleClass>#<i>` with `i` the view's index in
/// `views`. Several roots get a synthetic root `screen` covering their union;
/// they stay in list order (DroidBot keeps one window). `screenBounds` is the
/// root's frame.
enum DroidBotState {
    /// The tree of a DroidBot state.
    ///
    /// - Complexity: O(n) in the input size.
    /// - Throws: `TreeError` with `file`, node id and key for malformed JSON,
    ///   a view whose `bounds` or `parent` is unusable, a parent cycle, or a
    ///   state with no view.
    static func read(_ data: Data, file: String?, options: ImportOptions) throws(TreeError) -> ElementTree {
        let density = try options.checkedDensity(file: file)
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            throw TreeError(.input, "malformed JSON", file: file)
        }
        guard let top = object as? [String: Any], let views = top["views"] as? [Any] else {
            throw TreeError(.input, "expected an object with a \"views\" list", file: file, key: "views")
        }
        // Read every view, then emit them in pre-order so parents precede
        // children whatever order the list uses.
        var facts: [AndroidNodeFacts] = []
        var parents: [Int] = []
        facts.reserveCapacity(views.count)
        for (i, raw) in views.enumerated() {
            guard let v = raw as? [String: Any] else {
                throw TreeError(.input, "view \(i) is not an object", file: file, key: "views")
            }
            let className = v["class"] as? String ?? ""
            let id = "\(AndroidNodeFacts.simpleName(className))#\(i)"
            guard let rect = pixelRect(v["bounds"]) else {
                throw TreeError(.input, "expected [[x1, y1], [x2, y2]] of finite numbers", file: file, node: id, key: "bounds")
            }
            let parent = ForeignJSONScalar.int(v["parent"]) ?? -1
            guard parent >= -1 && parent < views.count && parent != i else {
                throw TreeError(.validation, "parent \(parent) is not a view index", file: file, node: id, key: "parent")
            }
            parents.append(parent)
            func flag(_ key: String) -> Bool { ForeignJSONScalar.bool(v[key]) ?? false }
            facts.append(AndroidNodeFacts(
                className: className, pixelBounds: rect,
                text: v["text"] as? String, contentDescription: v["content_description"] as? String,
                resourceID: v["resource_id"] as? String, hint: nil,
                clickable: flag("clickable"), longClickable: flag("long_clickable"), checkable: flag("checkable"),
                checked: flag("checked"), selected: flag("selected"),
                enabled: ForeignJSONScalar.bool(v["enabled"]) ?? true, visible: ForeignJSONScalar.bool(v["visible"]) ?? true))
        }
        var children = [[Int]](repeating: [], count: facts.count)
        var roots: [Int] = []
        for (i, p) in parents.enumerated() {
            if p < 0 { roots.append(i) } else { children[p].append(i) }
        }
        var hierarchy = ImportedHierarchy()
        var reached = [Bool](repeating: false, count: facts.count)
        var stack: [(view: Int, parentNode: Int)] = roots.reversed().map { ($0, -1) }
        while let (i, parentNode) = stack.popLast() {
            reached[i] = true
            let node = hierarchy.nodes.count
            hierarchy.add(facts[i].node(id: id(of: i, facts), density: density, options: options), parent: parentNode)
            for c in children[i].reversed() { stack.append((c, node)) }
        }
        // A view never reached from a root sits on a parent cycle.
        if let lost = reached.firstIndex(of: false) {
            throw TreeError(.validation, "parent chain loops without reaching a root", file: file,
                            node: id(of: lost, facts), key: "parent")
        }
        var tree = try hierarchy.makeTree(file: file)
        tree.screenBounds = tree.root.isNone ? nil : tree[tree.root].frame
        tree.screenScale = density
        return tree
    }

    private static func id(of view: Int, _ facts: [AndroidNodeFacts]) -> String {
        "\(AndroidNodeFacts.simpleName(facts[view].className))#\(view)"
    }

    /// `[[x1, y1], [x2, y2]]` → a rect with size >= 0, or nil.
    private static func pixelRect(_ value: Any?) -> CGRect? {
        guard let corners = value as? [Any], corners.count == 2,
              let a = corners[0] as? [Any], let b = corners[1] as? [Any], a.count == 2, b.count == 2 else { return nil }
        var v: [CGFloat] = []
        for n in a + b {
            guard let d = ForeignJSONScalar.double(n), d.isFinite else { return nil }
            v.append(CGFloat(d))
        }
        return CGRect(x: v[0], y: v[1], width: max(0, v[2] - v[0]), height: max(0, v[3] - v[1]))
    }
}

/// Scalars out of `JSONSerialization` results, whichever way the platform
/// boxes them (NSNumber, Bool, Int, Double).
enum ForeignJSONScalar {
    static func double(_ v: Any?) -> Double? {
        switch v {
        case let d as Double: return d
        case let i as Int: return Double(i)
        case let n as NSNumber: return n.doubleValue
        default: return nil
        }
    }

    static func int(_ v: Any?) -> Int? {
        guard let d = double(v), d.isFinite, d == d.rounded(), abs(d) < 1e15 else { return nil }
        return Int(d)
    }

    static func bool(_ v: Any?) -> Bool? {
        switch v {
        case let b as Bool: return b
        case let s as String: return SourceValue.bool(s)
        default: return nil
        }
    }
}
