import Foundation
import Testing

@testable import AXHit

/// The spec's navigation order (tree-format.md, "Navigation order") written
/// as plain recursion over its four steps, on `ReferenceHitTest`'s view of
/// the tree, sharing nothing with the engine's units.
struct ReferenceOrder {
    indirect enum Item {
        case element(Int)
        case group([Item], explicit: Bool)
    }

    let reference: ReferenceHitTest
    let band: Double
    let rightToLeft: Bool
    let index: [String: Int]

    init(_ tree: ElementTree) {
        reference = ReferenceHitTest(tree)
        band = tree.idiom == .pad ? 13 : 8
        rightToLeft = tree.layoutDirection == .rightToLeft
        var index: [String: Int] = [:]
        for (k, n) in reference.nodes.enumerated() { index[n.id] = k }
        self.index = index
    }

    /// The ids in navigation order.
    var order: [String] {
        guard !reference.nodes.isEmpty else { return [] }
        var out: [String] = []
        func emit(_ item: Item) {
            switch item {
            case let .element(k): out.append(reference.nodes[k].id)
            case let .group(items, _): items.forEach(emit)
            }
        }
        arrange(collect(0), explicit: false).forEach(emit)
        return out
    }

    /// Hidden, suppressed, or inside an accessibility element, itself or
    /// through an ancestor.
    func blocked(_ k: Int) -> Bool {
        var a = k
        while a >= 0 {
            if reference.hiddenItself(a) || reference.suppressedByModalSibling(a) { return true }
            if a != k && reference.nodes[a].isAccessibilityElement { return true }
            a = reference.parents[a]
        }
        return false
    }

    func grouping(_ n: Node) -> Bool {
        if n.shouldGroupAccessibilityChildren || n.accessibilityTraits.contains(.tabBar) { return true }
        switch n.accessibilityContainerType {
        case .none: return false
        case .semanticGroup:
            return [n.accessibilityLabel, n.accessibilityValue, n.accessibilityIdentifier].contains {
                !($0 ?? "").isEmpty
            }
        default: return true
        }
    }

    /// Step 1.
    func collect(_ k: Int) -> [Item] {
        if blocked(k) { return [] }
        if reference.exposed[k] { return [.element(k)] }
        let n = reference.nodes[k]
        if n.kind == .view, let list = n.accessibilityElements {
            return [.group(list.flatMap { collect(index[$0]!) }, explicit: true)]
        }
        let children = reference.children[k].flatMap(collect)
        if n.kind == .view && grouping(n) { return [.group(children, explicit: false)] }
        return children
    }

    /// Step 2.
    func key(_ item: Item) -> CGPoint? {
        switch item {
        case let .element(k):
            let f = reference.accessibilityFrame(k)
            return CGPoint(x: f.minX, y: f.minY)
        case let .group(items, _):
            return items.first.flatMap(key)
        }
    }

    /// Step 3.
    func before(_ a: Item, _ b: Item) -> Bool {
        guard let p = key(a) else { return false }
        guard let q = key(b) else { return true }
        if abs(p.y - q.y) >= band { return p.y < q.y }
        return rightToLeft ? p.x > q.x : p.x < q.x
    }

    /// Step 4.
    func arrange(_ items: [Item], explicit: Bool) -> [Item] {
        let inner = items.map { item -> Item in
            if case let .group(g, e) = item { return .group(arrange(g, explicit: e), explicit: e) }
            return item
        }
        return explicit ? inner : inner.sorted(by: before)
    }
}

