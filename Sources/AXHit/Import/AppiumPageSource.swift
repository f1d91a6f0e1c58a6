import Foundation

/// Reads an Appium iOS page source (XCUITest driver / WebDriverAgent XML) into
/// a snapshot tree (`platform` ios, `source` snapshot) of view nodes that
/// mirrors the source hierarchy.
///
/// Input: `XCUIElementType*` elements, optionally wrapped in `<AppiumAUT>`
/// (the wrapper is dropped), with `x y width height` in points, screen
/// coordinates. Mapping, attribute by attribute:
///
/// - Every element below the wrapper becomes a view node, whatever its tag
///   (the hand-edited Appium fixture has `<SomeRandoElement>`). Its `frame`
///   is its screen rect converted into its parent's bounds space
///   (`origin - parent's screen origin`); the root (the application) keeps
///   its screen rect. Sizes are kept as given, even when a window reports
///   pixels (1125x2436) inside a 375x812 app: it is data. An element with
///   none of `x y width height` gets an empty frame at the origin; one
///   missing coordinate counts as 0; a value that is not a number, not
///   finite, or a negative size is an error naming the node and the key.
/// - `id`: `<Type>#<n>`, the `type` attribute without its `XCUIElementType`
///   prefix (the tag when there is no `type`) and the element's 0-based
///   pre-order number among the elements below the wrapper (`Application#0`,
///   `Button#12`): unique, readable, and findable in the source by counting.
///   Several top-level elements get a synthetic root `screen` covering
///   their union.
/// - `name` → `accessibilityIdentifier`, `label` → `accessibilityLabel`,
///   `value` → `accessibilityValue` (empty strings are absent).
/// - `isAccessibilityElement`: `accessible` when present and not empty
///   (WebDriverAgent computes it from the element's own flag). When absent,
///   the types VoiceOver focuses by default (tree-format.md, "iOS
///   snapshots") are elements: Button, Cell, StaticText, TextField,
///   SecureTextField, SearchField, TextView, Switch, Toggle, Slider,
///   Stepper, Link, Key, Tab, PickerWheel, PageIndicator, and Image when its
///   `label` is not empty; every other type (Application, Window, Other,
///   Table, CollectionView, ScrollView, the bars, Keyboard...) is a
///   container.
/// - `className`: the short type (`Button`), which speech reads
///   (`VoiceOverSpeech`).
/// - `accessibilityTraits`: the traits the type implies, plus the `traits`
///   attribute when present (WebDriverAgent's names, comma- or
///   space-separated, matched case-insensitively: "Button, Selected"; or an
///   integer mask). From the type: Button, Tab →
///   button; Link → link; Image, Icon → image; StaticText → staticText;
///   SearchField → searchField; Key → keyboardKey; Slider, Stepper,
///   PickerWheel, PageIndicator, Incrementor → adjustable; Switch, Toggle,
///   CheckBox, RadioButton → button + toggleButton (UIKit's UISwitch since
///   iOS 17); TabBar → tabBar; ProgressIndicator → updatesFrequently;
///   Heading (idb) → header. NavigationBar gets no `header`: in UIKit the
///   bar is a container and only its title text would be a header, which
///   page sources do not mark. Always added: `notEnabled` for
///   `enabled="false"` (`enabled=""`, as in the Appium fixture, counts as
///   enabled) and `selected` for `selected="true"`.
/// - `visible` → `visibleInSnapshot`, evidence only: the iOS snapshot rules
///   let geometry decide, because WebDriverAgent's flag is often wrong
///   (the lock screen's clock and torch button are `visible="false"`).
///   `ImportOptions.trustsVisibilityFlags` makes `visible="false"` hide the
///   node (`isHidden`) too.
/// - `index` and other attributes are not needed: order comes from the
///   document.
enum AppiumPageSource {
    private enum Key: Int, CaseIterable {
        case type, name, label, value, enabled, visible, accessible, selected, traits, x, y, width, height
    }

    private static let keys = KeyTable<Key>(Key.allCases.map { ("\($0)", $0) })

