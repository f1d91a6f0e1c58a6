import Foundation

/// Navigation order: where a swipe goes next (tree-format.md, "Navigation
/// order"), by the tree's rules (`PlatformRules.navigationOrderModel`).
extension HitTester {
    // MARK: Queries

    /// The exposed elements in the order a screen reader user meets them
    /// swiping right from the first: VoiceOver's (AccessibilitySnapshot's
    /// parser: groups, rows of `idiom`'s band, `layoutDirection`, Swift's
    /// stable sort), or on Android the dump's pre-order of exposed nodes.
    ///
    /// Mutating only to keep the engine's order up to date; the tree does
    /// not change.
    ///
    /// - Complexity: the first call O(n) plus O(k log k) per sorted list of
    ///   k items; later calls redo only what updates changed (see
    ///   `refreshNavigationOrder()`), plus O(output) to list the order.
    /// - Throws: `TreeError` (`.validation`, key `accessibilityElements`)
    ///   naming a view whose list names an id that is not in its subtree
    ///   (or no node's), itself, or an id twice.
    public mutating func navigationOrder() throws(TreeError) -> [NodeID] {
        try refreshNavigationOrder()
        var out: [NodeID] = []
        if !tree.root.isNone { out.reserveCapacity(Int(exposedCounts[tree.root.index])) }
        forEachInNavigationOrder { out.append($0) }
        return out
    }

    /// The element a swipe right reaches from `element`, or nil at the end
    /// of the order or when `element` is not in it.
    ///
    /// - Complexity: what the refresh redoes after updates (nothing when
    ///   there were none), then O(depth of groups) amortized, without
    ///   allocation; O(n) when an explicit list places an element twice.
    /// - Throws: as `navigationOrder()`.
    public mutating func next(after element: NodeID) throws(TreeError) -> NodeID? {
        try step(from: element, forward: true)
    }

    /// The element a swipe left reaches from `element`, or nil at the start
    /// of the order or when `element` is not in it. See `next(after:)`.
    public mutating func previous(before element: NodeID) throws(TreeError) -> NodeID? {
        try step(from: element, forward: false)
    }

    /// Brings the navigation order up to date: builds it at the first call;
    /// after updates, collects again the groups whose content changed, sorts
    /// again the lists whose keys moved relative to each other, and the
    /// lists above a group whose key changed. A scroll that moves a whole
    /// list changes nothing in it: after scrolling a list that is all of
    /// its group, O(depth).
    ///
    /// - Complexity: O(region) per group collected again, O(k log k) per
    ///   list of k items sorted again; on Android, O(n) after any change.
    /// - Throws: as `navigationOrder()`; the order is then rebuilt at the
    ///   next call.
    public mutating func refreshNavigationOrder() throws(TreeError) {
        if navigation.isBuilt && navigation.dirty.isEmpty { return }
        do {
            if !navigation.isBuilt { try buildNavigationOrder() }
            try processDirtyUnits()
        } catch {
            navigation.drop()
            throw error
        }
    }

    // MARK: Building

    private mutating func buildNavigationOrder() throws(TreeError) {
        try tree.validateAccessibilityElements()
        navigation.drop()
        navigation.grow(to: tree.capacity)
        navigation.documentOrder = rules.navigationOrderModel == .documentOrder
        _ = navigation.makeUnit(owner: .none, kind: navigation.documentOrder ? .explicit : .sorted, parent: -1)
    }

    /// Collects every unit marked for it, then sorts bottom-up every unit
    /// marked or whose nested unit's key changed.
    private mutating func processDirtyUnits() throws(TreeError) {
        // Collect (new units found on the way are collected in turn).
        var k = 0
        while k < navigation.dirty.count {
            let u = navigation.dirty[k]
            k += 1
            if navigation.isLive(u) && navigation.units[Int(u)].needsCollect { try collect(u) }
        }
        // Sort the deepest first, so a unit sorts by its nested units' new keys.
        var byDepth: [[Int32]] = []
        for u in navigation.dirty where navigation.isLive(u) {
            var depth = 0
            var p = navigation.units[Int(u)].parent
            while p >= 0 {
                depth += 1
                p = navigation.units[Int(p)].parent
            }
            while byDepth.count <= depth { byDepth.append([]) }
            byDepth[depth].append(u)
        }
        navigation.dirty.removeAll()
        var depth = byDepth.count - 1
        while depth >= 0 {
            for u in byDepth[depth] where navigation.isLive(u) && navigation.units[Int(u)].needsSort {
                sortUnit(u)
                let parent = navigation.units[Int(u)].parent
                // The parent sorted by the old key: sort it again.
                if parent >= 0, !navigation.units[Int(parent)].needsSort,
                    unitKey(u) != navigation.units[Int(u)].key
                {
                    navigation.units[Int(parent)].needsSort = true
                    byDepth[depth - 1].append(parent)
                }
            }
            depth -= 1
        }
    }

