import Foundation

/// Reads an Android uiautomator dump into a snapshot tree (`platform`
/// android, `source` snapshot) of view nodes that mirrors the source
/// hierarchy. Every dialect: the classic `uiautomator dump`
/// (`<hierarchy rotation>` holding `<node>` elements, possibly several
/// top-level ones, one per window), Appium UiAutomator2's page source
/// (`<hierarchy width height>` holding class-named elements such as
/// `<android.widget.FrameLayout>`), and what `adb exec-out uiautomator dump
/// /dev/tty` prints (a `UI hierchary dumped to: /dev/tty` line before the
/// XML, or after it, and whatever adb adds after the document).
///
/// Mapping (tree-format.md, "Android" and "Node ids of imported trees"):
///
/// - Every element below `<hierarchy>` becomes a view node, with or without
///   `bounds`. `bounds="[x1,y1][x2,y2]"` is in screen pixels and stays in
///   pixels (the tree's coordinates are the dump's, so that an answer can go
///   straight to `adb shell input tap`), converted into the parent's bounds
///   space. A node without `bounds` gets an empty frame at the origin; an
///   inverted rect (x2 < x1) gets size 0 at its first corner (dumps clip
///   bounds to the screen, and an off-screen node can come out that way);
///   bounds that do not parse are an error naming the node and the key.
/// - `id`: `<SimpleClass>#<n>`, the class after its last `.` (the tag in
///   UiAutomator2, `node` when a classic node has no class) and the node's
///   0-based pre-order number among the elements below `<hierarchy>`
///   (`TextView#12`).
/// - Each top-level node is a window (`isWindow`). Several windows get a
///   synthetic root `screen` covering their union and the hierarchy's
///   `width`/`height`; uiautomator lists windows topmost first, so they are
///   reversed into back-to-front order (the status bar above the app).
/// - Siblings are ordered by `drawing-order` when every one of them has it
///   (Android's child index is layout order, not drawing order; ties keep
///   document order); otherwise by document order. Windows keep document
///   order (reversed), whatever their `drawing-order`.
/// - `screenBounds`: the hierarchy's `width`/`height` (UiAutomator2), else
///   the root's frame. `screenScale` is left unset: a dump does not record
///   the density (`ImportOptions.density` gives it).
/// - `visible-to-user` (UiAutomator2: `displayed`) → `visibleInSnapshot`;
///   false from either wins. Android's rules hide such a node and its
///   subtree.
/// - `clickable` → `click`, `long-clickable` → `longClick`, `checkable` →
///   `check`, `focusable` → `focus`, `screen-reader-focusable` →
///   `screenReaderFocus`, `scrollable` → `scroll`, into `actions`.
/// - `class` → `className` (the tag in UiAutomator2 when there is no
///   `class`), `package` → `packageName`, `checked` → `checked`,
///   `a11y-important` (else `important-for-accessibility`) →
///   `importantForAccessibility`: the facts TalkBack's rules read
///   (`TalkBackTree`).
/// - `content-desc` → `accessibilityLabel`; `text` → the label when there is
///   no content description (TalkBack speaks the text then), else
///   `accessibilityValue`; `resource-id` → `accessibilityIdentifier`;
///   `hint` → `accessibilityHint`. Empty strings are absent.
/// - `isAccessibilityElement`: TalkBack's rule of thumb, actionable (any
///   action) or labelled. Android's rules do not read it (they apply
///   TalkBack's own focus rule); it matters only when a caller judges the
///   dump by the iOS rules (`ImportOptions.platform = .ios`).
/// - Traits from the class (simple name): *Button, *ImageButton → button;
///   CheckBox, Switch, SwitchCompat, SwitchMaterial, ToggleButton,
///   RadioButton, CompoundButton, CheckedTextView → button + toggleButton,
///   as is any `checkable="true"` node; *ImageView → image; *TextView (not
///   EditText) → staticText; SearchAutoComplete → searchField; *SeekBar,
///   *Slider, *RatingBar → adjustable (the controls that consume touches
///   themselves; Android's touch rule reads this trait); ProgressBar →
///   updatesFrequently; TabWidget, TabLayout → tabBar. `heading="true"` →
///   header; `enabled="false"` → notEnabled; `selected="true"` → selected
///   (`checked` stays its own fact).
/// - `password` → `isPassword`; `labelIsText` when the label is the text
///   (no content description): the facts TalkBack's speech reads.
/// - Ignored: `index` (document order is used), `focused`,
///   `NAF`, `rotation` (bounds are already in the rotated screen),
///   `display-id` and the other UiAutomator2 extras.
enum UIAutomatorDump {
    private enum Key: Int, CaseIterable {
        case `class`, text, contentDesc, resourceID, hint, clickable, longClickable, checkable, checked, selected
        case enabled, focusable, screenReaderFocusable, visibleToUser, displayed, heading, bounds, drawingOrder
        case width, height, scrollable, package, a11yImportant, importantForAccessibility, password

