import Foundation

/// What the tree keeps of one node of a foreign page source, its frame
/// still in screen coordinates. Importers make every node a view.
struct ImportedNode {
    /// `<Kind>#<n>` (tree-format.md, "Node ids of imported trees").
    var id: String
    /// Screen coordinates: points (iOS) or pixels (Android).
    var frame: CGRect
    var isAccessibilityElement = false
    var label: String?
    var value: String?
    var hint: String?
    var identifier: String?
    var traits: AccessibilityTraits = []
    var visibleInSnapshot: Bool?
    var actions: NodeActions = []
    var checked: Bool?
    var importantForAccessibility: Bool?
    var labelIsText = false
    var isPassword = false
    var className: String?
    var packageName: String?
    var accessibilityIndex: Int?
}

/// The nodes an importer read, in source pre-order, before they become an
/// `ElementTree`.
///
/// Importers fill it in source order; `makeTree` turns screen rects into
/// parent-relative frames (foreign formats give every rect in screen
/// coordinates), orders siblings back to front, adds a synthetic root when
/// the source has several top-level nodes, and appends everything through
/// the tree's write path in one iterative pass, so any depth is fine.
struct ImportedHierarchy {
    var nodes: [ImportedNode] = []
    /// The index of each node's parent in `nodes`, or -1 for a top-level node.
    var parents: [Int] = []
    /// Where each node starts in the source (a byte offset, for the line of
    /// an error), or -1.
    var offsets: [Int] = []
    /// An explicit z-order key among siblings (Android `drawing-order`), or
    /// `Int.min` for none.
    var zOrders: [Int] = []

    /// The id a synthetic root gets. Importers' ids all contain `#`, so it
    /// cannot collide with them.
    static let syntheticRootID = "screen"

    /// Room for about `n` nodes.
    mutating func reserveCapacity(_ n: Int) {
        nodes.reserveCapacity(n)
        parents.reserveCapacity(n)
        offsets.reserveCapacity(n)
        zOrders.reserveCapacity(n)
    }

    /// Adds a node whose `frame` is in screen coordinates. `parent` must be
    /// an index already added, or -1.
    mutating func add(_ node: consuming ImportedNode, parent: Int, offset: Int = -1, zOrder: Int? = nil) {
        nodes.append(node)
        parents.append(parent)
        offsets.append(offset)
        zOrders.append(zOrder ?? .min)
    }

    /// How the top level of a source is laid out.
    struct TopLevel {
        /// Top-level nodes are listed frontmost first (uiautomator lists
        /// windows so) and are reversed into back-to-front order.
        var frontFirst = false
        /// Top-level nodes are windows (`isWindow`: Android).
        var areWindows = false
        /// The screen, if the source says: the tree's `screenBounds` (else
        /// the root's frame), which a synthetic root covers as well as
        /// every top-level frame.
        var screen: CGRect?
    }

