import Foundation

/// One problem an audit found on one element, with the geometry behind it
/// (screen units: points; Android: the dump's pixels).
public struct AuditFinding: Sendable {
    /// Which check found it.
    public let rule: AuditRule
    /// How much it matters: the rule's severity, or `info` where the rule
    /// says so (a small touch target a checker would only mention).
    public let severity: AuditSeverity
    /// The element at fault.
    public let element: NodeID
    /// What is wrong and what to do, in the platform's own terms.
    public let message: String
    /// The region behind the finding as WKT (a frame, a covered part, a
    /// touch region), or nil. Made when asked (a writer asks once), not
    /// with every finding: on a screen of turned or curved elements the
    /// text of every region was a tenth of the audit.
    public var wkt: String? { geometry.flatMap { $0.isEmpty ? nil : $0.wkt } }
    /// The points behind the finding (an activation point, a suggested
    /// point), possibly none.
    public let points: [CGPoint]
    /// Another node involved (the view that takes the tap, the element in
    /// front, the first duplicate), or nil.
    public let related: NodeID?
    /// The screen it was found on (the file, as the caller named it), or nil.
    public internal(set) var screen: String?
    /// A name for the finding that survives small changes to the screen
    /// (`AuditFingerprint`): the rule and the element's identifier, label
    /// and type (its id when it has neither identifier nor label).
    public internal(set) var fingerprint: String
    /// Whether the baseline holds the fingerprint: a finding the team has
    /// accepted, reported but not new.
    public internal(set) var baseline: Bool

    /// The region behind the finding, for pictures and its WKT.
    var geometry: Region? = nil
}