    /// The tree of an Appium iOS page source.
    ///
    /// - Complexity: O(n) in the input size.
    /// - Throws: `TreeError` with `file`, line, node id and key for malformed
    ///   XML, a bad number, or a source with no element.
    static func read(_ data: Data, file: String?, options: ImportOptions) throws(TreeError) -> ElementTree {
        try withBytes(of: data) { bytes throws(TreeError) in
            var scanner = XMLScanner(bytes, file: file)
            var hierarchy = ImportedHierarchy()
            // The node index of each open element; -1 for the wrapper.
            var open: [Int] = []
            var slots = [XMLScanner.Attribute?](repeating: nil, count: Key.allCases.count)
            scan: while true {
                switch try scanner.next() {
                case .start:
                    if scanner.depth == 1 && scanner.name.elementsEqual("AppiumAUT".utf8) {
                        open.append(-1)
                        continue scan
                    }
                    for k in slots.indices { slots[k] = nil }
                    for a in scanner.attributes {
                        if let key = keys.lookup(scanner.name(of: a)) { slots[key.rawValue] = a }
                    }
                    func text(_ key: Key) -> String? { slots[key.rawValue].map { scanner.string($0) } }
                    func flag(_ key: Key) -> Bool? {
                        slots[key.rawValue].flatMap { a in scanner.withValue(a, SourceValue.bool) }
                    }
                    let type = IOSElementFacts.shortType(text(.type) ?? String(decoding: scanner.name, as: UTF8.self))
                    let id = "\(type)#\(hierarchy.nodes.count)"
                    var frame = CGRect.zero
                    if slots[Key.x.rawValue] != nil || slots[Key.y.rawValue] != nil
                        || slots[Key.width.rawValue] != nil || slots[Key.height.rawValue] != nil
                    {
                        func number(_ key: Key) throws(TreeError) -> CGFloat {
                            guard let a = slots[key.rawValue] else { return 0 }
                            return try XMLValue.number(a, in: scanner, key: "\(key)", node: id)
                        }
                        frame = CGRect(
                            x: try number(.x), y: try number(.y), width: try number(.width), height: try number(.height)
                        )
                        // A negative size is the frame's fault, as in axhit/1.
                        if let problem = ValueRules.rectProblem(frame) {
                            throw TreeError(
                                .validation, problem, file: file, line: scanner.line(at: scanner.tagOffset),
                                node: id, key: "frame")
                        }
                    }
                    let facts = IOSElementFacts(
                        type: type, frame: frame, name: text(.name), label: text(.label), value: text(.value),
                        enabled: flag(.enabled), visible: flag(.visible), accessible: flag(.accessible),
                        selected: flag(.selected), traits: text(.traits))
                    let parent = open.last ?? -1
                    open.append(hierarchy.nodes.count)
                    hierarchy.add(facts.node(id: id), parent: parent, offset: scanner.tagOffset)
                case .end:
                    open.removeLast()
                case .finish:
                    break scan
                }
            }
            let top = ImportedHierarchy.TopLevel(screen: hierarchy.applicationFrame)
            return try hierarchy.makeTree(
                platform: .ios, top: top, options: options, file: file, lines: SourceLines(bytes: bytes))
        }
    }
}

/// Numbers in XML attribute values, checked, with errors that name the
/// node, the key and the attribute's line.
enum XMLValue {
    /// Attribute `a`'s value as a finite number.
    ///
    /// - Throws: `TreeError` naming the node, the key and the attribute's
    ///   line: `.input` when it is not a number, `.validation` when it is
    ///   not finite.
    static func number(
        _ a: XMLScanner.Attribute, in scanner: XMLScanner, key: String, node: String
    ) throws(TreeError) -> CGFloat {
        let v = scanner.withValue(a, SourceValue.number)
        guard let v else {
            throw TreeError(
                .input, "\"\(SourceValue.echo(scanner.string(a)))\" is not a number", file: scanner.file,
                line: scanner.line(at: a.valueStart), node: node, key: key)
        }
        guard v.isFinite else {
            throw TreeError(
                .validation, "\"\(SourceValue.echo(scanner.string(a)))\" is not a finite number",
                file: scanner.file, line: scanner.line(at: a.valueStart), node: node, key: key)
        }
        return CGFloat(v)
    }
}