        var name: String {
            switch self {
            case .contentDesc: return "content-desc"
            case .resourceID: return "resource-id"
            case .longClickable: return "long-clickable"
            case .screenReaderFocusable: return "screen-reader-focusable"
            case .visibleToUser: return "visible-to-user"
            case .drawingOrder: return "drawing-order"
            case .a11yImportant: return "a11y-important"
            case .importantForAccessibility: return "important-for-accessibility"
            default: return "\(self)"
            }
        }
    }

    private static let keys = KeyTable<Key>(Key.allCases.map { ($0.name, $0) })

    /// The tree of a uiautomator dump.
    ///
    /// - Complexity: O(n log k) in the input size (k: the largest sibling count).
    /// - Throws: `TreeError` with `file`, line, node id and key for malformed
    ///   XML, bad bounds, or a dump with no node.
    static func read(_ data: Data, file: String?, options: ImportOptions) throws(TreeError) -> ElementTree {
        try withBytes(of: data) { bytes throws(TreeError) in
            let banner = TreeFormat.devTTYBannerEnd(bytes)
            var scanner = XMLScanner(bytes, from: banner ?? 0, file: file)
            scanner.epilogue = banner == nil ? .devTTYBanner : .ignored
            var hierarchy = ImportedHierarchy()
            // A node takes 200 to 600 bytes in a dump.
            hierarchy.reserveCapacity(bytes.count / 200)
            var open: [Int] = []  // the node index of each open element; -1 for the wrapper
            // The index in `scanner.attributes` of each key's attribute, or -1.
            var slots = [Int](repeating: -1, count: Key.allCases.count)
            var screen: CGRect?
            var classes = AndroidClasses()
            scan: while true {
                switch try scanner.next() {
                case .start:
                    for k in slots.indices { slots[k] = -1 }
                    for (i, a) in scanner.attributes.enumerated() {
                        if let key = keys.lookup(scanner.name(of: a)) { slots[key.rawValue] = i }
                    }
                    func attribute(_ key: Key) -> XMLScanner.Attribute? {
                        let i = slots[key.rawValue]
                        return i < 0 ? nil : scanner.attributes[i]
                    }
                    func text(_ key: Key) -> String? {
                        guard let a = attribute(key), a.valueEnd > a.valueStart else { return nil }
                        return scanner.string(a)
                    }
                    func flag(_ key: Key) -> Bool? {
                        attribute(key).flatMap { a in scanner.withValue(a, SourceValue.bool) }
                    }
                    if scanner.depth == 1 && scanner.name.elementsEqual("hierarchy".utf8) {
                        if let w = attribute(.width).flatMap({ scanner.withValue($0, SourceValue.number) }),
                            let h = attribute(.height).flatMap({ scanner.withValue($0, SourceValue.number) }),
                            w.isFinite, h.isFinite, w >= 0, h >= 0
                        {
                            screen = CGRect(x: 0, y: 0, width: w, height: h)
                        }
                        open.append(-1)
                        continue scan
                    }
                    // The `class` attribute, else the tag: UiAutomator2 names
                    // elements by class, and a classic `<node>` without a
                    // class is `node`.
                    let (kind, classTraits, fullName) =
                        attribute(.class).flatMap { a in
                            a.valueEnd > a.valueStart ? scanner.withValue(a) { classes.facts(ofClass: $0) } : nil
                        } ?? classes.facts(ofClass: scanner.name)
                    // A classic `<node>` without a class names none.
                    let className = kind == "node" && attribute(.class) == nil ? nil : fullName
                    var id = kind
                    id += "#"
                    id += String(hierarchy.nodes.count)
                    var bounds = CGRect.zero
                    if let a = attribute(.bounds) {
                        bounds = try AndroidNodeFacts.bounds(a, in: scanner, node: id)
                    }
                    var visible = flag(.visibleToUser)
                    if let displayed = flag(.displayed) { visible = (visible ?? true) && displayed }
                    var actions: NodeActions = []
                    if flag(.clickable) == true { actions.insert(.click) }
                    if flag(.longClickable) == true { actions.insert(.longClick) }
                    if flag(.checkable) == true { actions.insert(.check) }
                    if flag(.focusable) == true { actions.insert(.focus) }
                    if flag(.screenReaderFocusable) == true { actions.insert(.screenReaderFocus) }
                    if flag(.scrollable) == true { actions.insert(.scroll) }
                    var facts = AndroidNodeFacts(
                        classTraits: classTraits, bounds: bounds,
                        text: text(.text), contentDescription: text(.contentDesc), resourceID: text(.resourceID),
                        hint: text(.hint), actions: actions,
                        selected: flag(.selected) == true,
                        enabled: flag(.enabled) ?? true, visible: visible, heading: flag(.heading) == true)
                    facts.className = className
                    facts.packageName = text(.package)
                    facts.checkedFlag = flag(.checked)
                    facts.password = flag(.password) == true
                    facts.important = flag(.a11yImportant) ?? flag(.importantForAccessibility)
                    let zOrder = attribute(.drawingOrder).flatMap { a in scanner.withValue(a, SourceValue.number) }
                    let parent = open.last ?? -1
                    open.append(hierarchy.nodes.count)
                    hierarchy.add(
                        facts.node(id: id), parent: parent, offset: scanner.tagOffset,
                        zOrder: zOrder.flatMap { $0.isFinite && abs($0) < 1e15 ? Int($0) : nil })
                case .end:
                    open.removeLast()
                case .finish:
                    break scan
                }
            }
            return try hierarchy.makeTree(
                platform: .android, top: .init(frontFirst: true, areWindows: true, screen: screen),
                options: options, file: file, lines: SourceLines(bytes: bytes))
        }
    }
}

