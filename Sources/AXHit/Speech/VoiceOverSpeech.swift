/// VoiceOver's description and hint of an element (tree-format.md, "What
/// the screen reader says", iOS): AccessibilitySnapshot's
/// `accessibilityDescription(context:)` (cashapp/AccessibilitySnapshot,
/// `UIAccessibility+SnapshotAdditions.swift` and the model's
/// `AccessibilityElement+Description.swift`), with its English strings,
/// from the element's label, value, hint and traits. Each step below names
/// the behaviour it follows; the implementation is this project's own.
///
/// Snapshots carry the traits their type implies (the importers set the
/// public ones); the private ones a page source cannot express (text entry,
/// secure, text area, tab) are added here from the type (`className`), and
/// WebDriverAgent's filled-in values are dropped.
struct VoiceOverSpeech {
    /// What one element says, before the words are put together.
    struct Input {
        var label: String?
        var value: String?
        var hint: String?
        var traits: AccessibilityTraits
        var context: VoiceOverContext?
    }

    // MARK: UIKit's private trait bits (AccessibilitySnapshot's names)

    /// Text entry (a text field, search field or text view).
    static let textEntry = AccessibilityTraits(rawValue: 1 << 18)
    /// A text field being edited.
    static let isEditing = AccessibilityTraits(rawValue: 1 << 21)
    /// Secure text entry (a password field).
    static let secureTextField = AccessibilityTraits(rawValue: 1 << 24)
    /// A navigation bar's back button.
    static let backButton = AccessibilityTraits(rawValue: 1 << 27)
    /// A tab bar's item.
    static let tabBarItem = AccessibilityTraits(rawValue: 1 << 28)
    /// A multi-line text view (text entry in a text area).
    static let textArea = AccessibilityTraits(rawValue: 1 << 47)
    /// A switch: UIKit's private bit, public since iOS 17 as `toggleButton`.
    static let switchButton = AccessibilityTraits.toggleButton

    /// The traits that add a word or a hint, or take one away.
    static let spokenTraits: AccessibilityTraits = [
        .selected, .notEnabled, .button, .keyboardKey, .header, .link, .adjustable, .image, .searchField,
        textEntry, isEditing, secureTextField, backButton, tabBarItem, textArea, switchButton,
    ]

    // MARK: Snapshots

    /// The element type of a node of an iOS snapshot (`Button`), as the
    /// importers record it in `className`; nil for a view tree.
    static func snapshotType(of n: NodeID, in tree: ElementTree) -> String? {
        snapshotType(tree.extrasOf(n), in: tree)
    }

    /// The element type of a node of an iOS snapshot with `extras`.
    static func snapshotType(_ extras: NodeExtras?, in tree: ElementTree) -> String? {
        tree.platform == .ios && tree.source == .snapshot ? extras?.className : nil
    }

    /// The private traits a snapshot type implies, which a page source's
    /// `traits` cannot express (tree-format.md: SearchField and TextField
    /// text entry; SecureTextField secure text entry; TextView text entry in
    /// a text area; Tab a tab; Switch and Toggle a switch). The public ones
    /// (Button `button`, ...) are the importers' (`IOSElementFacts`).
    static func privateTraits(ofType type: String?) -> AccessibilityTraits {
        switch type {
        case "SearchField", "TextField": return textEntry
        case "SecureTextField": return [textEntry, secureTextField]
        case "TextView": return [textEntry, textArea]
        case "Tab": return tabBarItem
        case "Switch", "Toggle": return [.button, switchButton]
        default: return []
        }
    }

    /// The input for exposed element `e` of `tree`, in `context`: its label,
    /// value, hint and traits, with a snapshot type's private traits added
    /// and WebDriverAgent's copies dropped (a StaticText's value equal to
    /// its label; a selected Button's value "1": WebDriverAgent fills
    /// `value` itself where the element has none).
    static func input(of e: NodeID, in tree: ElementTree, context: VoiceOverContext?) -> Input {
        let extras = tree.extrasOf(e)
        var input = Input(
            label: extras?.label, value: extras?.value, hint: extras?.hint, traits: extras?.traits ?? [],
            context: context)
        if let type = snapshotType(extras, in: tree) {
            input.traits.formUnion(privateTraits(ofType: type))
            if type == "StaticText" && input.value != nil && input.value == input.label { input.value = nil }
            if type == "Button" && input.traits.contains(.selected) && input.value == "1" { input.value = nil }
        }
        return input
    }

    // MARK: The description

    /// The description and hint of exposed element `e` of `tree` in
    /// `context`: `speak(input(of:in:context:))`, without making the input
    /// of an element that sets none of the properties speech reads (it has
    /// nothing to say).
    static func speak(
        _ e: NodeID, in tree: ElementTree, context: VoiceOverContext?
    ) -> (
        description: String, hint: String?
    ) {
        if context == nil && tree.sideSlots[e.index].extra < 0 { return ("", nil) }
        return speak(input(of: e, in: tree, context: context))
    }

