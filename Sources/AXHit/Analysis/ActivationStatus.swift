/// What happens when an element's activation point is tapped
/// (tree-format.md, "Activation").
public enum ActivationStatus: String, Sendable, Hashable, CaseIterable {
    /// The tap reaches the element: its own view or a descendant (a view
    /// element), or its container or a descendant (an element node).
    case ok
    /// Another view receives the tap.
    case obstructed
    /// No view receives the tap.
    case lost
}