/// Each Android class name's simple name, traits and full name, computed
/// once per distinct name (a dump repeats a few dozen classes, and every
/// node of a class shares one copy of its name).
struct AndroidClasses {
    private var cache: [String: (String, AccessibilityTraits, String?)] = [:]

    /// The simple name (after the last `.`; `node` when empty), the traits
    /// and the full name (nil when empty) of class `name`.
    mutating func facts(ofClass name: UnsafeBufferPointer<UInt8>) -> (String, AccessibilityTraits, String?) {
        let full = String(decoding: name, as: UTF8.self)
        if let known = cache[full] { return known }
        var start = name.count
        while start > 0 && name[start - 1] != UInt8(ascii: ".") { start -= 1 }
        let simple =
            start == name.count
            ? "node" : String(decoding: UnsafeBufferPointer(rebasing: name[start...]), as: UTF8.self)
        let facts = (simple, AndroidNodeFacts.traits(ofSimpleName: simple), full.isEmpty ? nil : full)
        cache[full] = facts
        return facts
    }

    /// As `facts(ofClass:)` for a `String`.
    mutating func facts(ofClass name: String) -> (String, AccessibilityTraits, String?) {
        var name = name
        return name.withUTF8 { facts(ofClass: $0) }
    }
}

/// What an Android source (uiautomator XML or a DroidBot state) says about one
/// node, and the mapping to a node that `UIAutomatorDump` documents.
struct AndroidNodeFacts {
    /// The traits the class implies (`traits(ofSimpleName:)`).
    var classTraits: AccessibilityTraits
    /// Screen pixels, normalized (size >= 0).
    var bounds: CGRect
    var text: String?
    var contentDescription: String?
    var resourceID: String?
    var hint: String?
    var actions: NodeActions = []
    var selected = false
    var enabled = true
    var visible: Bool?
    var heading = false
    /// The class's full name, as the dump gives it.
    var className: String?
    var packageName: String?
    /// The dump's `checked`, when it gives one.
    var checkedFlag: Bool?
    /// The dump's `a11y-important`, when it gives one.
    var important: Bool?
    /// The dump's `password` (DroidBot: `is_password`).
    var password = false

