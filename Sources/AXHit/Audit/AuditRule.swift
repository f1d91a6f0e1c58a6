/// How much a finding matters.
public enum AuditSeverity: String, Sendable, Hashable, CaseIterable, Comparable {
    /// VoiceOver users cannot use the element as intended.
    case error
    /// The element works, but poorly or surprisingly.
    case warning

    /// Errors sort before warnings.
    public static func < (a: AuditSeverity, b: AuditSeverity) -> Bool { a == .error && b == .warning }
}

/// The geometric checks `Auditor` runs, each with a stable id (the JSON
/// `"rule"`) and a severity.
public enum AuditRule: String, Sendable, Hashable, CaseIterable {
    /// An exposed element whose accessibility frame has no area (usually
    /// CGRectZero: a frame that was never set).
    case zeroFrame = "zero-frame"
    /// The frame lies wholly outside the screen.
    case offScreen = "off-screen"
    /// Part of the frame lies outside the screen.
    case partlyOffScreen = "partly-off-screen"
    /// The activation point lies outside the element's shape.
    case activationOutsideShape = "activation-outside-shape"
    /// A double-tap at the activation point reaches another view.
    case activationObstructed = "activation-obstructed"
    /// A double-tap at the activation point reaches no view.
    case activationLost = "activation-lost"
    /// An interactive element whose deliverable region holds no circle 44 pt
    /// across (the inscribed circle of Apple's 44x44 pt minimum).
    case smallTouchTarget = "small-touch-target"
    /// Touch exploration can never land on the element: its frame region is
    /// cut away by its ancestors' bounds or wholly covered by elements in front.
    case unreachable = "unreachable"
    /// Two exposed elements' frame regions overlap by a real area: touch
    /// exploration there finds only the front one.
    case overlappingElements = "overlapping-elements"
    /// The accessibility path strays outside the element's frame.
    case pathOutsideFrame = "path-outside-frame"
    /// Nothing of the element can be seen: clipped away or under opaque views.
    case notVisible = "not-visible"

    /// The rule's severity.
    public var severity: AuditSeverity {
        switch self {
        case .zeroFrame, .offScreen, .activationObstructed, .activationLost, .unreachable: return .error
        case .partlyOffScreen, .activationOutsideShape, .smallTouchTarget, .overlappingElements, .pathOutsideFrame,
             .notVisible:
            return .warning
        }
    }
}