/// Random trees with groups, explicit lists, modal views, both idioms and
/// directions, transforms and scrolls (RandomTrees), with frames in few
/// rows so that the row band and its chains matter.
enum RandomOrderTrees {
    static func make(seed: UInt64, nodes: Int, wide: Bool = false) throws -> ElementTree {
        var tree = try RandomTrees.make(seed: seed, nodes: nodes, wide: wide)
        var rng = SeededRandom(seed: seed &* 31 &+ 7)
        tree.idiom = rng.chance(0.3) ? .pad : .phone
        tree.layoutDirection = rng.chance(0.3) ? .rightToLeft : .leftToRight
        for id in tree.preOrder {
            var n = tree[id]!
            // Fewer modal views than RandomTrees makes: one near the root
            // shuts out most of the screen.
            if n.accessibilityViewIsModal && rng.chance(0.8) { n.accessibilityViewIsModal = false }
            // Few distinct rows: chains of near rows are common.
            if n.kind == .view, rng.chance(0.5) { n.frame.origin.y = Double(Int.random(in: 0 ... 12, using: &rng)) * 6 }
            if let f = n.accessibilityFrameInContainerSpace, rng.chance(0.5) {
                n.accessibilityFrameInContainerSpace = CGRect(
                    x: f.minX, y: Double(Int.random(in: 0 ... 12, using: &rng)) * 5,
                    width: f.width, height: f.height)
            }
            if n.kind == .view {
                if rng.chance(0.15) { n.shouldGroupAccessibilityChildren = true }
                if rng.chance(0.08) {
                    n.accessibilityContainerType = AccessibilityContainerType.allCases.randomElement(using: &rng)!
                }
                if rng.chance(0.3) { n.accessibilityLabel = "label" }
                if rng.chance(0.05) { n.accessibilityTraits.insert(.tabBar) }
                var descendants: [String] = []
                tree.forEachInPreOrder(from: id) { if $0 != id { descendants.append(tree.id(of: $0)) } }
                // Lists on small subtrees, so that they don't hide most of the tree.
                if descendants.count <= 16 && rng.chance(0.25) {
                    descendants.shuffle(using: &rng)
                    n.accessibilityElements = Array(descendants.prefix(Int.random(in: 0 ... 8, using: &rng)))
                }
            }
            try tree.update(id, to: n)
        }
        return tree
    }
}

@Suite struct NavigationOrderTests {
    // MARK: Hand-made screens

    /// A window of 390 × 844 with `children` under it, in this order.
    static func screen(
        _ children: [Node], idiom: Idiom = .phone, direction: LayoutDirection = .leftToRight
    ) throws -> HitTester {
        var tree = ElementTree()
        tree.idiom = idiom
        tree.layoutDirection = direction
        let window = try tree.append(.view("window", frame: CGRect(x: 0, y: 0, width: 390, height: 844)), under: .none)
        for c in children { try tree.append(c, under: window) }
        return HitTester(tree)
    }

    static func button(_ id: String, x: Double, y: Double) -> Node {
        var n = Node.view(id, frame: CGRect(x: x, y: y, width: 80, height: 44))
        n.isAccessibilityElement = true
        return n
    }

    static func ids(_ tester: inout HitTester) throws -> [String] {
        try tester.navigationOrder().map { tester.tree.id(of: $0) }
    }

    @Test func twoRowsOfThreeButtons() throws {
        // Given back to front in a scrambled order.
        var t = try Self.screen([
            Self.button("b5", x: 100, y: 200), Self.button("b1", x: 0, y: 100), Self.button("b6", x: 200, y: 200),
            Self.button("b3", x: 200, y: 100), Self.button("b4", x: 0, y: 200), Self.button("b2", x: 100, y: 100),
        ])
        #expect(try Self.ids(&t) == ["b1", "b2", "b3", "b4", "b5", "b6"])
    }

    @Test func rowBandOfEightPointsOnAPhoneAndThirteenOnAPad() throws {
        // 5 points lower but to the left: the same row on a phone.
        var five = try Self.screen([Self.button("a", x: 100, y: 100), Self.button("b", x: 0, y: 105)])
        #expect(try Self.ids(&five) == ["b", "a"])
        // 10 points lower: a row of its own on a phone, the same row on a pad.
        var ten = try Self.screen([Self.button("a", x: 100, y: 100), Self.button("b", x: 0, y: 110)])
        #expect(try Self.ids(&ten) == ["a", "b"])
        var pad = try Self.screen([Self.button("a", x: 100, y: 100), Self.button("b", x: 0, y: 110)], idiom: .pad)
        #expect(try Self.ids(&pad) == ["b", "a"])
        // Exactly the band apart: separate rows.
        var eight = try Self.screen([Self.button("a", x: 100, y: 100), Self.button("b", x: 0, y: 108)])
        #expect(try Self.ids(&eight) == ["a", "b"])
    }

