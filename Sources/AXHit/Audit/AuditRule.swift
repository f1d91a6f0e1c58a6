/// How much a finding matters.
public enum AuditSeverity: String, Sendable, Hashable, CaseIterable, Comparable {
    /// Screen-reader users cannot use the element as intended.
    case error
    /// The element works, but poorly or surprisingly.
    case warning
    /// Worth knowing, nothing wrong with the element: the input disagrees
    /// with itself.
    case info

    /// Errors sort before warnings, warnings before information.
    public static func < (a: AuditSeverity, b: AuditSeverity) -> Bool { a.rank < b.rank }

    private var rank: Int {
        switch self {
        case .error: return 0
        case .warning: return 1
        case .info: return 2
        }
    }
}

/// The geometric checks `Auditor` runs, each with a stable id (the JSON
/// `"rule"`) and a severity.
public enum AuditRule: String, Sendable, Hashable, CaseIterable {
    /// An exposed element whose accessibility frame has no area (usually
    /// CGRectZero: a frame that was never set).
    case zeroFrame = "zero-frame"
    /// The frame lies wholly outside the screen (on Android also: empty
    /// bounds, which dumps give nodes clipped away by the screen).
    case offScreen = "off-screen"
    /// Part of the frame lies outside the screen.
    case partlyOffScreen = "partly-off-screen"
    /// The activation point lies outside the element's shape.
    case activationOutsideShape = "activation-outside-shape"
    /// A double-tap at the activation point reaches another view.
    case activationObstructed = "activation-obstructed"
    /// A double-tap at the activation point reaches no view.
    case activationLost = "activation-lost"
    /// An interactive element whose deliverable region holds no circle as
    /// wide as the platform's minimum target (the inscribed circle of Apple's
    /// 44 × 44 pt, Android's 48 × 48 dp).
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
    /// (iOS snapshots) the dump's visibility flag and the geometry disagree:
    /// marked invisible but on screen and uncovered, or marked visible but
    /// nothing of it can be seen.
    case visibilityDisagrees = "visibility-disagrees"

    /// The rule's severity.
    public var severity: AuditSeverity {
        switch self {
        case .zeroFrame, .offScreen, .activationObstructed, .activationLost, .unreachable: return .error
        case .partlyOffScreen, .activationOutsideShape, .smallTouchTarget, .overlappingElements, .pathOutsideFrame,
            .notVisible:
            return .warning
        case .visibilityDisagrees: return .info
        }
    }
}
