import Foundation

/// Which touch-target sizes `small-touch-target` judges by (tree-format.md,
/// "Size profiles"); the other rules are the same under every profile.
public enum AuditProfile: String, Sendable, Hashable, CaseIterable {
    /// The platform's own: Apple's 44 × 44 pt on the control's touch
    /// region; on Android, ATF's `TouchTargetSizeCheck` on bounds (48 dp,
    /// 32 dp at the screen's edge and in an input-method window).
    case platform
    /// WCAG 2.2 success criterion 2.5.8 as axe-core's `target-size` and
    /// `target-offset` measure it: 24 points (dp), or spacing.
    case wcag22
}

/// What an audit judges by: the size profile, a replacement minimum, and
/// the fingerprints a team has accepted.
public struct AuditOptions: Sendable {
    /// The size profile (default `platform`).
    public var profile: AuditProfile
    /// Replaces the profile's minimum size, in points (dp): Android's 48 by
    /// it and 32 by round(32 × it / 48); nil keeps the profile's.
    public var minimumTarget: Double?
    /// Findings whose fingerprint this holds are reported as baseline.
    public var baseline: AuditBaseline

    /// Options with `profile`, `minimumTarget` and `baseline`.
    public init(profile: AuditProfile = .platform, minimumTarget: Double? = nil, baseline: AuditBaseline = .init()) {
        self.profile = profile
        self.minimumTarget = minimumTarget
        self.baseline = baseline
    }
}