    @Test func rightToLeft() throws {
        var t = try Self.screen(
            [
                Self.button("left", x: 0, y: 100), Self.button("middle", x: 150, y: 100),
                Self.button("right", x: 300, y: 100),
                Self.button("below", x: 0, y: 200),
            ], direction: .rightToLeft)
        #expect(try Self.ids(&t) == ["right", "middle", "left", "below"])
    }

    @Test func explicitListReversesARow() throws {
        var row = Node.view("row", frame: CGRect(x: 0, y: 100, width: 390, height: 44))
        row.accessibilityElements = ["c", "b", "a"]
        var tree = ElementTree()
        let window = try tree.append(.view("window", frame: CGRect(x: 0, y: 0, width: 390, height: 844)), under: .none)
        try tree.append(Self.button("top", x: 0, y: 0), under: window)
        let r = try tree.append(row, under: window)
        for (id, x) in [("a", 0.0), ("b", 130.0), ("c", 260.0)] {
            try tree.append(Self.button(id, x: x, y: 0), under: r)
        }
        var t = HitTester(tree)
        #expect(try Self.ids(&t) == ["top", "c", "b", "a"])
    }

    @Test func groupedCardIsPlacedByItsTopLeftChildAndKeptTogether() throws {
        func card(grouped: Bool) -> ElementTree {
            var tree = ElementTree()
            do {
                let window = try tree.append(
                    .view("window", frame: CGRect(x: 0, y: 0, width: 390, height: 844)), under: .none)
                var card = Node.view("card", frame: CGRect(x: 0, y: 200, width: 390, height: 100))
                card.shouldGroupAccessibilityChildren = grouped
                // Back to front: the bottom child first.
                let c = try tree.append(card, under: window)
                try tree.append(Self.button("subtitle", x: 60, y: 40), under: c)
                try tree.append(Self.button("title", x: 10, y: 0), under: c)
                // Beside the card's top row (5 points higher: the same row), right of the title.
                try tree.append(Self.button("beside", x: 50, y: 195), under: window)
            } catch {
                Issue.record("\(error)")
            }
            return tree
        }
        var grouped = HitTester(card(grouped: true))
        #expect(try Self.ids(&grouped) == ["title", "subtitle", "beside"])
        var plain = HitTester(card(grouped: false))
        #expect(try Self.ids(&plain) == ["title", "beside", "subtitle"])
    }

    @Test func modalSheetShutsOutItsSiblings() throws {
        var sheet = Node.view("sheet", frame: CGRect(x: 0, y: 400, width: 390, height: 444))
        sheet.accessibilityViewIsModal = true
        var tree = ElementTree()
        let window = try tree.append(.view("window", frame: CGRect(x: 0, y: 0, width: 390, height: 844)), under: .none)
        try tree.append(Self.button("behind", x: 0, y: 0), under: window)
        let s = try tree.append(sheet, under: window)
        try tree.append(Self.button("cancel", x: 0, y: 0), under: s)
        try tree.append(Self.button("done", x: 300, y: 0), under: s)
        try tree.append(Self.button("infront", x: 0, y: 500), under: window)
        var t = HitTester(tree)
        #expect(try Self.ids(&t) == ["cancel", "done"])
    }

    @Test func androidFollowsTheDumpsPreOrder() throws {
        var tree = ElementTree()
        tree.platform = .android
        tree.source = .snapshot
        let window = try tree.append(
            .view("window", frame: CGRect(x: 0, y: 0, width: 1080, height: 2000)), under: .none)
        for (id, y) in [("low", 900.0), ("high", 100.0)] {
            var n = Node.view(id, frame: CGRect(x: 0, y: y, width: 500, height: 100))
            n.actions = .click
            try tree.append(n, under: window)
        }
        var t = HitTester(tree)
        #expect(try Self.ids(&t) == ["low", "high"])
    }

