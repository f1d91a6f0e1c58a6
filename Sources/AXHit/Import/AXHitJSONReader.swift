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
    private var numbers = SIMD8<Double>()

    // MARK: Keys

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

    static func table<K: CaseIterable>(_: K.Type) -> KeyTable<K> {
        KeyTable(K.allCases.map { (String(describing: $0), $0) })
    }

    private static let nodeKeys = table(NodeKey.self)

    // MARK: Nodes

    /// An open node object.
    struct NodeFrame {
        /// The node's values as read so far, in the tree's layout.
        var values = NodeRecord()
        /// `NodeKey.bit`s of the keys read so far.
        var seen: UInt64 = 0
        /// Where the node's `{` is.
        var offset = 0
        /// The scanner's depth inside the node's object.
        var depth = 0
        /// The parent's frame index, or -1 for the root.
        var parentFrame = -1
        var parentID = NodeID.none
        /// 1-based position among its siblings (0 for the root).
        var position = 0
        /// Where the node is in the tree, once appended.
        var treeID = NodeID.none
        /// Whether it was appended as an element node.
        var appendedElement = false
        /// Whether it was appended with its id (else pending).
        var appendedNamed = false
        /// Whether a property was read after the node was appended.
        var dirty = false
        var inChildren = false
        var childCount = 0
        /// `IDTable.hash` of the id, once read (`ElementTree.add`'s `nameHash`).
        var nameHash: UInt32 = 0
        // Where keys were, for errors found later.
        var idOffset = 0
        var kindOffset = 0
        var containerSpaceFrameOffset = 0
        /// The first view-only key read, for element nodes that carry one.
        var viewKey: NodeKey?
        var viewKeyOffset = 0

        init(offset: Int, depth: Int, parentFrame: Int, parentID: NodeID, position: Int) {
            reset(offset: offset, depth: depth, parentFrame: parentFrame, parentID: parentID, position: position)
        }

        /// Makes this slot a fresh frame, in place (no frame built and
        /// copied per node).
        mutating func reset(offset: Int, depth: Int, parentFrame: Int, parentID: NodeID, position: Int) {
            // Field by field: assigning a whole `NodeRecord()` builds one
            // and copies it in. Extras at their defaults stay as they are.
            values.name = ""
            values.flags = NodeRecord.defaultFlags
            values.frame = .zero
            values.bounds = nil
            values.transform = nil
            if values.hasExtras {
                values.extras = NodeExtras()
                values.hasExtras = false
            }
            seen = 0
            self.offset = offset
            self.depth = depth
            self.parentFrame = parentFrame
            self.parentID = parentID
            self.position = position
            treeID = .none
            appendedElement = false
            appendedNamed = false
            dirty = false
            inChildren = false
            childCount = 0
            viewKey = nil
        }

        func has(_ key: NodeKey) -> Bool { seen & key.bit != 0 }

        /// Whether the node is an element node as far as known.
        var isElement: Bool { values.flags.contains(.element) }

        /// Sets `isAccessibilityElement` to its kind's default unless given.
        mutating func resolveAccessibilityElement() {
            if !has(.isAccessibilityElement) {
                if isElement {
                    values.flags.insert(.accessibilityElement)
                } else {
                    values.flags.remove(.accessibilityElement)
                }
            }
        }

        mutating func set(_ flag: NodeFlags, _ on: Bool) {
            if on { values.flags.insert(flag) } else { values.flags.remove(flag) }
        }
    }

    /// Reads the root node's object and every node under it, without
    /// recursion.
    mutating func readNodes() throws(TreeError) {
        let t = try scanner.next()
        guard t == .beginObject else { throw expected("a view node (an object)", t, key: "root") }
        // Open nodes, innermost last: `frames[..<open]`. Slots above `open`
        // are kept for reuse rather than removed, which would move a whole
        // frame out and destroy it for every node.
        var frames = [
            NodeFrame(offset: scanner.tokenOffset, depth: scanner.depth, parentFrame: -1, parentID: .none, position: 0)
        ]
        frames.reserveCapacity(64)
        var open = 1
        while open > 0 {
            // The loop runs on the frames' buffer (no uniqueness check per
            // access), and comes back here only to add a frame.
            if open == frames.count {
                frames.append(NodeFrame(offset: 0, depth: 0, parentFrame: -1, parentID: .none, position: 0))
            }
            let result: Result<Void, TreeError> = frames.withUnsafeMutableBufferPointer { buffer in
                do throws(TreeError) {
                    try readNodes(in: buffer, open: &open)
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            if case let .failure(error) = result { throw error }
        }
    }

    /// The node loop over `frames[..<open]`, until every node is closed or a
    /// child needs a frame beyond `frames`.
    private mutating func readNodes(in frames: UnsafeMutableBufferPointer<NodeFrame>, open: inout Int) throws(TreeError)
    {
        while open > 0 {
            let top = open - 1
            if frames[top].inChildren {
                if open == frames.count { return }  // before the child's `{`: the caller adds a frame
                let t = try scanner.next()
                if t == .endArray {
                    frames[top].inChildren = false
                    continue
                }
                guard t == .beginObject else {
                    throw named(expected("a node (an object)", t, key: "children"), frames, top)
                }
                let offset = scanner.tokenOffset
                do throws(TreeError) {
                    let parent = frames[top].parentID
                    let parentIsElement = !parent.isNone && tree.kind(of: parent) == .element
                    try materialize(&frames[top], parentIsElement: parentIsElement)
                } catch {
                    throw named(error, frames, top)
                }
                frames[top].childCount += 1
                frames[open].reset(
                    offset: offset, depth: scanner.depth, parentFrame: top,
                    parentID: frames[top].treeID, position: frames[top].childCount)
                open += 1
                continue
            }
            let t = try scanner.next()
            if t == .endObject {
                try finish(frames, top)
                open -= 1
                continue
            }
            // A key: the grammar allows nothing else here.
            guard let key = scanner.lookup(in: Self.nodeKeys) else {
                try skipValue()  // unknown keys are allowed, but must be valid JSON
                continue
            }
            do throws(TreeError) {
                try readProperty(key, into: &frames[top])
            } catch {
                throw named(error, frames, top)
            }
        }
    }

    /// Reads the value of `key` into the node.
    private mutating func readProperty(_ key: NodeKey, into f: inout NodeFrame) throws(TreeError) {
        let keyOffset = scanner.tokenOffset
        if f.has(key) { throw TreeError(.input, "duplicate key", line: scanner.line(at: keyOffset), key: key.name) }
        f.seen |= key.bit
        if !f.treeID.isNone { f.dirty = true }
        if key.isViewProperty {
            if f.has(.kind) && f.isElement {
                throw TreeError(
                    .validation, "element nodes have no \(key.name) (a view property)",
                    line: scanner.line(at: keyOffset), key: key.name)
            }
            if f.viewKey == nil {
                f.viewKey = key
                f.viewKeyOffset = keyOffset
            }
        }
        let name = key.staticName
        // Each key is read once (duplicates are errors), so a rare property
        // set to a non-default value keeps `hasExtras` true for good.
        switch key {
        case .id:
            let id = try readString(key: name)
            guard !id.isEmpty else {
                throw TreeError(.validation, "must not be empty", line: scanner.tokenLine, key: "\(name)")
            }
            f.values.name = id
            f.idOffset = scanner.tokenOffset
            // Hashed now and its bucket asked for: the node is added once its
            // other keys are read, by when the bucket's miss is over.
            f.nameHash = IDTable.hash(id)
            tree.idTable.prefetch(hash: f.nameHash)
        case .kind:
            let text = try readKind()
            guard let kind = text else {
                throw TreeError(
                    .validation, "unknown kind \"\(scanner.text)\" (expected \"view\" or \"element\")",
                    line: scanner.tokenLine, key: "\(name)")
            }
            f.set(.element, kind == .element)
            f.kindOffset = scanner.tokenOffset
            if kind == .element, let viewKey = f.viewKey {
                throw TreeError(
                    .validation, "element nodes have no \(viewKey.name) (a view property)",
                    line: scanner.line(at: f.viewKeyOffset), key: viewKey.name)
            }
        case .children:
            let t = try scanner.next()
            guard t == .beginArray else { throw expected("an array of nodes", t, key: name) }
            f.inChildren = true
        case .isAccessibilityElement: f.set(.accessibilityElement, try readBool(key: name))
        case .accessibilityLabel:
            f.values.extras.label = try readString(key: name)
            f.values.hasExtras = true
        case .accessibilityValue:
            f.values.extras.value = try readString(key: name)
            f.values.hasExtras = true
        case .accessibilityHint:
            f.values.extras.hint = try readString(key: name)
            f.values.hasExtras = true
        case .accessibilityIdentifier:
            f.values.extras.identifier = try readString(key: name)
            f.values.hasExtras = true
        case .accessibilityLanguage:
            f.values.extras.language = try readString(key: name)
            f.values.hasExtras = true
        case .accessibilityTraits:
            let traits = try readTraits()
            f.values.extras.traits = traits
            if !traits.isEmpty { f.values.hasExtras = true }
        case .accessibilityFrame:
            f.values.extras.accessibilityFrame = try readRect(key: name)
            f.values.hasExtras = true
        case .accessibilityFrameInContainerSpace:
            f.values.extras.frameInContainerSpace = try readRect(key: name)
            f.values.hasExtras = true
            f.containerSpaceFrameOffset = keyOffset
        case .accessibilityActivationPoint:
            f.values.extras.activationPoint = try readPoint(key: name)
            f.values.hasExtras = true
        case .accessibilityPath:
            f.values.extras.path = try readPath()
            f.values.hasExtras = true
        case .accessibilityElementsHidden: f.set(.elementsHidden, try readBool(key: name))
        case .accessibilityViewIsModal: f.set(.modal, try readBool(key: name))
        case .shouldGroupAccessibilityChildren: f.set(.groupsChildren, try readBool(key: name))
        case .accessibilityNavigationStyle:
            let text = try readString(key: name)
            guard let style = NavigationStyle(rawValue: text) else {
                throw TreeError(
                    .validation,
                    "unknown navigation style \"\(text)\" (expected \"automatic\", \"separate\" or \"combined\")",
                    line: scanner.tokenLine, key: "\(name)")
            }
            f.values.extras.navigationStyle = style
            if style != .automatic { f.values.hasExtras = true }
        case .accessibilityContainerType:
            let type = try readName(AccessibilityContainerType.self, key: name)
            f.values.extras.containerType = type
            if type != .none { f.values.hasExtras = true }
        case .visibleInSnapshot:
            f.values.extras.visibleInSnapshot = try readBool(key: name)
            f.values.hasExtras = true
        case .actions:
            let actions = try readActions()
            f.values.extras.actions = actions
            if !actions.isEmpty { f.values.hasExtras = true }
        case .checked:
            f.values.extras.checked = try readBool(key: name)
            f.values.hasExtras = true
        case .importantForAccessibility:
            f.values.extras.importantForAccessibility = try readBool(key: name)
            f.values.hasExtras = true
        case .className:
            f.values.extras.className = try readString(key: name)
            f.values.hasExtras = true
        case .labelIsText:
            f.values.extras.labelIsText = try readBool(key: name)
            if f.values.extras.labelIsText { f.values.hasExtras = true }
        case .isPassword:
            f.values.extras.isPassword = try readBool(key: name)
            if f.values.extras.isPassword { f.values.hasExtras = true }
        case .packageName:
            f.values.extras.packageName = try readString(key: name)
            f.values.hasExtras = true
        case .accessibilityIndex:
            let index = try readNumber(key: name)
            guard index >= 0, index == index.rounded(), index < 1e15 else {
                throw TreeError(
                    .validation, "must be an integer from 0, found \(index)", line: scanner.tokenLine, key: "\(name)")
            }
            f.values.extras.accessibilityIndex = Int(index)
            f.values.hasExtras = true
        case .accessibilityElements:
            f.values.extras.accessibilityElements = try readIDList(key: name)
            f.values.hasExtras = true
        case .frame: f.values.frame = try readRect(key: name)
        case .bounds: f.values.bounds = try readRect(key: name)
        case .transform:
            try readNumbers(count: 6, key: name, noun: "a transform [a, b, c, d, tx, ty]")
            let t = CGAffineTransform(
                a: CGFloat(numbers[0]), b: CGFloat(numbers[1]), c: CGFloat(numbers[2]),
                d: CGFloat(numbers[3]), tx: CGFloat(numbers[4]), ty: CGFloat(numbers[5]))
            f.values.transform = t == .identity ? nil : t
        case .clipsToBounds: f.set(.clipsToBounds, try readBool(key: name))
        case .isHidden: f.set(.hidden, try readBool(key: name))
        case .alpha:
            let alpha = try readNumber(key: name)
            if let problem = ValueRules.alphaProblem(alpha) {
                throw TreeError(.validation, problem, line: scanner.tokenLine, key: "\(name)")
            }
            f.values.extras.alpha = CGFloat(alpha)
            if alpha != 1 { f.values.hasExtras = true }
        case .isUserInteractionEnabled: f.set(.userInteractionEnabled, try readBool(key: name))
        case .isWindow: f.set(.window, try readBool(key: name))
        }
    }

    /// Appends the node of `f` before its first child: with its name if it
    /// has been read, else pending. A kind not read yet is taken as the
    /// parent's kind allows (an element node's children are elements), and
    /// checked again at the node's end.
    private mutating func materialize(_ f: inout NodeFrame, parentIsElement: Bool) throws(TreeError) {
        guard f.treeID.isNone else { return }
        if !f.has(.kind) && parentIsElement { f.values.flags.insert(.element) }
        f.resolveAccessibilityElement()
        let named = f.has(.id)
        do throws(TreeError) {
            // What `Node.validate()` said of a named view with an element-only
            // frame when the tree validated every node (values are otherwise
            // checked as read). A kind still to come is left to `finish`.
            if named && f.has(.kind) && !f.isElement && f.has(.accessibilityFrameInContainerSpace) {
                throw TreeError(
                    .validation, "view nodes have no accessibilityFrameInContainerSpace (an element property)",
                    node: f.values.name, key: "accessibilityFrameInContainerSpace")
            }
            f.treeID = try tree.add(
                &f.values, named: named, final: false, under: f.parentID, nameHash: named ? f.nameHash : nil)
        } catch {
            throw error.located(file: nil, line: scanner.line(at: f.offset(of: error)))
        }
        f.appendedElement = f.isElement
        f.appendedNamed = named
        f.dirty = false
        if !f.has(.kind) { f.values.flags.remove(.element) }  // the default, until a `kind` key says otherwise
    }

    /// Checks the finished node `frames[i]` as a whole and appends it (or
    /// completes it, when it was appended before its children). Works on the
    /// frame in place: no copy of the node's values.
    private mutating func finish(_ frames: UnsafeMutableBufferPointer<NodeFrame>, _ i: Int) throws(TreeError) {
        frames[i].resolveAccessibilityElement()
        guard frames[i].has(.id) else {
            throw TreeError(
                .input, "required key is missing", line: scanner.line(at: frames[i].offset),
                node: positionName(frames, i), key: "id")
        }
        let isView = !frames[i].isElement
        if isView && !frames[i].has(.frame) {
            throw TreeError(
                .input, "required key is missing (views need a frame)", line: scanner.line(at: frames[i].offset),
                node: frames[i].values.name, key: "frame")
        }
        if isView && frames[i].has(.accessibilityFrameInContainerSpace) {
            throw TreeError(
                .validation, "view nodes have no accessibilityFrameInContainerSpace (an element property)",
                line: scanner.line(at: frames[i].containerSpaceFrameOffset), node: frames[i].values.name,
                key: "accessibilityFrameInContainerSpace")
        }
        do throws(TreeError) {
            if frames[i].treeID.isNone {
                // Checks the id is new.
                _ = try tree.add(
                    &frames[i].values, named: true, final: true, under: frames[i].parentID,
                    nameHash: frames[i].nameHash)
            } else if frames[i].dirty || frames[i].isElement != frames[i].appendedElement || !frames[i].appendedNamed {
                try tree.complete(frames[i].treeID, as: &frames[i].values)
            }
        } catch {
            var e = error
            if e.node == nil { e.node = frames[i].values.name }
            throw e.located(file: nil, line: scanner.line(at: frames[i].offset(of: e)))
        }
    }

    // MARK: Values

    /// Skips the next value (checking that it is valid JSON).
    mutating func skipValue() throws(TreeError) {
        let t = try scanner.next()
        guard t == .beginObject || t == .beginArray else { return }
        let depth = scanner.depth - 1
        while scanner.depth > depth { _ = try scanner.next() }
    }

    mutating func readString(key: StaticString) throws(TreeError) -> String {
        let t = try scanner.next()
        guard t == .string else { throw expected("a string", t, key: key) }
        return scanner.text
    }

    mutating func readBool(key: StaticString) throws(TreeError) -> Bool {
        let t = try scanner.next()
        if t == .true { return true }
        if t == .false { return false }
        throw expected("a boolean (true or false)", t, key: key)
    }

    mutating func readNumber(key: StaticString) throws(TreeError) -> Double {
        let t = try scanner.next()
        guard t == .number else { throw expected("a number", t, key: key) }
        return try finiteNumber(key: key)
    }

    // Mutating, like every helper on the hot path: a non-mutating method
    // called from a mutating one copies the whole reader (hundreds of bytes).
    private mutating func finiteNumber(key: StaticString) throws(TreeError) -> Double {
        let v = scanner.doubleValue()
        guard v.isFinite else {
            throw TreeError(
                .validation, "number \(scanner.numberText) is out of range (not finite)", line: scanner.tokenLine,
                key: "\(key)")
        }
        return v
    }

    /// Reads an array of exactly `count` finite numbers into `numbers`;
    /// returns where the array starts.
    @discardableResult
    private mutating func readNumbers(count: Int, key: StaticString, noun: StaticString) throws(TreeError) -> Int {
        let t = try scanner.next()
        guard t == .beginArray else { throw expected(noun, t, key: key) }
        let offset = scanner.tokenOffset
        var n = 0
        switch try scanner.readNumbers(into: &numbers, max: count, count: &n) {
        case .closed:
            guard n == count else {
                throw TreeError(
                    .input, "expected \(count) numbers, found \(n)", line: scanner.line(at: offset), key: "\(key)")
            }
            return offset
        case .notFinite:
            throw TreeError(
                .validation, "number \(scanner.numberText) is out of range (not finite)", line: scanner.tokenLine,
                key: "\(key)")
        case .stopped:
            break  // the rest token by token, for the exact error
        }
        while true {
            let e = try scanner.next()
            if e == .endArray { break }
            guard e == .number else { throw expected("a number", e, key: key) }
            if n == count {
                throw TreeError(.input, "expected \(count) numbers, found more", line: scanner.tokenLine, key: "\(key)")
            }
            numbers[n] = try finiteNumber(key: key)
            n += 1
        }
        guard n == count else {
            throw TreeError(
                .input, "expected \(count) numbers, found \(n)", line: scanner.line(at: offset), key: "\(key)")
        }
        return offset
    }

    mutating func readRect(key: StaticString) throws(TreeError) -> CGRect {
        let offset = try readNumbers(count: 4, key: key, noun: "a rect [x, y, width, height]")
        if let problem = ValueRules.rectProblem(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3]) {
            throw TreeError(.validation, problem, line: scanner.line(at: offset), key: "\(key)")
        }
        return CGRect(
            x: CGFloat(numbers[0]), y: CGFloat(numbers[1]), width: CGFloat(numbers[2]), height: CGFloat(numbers[3]))
    }

    private mutating func readPoint(key: StaticString) throws(TreeError) -> CGPoint {
        try readNumbers(count: 2, key: key, noun: "a point [x, y]")
        return CGPoint(x: CGFloat(numbers[0]), y: CGFloat(numbers[1]))
    }
}
