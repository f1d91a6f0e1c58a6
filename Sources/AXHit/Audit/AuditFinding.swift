import Foundation

/// One problem an audit found on one element, with the geometry behind it
/// (screen points).
public struct AuditFinding: Sendable {
    /// Which check found it.
    public let rule: AuditRule
    /// The element at fault.
    public let element: NodeID
    /// What is wrong and what to do, in words a developer can act on.
    public let message: String
    /// The region behind the finding as WKT (a frame, the part off screen,
    /// an overlap, a deliverable region), or nil.
    public let wkt: String?
    /// The points behind the finding (an activation point, a suggested
    /// point), possibly none.
    public let points: [CGPoint]
    /// Another node involved (the view that takes the tap, the element in
    /// front), or nil.
    public let related: NodeID?

    /// The region behind the finding, for pictures.
    var geometry: Region? = nil

    /// The rule's severity.
    public var severity: AuditSeverity { rule.severity }
}
