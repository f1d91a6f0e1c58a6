/// The space an `accessibilityPath` is written in.
public enum PathCoordinateSpace: String, Sendable, Hashable {
    /// Screen coordinates, as UIKit's `accessibilityPath` property.
    case screen
    /// The bounds space of the node's view: a view node's own, an element
    /// node's container's. Converted to the screen exactly, as
    /// `UIAccessibilityConvertPathToScreenCoordinates(path, view)`.
    case view
}

/// An element's exact shape: a Bézier path with its fill rule, and the space
/// it is written in.
public struct AccessibilityPath: Sendable, Hashable {
    /// The path; its `fillRule` is UIBezierPath's `usesEvenOddFillRule`.
    public var path: BezierPath
    /// Where `path`'s coordinates live.
    public var coordinateSpace: PathCoordinateSpace

    /// A path in `coordinateSpace` (screen by default, as UIKit).
    public init(_ path: BezierPath, coordinateSpace: PathCoordinateSpace = .screen) {
        self.path = path
        self.coordinateSpace = coordinateSpace
    }
}

/// `accessibilityNavigationStyle`: carried, no effect on hit-testing.
public enum NavigationStyle: String, Sendable, Hashable {
    case automatic, separate, combined
}

/// A node's kind: a UIView (with its own coordinate space) or a
/// UIAccessibilityElement (whose container is its nearest ancestor view).
public enum NodeKind: String, Sendable, Hashable {
    case view, element
}
