import Foundation

/// The nodes an importer read, in source pre-order, with screen-space frames,
/// before they become an `ElementTree`.
///
/// Importers fill it in source order; `makeTree` turns screen rects into
/// parent-relative frames (foreign formats give every rect in screen
/// coordinates), orders siblings back to front, adds a synthetic root when
/// the source has several top-level nodes, and appends everything in one
/// iterative pass, so any depth is fine.
struct ImportedHierarchy {
    /// Each node, its `frame` still in screen coordinates.
    var nodes: [Node] = []
    /// The index of each node's parent in `nodes`, or -1 for a top-level node.
    var parents: [Int] = []
    /// The 1-based source line of each node, when the source has lines.
    var lines: [Int?] = []
    /// An explicit z-order key among siblings (Android `drawing-order`), or nil.
    var zOrders: [Int?] = []

    /// Adds a node whose `frame` is in screen coordinates. `parent` must be an
    /// index already added, or -1.
    mutating func add(_ node: Node, parent: Int, line: Int? = nil, zOrder: Int? = nil) {
        nodes.append(node)
        parents.append(parent)
        lines.append(line)
        zOrders.append(zOrder)
    }

    /// The id a synthetic root gets. Importers' ids all contain `#`, so it
    /// cannot collide with them.
    static let syntheticRootID = "screen"

    /// The tree.
    ///
    /// - Parameters:
    ///   - topLevelFrontFirst: whether top-level nodes are listed frontmost
    ///     first (uiautomator lists windows top first) and must be reversed.
    ///   - screen: the screen rect a synthetic root covers at least (with the
    ///     union of the top-level frames); nil for just the union.
    /// - Complexity: O(n log k), k the largest sibling count (sorting by z-order).
    /// - Throws: `TreeError` (with `file` and the node's line) when the source
    ///   has no node, or a node is invalid (`Node.validate()`).
    func makeTree(file: String?, topLevelFrontFirst: Bool = false, screen: CGRect? = nil) throws(TreeError) -> ElementTree {
        let n = nodes.count
        guard n > 0 else { throw TreeError(.input, "the page source has no elements", file: file) }
        var children = [[Int]](repeating: [], count: n)
        var topLevel: [Int] = []
        for i in 0..<n {
            let p = parents[i]
            if p >= 0 && p < i { children[p].append(i) } else { topLevel.append(i) }
        }
        for p in 0..<n where children[p].count > 1 { children[p] = zOrdered(children[p]) }
        topLevel = zOrdered(topLevel)
        if topLevelFrontFirst { topLevel.reverse() }

        var tree = ElementTree()
        tree.reserveCapacity(n + 1)
        // (source index, parent in the tree, parent's screen origin)
        var stack: [(Int, NodeID, CGPoint)] = []
        if topLevel.count == 1, let only = topLevel.first {
            stack.append((only, .none, .zero))
        } else {
            var union = screen ?? .null
            for i in topLevel { union = union.union(nodes[i].frame) }
            if union.isNull { union = .zero }
            let root = try append(Node.view(Self.syntheticRootID, frame: union), under: .none, to: &tree, line: nil, file: file)
            for i in topLevel.reversed() { stack.append((i, root, union.origin)) }
        }
        while let (i, parent, origin) = stack.popLast() {
            var node = nodes[i]
            let screenOrigin = node.frame.origin
            // Frames are in the parent's bounds space; importers make no scroll
            // offsets or transforms, so that is the screen rect minus the
            // parent's screen origin. The root keeps its screen rect.
            node.frame.origin = CGPoint(x: screenOrigin.x - origin.x, y: screenOrigin.y - origin.y)
            let id = try append(node, under: parent, to: &tree, line: lines[i], file: file)
            for c in children[i].reversed() { stack.append((c, id, screenOrigin)) }
        }
        return tree
    }

    private func append(_ node: Node, under parent: NodeID, to tree: inout ElementTree, line: Int?, file: String?) throws(TreeError) -> NodeID {
        do {
            return try tree.append(node, under: parent)
        } catch {
            throw error.located(file: file, line: line)
        }
    }

    /// `indices` sorted by z-order key when every one has a key (stable, so
    /// equal keys keep source order); otherwise unchanged.
    private func zOrdered(_ indices: [Int]) -> [Int] {
        var keyed: [(key: Int, index: Int)] = []
        keyed.reserveCapacity(indices.count)
        for i in indices {
            guard let z = zOrders[i] else { return indices }
            keyed.append((z, i))
        }
        keyed.sort { $0.key != $1.key ? $0.key < $1.key : $0.index < $1.index }
        return keyed.map(\.index)
    }
}

/// Lenient readings of the scalar values foreign page sources write as text.
enum SourceValue {
    /// "true"/"1"/"yes" → true, "false"/"0"/"no" → false, anything else
    /// (absent, empty, garbage) → nil, so the caller's default applies.
    static func bool(_ s: String?) -> Bool? {
        guard let s else { return nil }
        switch s.trimmingCharacters(in: .whitespaces).lowercased() {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: return nil
        }
    }

    /// The string, or nil when absent or empty (sources write "" for "none").
    static func text(_ s: String?) -> String? {
        guard let s, !s.isEmpty else { return nil }
        return s
    }

    /// A finite number, nil when absent.
    ///
    /// - Throws: `TreeError` naming the node and key when present but not a
    ///   finite number.
    static func number(_ s: String?, key: String, node: String, line: Int?, file: String?) throws(TreeError) -> CGFloat? {
        guard let s else { return nil }
        guard let v = Double(s.trimmingCharacters(in: .whitespaces)), v.isFinite else {
            throw TreeError(.validation, "\"\(s)\" is not a finite number", file: file, line: line, node: node, key: key)
        }
        return CGFloat(v)
    }
}
