import Foundation

/// Reads an `axhit/1` document (tree-format.md) into an `ElementTree`, in
/// one streaming pass over the bytes.
///
/// Nodes are appended in pre-order, so node ids follow the file (the root is
/// `NodeID` 0). There is no recursion: open nodes live on an explicit stack
/// of frames, so the nesting depth is bounded only by memory. A node is
/// appended when its first child begins (or at its end when it has none);
/// keys that come after its `children` update it at its end (see
/// `ElementTree.complete(_:as:)`).
///
/// Values are checked as they are read, so an error carries the line of the
/// offending value; when the node's `id` has not been read yet, the rest of
/// the node's object is scanned ahead for it, so the error still names it.
///
/// Nodes go into the tree through its bulk path (`NodeRecord`,
/// `ElementTree.add`): gathered in the tree's own layout, appended
/// column by column, one hash per id. Lines are not tracked while reading:
/// the reader keeps byte offsets and turns one into a line only for an error.
///
/// Memory: the tree, plus O(depth) for the frames.
struct AXHitJSONReader {
    var scanner: JSONScanner
    var tree = ElementTree()
    /// The points the paths read so far flatten to (`ValueRules.pathPoints`).
    var pathPoints = 0
    /// The numbers of the last rect, point or transform: a vector, not an
    /// array, so filling it checks no uniqueness and allocates nothing.
    var numbers = SIMD8<Double>()

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        scanner = JSONScanner(bytes)
        let n = Self.estimatedNodeCount(bytes)
        // Rare properties (labels, traits...) are common enough in real trees
        // that their table is worth sizing too; untouched capacity is only
        // address space.
        tree.reserveForLoading(n, extras: n)
    }

    /// About how many nodes `bytes` holds, to size the tree once instead of
    /// regrowing its columns and rehashing its id table: the number of `{`
    /// (every node is an object), but never more than a node per 24 bytes
    /// (no node is shorter), so junk full of braces cannot reserve much.
    /// O(n), a fraction of the parse.
    static func estimatedNodeCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var braces = 0
        var i = 0
        if let base = bytes.baseAddress {
            // 16 bytes at a time: per-lane counters, emptied into `braces`
            // before any lane can wrap (255 rounds).
            let raw = UnsafeRawPointer(base)
            let brace = SIMD16<UInt8>(repeating: UInt8(ascii: "{"))
            let zero = SIMD16<UInt8>(), one = SIMD16<UInt8>(repeating: 1)
            while i &+ 16 <= bytes.count {
                var lanes = SIMD16<UInt8>()
                var rounds = 0
                while rounds < 255 && i &+ 16 <= bytes.count {
                    let v = raw.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
                    lanes &+= zero.replacing(with: one, where: v .== brace)
                    i &+= 16
                    rounds &+= 1
                }
                braces &+= Int(SIMD16<UInt16>(truncatingIfNeeded: lanes).wrappedSum())
            }
        }
        while i < bytes.count {
            braces &+= bytes[i] == UInt8(ascii: "{") ? 1 : 0
            i &+= 1
        }
        return min(braces, bytes.count / 24)
    }

    /// The tree in `bytes`.
    ///
    /// - Complexity: O(n) in the input size.
    /// - Throws: `TreeError` with the line, and the node and key where they
    ///   apply (no file: the caller adds it).
    static func read(_ bytes: UnsafeBufferPointer<UInt8>) throws(TreeError) -> ElementTree {
        var reader = AXHitJSONReader(bytes)
        try reader.readDocument()
        return reader.tree
    }

    // MARK: Keys

    private enum DocumentKey: CaseIterable { case format, platform, source, screen, root }
    private enum ScreenKey: CaseIterable { case bounds, scale, idiom, layoutDirection }
    enum PathKey: CaseIterable { case d, usesEvenOddFillRule, coordinateSpace }

    /// The keys of a node object, as spelled in the file. View properties
    /// come last (`isViewProperty`).
    enum NodeKey: Int, CaseIterable {
        case id, kind, children, isAccessibilityElement
        case accessibilityLabel, accessibilityValue, accessibilityHint, accessibilityIdentifier, accessibilityLanguage
        case accessibilityTraits, accessibilityFrame, accessibilityFrameInContainerSpace, accessibilityActivationPoint
        case accessibilityPath, accessibilityElementsHidden, accessibilityViewIsModal, shouldGroupAccessibilityChildren
        case accessibilityNavigationStyle, accessibilityContainerType, visibleInSnapshot, actions
        case checked, importantForAccessibility, className, packageName, accessibilityIndex, labelIsText, isPassword
        case frame, bounds, transform, clipsToBounds, isHidden, alpha, isUserInteractionEnabled, isWindow
        case accessibilityElements

        /// The key as spelled in the file.
        var name: String { "\(staticName)" }

        /// The key as spelled in the file, with no reference counting: the
        /// reader passes one along with every value it reads, for errors.
        /// Inlined: a call per key is measurable.
        @inline(__always)
        var staticName: StaticString {
            switch self {
            case .id: "id"
            case .kind: "kind"
            case .children: "children"
            case .isAccessibilityElement: "isAccessibilityElement"
            case .accessibilityLabel: "accessibilityLabel"
            case .accessibilityValue: "accessibilityValue"
            case .accessibilityHint: "accessibilityHint"
            case .accessibilityIdentifier: "accessibilityIdentifier"
            case .accessibilityLanguage: "accessibilityLanguage"
            case .accessibilityTraits: "accessibilityTraits"
            case .accessibilityFrame: "accessibilityFrame"
            case .accessibilityFrameInContainerSpace: "accessibilityFrameInContainerSpace"
            case .accessibilityActivationPoint: "accessibilityActivationPoint"
            case .accessibilityPath: "accessibilityPath"
            case .accessibilityElementsHidden: "accessibilityElementsHidden"
            case .accessibilityViewIsModal: "accessibilityViewIsModal"
            case .shouldGroupAccessibilityChildren: "shouldGroupAccessibilityChildren"
            case .accessibilityNavigationStyle: "accessibilityNavigationStyle"
            case .accessibilityContainerType: "accessibilityContainerType"
            case .visibleInSnapshot: "visibleInSnapshot"
            case .actions: "actions"
            case .checked: "checked"
            case .importantForAccessibility: "importantForAccessibility"
            case .className: "className"
            case .packageName: "packageName"
            case .accessibilityIndex: "accessibilityIndex"
            case .labelIsText: "labelIsText"
            case .isPassword: "isPassword"
            case .frame: "frame"
            case .bounds: "bounds"
            case .transform: "transform"
            case .clipsToBounds: "clipsToBounds"
            case .isHidden: "isHidden"
            case .alpha: "alpha"
            case .isUserInteractionEnabled: "isUserInteractionEnabled"
            case .isWindow: "isWindow"
            case .accessibilityElements: "accessibilityElements"
            }
        }
        var bit: UInt64 { 1 << UInt64(rawValue) }
        /// Whether only view nodes may carry the key.
        var isViewProperty: Bool { rawValue >= NodeKey.frame.rawValue }
    }

    private static func table<K: CaseIterable>(_: K.Type) -> KeyTable<K> {
        KeyTable(K.allCases.map { (String(describing: $0), $0) })
    }

    private static let documentKeys = table(DocumentKey.self)
    private static let screenKeys = table(ScreenKey.self)
    static let pathKeys = table(PathKey.self)
    static let nodeKeys = table(NodeKey.self)
    static let traitNames = KeyTable(AccessibilityTraits.named.map { ($0.name, $0.trait) })
    static let kinds = KeyTable([("view", NodeKind.view), ("element", NodeKind.element)])
    static let actionNames = KeyTable(NodeActions.named.map { ($0.name, $0.action) })

    // MARK: Document

    private mutating func readDocument() throws(TreeError) {
        let first = try scanner.next()
        guard first == .beginObject else {
            throw TreeError(
                .input, "expected an axhit/1 document (a JSON object), found \(first.noun)", line: scanner.tokenLine)
        }
        let documentOffset = scanner.tokenOffset
        var seen: [DocumentKey] = []
        while true {
            let t = try scanner.next()
            if t == .endObject { break }
            guard let key = scanner.lookup(in: Self.documentKeys) else {
                try skipValue()
                continue
            }
            if seen.contains(key) { throw TreeError(.input, "duplicate key", line: scanner.tokenLine, key: "\(key)") }
            seen.append(key)
            switch key {
            case .format:
                let format = try readString(key: "format")
                guard format == "axhit/1" else {
                    throw TreeError(
                        .input, "unsupported format \"\(format)\" (expected \"axhit/1\")",
                        line: scanner.tokenLine, key: "format")
                }
            case .platform:
                tree.platform = try readName(Platform.self, key: "platform")
            case .source:
                tree.source = try readName(TreeSource.self, key: "source")
            case .screen:
                try readScreen()
            case .root:
                try readNodes()
            }
        }
        guard seen.contains(.format) else {
            throw TreeError(
                .input, "required key is missing (\"format\": \"axhit/1\")", line: scanner.line(at: documentOffset),
                key: "format")
        }
        guard seen.contains(.root) else {
            throw TreeError(
                .input, "required key is missing (the root view)", line: scanner.line(at: documentOffset), key: "root")
        }
        _ = try scanner.next()  // the end, or an error for anything after the document
        try checkPathBudget()
    }

    /// Refuses a tree whose paths flatten to more than its
    /// `pathPointBudget` points together, naming the
    /// node (in pre-order) whose path crosses it. O(1) when within it.
    private func checkPathBudget() throws(TreeError) {
        let budget = tree.pathPointBudget
        guard pathPoints > budget else { return }
        var total = 0
        for n in tree.preOrder {
            guard let path = tree.accessibilityPath(of: n) else { continue }
            total += ValueRules.pathPoints(path.path)
            if total > budget {
                throw TreeError(
                    .validation, ValueRules.pathBudgetProblem(budget), node: tree.id(of: n), key: "accessibilityPath")
            }
        }
    }

    private mutating func readScreen() throws(TreeError) {
        let t = try scanner.next()
        guard t == .beginObject else { throw expected("an object", t, key: "screen") }
        var seen: [ScreenKey] = []
        while true {
            let k = try scanner.next()
            if k == .endObject { return }
            guard let key = scanner.lookup(in: Self.screenKeys) else {
                try skipValue()
                continue
            }
            if seen.contains(key) {
                throw TreeError(.input, "duplicate key", line: scanner.tokenLine, key: "screen.\(key)")
            }
            seen.append(key)
            switch key {
            case .bounds:
                tree.screenBounds = try readRect(key: "screen.bounds")
            case .scale:
                let scale = try readNumber(key: "screen.scale")
                if let problem = ValueRules.scaleProblem(scale) {
                    throw TreeError(.validation, problem, line: scanner.tokenLine, key: "screen.scale")
                }
                tree.screenScale = CGFloat(scale)
            case .idiom:
                tree.idiom = try readName(Idiom.self, key: "screen.idiom")
            case .layoutDirection:
                tree.layoutDirection = try readName(LayoutDirection.self, key: "screen.layoutDirection")
            }
        }
    }
}
