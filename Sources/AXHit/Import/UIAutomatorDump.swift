import Foundation

/// Reads an Android uiautomator dump into a tree of view nodes that mirrors
/// the source hierarchy. Both dialects: the classic `uiautomator dump`
/// (`<hierarchy rotation>` holding `<node>` elements, possibly several
/// top-level ones, one per window) and Appium UiAutomator2's page source
/// (`<hierarchy width height>` holding class-named elements such as
/// `<android.widget.FrameLayout>`).
///
/// Mapping:
///
/// - Every element with a `bounds` attribute becomes a view node; others
///   (`hierarchy` itself) are dropped, their children attaching upward.
///   `bounds="[x1,y1][x2,y2]"` is in screen pixels; it is divided by
///   `ImportOptions.density` (default 1: a dump does not record the density)
///   and converted into the parent's bounds space. An inverted rect (x2 < x1)
///   gets size 0 rather than failing: dumps clip bounds to the screen, and an
///   off-screen node can come out that way. Unparsable bounds are an error.
/// - `id`: `<SimpleClass>#<n>`, the class after its last `.` and the node's
///   0-based pre-order number among the source's nodes (`TextView#12`).
/// - Several top-level nodes get a synthetic root `screen` covering their
///   union and the hierarchy's `width`/`height`. uiautomator lists windows
///   topmost first, so they are reversed into back-to-front order (the status
///   bar above the app).
/// - Siblings are ordered by `drawing-order` when every one of them has it
///   (Android's child index is layout order, not drawing order; ties keep
///   source order); otherwise by source order.
/// - `screenBounds`: the hierarchy's `width`/`height` (UiAutomator2), else
///   the root's frame. `screenScale` is the density.
/// - `content-desc` → `accessibilityLabel`; `text` → the label when there is
///   no content description (TalkBack speaks the text then, as UIKit's label
///   is a UILabel's text), else `accessibilityValue`; `resource-id` →
///   `accessibilityIdentifier`; `hint` → `accessibilityHint`. Empty strings
///   are absent.
/// - `isAccessibilityElement`, TalkBack's rule of thumb: clickable,
///   long-clickable, checkable or `screen-reader-focusable`, or has a
///   content description or text. (A container that is an element hides its
///   subtree, as TalkBack merges a clickable row's texts.) `NAF` nodes follow
///   the same rule.
/// - Traits from the class (simple name): *Button, *ImageButton → button;
///   CheckBox, Switch, SwitchCompat, SwitchMaterial, ToggleButton,
///   RadioButton, CompoundButton, CheckedTextView → button + toggleButton,
///   as is any `checkable="true"` node; *ImageView → image; *TextView (not
///   EditText) → staticText; SearchAutoComplete → searchField; SeekBar,
///   RatingBar, NumberPicker, Slider → adjustable; ProgressBar →
///   updatesFrequently; TabWidget, TabLayout → tabBar. `heading="true"` →
///   header; `enabled="false"` → notEnabled; `selected` or `checked` true →
///   selected.
/// - `visible-to-user="false"` or `displayed="false"` → `isHidden`
///   (`ImportOptions.hidesInvisibleNodes`, default): the node is not on
///   screen, so nothing there takes a tap or a TalkBack touch.
/// - Ignored: `index` (document order is used), `package`, `focusable`,
///   `focused`, `scrollable`, `password`, `rotation` (bounds are already in
///   the rotated screen), `display-id`, `a11y-important` and the other
///   UiAutomator2 extras.
enum UIAutomatorDump {
    /// The tree of a uiautomator dump.
    ///
    /// - Complexity: O(n log k) in the input size (k: the largest sibling count).
    /// - Throws: `TreeError` with `file`, line, node id and key for malformed
    ///   XML, bad bounds, a bad density, or a dump with no node.
    static func read(_ data: Data, file: String?, options: ImportOptions) throws(TreeError) -> ElementTree {
        let density = try options.checkedDensity(file: file)
        let records = try PageSourceXMLReader.read(data, file: file)
        var hierarchy = ImportedHierarchy()
        var attachTo = [Int](repeating: -1, count: records.count)
        var screen: CGRect?
        for (r, record) in records.enumerated() {
            let parentNode = record.parent >= 0 ? attachTo[record.parent] : -1
            let a = record.attributes
            guard let bounds = a["bounds"] else {
                if record.name == "hierarchy", screen == nil,
                   let w = a["width"].flatMap(Double.init), let h = a["height"].flatMap(Double.init),
                   w.isFinite, h.isFinite, w >= 0, h >= 0 {
                    screen = CGRect(x: 0, y: 0, width: CGFloat(w) / density, height: CGFloat(h) / density)
                }
                attachTo[r] = parentNode
                continue
            }
            let className = a["class"] ?? (record.name == "node" ? "" : record.name)
            let id = "\(AndroidNodeFacts.simpleName(className))#\(hierarchy.nodes.count)"
            guard let rect = AndroidNodeFacts.parseBounds(bounds) else {
                throw TreeError(.input, "\"\(bounds)\" is not \"[x1,y1][x2,y2]\"", file: file, line: record.line, node: id, key: "bounds")
            }
            var visible = SourceValue.bool(a["visible-to-user"])
            if SourceValue.bool(a["displayed"]) == false { visible = false }
            let facts = AndroidNodeFacts(
                className: className, pixelBounds: rect,
                text: a["text"], contentDescription: a["content-desc"], resourceID: a["resource-id"], hint: a["hint"],
                clickable: SourceValue.bool(a["clickable"]) == true,
                longClickable: SourceValue.bool(a["long-clickable"]) == true,
                checkable: SourceValue.bool(a["checkable"]) == true,
                checked: SourceValue.bool(a["checked"]) == true,
                selected: SourceValue.bool(a["selected"]) == true,
                enabled: SourceValue.bool(a["enabled"]) ?? true,
                visible: visible ?? true,
                heading: SourceValue.bool(a["heading"]) == true,
                screenReaderFocusable: SourceValue.bool(a["screen-reader-focusable"]) == true)
            attachTo[r] = hierarchy.nodes.count
            hierarchy.add(facts.node(id: id, density: density, options: options), parent: parentNode,
                          line: record.line, zOrder: a["drawing-order"].flatMap { Int($0) })
        }
        var tree = try hierarchy.makeTree(file: file, topLevelFrontFirst: true, screen: screen)
        tree.screenBounds = screen ?? (tree.root.isNone ? nil : tree[tree.root].frame)
        tree.screenScale = density
        return tree
    }
}

