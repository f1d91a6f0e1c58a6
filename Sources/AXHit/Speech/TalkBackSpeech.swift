/// TalkBack's description and usage hint of a focused node (tree-format.md,
/// "What the screen reader says", Android), at TalkBack's default
/// preferences (description order state, name, role; usage hints on; see
/// Docs/tree-format.md): google/talkback's `TreeNodesDescription`,
/// `RoleDescriptionExtractor`, `CompositorUtils.dedupJoin` and the English
/// strings of `strings_compositor.xml`. The implementation is this
/// project's own; each step names the behaviour it follows.
///
/// Reading the dump's facts: the importers put the content description in
/// the label, else the text (`labelIsText` says which); the text beside a
/// content description is the value. A dump has no state description
/// (Android 11 and later widgets set one, which TalkBack speaks in place of
/// "checked" and the on/off words: a known difference).
struct TalkBackSpeech {
    let tree: ElementTree
    let talkBack: TalkBackTree
    let seen: TalkBackTree.SeenChildren
    /// Each class's role, worked out once per name (a screen repeats a few
    /// dozen classes).
    private let roles = RoleCache()

    /// The roles of the class names met so far (one speaker, one thread).
    private final class RoleCache {
        var known: [String: TalkBackRole] = [:]

        func role(of className: String?) -> TalkBackRole {
            let name = className ?? ""
            if let role = known[name] { return role }
            let role = TalkBackRole(className: className)
            known[name] = role
            return role
        }
    }

    /// The speech of exposed node `n`.
    func speak(_ n: NodeID) -> (description: String, hint: String?) {
        var parts: [String] = []
        // 1. Selected.
        if tree.traits(of: n).contains(.selected) { parts.append("selected") }
        // 2 and 3: the node's own check state, state, name and role.
        ownParts(n, into: &parts)
        // 4. Without a content description, the non-focusable children say
        // theirs (TreeNodesDescription), depth first.
        if !hasContentDescription(n) { childParts(of: n, into: &parts) }
        // 5. The hint; an EditText's not when its text is the hint.
        if let hint = nonEmpty(tree.extrasOf(n)?.hint), !(role(of: n) == .editText && text(of: n) == hint) {
            parts.append(hint)
        }
        // 6. Disabled.
        let disabled = tree.traits(of: n).contains(.notEnabled)
        if disabled { parts.append("disabled") }
        return (Self.dedupJoin(parts), disabled ? nil : usageHint(n))
    }

    /// Parts 2 and 3 of `n`: "checked"/"not checked" for a checkable node
    /// that is no switch (a CheckedTextView only "checked"), then its state
    /// ("on"/"off" for a switch; "Unlabelled" for an ImageView with no
    /// name), its name and its role.
    private func ownParts(_ n: NodeID, into parts: inout [String]) {
        let role = role(of: n)
        let checked = tree.checked(n) == true
        if tree.actions(of: n).contains(.check) && role != .switch {
            if checked {
                parts.append("checked")
            } else if role != .checkedTextView {
                parts.append("not checked")
            }
        }
        let name = name(of: n)
        if role == .switch { parts.append(checked ? "on" : "off") }
        if role == .imageView && name == nil { parts.append("Unlabelled") }
        if let name { parts.append(name) }
        if let word = role.word(clickable: tree.actions(of: n).contains(.click)) { parts.append(word) }
    }

    /// Parts 2 and 3 of each visible, non-focusable child of `n` in the
    /// tree TalkBack sees (in its traversal order), each followed by its own
    /// such children's.
    private func childParts(of n: NodeID, into parts: inout [String]) {
        var stack = Array(seen.children(of: n).reversed())
        while let c = stack.popLast() {
            let f = talkBack.facts[c.index]
            guard f.contains(.visible) && !f.contains(.focusable) else { continue }
            ownParts(c, into: &parts)
            stack.append(contentsOf: seen.children(of: c).reversed())
        }
    }

    /// TalkBack's usage hint (its default: on) for an enabled node: by
    /// `click`, "Double-tap to change" (Spinner), "... to edit text"
    /// (EditText), "... to toggle" (checkable), else "... to activate";
    /// then "Double-tap and hold to long press" by `longClick`, after a
    /// comma when both.
    func usageHint(_ n: NodeID) -> String? {
        let actions = tree.actions(of: n)
        var hint: String?
        if actions.contains(.click) {
            let role = role(of: n)
            hint =
                role == .spinner
                ? "Double-tap to change"
                : role == .editText
                    ? "Double-tap to edit text"
                    : actions.contains(.check) ? "Double-tap to toggle" : "Double-tap to activate"
        }
        if actions.contains(.longClick) {
            let long = "Double-tap and hold to long press"
            hint = hint.map { "\($0), \(long)" } ?? long
        }
        return hint
    }

    // MARK: Reading the dump

    /// The role of `n` by its class (`TalkBackRole`).
    private func role(of n: NodeID) -> TalkBackRole { roles.role(of: tree.className(of: n)) }

    /// The content description of `n`, if it has one.
    private func contentDescription(of n: NodeID) -> String? {
        guard let extras = tree.extrasOf(n), !extras.labelIsText else { return nil }
        return nonEmpty(extras.label)
    }

    /// Whether `n` has a content description.
    private func hasContentDescription(_ n: NodeID) -> Bool { contentDescription(of: n) != nil }

    /// The text of `n`: its value beside a content description, else its
    /// label when that is its text.
    private func text(of n: NodeID) -> String? {
        guard let extras = tree.extrasOf(n) else { return nil }
        return nonEmpty(extras.value) ?? (extras.labelIsText ? nonEmpty(extras.label) : nil)
    }

    /// The name: the content description, else the text; a password
    /// field's text is never spoken ("password" in its place).
    private func name(of n: NodeID) -> String? {
        if tree.extrasOf(n)?.isPassword == true { return contentDescription(of: n) ?? "password" }
        return contentDescription(of: n) ?? text(of: n)
    }

    /// `CompositorUtils.dedupJoin`: the non-empty parts joined with ", ",
    /// leaving out a part equal, ignoring case, to an earlier one.
    static func dedupJoin(_ parts: [String]) -> String {
        var kept: [String] = []
        var seenLower = Set<String>()
        for p in parts where !p.isEmpty && seenLower.insert(p.lowercased()).inserted { kept.append(p) }
        return kept.joined(separator: ", ")
    }

    private func nonEmpty(_ s: String?) -> String? { s?.isEmpty == false ? s : nil }
}