    @Test func invalidListsThrowNamingTheViewAndKey() throws {
        for (list, words) in [
            (["nobody"], "no node"), (["a", "a"], "twice"), (["group"], "itself"), (["window"], "not in"),
        ] {
            var group = Node.view("group", frame: CGRect(x: 0, y: 0, width: 100, height: 100))
            group.accessibilityElements = list
            var tree = ElementTree()
            let window = try tree.append(
                .view("window", frame: CGRect(x: 0, y: 0, width: 390, height: 844)), under: .none)
            let g = try tree.append(group, under: window)
            try tree.append(Self.button("a", x: 0, y: 0), under: g)
            #expect(throws: TreeError.self) { try tree.validateAccessibilityElements() }
            var t = HitTester(tree)
            do {
                _ = try t.navigationOrder()
                Issue.record("\(list): no error")
            } catch {
                #expect(error.kind == .validation && error.node == "group" && error.key == "accessibilityElements")
                #expect(error.message.contains(words), "\(error)")
            }
            // The picture still has its maps, and says why the focus map is not numbered.
            let svg = try SVGRenderer.svg(try ScreenAnalysis(tree), findings: [])
            #expect(svg.contains("id=\"focus-map\"") && svg.contains("no swipe order:"), "\(list)")
            #expect(svg.contains("accessibilityElements"), "\(list)")
        }
    }

    // MARK: Against the reference

    @Test func agreesWithTheReferenceOnRandomTrees() throws {
        var elements = 0, groups = 0, explicitLists = 0, nonTransitive = 0
        for seed in 1 ... 60 as ClosedRange<UInt64> {
            let tree = try RandomOrderTrees.make(seed: seed, nodes: 300, wide: seed % 3 == 0)
            let reference = ReferenceOrder(tree)
            let expected = reference.order
            var tester = HitTester(tree)
            let got = try tester.navigationOrder().map { tree.id(of: $0) }
            #expect(got == expected, "seed \(seed)")
            elements += expected.count
            for id in tree.preOrder where tester.groupKind(id) != nil {
                groups += 1
                if tree[id]!.accessibilityElements != nil { explicitLists += 1 }
            }
            // A near-row chain (a, b, c: a~b, b~c, a≁c) makes the comparator intransitive.
            let space = ScreenSpace(tree)
            let keys = tree.preOrder.filter { space.isExposed($0) }.map { space.accessibilityFrame(of: $0).minY }
            if keys.contains(where: { y in
                keys.contains { abs($0 - y) < 8 && $0 > y }
                    && keys.contains { abs($0 - y) >= 8 && abs($0 - y) < 16 && $0 > y }
            }) {
                nonTransitive += 1
            }
        }
        // Guards against a vacuous pass.
        #expect(elements > 1000)
        #expect(groups > 2000 && explicitLists > 1000)
        #expect(nonTransitive > 25)
    }

    @Test func swipesWalkTheOrderBothWays() throws {
        for seed in 1 ... 20 as ClosedRange<UInt64> {
            let tree = try RandomOrderTrees.make(seed: seed, nodes: 120)
            var t = HitTester(tree)
            let order = try t.navigationOrder()
            guard let first = order.first, let last = order.last else { continue }
            // Forward from the first and backward from the last, where no
            // element is placed twice (positions are unique).
            guard Set(order).count == order.count else { continue }
            var walked = [first]
            while let n = try t.next(after: walked[walked.count - 1]) { walked.append(n) }
            #expect(walked == order, "seed \(seed)")
            var back = [last]
            while let n = try t.previous(before: back[back.count - 1]) { back.append(n) }
            #expect(back == order.reversed(), "seed \(seed)")
        }
    }