/// What an Android source (uiautomator XML or a DroidBot state) says about one
/// node, and the mapping to a `Node` that `UIAutomatorDump` documents.
struct AndroidNodeFacts {
    var className: String
    /// Screen pixels, normalized (size >= 0).
    var pixelBounds: CGRect
    var text: String?
    var contentDescription: String?
    var resourceID: String?
    var hint: String?
    var clickable = false
    var longClickable = false
    var checkable = false
    var checked = false
    var selected = false
    var enabled = true
    var visible = true
    var heading = false
    var screenReaderFocusable = false

    /// `android.widget.TextView` → `TextView`; an inner class keeps its own
    /// name (`SearchView$SearchAutoComplete` → `SearchAutoComplete`); empty →
    /// `node`.
    static func simpleName(_ className: String) -> String {
        let tail = className.split(whereSeparator: { $0 == "." || $0 == "$" }).last.map(String.init) ?? ""
        return tail.isEmpty ? "node" : tail
    }

    /// `[x1,y1][x2,y2]` → a rect with size >= 0 (an inverted corner pair
    /// gives size 0 at the first corner), or nil when unparsable or not finite.
    static func parseBounds(_ s: String) -> CGRect? {
        let numbers = s.split(whereSeparator: { "[], ".contains($0) })
        guard numbers.count == 4 else { return nil }
        var v: [CGFloat] = []
        for n in numbers {
            guard let d = Double(n), d.isFinite else { return nil }
            v.append(CGFloat(d))
        }
        return CGRect(x: v[0], y: v[1], width: max(0, v[2] - v[0]), height: max(0, v[3] - v[1]))
    }

    /// The traits a class implies.
    static func traits(ofClass className: String) -> AccessibilityTraits {
        let name = simpleName(className)
        let toggles = ["CheckBox", "Switch", "SwitchCompat", "SwitchMaterial", "ToggleButton", "RadioButton",
                       "CompoundButton", "CheckedTextView"]
        if toggles.contains(where: { name.hasSuffix($0) }) { return [.button, .toggleButton] }
        if name.hasSuffix("Button") { return .button }
        if name.hasSuffix("ImageView") { return .image }
        if name.hasSuffix("SearchAutoComplete") { return .searchField }
        if name.hasSuffix("EditText") || name.hasSuffix("AutoCompleteTextView") { return [] }
        if name.hasSuffix("TextView") { return .staticText }
        if ["SeekBar", "RatingBar", "NumberPicker", "Slider"].contains(where: { name.hasSuffix($0) }) { return .adjustable }
        if name.hasSuffix("ProgressBar") { return .updatesFrequently }
        if name.hasSuffix("TabWidget") || name.hasSuffix("TabLayout") { return .tabBar }
        return []
    }

    /// The view node, its `frame` in screen points.
    func node(id: String, density: CGFloat, options: ImportOptions) -> Node {
        let b = pixelBounds
        var node = Node.view(id, frame: CGRect(x: b.minX / density, y: b.minY / density,
                                               width: b.width / density, height: b.height / density))
        let desc = SourceValue.text(contentDescription), text = SourceValue.text(text)
        node.accessibilityLabel = desc ?? text
        node.accessibilityValue = desc == nil ? nil : text
        node.accessibilityIdentifier = SourceValue.text(resourceID)
        node.accessibilityHint = SourceValue.text(hint)
        node.isAccessibilityElement = clickable || longClickable || checkable || screenReaderFocusable
            || desc != nil || text != nil
        var t = Self.traits(ofClass: className)
        if checkable { t.formUnion([.button, .toggleButton]) }
        if heading { t.insert(.header) }
        if !enabled { t.insert(.notEnabled) }
        if selected || checked { t.insert(.selected) }
        node.accessibilityTraits = t
        if options.hidesInvisibleNodes && !visible { node.isHidden = true }
        return node
    }
}