    /// The tree: a snapshot of `platform`. The nodes' strings are moved
    /// into it (mutating: the nodes' buffer is this hierarchy's alone, so
    /// moving them copies nothing); the hierarchy is spent.
    ///
    /// - Parameters:
    ///   - top: how the top level is laid out.
    ///   - options: applied whole (`ImportOptions.apply`):
    ///     `trustsVisibilityFlags` hides a node the source calls invisible,
    ///     as the node is added.
    ///   - lines: the source's lines, for errors.
    /// - Complexity: O(n log k), k the largest sibling count (sorting by z-order).
    /// - Throws: `TreeError` (`.input`, naming `file`) when the source has no
    ///   node; (`.validation`, with the node's line, id and key `frame`) when
    ///   a parent-relative frame is not finite.
    mutating func makeTree(
        platform: Platform, top: TopLevel, options: ImportOptions, file: String?,
        lines: SourceLines
    ) throws(TreeError) -> ElementTree {
        let n = nodes.count
        guard n > 0 else { throw TreeError(.input, "the page source has no elements", file: file) }
        // Children of each node, back to back (parents precede children).
        var topLevel: [Int] = []
        var firstChild = [Int](repeating: 0, count: n + 1)
        for i in 0 ..< n {
            let p = parents[i]
            if p >= 0 && p < i { firstChild[p + 1] += 1 } else { topLevel.append(i) }
        }
        for i in 0 ..< n { firstChild[i + 1] += firstChild[i] }
        var children = [Int](repeating: 0, count: firstChild[n])
        var fill = firstChild
        for i in 0 ..< n {
            let p = parents[i]
            if p >= 0 && p < i {
                children[fill[p]] = i
                fill[p] += 1
            }
        }
        for p in 0 ..< n where firstChild[p + 1] - firstChild[p] > 1 {
            let range = firstChild[p] ..< firstChild[p + 1]
            zOrder(&children[range])
            // Where drawing order moved a child, each child keeps its place
            // in the source's order (the accessibility order, for TalkBack).
            // Children were in source order, that is increasing index.
            if !children[range].elementsEqual(children[range].sorted()) {
                for (k, c) in children[range].sorted().enumerated() { nodes[c].accessibilityIndex = k }
            }
        }
        // Windows are not siblings in a view: their drawing order says
        // nothing about one another. Document order, reversed when the
        // source lists the frontmost first.
        if top.frontFirst { topLevel.reverse() }

        var tree = ElementTree()
        tree.platform = platform
        tree.source = .snapshot
        tree.reserveForLoading(n + 1, extras: n)
        // (source index, parent in the tree, parent's screen origin, top level)
        var stack: [(Int, NodeID, CGPoint, Bool)] = []
        if topLevel.count == 1, let only = topLevel.first {
            stack.append((only, .none, .zero, true))
        } else {
            var union = top.screen ?? .null
            for i in topLevel { union = union.union(nodes[i].frame) }
            if union.isNull { union = .zero }
            var root = NodeRecord()
            root.name = Self.syntheticRootID
            root.frame = union
            let id = try tree.add(&root, named: true, final: true, under: .none)
            for i in topLevel.reversed() { stack.append((i, id, union.origin, true)) }
        }
        while let (i, parent, origin, isTop) = stack.popLast() {
            var record = NodeRecord()
            // Fields one by one: a copy of the node would retain its strings.
            let frame = nodes[i].frame
            // Frames are in the parent's bounds space; importers make no
            // scroll offsets or transforms, so that is the screen rect minus
            // the parent's screen origin. The root keeps its screen rect.
            record.frame = CGRect(
                x: frame.minX - origin.x, y: frame.minY - origin.y, width: frame.width, height: frame.height)
            if let problem = ValueRules.rectProblem(record.frame) {
                throw TreeError(
                    .validation, problem, file: file, line: offsets[i] >= 0 ? lines.line(at: offsets[i]) : nil,
                    node: nodes[i].id, key: "frame")
            }
            if nodes[i].isAccessibilityElement { record.flags.insert(.accessibilityElement) }
            if options.hides(visibleInSnapshot: nodes[i].visibleInSnapshot) { record.flags.insert(.hidden) }
            if top.areWindows && isTop { record.flags.insert(.window) }
            // The strings are moved, not copied: each node is read once.
            swap(&record.name, &nodes[i].id)
            swap(&record.extras.label, &nodes[i].label)
            swap(&record.extras.value, &nodes[i].value)
            swap(&record.extras.hint, &nodes[i].hint)
            swap(&record.extras.identifier, &nodes[i].identifier)
            record.extras.traits = nodes[i].traits
            record.extras.visibleInSnapshot = nodes[i].visibleInSnapshot
            record.extras.actions = nodes[i].actions
            record.extras.checked = nodes[i].checked
            record.extras.importantForAccessibility = nodes[i].importantForAccessibility
            record.extras.labelIsText = nodes[i].labelIsText
            record.extras.isPassword = nodes[i].isPassword
            if nodes[i].className != nil { swap(&record.extras.className, &nodes[i].className) }
            if nodes[i].packageName != nil { swap(&record.extras.packageName, &nodes[i].packageName) }
            record.extras.accessibilityIndex = nodes[i].accessibilityIndex
            record.hasExtras =
                record.extras.label != nil || record.extras.value != nil || record.extras.hint != nil
                || record.extras.identifier != nil || !record.extras.traits.isEmpty
                || record.extras.visibleInSnapshot != nil || !record.extras.actions.isEmpty
                || record.extras.checked != nil || record.extras.importantForAccessibility != nil
                || record.extras.className != nil || record.extras.packageName != nil
                || record.extras.accessibilityIndex != nil || record.extras.labelIsText || record.extras.isPassword
            // Ids are unique (`Kind#n`) and the structure is a tree, so
            // this cannot fail; a failure would be a bug, reported as such.
            let id = try tree.add(&record, named: true, final: true, under: parent)
            let screenOrigin = frame.origin
            var c = firstChild[i + 1]
            while c > firstChild[i] {
                c -= 1
                stack.append((children[c], id, screenOrigin, false))
            }
        }
        tree.screenBounds = top.screen ?? tree.nodeValue(tree.root).frame
        try options.apply(to: &tree, flagsApplied: true)
        return tree
    }

