import Foundation

/// How much a finding matters.
public enum AuditSeverity: String, Sendable, Hashable, CaseIterable, Comparable {
    /// Screen-reader users cannot use the element as intended.
    case error
    /// The element works, but poorly or surprisingly.
    case warning
    /// Worth knowing: the input disagrees with itself, or a checker would
    /// only mention it.
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