    /// Step 1 for unit `u`: its items, in back-to-front order (an explicit
    /// unit: the listed nodes' in list order). Records the walk in
    /// `navigation.region`; makes units for the groups it meets (keeping
    /// those that exist) and frees the nested units it no longer meets.
    /// O(region).
    private mutating func collect(_ u: Int32) throws(TreeError) {
        var unit = navigation.takeUnit(u)
        if navigation.documentOrder, let talkBack = (rules as? AndroidRules)?.talkBack {
            // TalkBack's own order (windows, reordering), made from the tree
            // it sees: the walk below would find the same nodes in another
            // order. Only the items' region is read (`step`); any update
            // drops the whole order.
            let (order, children) = talkBack.orderAndChildren(of: tree)
            unit.items = order.filter { hot[$0.index].state.contains(.exposed) }
            for item in unit.items { navigation.region[item.index] = u }
            navigation.talkBackChildren = children
            unit.needsCollect = false
            unit.needsSort = true
            unit.hasFixedItem = false
            navigation.units[Int(u)] = unit
            return
        }
        let oldNested = unit.items.filter { navigation.unitOwned[$0.index] >= 0 }
        unit.items.removeAll(keepingCapacity: true)
        unit.hasFixedItem = false
        var starts: [NodeID] = []
        if navigation.documentOrder {
            starts = [tree.root]
        } else if unit.owner.isNone {
            starts = [tree.root]
        } else if unit.kind == .explicit {
            if let problem = tree.accessibilityElementsProblem(of: unit.owner) { throw problem }
            starts = (tree.extrasOf(unit.owner)?.accessibilityElements ?? []).compactMap { tree.node(withID: $0) }
        } else {
            var c = tree.backLinks[unit.owner.index].lastChild
            while !c.isNone {
                starts.append(c)
                c = tree.backLinks[c.index].previousSibling
            }
            starts.reverse()
        }
        var visited = Set<NodeID>()
        let explicit = unit.kind == .explicit && !navigation.documentOrder
        var stack: [NodeID] = []
        for start in starts where !start.isNone {
            stack.append(start)
            while let n = stack.popLast() {
                if explicit && !visited.insert(n).inserted { navigation.irregular = true }
                navigation.region[n.index] = u
                let state = hot[n.index].state
                if state.contains(.blocked) { continue }
                if navigation.documentOrder {
                    if state.contains(.exposed) { unit.items.append(n) }
                } else if state.contains(.exposed) {
                    unit.items.append(n)
                    if Self.hasFixedKey(n, in: tree) { unit.hasFixedItem = true }
                    continue
                } else if let kind = groupKind(n) {
                    unit.items.append(n)
                    let owned = navigation.unitOwned[n.index]
                    if navigation.isLive(owned) && navigation.units[Int(owned)].kind == kind {
                        navigation.units[Int(owned)].parent = u
                    } else {
                        if owned >= 0 { navigation.free(owned) }
                        _ = navigation.makeUnit(owner: n, kind: kind, parent: u)
                    }
                    continue
                }
                var c = tree.backLinks[n.index].lastChild
                while !c.isNone {
                    stack.append(c)
                    c = tree.backLinks[c.index].previousSibling
                }
            }
        }
        if explicit && !navigation.irregular {
            // A listed node below another node this walk entered is reached twice.
            for start in starts {
                var a = tree.backLinks[start.index].parent
                while !a.isNone && a != unit.owner {
                    if visited.contains(a) {
                        navigation.irregular = true
                        break
                    }
                    a = tree.backLinks[a.index].parent
                }
            }
        }
        unit.needsCollect = false
        unit.needsSort = true
        let hasFixed = unit.hasFixedItem
        let items = unit.items
        navigation.units[Int(u)] = unit
        if hasFixed { navigation.fixedUnits.insert(u) } else { navigation.fixedUnits.remove(u) }
        var kept = Set<NodeID>()
        for item in items where navigation.unitOwned[item.index] >= 0 { kept.insert(item) }
        for o in oldNested where !kept.contains(o) {
            let owned = navigation.unitOwned[o.index]
            if owned >= 0 && navigation.units[Int(owned)].parent == u { navigation.free(owned) }
        }
    }

