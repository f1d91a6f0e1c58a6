import Foundation

/// The checks `Auditor` runs (tree-format.md, "Audits: what a reviewer
/// would ask to fix"), each with a stable id (the JSON `"rule"`, SARIF's
/// `ruleId`) and a default severity.
public enum AuditRule: String, Sendable, Hashable, CaseIterable {
    /// An exposed element wholly outside the screen with no scroll
    /// container above it.
    case offScreen = "off-screen"
    /// An exposed element whose frame has no area (iOS).
    case zeroSize = "zero-size"
    /// An on-screen element that touch exploration finds nowhere, because
    /// elements that are not its descendants cover it.
    case unreachable = "unreachable"
    /// A part of an element, at least 2 pt (dp) wide, where touch
    /// exploration finds an element that is neither its ancestor nor its
    /// descendant.
    case covered = "covered"
    /// A control whose double-tap reaches something else.
    case activationObstructed = "activation-obstructed"
    /// A control whose double-tap reaches nothing.
    case activationLost = "activation-lost"
    /// A view-tree element whose activation point lies outside its own shape.
    case activationOutsideShape = "activation-outside-shape"
    /// A control whose touch target is below the profile's size.
    case smallTouchTarget = "small-touch-target"
    /// Android: clickable nodes with exactly equal bounds (ATF's
    /// `DuplicateClickableBoundsCheck`).
    case duplicateBounds = "duplicate-bounds"
    /// iOS snapshots: the dump's `visible` flag and the geometry disagree.
    case visibilityDisagrees = "visibility-disagrees"
    /// View trees: less than half of an exposed element is drawn.
    case notVisible = "not-visible"
    /// Beyond the spec's table, so `info`: an element whose
    /// `accessibilityPath` goes over a budget (`PathOverBudget`), judged
    /// without its filled path.
    case pathOverBudget = "path-over-budget"

    /// The rule's severity; `small-touch-target` may lower a finding to
    /// `info` (`AuditFinding.severity`).
    public var severity: AuditSeverity {
        switch self {
        case .offScreen, .zeroSize, .unreachable, .activationObstructed, .activationLost, .duplicateBounds:
            return .error
        case .covered, .activationOutsideShape, .smallTouchTarget, .notVisible: return .warning
        case .visibilityDisagrees, .pathOverBudget: return .info
        }
    }

    /// One line: what the rule finds (SARIF's `shortDescription`).
    public var summary: String {
        switch self {
        case .offScreen: return "Element wholly off the screen"
        case .zeroSize: return "Element with a frame of no area"
        case .unreachable: return "Element touch exploration never finds"
        case .covered: return "Element partly covered by another for touch exploration"
        case .activationObstructed: return "Double-tap reaches something else"
        case .activationLost: return "Double-tap reaches nothing"
        case .activationOutsideShape: return "Activation point outside the element's shape"
        case .smallTouchTarget: return "Touch target below the minimum size"
        case .duplicateBounds: return "Clickable nodes with the same bounds"
        case .visibilityDisagrees: return "The dump's visible flag contradicts the geometry"
        case .notVisible: return "Element mostly not drawn"
        case .pathOverBudget: return "Element path too complex to judge exactly"
        }
    }

    /// What the rule finds and why it matters (SARIF's `fullDescription`).
    public var explanation: String {
        switch self {
        case .offScreen:
            return
                "An exposed element lies wholly outside the screen and no scroll container holds it: a screen-reader user reaches it by swiping and sees nothing there."
        case .zeroSize:
            return "An exposed element's frame has no area: VoiceOver cannot draw its cursor or find it by touch."
        case .unreachable:
            return
                "Touch exploration never finds the element: elements that are not its descendants cover all of it, so a finger always lands on them."
        case .covered:
            return
                "Over a part of the element at least 2 points (dp) wide, touch exploration finds another element that is neither its ancestor nor its descendant."
        case .activationObstructed:
            return "A double-tap on the control is delivered to another view or node than the control."
        case .activationLost:
            return "A double-tap on the control is delivered to no view at all."
        case .activationOutsideShape:
            return "The element's activation point (declared, or the centre of its frame) lies outside its own shape."
        case .smallTouchTarget:
            return
                "The control's touch target is smaller than the profile's minimum: Apple's 44 x 44 pt, Android's 48 x 48 dp as ATF's TouchTargetSizeCheck measures it, or WCAG 2.2's 24 x 24 as axe-core measures it."
        case .duplicateBounds:
            return
                "Two or more visible nodes TalkBack sees share a click or long-click action and have exactly equal bounds, as ATF's DuplicateClickableBoundsCheck finds: a user cannot tell them apart."
        case .visibilityDisagrees:
            return "The snapshot's visible flag says one thing and the geometry another."
        case .notVisible:
            return "Less than half of an exposed element is drawn: clipped, or under opaque views in front."
        case .pathOverBudget:
            return
                "The element's accessibilityPath goes over a budget that bounds the work one element may cost (its points on the screen, or what filling it takes), so it is judged by what needs no fill: its frame, its activation and its path's winding test. Its touch-target size and how much of it is drawn are not judged."
        }
    }

    /// How to fix it (SARIF's `help`).
    public var help: String {
        switch self {
        case .offScreen:
            return "Bring the element on screen, or hide it from accessibility while it is away."
        case .zeroSize:
            return
                "Give the element the frame of what it describes (accessibilityFrame or accessibilityFrameInContainerSpace)."
        case .unreachable:
            return "Move or shrink the elements in front, or merge the elements."
        case .covered:
            return "Make the elements' frames disjoint, or nest the one inside the other."
        case .activationObstructed:
            return
                "Move what takes the tap, or point the activation somewhere the control receives it (iOS: accessibilityActivationPoint; Android: make the node clickable)."
        case .activationLost:
            return "Put the activation point where a view takes the tap, or let the views take touches."
        case .activationOutsideShape:
            return "Set accessibilityActivationPoint inside the element's shape."
        case .smallTouchTarget:
            return
                "Make the control larger, or its tap area larger (padding, minimum width and height, a touch delegate), or space it from its neighbours."
        case .duplicateBounds:
            return "Keep one clickable node for the area, or give each its own bounds."
        case .visibilityDisagrees:
            return "Nothing to change in the app; trust the geometry, or pass --trust-visible to trust the flag."
        case .notVisible:
            return "Show what the element describes, or hide the element from accessibility."
        case .pathOverBudget:
            return
                "Simplify the path: VoiceOver draws and tests it too. An outline of the control with a few dozen points, without edges that cross each other, is what a path is for."
        }
    }
}
