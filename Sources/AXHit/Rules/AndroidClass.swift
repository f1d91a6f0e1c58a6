/// What an Android view's class name says to TalkBack's rules
/// (tree-format.md, "Android"): a dump names only the class, so "a class
/// and its subclasses" is read as the simple name (after the last `.`)
/// ending with the framework class's name, which is how support-library and
/// app subclasses are named (`AppCompatTextView`, `MaterialButton`,
/// `ExpandableListView`). One home for every such test: exposure, order,
/// touch and audits all ask here.
struct AndroidClass: Sendable {
    /// The simple name: the class name after its last `.`.
    let simpleName: Substring

    init(_ className: String?) {
        let name = className ?? ""
        simpleName = name.lastIndex(of: ".").map { name[name.index(after: $0)...] } ?? name[...]
    }

    private func endsWith(_ suffixes: String...) -> Bool {
        suffixes.contains { simpleName.hasSuffix($0) }
    }

    /// A collection, which TalkBack reads no text of: `ListView`,
    /// `GridView`, `ExpandableListView`, `RecyclerView`.
    var isCollection: Bool { endsWith("ListView", "GridView", "RecyclerView") }

    /// A range control: `ProgressBar`, `SeekBar`, `RatingBar`, `Slider`.
    var isRangeControl: Bool { endsWith("ProgressBar", "SeekBar", "RatingBar", "Slider") }

    /// A control that handles its own touches (`SeekBar`, `Slider`,
    /// `RatingBar`): Android's touch rule lets it consume a tap.
    var isAdjustable: Bool { endsWith("SeekBar", "RatingBar", "Slider") }

    /// `ScrollView`, `HorizontalScrollView`, `NestedScrollView`.
    var isScrollView: Bool { endsWith("ScrollView") }

    /// `ListView` or `GridView` (and their subclasses): ATF's size check
    /// does not let such an ancestor excuse a small item.
    var isListOrGrid: Bool { endsWith("ListView", "GridView") }

    var isSpinner: Bool { endsWith("Spinner") }

    var isWebView: Bool { endsWith("WebView") }

    /// A class that makes itself important for accessibility: `TextView`
    /// and its subclasses (buttons, edit texts, check boxes, radio buttons,
    /// switches, toggle buttons, checked text views, chips, clocks), range
    /// controls, collections, `Spinner` and `ViewPager`. `ImageButton` is an
    /// `ImageView`, not a `TextView`.
    var makesItselfImportant: Bool {
        if endsWith("ImageButton") { return false }
        return endsWith(
            "TextView", "Button", "EditText", "CheckBox", "Switch", "SwitchCompat", "SwitchMaterial", "Chip",
            "Chronometer", "TextClock", "AutoComplete", "ProgressBar", "SeekBar", "RatingBar", "ListView",
            "GridView", "Spinner", "RecyclerView", "ViewPager")
    }
}
