/// Which region of an exposed element a point must fall in to hit it.
public enum HitPolicy: String, Sendable, Hashable, CaseIterable {
    /// VoiceOver's own: the accessibility frame as a closed-open rect
    /// (`minX <= x < maxX`, `minY <= y < maxY`, as CGRectContainsPoint).
    case frame
    /// The exact shape: the `accessibilityPath` by its fill rule; else the
    /// converted quadrilateral of a view's bounds or of an element's frame in
    /// container space; else the accessibility frame.
    case shape
}