    /// `[x1,y1][x2,y2]` → a rect with size >= 0 (an inverted corner pair
    /// gives size 0 at the first corner), or nil when it is not four
    /// numbers.
    static func parseBounds(_ s: UnsafeBufferPointer<UInt8>) -> CGRect? {
        var v: (Double, Double, Double, Double) = (0, 0, 0, 0)
        var count = 0
        var i = 0
        while i < s.count {
            let b = s[i]
            if b == UInt8(ascii: "[") || b == UInt8(ascii: "]") || b == UInt8(ascii: ",") || b == 0x20 {
                i += 1
                continue
            }
            var j = i
            while j < s.count, s[j] != UInt8(ascii: "["), s[j] != UInt8(ascii: "]"), s[j] != UInt8(ascii: ","),
                s[j] != 0x20
            { j += 1 }
            guard count < 4, let d = SourceValue.number(UnsafeBufferPointer(rebasing: s[i ..< j])) else { return nil }
            switch count {
            case 0: v.0 = d
            case 1: v.1 = d
            case 2: v.2 = d
            default: v.3 = d
            }
            count += 1
            i = j
        }
        guard count == 4 else { return nil }
        return CGRect(x: v.0, y: v.1, width: max(0, v.2 - v.0), height: max(0, v.3 - v.1))
    }

    /// Attribute `a`'s bounds.
    ///
    /// - Throws: `TreeError` naming the node, key `bounds` and the line:
    ///   `.input` when it is not four numbers, `.validation` when one is not
    ///   finite.
    static func bounds(_ a: XMLScanner.Attribute, in scanner: XMLScanner, node: String) throws(TreeError) -> CGRect {
        guard let r = scanner.withValue(a, parseBounds) else {
            throw TreeError(
                .input, "\"\(SourceValue.echo(scanner.string(a)))\" is not \"[x1,y1][x2,y2]\"", file: scanner.file,
                line: scanner.line(at: a.valueStart), node: node, key: "bounds")
        }
        if let problem = ValueRules.rectProblem(r) {
            throw TreeError(
                .validation, problem, file: scanner.file, line: scanner.line(at: a.valueStart), node: node,
                key: "bounds")
        }
        return r
    }

    /// The traits a class implies, by its simple name.
    static func traits(ofSimpleName name: String) -> AccessibilityTraits {
        let toggles = [
            "CheckBox", "Switch", "SwitchCompat", "SwitchMaterial", "ToggleButton", "RadioButton",
            "CompoundButton", "CheckedTextView",
        ]
        if toggles.contains(where: { name.hasSuffix($0) }) { return [.button, .toggleButton] }
        if name.hasSuffix("Button") { return .button }
        if name.hasSuffix("ImageView") { return .image }
        if name.hasSuffix("SearchAutoComplete") { return .searchField }
        if name.hasSuffix("EditText") || name.hasSuffix("AutoCompleteTextView") { return [] }
        if name.hasSuffix("TextView") { return .staticText }
        // The controls that handle their own touches (tree-format.md,
        // "Android": touch), which Android's touch rule finds by this trait.
        if ["SeekBar", "Slider", "RatingBar"].contains(where: { name.hasSuffix($0) }) { return .adjustable }
        if name.hasSuffix("ProgressBar") { return .updatesFrequently }
        if name.hasSuffix("TabWidget") || name.hasSuffix("TabLayout") { return .tabBar }
        return []
    }

    /// The node, its `frame` in screen pixels.
    func node(id: String) -> ImportedNode {
        var node = ImportedNode(id: id, frame: bounds)
        let desc = SourceValue.text(contentDescription), text = SourceValue.text(text)
        node.label = desc ?? text
        node.value = desc == nil ? nil : text
        node.labelIsText = desc == nil && text != nil
        node.isPassword = password
        node.identifier = SourceValue.text(resourceID)
        node.hint = SourceValue.text(hint)
        node.actions = actions
        // Only the iOS rules read it (a dump forced to `.ios`).
        node.isAccessibilityElement = !actions.isEmpty || node.label != nil
        var t = classTraits
        if actions.contains(.check) { t.formUnion([.button, .toggleButton]) }
        if heading { t.insert(.header) }
        if !enabled { t.insert(.notEnabled) }
        // Checked is its own fact (`checked`): TalkBack speaks the two apart.
        if selected { t.insert(.selected) }
        node.traits = t
        node.visibleInSnapshot = visible
        node.checked = checkedFlag
        node.importantForAccessibility = important
        node.className = className
        node.packageName = SourceValue.text(packageName)
        return node
    }
}