    /// The frame of the first `Application` node: an iOS source's screen
    /// (a flat idb list has no single root).
    var applicationFrame: CGRect? {
        nodes.first(where: { $0.id.hasPrefix("Application#") })?.frame
    }

    /// Sorts `indices` by z-order key when every one has a key (stable, so
    /// equal keys keep source order); otherwise leaves them.
    private func zOrder(_ indices: inout ArraySlice<Int>) {
        for i in indices where zOrders[i] == .min { return }
        // Source order is index order: sorting by (key, index) is stable.
        indices.sort { zOrders[$0] != zOrders[$1] ? zOrders[$0] < zOrders[$1] : $0 < $1 }
    }
}

/// Lenient readings of the scalar values foreign page sources write as text.
enum SourceValue {
    /// "true"/"1"/"yes" → true, "false"/"0"/"no" → false (any case, spaces
    /// around ignored); anything else (empty, garbage) → nil, so the
    /// caller's default applies.
    static func bool(_ s: UnsafeBufferPointer<UInt8>) -> Bool? {
        // The common spellings first, without a loop.
        if s.count == 4 && s[0] == UInt8(ascii: "t") && s[1] == UInt8(ascii: "r") && s[2] == UInt8(ascii: "u")
            && s[3] == UInt8(ascii: "e")
        {
            return true
        }
        if s.count == 5 && s[0] == UInt8(ascii: "f") && s[1] == UInt8(ascii: "a") && s[2] == UInt8(ascii: "l")
            && s[3] == UInt8(ascii: "s") && s[4] == UInt8(ascii: "e")
        {
            return false
        }
        var lo = 0, hi = s.count
        while lo < hi && (s[lo] == 0x20 || s[lo] == 0x09) { lo += 1 }
        while hi > lo && (s[hi - 1] == 0x20 || s[hi - 1] == 0x09) { hi -= 1 }
        // Lowercase ASCII letters and pack up to 5 bytes into one word.
        guard hi - lo <= 5 else { return nil }
        var word: UInt64 = 0
        for i in lo ..< hi { word = word << 8 | UInt64(s[i] | (s[i] >= 0x41 && s[i] <= 0x5A ? 0x20 : 0)) }
        switch word {
        case 0x74_72_75_65, 0x31, 0x79_65_73: return true  // true, 1, yes
        case 0x66_61_6C_73_65, 0x30, 0x6E_6F: return false  // false, 0, no
        default: return nil
        }
    }

    /// See `bool(_:)` for bytes; nil for nil.
    static func bool(_ s: String?) -> Bool? {
        guard var s else { return nil }
        return s.withUTF8 { bool($0) }
    }

    /// A number written as text (spaces around ignored), or nil when it is
    /// not one. Integers of up to 15 digits are read directly; anything
    /// else goes through `Double(String)`, so the result may be infinite
    /// or NaN ("inf", "1e999"): callers check.
    static func number(_ s: UnsafeBufferPointer<UInt8>) -> Double? {
        var lo = 0, hi = s.count
        while lo < hi && (s[lo] == 0x20 || s[lo] == 0x09) { lo += 1 }
        while hi > lo && (s[hi - 1] == 0x20 || s[hi - 1] == 0x09) { hi -= 1 }
        guard lo < hi else { return nil }
        let negative = s[lo] == UInt8(ascii: "-")
        var i = negative ? lo + 1 : lo
        if i < hi && hi - i <= 15 {
            var v: Int64 = 0
            while i < hi, s[i] &- UInt8(ascii: "0") < 10 {
                v = v * 10 + Int64(s[i] &- UInt8(ascii: "0"))
                i += 1
            }
            if i == hi { return Double(negative ? -v : v) }
        }
        return Double(String(decoding: UnsafeBufferPointer(rebasing: s[lo ..< hi]), as: UTF8.self))
    }

    /// The string, or nil when absent or empty (sources write "" for "none").
    static func text(_ s: String?) -> String? {
        guard let s, !s.isEmpty else { return nil }
        return s
    }

    /// `s` cut to 40 characters, for echoing a bad value in a message.
    static func echo(_ s: String) -> String {
        s.count <= 40 ? s : String(s.prefix(40)) + "…"
    }
}

/// The lines of a source, for errors: readers keep byte offsets, and count
/// lines only when an error needs one.
struct SourceLines {
    let bytes: UnsafeBufferPointer<UInt8>

    /// The 1-based line of the byte at `offset`.
    ///
    /// - Complexity: O(offset): for errors only.
    func line(at offset: Int) -> Int {
        var line = 1
        for i in 0 ..< min(offset, bytes.count) where bytes[i] == 0x0A { line += 1 }
        return line
    }
}
