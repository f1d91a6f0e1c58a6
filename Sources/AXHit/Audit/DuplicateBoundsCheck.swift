import Foundation

/// `duplicate-bounds` (Android), as ATF's `DuplicateClickableBoundsCheck`
/// finds it: among the visible nodes of the tree TalkBack sees, those that
/// declare `click` with exactly equal bounds form a group, and so do those
/// that declare `longClick`; each group of two or more gives one finding,
/// on its first member in the dump's pre-order, naming the others (a group
/// of long clicks with the same members as a group of clicks adds none).
struct DuplicateBoundsCheck {
    let context: AuditContext

    /// Bounds, exactly, as a key.
    struct Key: Hashable {
        let x: Double, y: Double, w: Double, h: Double
        init(_ r: CGRect) { (x, y, w, h) = (Double(r.minX), Double(r.minY), Double(r.width), Double(r.height)) }
    }

    func findings() -> [AuditFinding] {
        guard let talkBack = (context.rules as? AndroidRules)?.talkBack else { return [] }
        let tree = context.tree
        var clicks: [Key: [NodeID]] = [:], longClicks: [Key: [NodeID]] = [:]
        var keys: [Key] = []
        for n in TalkBackTree.dumpPreOrder(tree) {
            let facts = talkBack.facts[n.index]
            guard facts.contains(.important), facts.contains(.visible) else { continue }
            let actions = tree.actions(of: n)
            guard !actions.isDisjoint(with: NodeActions.tap) else { continue }
            let key = Key(context.space.accessibilityFrame(of: n))
            if clicks[key] == nil && longClicks[key] == nil { keys.append(key) }
            if actions.contains(.click) { clicks[key, default: []].append(n) }
            if actions.contains(.longClick) { longClicks[key, default: []].append(n) }
        }
        var out: [AuditFinding] = []
        for key in keys {
            let c = clicks[key] ?? [], l = longClicks[key] ?? []
            if c.count > 1 { out.append(finding(c, action: "a click")) }
            if l.count > 1 && l != c { out.append(finding(l, action: "a long click")) }
        }
        return out
    }

    func finding(_ group: [NodeID], action: String) -> AuditFinding {
        let first = group[0]
        let bounds = context.space.accessibilityFrame(of: first)
        let others = group.dropFirst().map(context.name).joined(separator: ", ")
        return AuditFinding(
            .duplicateBounds, first,
            "it and \(others) declare \(action) and have the same bounds \(context.rect(bounds)) (ATF's DuplicateClickableBoundsCheck): TalkBack users meet \(group.count) clickable items in one place and cannot tell which does what. Keep one clickable view for the area, or give each its own bounds",
            region: Region.rect(of: bounds), related: group[1])
    }
}
