/// Where an element sits, as VoiceOver says it after its description
/// (AccessibilitySnapshot's `AccessibilityHierarchyParser.Context`, the
/// cases a tree can express): a tab of a tab bar, a segment of a segmented
/// control, or the ends of a list or landmark.
enum VoiceOverContext: Sendable, Hashable {
    /// One of `count` (from 1): a button of a segmented control. "2 of 3."
    case series(index: Int, count: Int)
    /// One of `count` tabs (from 1): an element inside a `tabBar` container.
    /// "Tab. 2 of 4."; hides the button trait.
    case tab(index: Int, count: Int)
    case listStart, listEnd, landmarkStart, landmarkEnd

    /// The container kinds that give a context, for `VoiceOverContext.of`.
    enum Provider: Sendable, Hashable {
        /// A container with the `tabBar` trait: every element inside it.
        case tabBar
        /// A snapshot's `SegmentedControl`: the Buttons inside it.
        case segmentedControl
        /// A `list` or `landmark` container with `accessibilityElements`:
        /// the first and last nodes it lists.
        case list([String]), landmark([String])
    }

    /// The context kind `n` gives the elements inside it, if any.
    static func provider(_ n: NodeID, in tree: ElementTree) -> Provider? {
        // Most nodes have none of the rare properties a provider needs.
        // Each fact read from one copy of the node's extras.
        guard let extras = tree.extrasOf(n) else { return nil }
        if extras.traits.contains(.tabBar) { return .tabBar }
        if VoiceOverSpeech.snapshotType(extras, in: tree) == "SegmentedControl" { return .segmentedControl }
        guard let listed = extras.accessibilityElements else { return nil }
        switch extras.containerType {
        case .list: return .list(listed)
        case .landmark: return .landmark(listed)
        default: return nil
        }
    }

    /// Whether an element of `provider`'s container takes part in its
    /// numbering (tabs: every element; a segmented control: its Buttons).
    static func counts(_ e: NodeID, in provider: Provider, tree: ElementTree) -> Bool {
        switch provider {
        case .tabBar: return true
        case .segmentedControl: return VoiceOverSpeech.snapshotType(of: e, in: tree) == "Button"
        case .list, .landmark: return false
        }
    }

    /// The context `provider`'s container gives the element with id `id`
    /// inside it; `position` is its place (from 0) among the container's
    /// elements that `counts(_:in:tree:)` admits, in navigation order, and
    /// their number. Nil when it gives none (a list's middle element; an
    /// element that is not numbered).
    static func of(_ id: String, in provider: Provider, position: (index: Int, count: Int)?) -> VoiceOverContext? {
        switch provider {
        case .tabBar:
            return position.map { .tab(index: $0.index + 1, count: $0.count) }
        case .segmentedControl:
            return position.map { .series(index: $0.index + 1, count: $0.count) }
        case .list(let listed):
            // AccessibilitySnapshot: the first listed is the start; the last
            // the end, unless it is also the first (a list of one).
            if listed.first == id { return .listStart }
            return listed.count > 1 && listed.last == id ? .listEnd : nil
        case .landmark(let listed):
            if listed.first == id { return .landmarkStart }
            return listed.count > 1 && listed.last == id ? .landmarkEnd : nil
        }
    }

    /// Whether VoiceOver leaves out the button trait here (a tab).
    var hidesButtonTrait: Bool { if case .tab = self { true } else { false } }
}