    /// Steps 2 to 4 for unit `u`: its items sorted by key (an explicit unit
    /// keeps its order), each item's place recorded, and the keys its
    /// nested units were sorted by. O(k log k) for k items.
    private mutating func sortUnit(_ u: Int32) {
        var unit = navigation.takeUnit(u)
        unit.needsSort = false
        if unit.kind == .explicit {
            unit.sorted = unit.items
            for item in unit.items where navigation.unitOwned[item.index] >= 0 {
                navigation.units[Int(navigation.unitOwned[item.index])].key = unitKey(navigation.unitOwned[item.index])
            }
        } else {
            var memo = TransformMemo()
            // Each item with its key's point: 24 bytes, where a key that may
            // be none takes 32, which the sort moves about 20 times over a
            // million items. An empty group's key (none) is kept apart.
            var keyed: [(y: Double, x: Double, item: NodeID)] = []
            var noneAt: [Int] = []
            keyed.reserveCapacity(unit.items.count)
            for item in unit.items {
                let owned = navigation.unitOwned[item.index]
                let key: OrderKey
                if owned >= 0 {
                    key = unitKey(owned)
                    navigation.units[Int(owned)].key = key
                    if key.isNone { noneAt.append(keyed.count) }
                } else {
                    key = elementKey(item, &memo)
                }
                keyed.append((key.y, key.x, item))
            }
            let band: Double = tree.idiom == .pad ? 13 : 8
            let rightToLeft = tree.layoutDirection == .rightToLeft
            // Swift's stable sort, as the spec fixes it: the comparator is
            // not transitive across a chain of near rows. Without a none
            // key, `before` compares the points alone, so the same sort of
            // the smaller entries makes the same comparisons.
            if noneAt.isEmpty {
                keyed.sort { OrderKey.before($0.y, $0.x, $1.y, $1.x, band: band, rightToLeft: rightToLeft) }
                unit.sorted = keyed.map(\.item)
            } else {
                var withNone = keyed.map { (key: OrderKey(x: $0.x, y: $0.y), item: $0.item) }
                for k in noneAt { withNone[k].key = .none }
                withNone.sort { OrderKey.before($0.key, $1.key, band: band, rightToLeft: rightToLeft) }
                unit.sorted = withNone.map(\.item)
            }
        }
        for (i, item) in unit.sorted.enumerated() { navigation.place[item.index] = Int32(i) }
        navigation.units[Int(u)] = unit
    }

    // MARK: Keys

    /// The key of unit `u`: its first item's after sorting (none when it is
    /// empty or that item is an empty group). O(depth of groups + depth).
    func unitKey(_ u: Int32) -> OrderKey {
        var memo = TransformMemo()
        var v = u
        while true {
            guard let first = navigation.units[Int(v)].sorted.first else { return .none }
            let owned = navigation.unitOwned[first.index]
            if owned < 0 { return elementKey(first, &memo) }
            v = owned
        }
    }

    /// The key of exposed element `e`: the origin of its accessibility frame
    /// on the screen (`ScreenSpace.accessibilityFrame`). O(depth), or O(1)
    /// when `memo` holds its container's map.
    func elementKey(_ e: NodeID, _ memo: inout TransformMemo) -> OrderKey {
        let frame: CGRect
        if let explicit = tree.explicitAccessibilityFrame(of: e), !tree.has(.hasFrameInContainerSpace, e) {
            frame = explicit
        } else if tree.isView(e) {
            let parent = tree.backLinks[e.index].parent
            let toScreen = parent.isNone ? CGAffineTransform.identity : memo.toScreen(of: parent, in: tree)
            frame = tree.bounds(of: e).applying(tree.boundsToParent(e).concatenating(toScreen))
        } else if let fic = tree.frameInContainerSpace(of: e) {
            let container = tree.container(of: e)
            frame = fic.applying(container.isNone ? .identity : memo.toScreen(of: container, in: tree))
        } else {
            frame = .zero
        }
        return OrderKey(x: Double(frame.minX), y: Double(frame.minY))
    }

    /// Whether the key of exposed element `n` is fixed on the screen (an
    /// explicit frame, or an element node's CGRectZero): scrolling an
    /// ancestor does not move it.
    static func hasFixedKey(_ n: NodeID, in tree: ElementTree) -> Bool {
        tree.isView(n) ? tree.has(.hasAccessibilityFrame, n) : !tree.has(.hasFrameInContainerSpace, n)
    }