    /// After each random update, the kept order equals a fresh build and
    /// the reference.
    @Test func updatesKeepTheOrderCurrent() throws {
        var updates = 0, rebuiltDiffer = 0
        for seed in 1 ... 24 as ClosedRange<UInt64> {
            let tree = try RandomOrderTrees.make(seed: seed, nodes: 120, wide: seed % 2 == 0)
            var t = HitTester(tree)
            var previous = try t.navigationOrder()
            var rng = SeededRandom(seed: seed &* 977)
            for step in 0 ..< 25 {
                let nodes = t.tree.preOrder
                let views = nodes.filter { t.tree.kind(of: $0) == .view }
                switch Int.random(in: 0 ..< 5, using: &rng) {
                case 0, 1:
                    let v = views.randomElement(using: &rng)!
                    try t.scroll(v, to: CGPoint(x: rng.number(-30 ... 30), y: rng.number(-60 ... 60)))
                case 2:
                    let id = nodes.randomElement(using: &rng)!
                    var n = t.tree[id]!
                    if n.kind == .view {
                        n.frame.origin.y += rng.number(-20 ... 20)
                    } else {
                        n.isAccessibilityElement.toggle()
                    }
                    if rng.chance(0.3) && n.kind == .view { n.shouldGroupAccessibilityChildren.toggle() }
                    if rng.chance(0.2) && n.kind == .view { n.isHidden.toggle() }
                    if rng.chance(0.1) && n.kind == .view { n.accessibilityViewIsModal.toggle() }
                    try t.update(id, to: n)
                case 3:
                    let parent = views.randomElement(using: &rng)!
                    var b = Self.button(
                        "new\(seed)-\(step)", x: rng.number(0 ... 300),
                        y: Double(Int.random(in: 0 ... 12, using: &rng)) * 6)
                    b.isAccessibilityElement = rng.chance(0.7)
                    try t.insert(b, under: parent)
                default:
                    let candidates = nodes.filter { $0 != t.tree.root }
                    // Never remove a node an explicit list names (that is invalid).
                    let named = Set(nodes.flatMap { t.tree[$0]!.accessibilityElements ?? [] })
                    guard let victim = candidates.randomElement(using: &rng) else { continue }
                    var subtree: [String] = []
                    t.tree.forEachInPreOrder(from: victim) { subtree.append(t.tree.id(of: $0)) }
                    if subtree.contains(where: named.contains) { continue }
                    try t.removeSubtree(victim)
                }
                updates += 1
                let kept = try t.navigationOrder().map { t.tree.id(of: $0) }
                var fresh = HitTester(t.tree)
                let rebuilt = try fresh.navigationOrder().map { t.tree.id(of: $0) }
                #expect(kept == rebuilt, "seed \(seed), step \(step)")
                #expect(kept == ReferenceOrder(t.tree).order, "seed \(seed), step \(step)")
                if rebuilt != previous.map({ t.tree.id(of: $0) }) { rebuiltDiffer += 1 }
                previous = try t.navigationOrder()
            }
        }
        #expect(updates > 500)
        #expect(rebuiltDiffer > 30)
    }

    @Test func scrollingAWholeListKeepsItsOrderWithoutSorting() throws {
        var tree = ElementTree()
        let window = try tree.append(.view("window", frame: CGRect(x: 0, y: 0, width: 390, height: 844)), under: .none)
        var list = Node.view("list", frame: CGRect(x: 0, y: 0, width: 390, height: 844))
        list.bounds = CGRect(x: 0, y: 0, width: 390, height: 844)
        let l = try tree.append(list, under: window)
        for r in 0 ..< 200 {
            try tree.append(Self.button("row\(r)", x: Double(r % 3) * 100, y: Double(r / 3) * 44), under: l)
        }
        var t = HitTester(tree)
        let before = try t.navigationOrder()
        try t.scroll(l, to: CGPoint(x: 0, y: 1000))
        // The one list moved as a whole: nothing to sort again.
        #expect(t.navigation.dirty.isEmpty)
        #expect(try t.navigationOrder() == before)
        #expect(try t.next(after: before[0]) == before[1])
    }
}
