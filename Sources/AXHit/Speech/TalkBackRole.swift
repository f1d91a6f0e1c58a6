/// What TalkBack calls a node by its class (google/talkback's
/// `RoleDescriptionExtractor` and `Role.getRole`, with the English strings
/// of `strings_compositor.xml`): the first class, subclasses included, that
/// applies. A dump names only the class, so a subclass is read from the
/// simple name's ending, as `AndroidClass` does (`AppCompatImageButton` is
/// an `ImageView`, `SwitchCompat` a `Switch`).
enum TalkBackRole: Sendable, Hashable {
    case imageView, `switch`, radioButton, checkBox, button, editText, seekBar, progressBar, spinner, gridView
    case listView, viewPager, tabWidget, webView
    /// A `CheckedTextView`: no role word, "checked" only when checked.
    case checkedTextView
    /// Any other class (a plain `TextView` or layout): no role word.
    case none

    /// The role of class `className`.
    init(className: String?) {
        let name = AndroidClass(className).simpleName
        func ends(_ suffixes: String...) -> Bool { suffixes.contains { name.hasSuffix($0) } }
        // In TalkBack's order: an ImageView (ImageButton included) first, so
        // that an ImageButton is no Button.
        if ends("ImageView", "ImageButton") {
            self = .imageView
        } else if ends("Switch", "SwitchCompat", "SwitchMaterial", "ToggleButton") {
            self = .switch
        } else if ends("RadioButton") {
            self = .radioButton
        } else if ends("CheckBox", "CompoundButton") {
            self = .checkBox
        } else if ends("Button") {
            self = .button
        } else if ends("EditText", "AutoCompleteTextView", "SearchAutoComplete") {
            self = .editText
        } else if ends("SeekBar", "RatingBar") {
            self = .seekBar
        } else if ends("ProgressBar") {
            self = .progressBar
        } else if ends("Spinner") {
            self = .spinner
        } else if ends("GridView") {
            self = .gridView
        } else if ends("ListView") {
            self = .listView
        } else if ends("ViewPager") {
            self = .viewPager
        } else if ends("TabWidget") {
            self = .tabWidget
        } else if ends("WebView") {
            self = .webView
        } else if ends("CheckedTextView") {
            self = .checkedTextView
        } else {
            self = .none
        }
    }

    /// The role's word (an ImageView: "Button" when it declares `click`,
    /// else "Image"), or nil for none.
    func word(clickable: Bool) -> String? {
        switch self {
        case .imageView: return clickable ? "Button" : "Image"
        case .switch: return "Switch"
        case .radioButton: return "Radio button"
        case .checkBox: return "Check box"
        case .button: return "Button"
        case .editText: return "Edit box"
        case .seekBar: return "Slider"
        case .progressBar: return "Progress bar"
        case .spinner: return "Drop down list"
        case .gridView: return "Grid"
        case .listView: return "List"
        case .viewPager: return "Multi-page view"
        case .tabWidget: return "Tab bar"
        case .webView: return "Webview"
        case .checkedTextView, .none: return nil
        }
    }
}