    /// The group a view forms, if any (step 1): explicit with
    /// `accessibilityElements`; sorted with `shouldGroupAccessibilityChildren`,
    /// a container type (`semanticGroup` only with a label, value or
    /// identifier) or the `tabBar` trait.
    func groupKind(_ v: NodeID) -> NavigationCache.Unit.Kind? {
        guard tree.isView(v) else { return nil }
        let extras = tree.extrasOf(v)
        if extras?.accessibilityElements != nil { return .explicit }
        if tree.has(.groupsChildren, v) { return .sorted }
        guard let extras else { return nil }
        if extras.traits.contains(.tabBar) { return .sorted }
        switch extras.containerType {
        case .none: return nil
        case .semanticGroup:
            let named = [extras.label, extras.value, extras.identifier].contains { !($0 ?? "").isEmpty }
            return named ? .sorted : nil
        case .dataTable, .list, .landmark: return .sorted
        }
    }

    // MARK: Walking the order

    /// Calls `body` with each element in order (the units depth first).
    func forEachInNavigationOrder(_ body: (NodeID) -> Void) {
        guard navigation.isBuilt else { return }
        var stack: [(unit: Int32, next: Int)] = [(0, 0)]
        while let (u, start) = stack.popLast() {
            let sorted = navigation.units[Int(u)].sorted
            var i = start
            while i < sorted.count {
                let item = sorted[i]
                i += 1
                let owned = navigation.unitOwned[item.index]
                if owned >= 0 {
                    stack.append((u, i))
                    stack.append((owned, 0))
                    break
                }
                body(item)
            }
        }
    }

    /// The element one swipe from `element`.
    private mutating func step(from element: NodeID, forward: Bool) throws(TreeError) -> NodeID? {
        try refreshNavigationOrder()
        guard tree.contains(element) else { return nil }
        if navigation.irregular {
            var all: [NodeID] = []
            forEachInNavigationOrder { all.append($0) }
            guard let k = all.firstIndex(of: element) else { return nil }
            let j = forward ? k + 1 : k - 1
            return all.indices.contains(j) ? all[j] : nil
        }
        var u = navigation.region[element.index]
        guard navigation.isLive(u), navigation.unitOwned[element.index] < 0 else { return nil }
        var i = Int(navigation.place[element.index])
        guard i >= 0, i < navigation.units[Int(u)].sorted.count, navigation.units[Int(u)].sorted[i] == element else {
            return nil
        }
        // Move one item along; enter a group at its near end, leave it at its far end.
        i += forward ? 1 : -1
        while true {
            let sorted = navigation.units[Int(u)].sorted
            if i >= 0 && i < sorted.count {
                let item = sorted[i]
                let owned = navigation.unitOwned[item.index]
                if owned < 0 { return item }
                u = owned
                i = forward ? 0 : navigation.units[Int(u)].sorted.count - 1
                continue
            }
            let owner = navigation.units[Int(u)].owner
            if owner.isNone { return nil }
            u = navigation.units[Int(u)].parent
            i = Int(navigation.place[owner.index]) + (forward ? 1 : -1)
        }
    }

    // MARK: Updates (called by HitTester+Updates.swift)

    /// After `scroll(view, to:)`: every key below `view` moved by one vector
    /// but fixed ones. O(depth), plus O(depth) per unit with a fixed key.
    mutating func navigationAfterScroll(_ view: NodeID) {
        guard navigation.isBuilt else { return }
        if navigation.documentOrder || navigation.irregular {
            navigation.drop()
            return
        }
        let state = hot[view.index].state
        guard !state.contains(.blocked) && !state.contains(.exposed),
            let outer = navigation.unit(containing: view, inner: false)
        else { return }
        // Units with a fixed key below the view: their items moved apart.
        for w in navigation.fixedUnits {
            let owner = navigation.units[Int(w)].owner
            guard !owner.isNone, tree.isDescendant(owner, of: view) else { continue }
            var v = w
            while v >= 0 && v != outer {
                navigation.needsSort(v)
                v = navigation.units[Int(v)].parent
            }
        }
        let items = navigation.units[Int(outer)].items
        let ownsUnit = navigation.unitOwned[view.index] >= 0
        let wholeList =
            !ownsUnit
            && (items.isEmpty
                || (tree.isDescendant(items[0], of: view) && tree.isDescendant(items[items.count - 1], of: view)))
        if navigation.units[Int(outer)].kind == .sorted && (!wholeList || navigation.fixedUnits.contains(outer)) {
            navigation.needsSort(outer)
        } else {
            // Its order holds; its key may have moved.
            navigation.needsSort(navigation.units[Int(outer)].parent)
        }
    }

