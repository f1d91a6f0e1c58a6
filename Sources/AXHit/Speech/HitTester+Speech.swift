/// What the screen reader says (tree-format.md, "What the screen reader
/// says"): an element's speech, and a screen's transcript along
/// `navigationOrder()`, by the tree's platform (VoiceOver's rules,
/// `VoiceOverSpeech`; TalkBack's, `TalkBackSpeech`).
extension HitTester {
    /// What the screen reader speaks when it focuses `element`: the speech
    /// of what `hit(_:)` finds is `try engine.speech(of: found)`. Nil when
    /// the tree does not hold `element` or does not expose it.
    ///
    /// Mutating only to keep the engine's navigation order up to date (a
    /// tab's number is its place among its tab bar's elements in that
    /// order); the tree does not change.
    ///
    /// - Complexity: O(depth) for most elements; O(n) for an element in a
    ///   tab bar or segmented control (the order is walked to number it);
    ///   on Android O(subtree of `element` + n) (TalkBack's order of its
    ///   children).
    /// - Throws: as `navigationOrder()`, for an element in a tab bar or
    ///   segmented control.
    public mutating func speech(of element: NodeID) throws(TreeError) -> Speech? {
        guard isExposed(element) else { return nil }
        if let talkBack = (rules as? AndroidRules)?.talkBack {
            let speaker = TalkBackSpeech(
                tree: tree, talkBack: talkBack, seen: talkBack.seenChildren(below: element, in: tree))
            let (description, hint) = speaker.speak(element)
            return Speech(element: element, description: description, hint: hint)
        }
        var chain: [(NodeID, VoiceOverContext.Provider)] = []
        for a in tree.ancestors(of: element) {
            if let provider = VoiceOverContext.provider(a, in: tree) { chain.append((a, provider)) }
        }
        var context: VoiceOverContext?
        if !chain.isEmpty {
            // The container's numbered elements, in order, for the ones that number.
            var numbered: [NodeID: (index: Int, count: Int)] = [:]
            var counts: [NodeID: Int] = [:]
            let order = try navigationOrder()
            for (a, provider) in chain where VoiceOverContext.counts(element, in: provider, tree: tree) {
                for e in order where tree.isDescendant(e, of: a) && VoiceOverContext.counts(e, in: provider, tree: tree)
                {
                    if e == element { numbered[a] = (counts[a, default: 0], 0) }
                    counts[a, default: 0] += 1
                }
            }
            context = Self.outermostContext(
                id: tree.id(of: element), chain: chain,
                position: { a in numbered[a].map { ($0.index, counts[a] ?? 0) } })
        }
        let (description, hint) = VoiceOverSpeech.speak(
            VoiceOverSpeech.input(of: element, in: tree, context: context))
        return Speech(element: element, description: description, hint: hint)
    }

    /// The speech of every exposed element, in navigation order: what a
    /// user hears swiping right from the first element to the last.
    ///
    /// - Complexity: O(n) plus the order's cost (`navigationOrder()`), and
    ///   O(depth) per element inside a container that gives a context.
    /// - Throws: as `navigationOrder()`.
    public mutating func transcript() throws(TreeError) -> [Speech] {
        let order = try navigationOrder()
        if let talkBack = (rules as? AndroidRules)?.talkBack {
            let seen = navigation.talkBackChildren ?? talkBack.seenChildren(in: tree)
            let speaker = TalkBackSpeech(tree: tree, talkBack: talkBack, seen: seen)
            return order.map { e in
                let (description, hint) = speaker.speak(e)
                return Speech(element: e, description: description, hint: hint)
            }
        }
        // Each node's nearest proper ancestor that gives a context, so an
        // element's containers are a short chain away.
        var providerAbove = [NodeID](repeating: .none, count: tree.capacity)
        var isProvider = [Bool](repeating: false, count: tree.capacity)
        var providers: [NodeID: VoiceOverContext.Provider] = [:]
        if !tree.root.isNone {
            tree.forEachInPreOrder(from: tree.root) { n in
                let p = tree.backLinks[n.index].parent
                if !p.isNone { providerAbove[n.index] = isProvider[p.index] ? p : providerAbove[p.index] }
                if let provider = VoiceOverContext.provider(n, in: tree) {
                    providers[n] = provider
                    isProvider[n.index] = true
                }
            }
        }
        // Number the elements of tab bars and segmented controls in order.
        var position: [NodeID: [NodeID: Int]] = [:]
        var counts: [NodeID: Int] = [:]
        for e in order {
            var a = providerAbove[e.index]
            while !a.isNone {
                if let provider = providers[a], VoiceOverContext.counts(e, in: provider, tree: tree) {
                    position[e, default: [:]][a] = counts[a, default: 0]
                    counts[a, default: 0] += 1
                }
                a = providerAbove[a.index]
            }
        }
        return order.map { e in
            var chain: [(NodeID, VoiceOverContext.Provider)] = []
            var a = providerAbove[e.index]
            while !a.isNone {
                if let provider = providers[a] { chain.append((a, provider)) }
                a = providerAbove[a.index]
            }
            chain.reverse()
            let context =
                chain.isEmpty
                ? nil
                : Self.outermostContext(
                    id: tree.id(of: e), chain: chain,
                    position: { a in position[e]?[a].map { ($0, counts[a] ?? 0) } })
            let (description, hint) = VoiceOverSpeech.speak(VoiceOverSpeech.input(of: e, in: tree, context: context))
            return Speech(element: e, description: description, hint: hint)
        }
    }

    /// The context of `element` from the outermost of its containers
    /// (`chain`, root first) that gives it one (tree-format.md: "the
    /// outermost container that gives one wins").
    private static func outermostContext(
        id: String, chain: [(NodeID, VoiceOverContext.Provider)],
        position: (NodeID) -> (index: Int, count: Int)?
    ) -> VoiceOverContext? {
        for (a, provider) in chain {
            if let context = VoiceOverContext.of(id, in: provider, position: position(a)) { return context }
        }
        return nil
    }
}
