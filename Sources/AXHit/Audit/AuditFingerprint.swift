import Foundation

/// The fingerprint of a finding (tree-format.md, "Audits"): what survives
/// small changes to the screen. It is the rule and the element's
/// `accessibilityIdentifier`, label and type (its `id` where it has neither
/// identifier nor label), hashed (64-bit FNV-1a, as 16 hex digits) so that
/// a fingerprint is short and carries no text of the app.
enum AuditFingerprint {
    static func of(_ rule: AuditRule, element e: NodeID, in tree: ElementTree) -> String {
        let extras = tree.extrasOf(e)
        let identifier = extras?.identifier ?? "", label = extras?.label ?? ""
        let type =
            tree.className(of: e) ?? (tree.source == .snapshot ? String(IOSSnapshotRules.type(of: e, in: tree)) : "")
        let who = identifier.isEmpty && label.isEmpty ? "id=\(tree.id(of: e))" : "\(identifier)\u{1f}\(label)"
        return hex(fnv1a("\(rule.rawValue)\u{1f}\(who)\u{1f}\(type)"))
    }

    /// 64-bit FNV-1a of the string's UTF-8: the same on every machine and
    /// every run (Swift's `Hasher` is seeded per process).
    static func fnv1a(_ s: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in s.utf8 {
            h ^= UInt64(b)
            h = h &* 0x0000_0100_0000_01b3
        }
        return h
    }

    static func hex(_ v: UInt64) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
