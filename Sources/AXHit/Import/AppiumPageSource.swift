import Foundation

/// Reads an Appium iOS page source (XCUITest driver / WebDriverAgent XML) into
/// a tree of view nodes that mirrors the source hierarchy.
///
/// Input: `XCUIElementType*` elements, optionally wrapped in `<AppiumAUT>`
/// (wrappers are dropped), with `x y width height` in points, screen
/// coordinates. Mapping, attribute by attribute:
///
/// - Every element becomes a view node (`kind` view). Its `frame` is its
///   screen rect converted into its parent's bounds space
///   (`origin - parent's screen origin`); the root (the application) keeps
///   its screen rect, which is also `screenBounds`. Sizes are kept as given,
///   even when a window reports pixels (1125x2436) inside a 375x812 app: it is
///   data. A missing coordinate counts as 0; a non-number or negative size is
///   an error.
/// - `id`: `<Type>#<n>`, the type without its `XCUIElementType` prefix and the
///   element's 0-based pre-order number among the source's elements
///   (`Application#0`, `Button#12`): unique, readable, and findable in the
///   source by counting. Several top-level elements get a synthetic root
///   `screen` covering their union.
/// - `name` → `accessibilityIdentifier`, `label` → `accessibilityLabel`,
///   `value` → `accessibilityValue` (empty strings are absent).
/// - `isAccessibilityElement`: `accessible` when present (WebDriverAgent
///   computes it from the element's own flag). When absent, UIKit's defaults
///   by type: controls and text are elements (Button, StaticText, TextField,
///   SecureTextField, TextView, SearchField, Link, Switch, Toggle, Slider,
///   Stepper, PickerWheel, Key, Tab, Icon, RadioButton, CheckBox, MenuItem,
///   ProgressIndicator, ActivityIndicator, PageIndicator, SegmentedControl's
///   buttons via Button); containers are not (Other, Cell, Table,
///   CollectionView, ScrollView, bars, windows). Images and cells are not:
///   UIImageView defaults to false, and cells expose their labels instead;
///   the corpus dumps that carry `accessible` agree (59 of 59 images, 60 of
///   61 cells false).
/// - `accessibilityTraits`: the `traits` attribute when present (WebDriverAgent's
///   names, comma- or space-separated, matched case-insensitively: "Button,
///   Selected"; or an integer mask), otherwise from the type: Button, Tab →
///   button; Link → link; Image, Icon → image; StaticText → staticText;
///   SearchField → searchField; Key → keyboardKey; Slider, Stepper,
///   PickerWheel, PageIndicator, Incrementor → adjustable; Switch, Toggle,
///   CheckBox, RadioButton → button + toggleButton (UIKit's UISwitch since
///   iOS 17); TabBar → tabBar; ProgressIndicator → updatesFrequently.
///   NavigationBar gets no `header`: in UIKit the bar is a container and only
///   its title text would be a header, which page sources do not mark.
///   Always added: `notEnabled` for `enabled="false"` (`enabled=""`, as in
///   the Appium fixture, counts as enabled) and `selected` for
///   `selected="true"`.
/// - `visible="false"` → `isHidden` (with `ImportOptions.hidesInvisibleNodes`,
///   the default). WebDriverAgent's `visible` is false for elements that are
///   off-screen, covered, or in a window that is not shown (the Appium fixture's
///   second full-screen window, the lock screen's pixel-sized windows). XCUITest
///   snapshots leave out truly hidden views, so this is the only visibility the
///   source has; keeping those views would make a covering invisible window
///   take every tap. The cost: WebDriverAgent sometimes marks visible content
///   invisible (the lock screen's clock and torch button), which then is not
///   hit. Set the option to false to keep every node.
/// - `index`, `type` (the tag name is used when `type` is absent) and other
///   attributes are not needed: order comes from the document.
enum AppiumPageSource {
    /// The tree of an Appium iOS page source.
    ///
    /// - Complexity: O(n) in the input size.
    /// - Throws: `TreeError` with `file`, line, node id and key for malformed
    ///   XML, a bad number, or a source with no element.
    static func read(_ data: Data, file: String?, options: ImportOptions) throws(TreeError) -> ElementTree {
        let records = try PageSourceXMLReader.read(data, file: file)
        var hierarchy = ImportedHierarchy()
        hierarchy.nodes.reserveCapacity(records.count)
        // Record index → the node index its children attach to: its own, or
        // for a dropped wrapper its parent's.
        var attachTo = [Int](repeating: -1, count: records.count)
        for (r, record) in records.enumerated() {
            let parentNode = record.parent >= 0 ? attachTo[record.parent] : -1
            if record.name == "AppiumAUT" {
                attachTo[r] = parentNode
                continue
            }
            let a = record.attributes
            let type = IOSElementFacts.shortType(a["type"] ?? record.name)
            let id = "\(type)#\(hierarchy.nodes.count)"
            func number(_ key: String) throws(TreeError) -> CGFloat {
                try SourceValue.number(a[key], key: key, node: id, line: record.line, file: file) ?? 0
            }
            let facts = IOSElementFacts(
                type: type,
                frame: CGRect(x: try number("x"), y: try number("y"), width: try number("width"), height: try number("height")),
                name: a["name"], label: a["label"], value: a["value"],
                enabled: SourceValue.bool(a["enabled"]), visible: SourceValue.bool(a["visible"]),
                accessible: SourceValue.bool(a["accessible"]), selected: SourceValue.bool(a["selected"]),
                traits: a["traits"])
            attachTo[r] = hierarchy.nodes.count
            hierarchy.add(facts.node(id: id, options: options), parent: parentNode, line: record.line)
        }
        var tree = try hierarchy.makeTree(file: file)
        if !tree.root.isNone { tree.screenBounds = tree[tree.root].frame }
        return tree
    }
}

/// What an iOS page source (Appium XML or WebDriverAgent JSON) says about one
/// element, and the mapping to a `Node` that `AppiumPageSource` documents.
struct IOSElementFacts {
    /// The type without its `XCUIElementType`/`UIA` prefix: `Button`.
    var type: String
    /// Screen coordinates, points.
    var frame: CGRect
    var name: String?
    var label: String?
    var value: String?
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

    /// Types that are accessibility elements when the source does not say.
    static let elementTypes: Set<String> = [
        "Button", "StaticText", "TextField", "SecureTextField", "TextView", "SearchField", "Link",
        "Switch", "Toggle", "Slider", "Stepper", "PickerWheel", "Key", "Tab", "Icon", "RadioButton",
        "CheckBox", "MenuItem", "ProgressIndicator", "ActivityIndicator", "PageIndicator", "Incrementor",
    ]

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

    /// The view node, its `frame` still in screen coordinates.
    func node(id: String, options: ImportOptions) -> Node {
        var node = Node.view(id, frame: frame)
        node.accessibilityIdentifier = SourceValue.text(name)
        node.accessibilityLabel = SourceValue.text(label)
        node.accessibilityValue = SourceValue.text(value)
        node.isAccessibilityElement = accessible ?? Self.elementTypes.contains(type)
        var t = traits.map(Self.parseTraits) ?? Self.traits(ofType: type)
        if enabled == false { t.insert(.notEnabled) }
        if selected == true { t.insert(.selected) }
        node.accessibilityTraits = t
        if options.hidesInvisibleNodes && visible == false { node.isHidden = true }
        return node
    }
}
