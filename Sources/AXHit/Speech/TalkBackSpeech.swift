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
    /// dozen classes), and the parts list reused from node to node.
    private let scratch = Scratch()

    /// What one speaker keeps between nodes (one speaker, one thread).
    private final class Scratch {
        var roles: [String: TalkBackRole] = [:]
        /// The role of a node with no class, and the last class asked and
        /// its role: a screen's nodes in slot order mostly repeat the class
        /// before, and comparing two names costs less than hashing one.
        var classless: TalkBackRole?
        var last: (name: String, role: TalkBackRole)?
        var parts: [String] = []
        var stack: [NodeID] = []

        func role(of className: String?) -> TalkBackRole {
            guard let name = className else {
                if let classless { return classless }
                let role = TalkBackRole(className: nil)
                classless = role
                return role
            }
            if let last, last.name == name { return last.role }
            let role = roles[name] ?? TalkBackRole(className: name)
            roles[name] = role
            last = (name, role)
            return role
        }
    }

    /// The speech of exposed node `n`.
    func speak(_ n: NodeID) -> (description: String, hint: String?) {
        var parts = scratch.parts
        scratch.parts = []
        parts.removeAll(keepingCapacity: true)
        defer { scratch.parts = parts }
        // Each fact read from one copy of the node's extras.
        let extras = tree.extrasOf(n)
        let role = scratch.role(of: extras?.className)
        // 1. Selected.
        if extras?.traits.contains(.selected) == true { parts.append("selected") }
        // 2 and 3: the node's own check state, state, name and role.
        ownParts(extras, role: role, into: &parts)
        // 4. Without a content description, the non-focusable children say
        // theirs (TreeNodesDescription), depth first.
        if !seen.children(of: n).isEmpty && contentDescription(extras) == nil { childParts(of: n, into: &parts) }
        // 5. The hint; an EditText's not when its text is the hint.
        if let hint = nonEmpty(extras?.hint), !(role == .editText && text(extras) == hint) {
            parts.append(hint)
        }
        // 6. Disabled.
        let disabled = extras?.traits.contains(.notEnabled) == true
        if disabled { parts.append("disabled") }
        return (Self.dedupJoin(parts), disabled ? nil : usageHint(actions: extras?.actions ?? [], role: role))
    }

    /// Parts 2 and 3 of a node with `extras` (of class role `role`):
    /// "checked"/"not checked" for a checkable node that is no switch (a
    /// CheckedTextView only "checked"), then its state ("on"/"off" for a
    /// switch; "Unlabelled" for an ImageView with no name), its name and
    /// its role. (The extras' `checked` and `actions` are the dump's: the
    /// write path keeps them unset where it gave none.)
    private func ownParts(_ extras: NodeExtras?, role: TalkBackRole, into parts: inout [String]) {
        let checked = extras?.checked == true
        let actions = extras?.actions ?? []
        if actions.contains(.check) && role != .switch {
            if checked {
                parts.append("checked")
            } else if role != .checkedTextView {
                parts.append("not checked")
            }
        }
        let name = name(extras)
        if role == .switch { parts.append(checked ? "on" : "off") }
        if role == .imageView && name == nil { parts.append("Unlabelled") }
        if let name { parts.append(name) }
        if let word = role.word(clickable: actions.contains(.click)) { parts.append(word) }
    }

    /// Parts 2 and 3 of each visible, non-focusable child of `n` in the
    /// tree TalkBack sees (in its traversal order), each followed by its own
    /// such children's.
    private func childParts(of n: NodeID, into parts: inout [String]) {
        var stack = scratch.stack
        scratch.stack = []
        defer { scratch.stack = stack }
        stack.removeAll(keepingCapacity: true)
        stack.append(contentsOf: seen.children(of: n).reversed())
        while let c = stack.popLast() {
            let f = talkBack.facts[c.index]
            guard f.contains(.visible) && !f.contains(.focusable) else { continue }
            let extras = tree.extrasOf(c)
            ownParts(extras, role: scratch.role(of: extras?.className), into: &parts)
            stack.append(contentsOf: seen.children(of: c).reversed())
        }
    }

    /// TalkBack's usage hint (its default: on) for an enabled node that
    /// declares `actions`: by
    /// `click`, "Double-tap to change" (Spinner), "... to edit text"
    /// (EditText), "... to toggle" (checkable), else "... to activate";
    /// then "Double-tap and hold to long press" by `longClick`, after a
    /// comma when both.
    func usageHint(actions: NodeActions, role: TalkBackRole) -> String? {
        let long = actions.contains(.longClick)
        guard actions.contains(.click) else { return long ? "Double-tap and hold to long press" : nil }
        switch (role, actions.contains(.check), long) {
        case (.spinner, _, false): return "Double-tap to change"
        case (.spinner, _, true): return "Double-tap to change, Double-tap and hold to long press"
        case (.editText, _, false): return "Double-tap to edit text"
        case (.editText, _, true): return "Double-tap to edit text, Double-tap and hold to long press"
        case (_, true, false): return "Double-tap to toggle"
        case (_, true, true): return "Double-tap to toggle, Double-tap and hold to long press"
        case (_, false, false): return "Double-tap to activate"
        case (_, false, true): return "Double-tap to activate, Double-tap and hold to long press"
        }
    }

    // MARK: Reading the dump

    /// The content description of a node with `extras`, if it has one.
    private func contentDescription(_ extras: NodeExtras?) -> String? {
        guard let extras, !extras.labelIsText else { return nil }
        return nonEmpty(extras.label)
    }

    /// The text of a node with `extras`: its value beside a content
    /// description, else its label when that is its text.
    private func text(_ extras: NodeExtras?) -> String? {
        guard let extras else { return nil }
        return nonEmpty(extras.value) ?? (extras.labelIsText ? nonEmpty(extras.label) : nil)
    }

    /// The name of a node with `extras`: the content description, else the
    /// text; a password field's text is never spoken ("password" in its
    /// place).
    private func name(_ extras: NodeExtras?) -> String? {
        guard let extras else { return nil }
        let description = extras.labelIsText ? nil : nonEmpty(extras.label)
        if extras.isPassword { return description ?? "password" }
        return description ?? nonEmpty(extras.value) ?? (extras.labelIsText ? nonEmpty(extras.label) : nil)
    }

    /// `CompositorUtils.dedupJoin`: the non-empty parts joined with ", ",
    /// leaving out a part equal, ignoring case, to an earlier one (as
    /// Java's `equalsIgnoreCase`: same length in UTF-16, then letter by
    /// letter).
    static func dedupJoin(_ parts: [String]) -> String {
        if parts.count == 1 { return parts[0] }
        var out = ""
        // A part equal to any earlier one is equal to the earlier one kept.
        for (i, p) in parts.enumerated() where !p.isEmpty {
            if parts[..<i].contains(where: { equalIgnoringCase($0, p) }) { continue }
            if !out.isEmpty { out += ", " }
            out += p
        }
        return out
    }

    /// Whether `a` and `b` are equal ignoring case.
    static func equalIgnoringCase(_ a: String, _ b: String) -> Bool {
        a.utf16.count == b.utf16.count && (a == b || a.lowercased() == b.lowercased())
    }

    private func nonEmpty(_ s: String?) -> String? { s?.isEmpty == false ? s : nil }
}
