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
        let (description, hint) = VoiceOverSpeech.speak(element, in: tree, context: context)
        return Speech(element: element, description: description, hint: hint)
    }

    /// The speech of every exposed element, in navigation order: what a
    /// user hears swiping right from the first element to the last.
    ///
    /// The elements are spoken in slot order, each speech put in its place
    /// (`OrderPositions`), so that their facts are read in the order they
    /// lie in memory rather than in the screen's order.
    ///
    /// - Complexity: O(capacity) plus the order's cost
    ///   (`navigationOrder()`), and O(depth) per element inside a container
    ///   that gives a context (O(k log k) to number k of them).
    /// - Throws: as `navigationOrder()`.
    public mutating func transcript() throws(TreeError) -> [Speech] {
        try refreshNavigationOrder()
        let places = OrderPositions(capacity: tree.capacity) { forEachInNavigationOrder($0) }
        if let talkBack = (rules as? AndroidRules)?.talkBack {
            let seen = navigation.talkBackChildren ?? talkBack.seenChildren(in: tree)
            let speaker = TalkBackSpeech(tree: tree, talkBack: talkBack, seen: seen)
            return places.speeches(in: tree, speak: { speaker.speak($0) }, late: { _ in [] })
        }
        let tree = self.tree
        // The containers that give a context: most trees have none, and
        // then no element needs its chain of containers.
        var providers: [NodeID: VoiceOverContext.Provider] = [:]
        for slot in 0 ..< tree.capacity where tree.flags[slot].contains(.alive) {
            let n = tree.nodeID(slot)
            if let provider = VoiceOverContext.provider(n, in: tree) { providers[n] = provider }
        }
        guard !providers.isEmpty else {
            return places.speeches(
                in: tree, speak: { VoiceOverSpeech.speak($0, in: tree, context: nil) }, late: { _ in [] })
        }
        // Each node's nearest proper ancestor that gives a context, so an
        // element's containers are a short chain away.
        var providerAbove = [NodeID](repeating: .none, count: tree.capacity)
        tree.forEachInPreOrder(from: tree.root) { n in
            let p = tree.backLinks[n.index].parent
            if !p.isNone { providerAbove[n.index] = providers[p] != nil ? p : providerAbove[p.index] }
        }
        func chain(of e: NodeID) -> [(NodeID, VoiceOverContext.Provider)] {
            var chain: [(NodeID, VoiceOverContext.Provider)] = []
            var a = providerAbove[e.index]
            while !a.isNone {
                if let provider = providers[a] { chain.append((a, provider)) }
                a = providerAbove[a.index]
            }
            chain.reverse()
            return chain
        }
        return places.speeches(
            in: tree,
            speak: { e in
                // An element inside a container speaks once every such one
                // is numbered.
                providerAbove[e.index].isNone ? VoiceOverSpeech.speak(e, in: tree, context: nil) : nil
            },
            late: { inside in
                // Number the elements of tab bars and segmented controls in order.
                var position: [NodeID: [NodeID: Int]] = [:]
                var counts: [NodeID: Int] = [:]
                for (_, e) in inside {
                    for (a, provider) in chain(of: e) where VoiceOverContext.counts(e, in: provider, tree: tree) {
                        position[e, default: [:]][a] = counts[a, default: 0]
                        counts[a, default: 0] += 1
                    }
                }
                return inside.map { _, e in
                    let context = Self.outermostContext(
                        id: tree.id(of: e), chain: chain(of: e),
                        position: { a in position[e]?[a].map { ($0, counts[a] ?? 0) } })
                    return VoiceOverSpeech.speak(e, in: tree, context: context)
                }
            })
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