    /// The description and hint of `input` (AccessibilitySnapshot's
    /// `accessibilityDescription(context:)`, step by step).
    static func speak(_ input: Input) -> (description: String, hint: String?) {
        let t = input.traits
        let label = nonEmpty(input.label), value = nonEmpty(input.value), authoredHint = nonEmpty(input.hint)
        // Most elements: a label and no trait that speaks.
        if value == nil && authoredHint == nil && input.context == nil && t.isDisjoint(with: spokenTraits) {
            return (label ?? "", nil)
        }
        var hint = authoredHint
        // A back button's label "Back" is not read twice (its trait says it).
        var text = t.contains(backButton) && label?.lowercased() == "back" ? "" : (label ?? "")
        // The value after the label, "label: value"; a switch says its state instead.
        if let value, !t.contains(switchButton) { text = text.isEmpty ? value : "\(text): \(value)" }
        if t.contains(.selected) { text = text.isEmpty ? "Selected." : "Selected: \(text)" }
        let words = traitWords(t, value: value, context: input.context)
        // With nothing else to say, the hint stands in for the description.
        if text.isEmpty {
            text = hint ?? ""
            hint = nil
        }
        if !words.isEmpty { text = text.isEmpty ? words : "\(withPeriod(text)) \(words)" }
        if let context = input.context { text = say(context, after: text) }
        hint = hints(t, hint: hint, hintOnly: authoredHint != nil && label == nil && value == nil)
        return (text, hint)
    }

    /// The trait words, in AccessibilitySnapshot's order, joined by
    /// spaces (empty when there are none): Dimmed, Button (not for a key, a
    /// switch, a tab or a back button, nor in a tab context), Back Button,
    /// Switch Button (with `button`) and the switch's state ("1" On, "0"
    /// Off, "2" Mixed, any other value itself, as since iOS 17), Tab, Text
    /// Field or Secure Text Field (and Is editing), Heading, Link,
    /// Adjustable, Image, Search Field.
    static func traitWords(_ t: AccessibilityTraits, value: String?, context: VoiceOverContext?) -> String {
        var words = ""
        func add(_ word: String) {
            if !words.isEmpty { words += " " }
            words += word
        }
        if t.contains(.notEnabled) { add("Dimmed.") }
        let buttonHidden =
            !t.isDisjoint(with: [.keyboardKey, switchButton, tabBarItem, backButton])
            || context?.hidesButtonTrait == true
        if t.contains(.button) && !buttonHidden { add("Button.") }
        if t.contains(backButton) { add("Back Button.") }
        if t.contains(switchButton) {
            if t.contains(.button) { add("Switch Button.") }
            switch value {
            case "1": add("On.")
            case "0": add("Off.")
            case "2": add("Mixed.")
            case let other?: add(other)
            case nil: break
            }
        }
        if t.contains(tabBarItem) || context?.hidesButtonTrait == true { add("Tab.") }
        if t.contains(textEntry) {
            add(t.contains(secureTextField) ? "Secure Text Field." : "Text Field.")
            if t.contains(isEditing) { add("Is editing.") }
        }
        if t.contains(.header) { add("Heading.") }
        if t.contains(.link) { add("Link.") }
        if t.contains(.adjustable) { add("Adjustable.") }
        if t.contains(.image) { add("Image.") }
        if t.contains(.searchField) { add("Search Field.") }
        return words
    }

    /// The description with its context after it: "n of m." for a series
    /// or tab, else the list's or landmark's word after a period.
    static func say(_ context: VoiceOverContext, after text: String) -> String {
        switch context {
        case .series(let index, let count), .tab(let index, let count): return "\(text) \(index) of \(count)."
        case .listStart: return "\(withPeriod(text)) List Start."
        case .listEnd: return "\(withPeriod(text)) List End."
        case .landmarkStart: return "\(withPeriod(text)) Landmark."
        case .landmarkEnd: return "\(withPeriod(text)) End."
        }
    }

    /// The hint, in AccessibilitySnapshot's order: a switch that is enabled
    /// adds "Double tap to toggle setting." after the authored hint; text
    /// entry that is enabled replaces it ("Double tap to edit.", a text
    /// area's with the rotor, one being edited the rotor alone); an
    /// adjustable element that is enabled, is no switch and has more than a
    /// hint adds "Swipe up or down with one finger to adjust the value.".
    static func hints(_ t: AccessibilityTraits, hint: String?, hintOnly: Bool) -> String? {
        var hint = hint
        let enabled = !t.contains(.notEnabled)
        if t.contains(switchButton) && enabled { hint = appending("Double tap to toggle setting.", to: hint) }
        if t.contains(textEntry) && enabled {
            if t.contains(isEditing) {
                hint = "Use the rotor to access Misspelled Words"
            } else if t.contains(textArea) {
                hint = "Double tap to edit., Use the rotor to access Misspelled Words"
            } else {
                hint = "Double tap to edit."
            }
        }
        if t.contains(.adjustable) && enabled && !t.contains(switchButton) && !hintOnly {
            hint = appending("Swipe up or down with one finger to adjust the value.", to: hint)
        }
        return hint
    }

    // MARK: Strings

    /// `sentence` after `hint` without its final period and a period, or
    /// alone.
    private static func appending(_ sentence: String, to hint: String?) -> String {
        guard var h = nonEmpty(hint) else { return sentence }
        if h.hasSuffix(".") { h.removeLast() }
        return "\(h). \(sentence)"
    }

    /// `text` ending with a period.
    private static func withPeriod(_ text: String) -> String { text.hasSuffix(".") ? text : text + "." }

    private static func nonEmpty(_ s: String?) -> String? { s?.isEmpty == false ? s : nil }
}