    /// After `update(id, to:)` from `old`. O(1) when nothing the order reads
    /// changed; else the group holding the node is collected again (its
    /// siblings' too after a modal change), and after a change of geometry
    /// O(subtree) to mark the groups below.
    mutating func navigationAfterUpdate(_ id: NodeID, from old: Node) {
        guard navigation.isBuilt else { return }
        let new = tree.nodeValue(id)
        guard Self.orderReads(old) != Self.orderReads(new) else { return }
        if navigation.documentOrder || navigation.irregular {
            navigation.drop()
            return
        }
        // A new list, or a new id that an ancestor's list names, is checked now.
        if tree.accessibilityElementsProblem(of: id) != nil {
            navigation.drop()
            return
        }
        if old.id != new.id {
            for a in tree.ancestors(of: id) where tree.extrasOf(a)?.accessibilityElements?.contains(old.id) == true {
                navigation.drop()
                return
            }
        }
        navigation.grow(to: tree.capacity)
        if let u = navigation.unit(containing: id, inner: false) { navigation.needsCollect(u) }
        if let u = navigation.unit(containing: id, inner: true) { navigation.needsCollect(u) }
        let parent = tree.backLinks[id.index].parent
        if old.accessibilityViewIsModal != new.accessibilityViewIsModal, !parent.isNone {
            var c = tree.firstChildren[parent.index]
            while !c.isNone {
                if let u = navigation.unit(containing: c, inner: false) { navigation.needsCollect(u) }
                c = tree.nextSiblings[c.index]
            }
        }
        let geometry =
            old.frame != new.frame || old.bounds != new.bounds || old.transform != new.transform
            || old.accessibilityFrame != new.accessibilityFrame
            || old.accessibilityFrameInContainerSpace != new.accessibilityFrameInContainerSpace
        if geometry {
            tree.forEachInPreOrder(from: id) { n in
                if navigation.unitOwned[n.index] >= 0 { navigation.needsSort(navigation.unitOwned[n.index]) }
            }
        }
    }

    /// After inserting the subtree at `top`: the group holding it is
    /// collected again. O(depth).
    mutating func navigationAfterInsert(_ top: NodeID) {
        guard navigation.isBuilt else { return }
        if navigation.documentOrder || navigation.irregular {
            navigation.drop()
            return
        }
        navigation.grow(to: tree.capacity)
        let parent = tree.backLinks[top.index].parent
        guard !parent.isNone, let u = navigation.unit(containing: parent, inner: true) else {
            if parent.isNone { navigation.drop() }
            return
        }
        navigation.needsCollect(u)
    }

    /// Before removing the subtree at `id`: its groups go, the group holding
    /// it is collected again, and an ancestor's list that names a node of it
    /// makes the next query rebuild (and fail). O(subtree + depth × lists).
    mutating func navigationBeforeRemove(_ id: NodeID) {
        guard navigation.isBuilt else { return }
        if navigation.documentOrder || navigation.irregular || tree.backLinks[id.index].parent.isNone {
            navigation.drop()
            return
        }
        for a in tree.ancestors(of: id) {
            guard let list = tree.extrasOf(a)?.accessibilityElements else { continue }
            for name in list {
                if let n = tree.node(withID: name), tree.isDescendant(n, of: id) {
                    navigation.drop()
                    return
                }
            }
        }
        if let u = navigation.unit(containing: id, inner: false) { navigation.needsCollect(u) }
        tree.forEachInPreOrder(from: id) { n in
            let owned = navigation.unitOwned[n.index]
            if owned >= 0 { navigation.free(owned) }
            navigation.region[n.index] = -1
            navigation.place[n.index] = -1
        }
    }

    /// What of a node the order reads (all but what only touch, paths and
    /// speech use), for `navigationAfterUpdate` to compare.
    private static func orderReads(_ n: Node) -> Node {
        var n = n
        n.accessibilityHint = nil
        n.accessibilityLanguage = nil
        n.accessibilityNavigationStyle = .automatic
        n.accessibilityActivationPoint = nil
        n.accessibilityPath = nil
        n.isUserInteractionEnabled = true
        n.clipsToBounds = false
        return n
    }
}

/// The last container whose map to the screen a walk computed: items of one
/// list mostly share containers, so each map is composed once.
struct TransformMemo {
    private var view = NodeID.none
    private var transform = CGAffineTransform.identity

    /// The map from `view`'s bounds space to the screen. O(depth), O(1) for
    /// the same view as the last call; no allocation.
    mutating func toScreen(of v: NodeID, in tree: ElementTree) -> CGAffineTransform {
        if v == view { return transform }
        var t = tree.boundsToParent(v)
        var a = tree.backLinks[v.index].parent
        while !a.isNone {
            if tree.isView(a) { t = t.concatenating(tree.boundsToParent(a)) }
            a = tree.backLinks[a.index].parent
        }
        view = v
        transform = t
        return t
    }
}