/// What an iOS page source (Appium XML, idb JSON, WebDriverAgent JSON) says
/// about one element, and the mapping to a node that `AppiumPageSource`
/// documents.
struct IOSElementFacts {
    /// The type without its `XCUIElementType`/`UIA` prefix: `Button`.
    var type: String
    /// Screen coordinates, points.
    var frame: CGRect
    var name: String?
    var label: String?
    var value: String?
    var hint: String?
    var enabled: Bool?
    var visible: Bool?
    var accessible: Bool?
    var selected: Bool?
    /// The raw `traits` attribute.
    var traits: String?

    /// `XCUIElementTypeButton` → `Button`; anything else unchanged (empty → `Other`).
    static func shortType(_ raw: String) -> String {
        let prefix = "XCUIElementType"
        let t = raw.hasPrefix(prefix) ? String(raw.dropFirst(prefix.count)) : raw
        return t.isEmpty ? "Other" : t
    }

    /// The types VoiceOver focuses by default (tree-format.md, "iOS
    /// snapshots"); Image too, when it has a label.
    static let elementTypes: Set<String> = [
        "Button", "Cell", "StaticText", "TextField", "SecureTextField", "SearchField", "TextView", "Switch",
        "Toggle", "Slider", "Stepper", "Link", "Key", "Tab", "PickerWheel", "PageIndicator",
    ]

    /// Whether an element of `type` with `label` is an accessibility element
    /// when the source does not say.
    static func isElementByDefault(type: String, label: String?) -> Bool {
        elementTypes.contains(type) || (type == "Image" && SourceValue.text(label) != nil)
    }

    /// The traits a type implies.
    static func traits(ofType type: String) -> AccessibilityTraits {
        switch type {
        case "Button", "Tab": return .button
        case "Link": return .link
        case "Image", "Icon": return .image
        case "StaticText": return .staticText
        case "SearchField": return .searchField
        case "Key": return .keyboardKey
        case "Slider", "Stepper", "PickerWheel", "PageIndicator", "Incrementor": return .adjustable
        case "Switch", "Toggle", "CheckBox", "RadioButton": return [.button, .toggleButton]
        case "TabBar": return .tabBar
        case "ProgressIndicator": return .updatesFrequently
        case "Heading": return .header
        default: return []
        }
    }

    /// WebDriverAgent's `traits` attribute: an integer mask, or trait names
    /// separated by commas or spaces, matched case-insensitively. Unknown
    /// names are skipped (newer WebDriverAgents may add some).
    static func parseTraits(_ s: String) -> AccessibilityTraits {
        let trimmed = s.trimmingCharacters(in: .whitespaces)
        if let mask = UInt64(trimmed) { return AccessibilityTraits(rawValue: mask) }
        var out: AccessibilityTraits = []
        for word in trimmed.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "|" }) {
            let w = word.lowercased()
            if let entry = AccessibilityTraits.named.first(where: { $0.name.lowercased() == w }) {
                out.insert(entry.trait)
            }
        }
        return out
    }

    /// The node, its `frame` still in screen coordinates.
    func node(id: String) -> ImportedNode {
        var node = ImportedNode(id: id, frame: frame)
        node.identifier = SourceValue.text(name)
        node.label = SourceValue.text(label)
        node.value = SourceValue.text(value)
        node.hint = SourceValue.text(hint)
        node.isAccessibilityElement = accessible ?? Self.isElementByDefault(type: type, label: label)
        // A newer source's own traits come on top of the type's: it cannot
        // express all of them (tree-format.md, "What the screen reader says").
        var t = Self.traits(ofType: type).union(SourceValue.text(traits).map(Self.parseTraits) ?? [])
        if enabled == false { t.insert(.notEnabled) }
        if selected == true { t.insert(.selected) }
        node.traits = t
        node.visibleInSnapshot = visible
        // The type, for what only it says (speech: text entry, tabs, a
        // segmented control's buttons, WebDriverAgent's filled-in values).
        node.className = type
        return node
    }
}
