/// What the screen reader speaks when it focuses an exposed element
/// (tree-format.md, "What the screen reader says"), in English: VoiceOver's
/// description as AccessibilitySnapshot renders it (`VoiceOverSpeech`), or
/// TalkBack's (`TalkBackSpeech`).
public struct Speech: Sendable, Hashable, CustomStringConvertible {
    /// The element spoken.
    public let element: NodeID
    /// What is spoken first (empty when there is nothing to say).
    public let description: String
    /// What is spoken after a pause, or nil when there is none.
    public let hint: String?

    /// Speech of `element`.
    public init(element: NodeID, description: String, hint: String?) {
        self.element = element
        self.description = description
        self.hint = hint
    }
}
