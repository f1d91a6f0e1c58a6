import Foundation
import Testing

@testable import AXHit

/// The platform rules of tree-format.md ("Platforms and snapshots"), written
/// plainly and recursively from the spec's own wording over `Node` values,
/// sharing nothing with the engine but the model's storage: TalkBack's
/// tree, exposure (`shouldFocusNode`), hover, order and Android's touch
/// dispatch, and XCUITest's hittable touch.
struct PlatformReference {
    let nodes: [Node]  // pre-order
    let parents: [Int]
    let children: [[Int]]  // back to front (drawing order)
    let toScreen: [CGAffineTransform]
    let base: ReferenceHitTest
    /// Per node, whether it speaks (children first: computed from the back
    /// of the pre-order, where each node's children come after it).
    private var speaking: [Bool] = []

    init(_ tree: ElementTree) {
        base = ReferenceHitTest(tree)
        nodes = base.nodes
        parents = base.parents
        children = base.children
        toScreen = base.toScreen
        var speaking = [Bool](repeating: false, count: nodes.count)
        for k in nodes.indices.reversed() { speaking[k] = computeSpeaks(k, speaking) }
        self.speaking = speaking
    }

    // MARK: Android: the tree TalkBack sees

    /// Hidden itself: the dump's flag, UIKit's own keys when set, or a
    /// frontmost visible modal sibling.
    func hiddenItself(_ k: Int) -> Bool {
        let n = nodes[k]
        return n.visibleInSnapshot == false || n.isHidden || n.alpha < 0.01 || n.accessibilityElementsHidden
            || suppressed(k)
    }

    func hidden(_ k: Int) -> Bool { hiddenItself(k) || (parents[k] >= 0 && hidden(parents[k])) }

    /// Suppressed by a modal sibling (the frontmost one not itself hidden).
    func suppressed(_ k: Int) -> Bool {
        let p = parents[k]
        guard p >= 0 else { return false }
        let visibleModal = children[p].last {
            let n = nodes[$0]
            return n.accessibilityViewIsModal && n.visibleInSnapshot != false && !n.isHidden && n.alpha >= 0.01
                && !n.accessibilityElementsHidden
        }
        return visibleModal.map { $0 != k } ?? false
    }

    func box(_ k: Int) -> CGRect {
        nodes[k].kind == .view ? nodes[k].effectiveBounds.applying(toScreen[k]) : base.accessibilityFrame(k)
    }

    /// "Not hidden and its bounds have area."
    func visible(_ k: Int) -> Bool { !hidden(k) && box(k).width > 0 && box(k).height > 0 }

    func simpleName(_ k: Int) -> Substring {
        let name = nodes[k].className ?? ""
        return name.split(separator: ".").last ?? ""
    }
    func isClass(_ k: Int, _ names: String...) -> Bool { names.contains { simpleName(k).hasSuffix($0) } }
    func collection(_ k: Int) -> Bool { isClass(k, "ListView", "GridView", "RecyclerView") }

    func isWindowTop(_ k: Int) -> Bool {
        nodes[k].isWindow || (parents[k] < 0 && !children[k].contains { nodes[$0].isWindow })
    }
    func window(_ k: Int) -> Int { isWindowTop(k) || parents[k] < 0 ? k : window(parents[k]) }

    func text(_ k: Int) -> Bool {
        let n = nodes[k]
        return ![n.accessibilityLabel, n.accessibilityValue, n.accessibilityHint].allSatisfy { ($0 ?? "").isEmpty }
    }

    func important(_ k: Int) -> Bool {
        if let said = nodes[k].importantForAccessibility { return said }
        var webAbove = false
        var a = parents[k]
        while a >= 0 {
            if isClass(a, "WebView") { webAbove = true }
            a = parents[a]
        }
        let selfImportant =
            !isClass(k, "ImageButton")
            && isClass(
                k, "TextView", "Button", "EditText", "CheckBox", "Switch", "SwitchCompat", "SwitchMaterial", "Chip",
                "Chronometer", "TextClock", "AutoComplete", "ProgressBar", "SeekBar", "RatingBar", "ListView",
                "GridView", "Spinner", "RecyclerView", "ViewPager")
        return isWindowTop(k) || !nodes[k].actions.isDisjoint(with: [.click, .longClick, .focus, .check, .scroll])
            || text(k) || selfImportant || webAbove
    }

    /// The children in the dump's order: `accessibilityIndex` where given.
    func dumpChildren(_ k: Int) -> [Int] {
        children[k].enumerated().sorted {
            (nodes[$0.element].accessibilityIndex ?? $0.offset, $0.offset)
                < (nodes[$1.element].accessibilityIndex ?? $1.offset, $1.offset)
        }.map(\.element)
    }

    /// "A node that is not important is left out and its children take its place."
    func seenChildren(_ k: Int) -> [Int] {
        dumpChildren(k).flatMap { important($0) ? [$0] : seenChildren($0) }
    }

    func seenParent(_ k: Int) -> Int? {
        var a = parents[k]
        while a >= 0 && !important(a) { a = parents[a] }
        return a >= 0 ? a : nil
    }

    // MARK: Android: exposure

    static let focusActions: NodeActions = [.click, .longClick, .focus, .screenReaderFocus]

    func actionable(_ k: Int) -> Bool { visible(k) && !nodes[k].actions.isDisjoint(with: Self.focusActions) }
    func hasText(_ k: Int) -> Bool { text(k) && !collection(k) }
    func hasState(_ k: Int) -> Bool {
        nodes[k].actions.contains(.check) || isClass(k, "ProgressBar", "SeekBar", "RatingBar", "Slider")
    }
    func scrollContainer(_ k: Int) -> Bool {
        !isClass(k, "Spinner") && (nodes[k].actions.contains(.scroll) || collection(k) || isClass(k, "ScrollView"))
    }
    func scrollItem(_ k: Int) -> Bool { visible(k) && (seenParent(k).map(scrollContainer) ?? false) }
    func taps(_ k: Int) -> Bool { !nodes[k].actions.isDisjoint(with: [.click, .longClick]) }
    func speaks(_ k: Int) -> Bool { speaking[k] }

    private func computeSpeaks(_ k: Int, _ speaking: [Bool]) -> Bool {
        if hasText(k) || hasState(k) { return true }
        let kids = seenChildren(k)
        if kids.contains(where: { c in
            visible(c) && !actionable(c) && !(scrollItem(c) && speaking[c] && !taps(k)) && speaking[c]
        }) {
            return true
        }
        let autoScrolls =
            nodes[k].actions.contains(.scroll) && (collection(k) || isClass(k, "ScrollView") || isClass(k, "Spinner"))
        return !autoScrolls
            && kids.contains { !visible($0) && hasText($0) && nodes[$0].actions.isDisjoint(with: Self.focusActions) }
    }

    func focusable(_ k: Int) -> Bool { actionable(k) || (scrollItem(k) && speaks(k)) }

    func windowSized(_ k: Int) -> Bool {
        box(k) == box(window(k)) && !seenChildren(k).isEmpty && !actionable(k)
    }

    func androidExposed(_ k: Int) -> Bool {
        guard important(k), visible(k), !windowSized(k) else { return false }
        if focusable(k) { return seenChildren(k).isEmpty || speaks(k) }
        guard hasText(k) || hasState(k) else { return false }
        var a = seenParent(k)
        while let x = a {
            if visible(x) && !windowSized(x) && focusable(x) { return false }
            a = seenParent(x)
        }
        return true
    }

    // MARK: Android: hit, touch, order

    func holds(_ k: Int, _ p: CGPoint) -> Bool {
        nodes[k].kind == .view
            ? base.inQuad(nodes[k].effectiveBounds, of: k, p) : base.accessibilityFrame(k).containsClosedOpen(p)
    }

    /// The hover: the topmost window holding p; offered nodes offer it to
    /// their visible children holding p from the frontmost; a child takes
    /// it when it or a node below it that was offered it is enabled and
    /// declares click or longClick; nodes with no such child report the
    /// nearest exposed node among them and their ancestors; the last
    /// report with an answer wins.
    func androidHit(_ p: CGPoint) -> Int? {
        guard !nodes.isEmpty else { return nil }
        var w = 0
        if isWindowTop(0) {
            guard !hidden(0), holds(0, p) else { return nil }
        } else {
            guard let front = children[0].reversed().first(where: { !hidden($0) && holds($0, p) && nodes[$0].isWindow })
            else { return nil }
            w = front
        }
        var nearest: Int?
        var a = parents[w]
        while a >= 0 && nearest == nil {
            if androidExposed(a) { nearest = a }
            a = parents[a]
        }
        return offer(w, p, nearest).answer
    }

    private func offer(_ v: Int, _ p: CGPoint, _ nearestAbove: Int?) -> (answer: Int?, takes: Bool) {
        let nearest = androidExposed(v) ? v : nearestAbove
        let takesItself = taps(v) && !nodes[v].accessibilityTraits.contains(.notEnabled)
        let kids = children[v].reversed().filter { !hidden($0) && holds($0, p) }
        if kids.isEmpty { return (nearest, takesItself) }
        var answer: Int?
        for c in kids {
            let r = offer(c, p, nearest)
            if r.answer != nil { answer = r.answer }
            if r.takes { return (answer, true) }
        }
        return (answer, takesItself)
    }

    /// "At a node, try its visible children whose bounds contain p from the
    /// frontmost; the first whose subtree consumes the tap receives it; else
    /// the node consumes it when it declares click or longClick, is an
    /// adjustable control, or is a scroll container with at least one child;
    /// else it passes to the next child behind, then up."
    func androidTouch(_ p: CGPoint, _ k: Int = 0) -> Int? {
        let n = nodes[k]
        // Hidden from sight (not accessibility's own keys: touch ignores them).
        let unseen = n.visibleInSnapshot == false || n.isHidden || n.alpha < 0.01
        if n.kind == .element || unseen || !n.isUserInteractionEnabled { return nil }
        if !base.inQuad(n.effectiveBounds, of: k, p) { return nil }
        for c in children[k].reversed() {
            if let answer = androidTouch(p, c) { return answer }
        }
        let consumes =
            taps(k) || n.accessibilityTraits.contains(.adjustable) || isClass(k, "SeekBar", "RatingBar", "Slider")
            || (scrollContainer(k) && !children[k].isEmpty)
        return consumes ? k : nil
    }

    /// Useful bounds: an exposed node's own; none for one not visible; else
    /// its own clipped to the box around its children's (Android's
    /// `Rect.intersect`, which leaves it whole when they do not overlap).
    func useful(_ k: Int) -> CGRect? {
        if androidExposed(k) { return box(k) }
        guard visible(k) else { return nil }
        let around = seenChildren(k).compactMap(useful).reduce(CGRect.null) { $0.union($1) }
        let own = box(k)
        guard !around.isNull, own.minX < around.maxX, around.minX < own.maxX, own.minY < around.maxY,
            around.minY < own.maxY
        else { return own }
        return own.intersection(around)
    }

    static func compare(_ a: CGRect, _ b: CGRect) -> Bool {
        if a.maxY <= b.minY { return true }
        if a.minY >= b.maxY { return false }
        if a.minX != b.minX { return a.minX < b.minX }
        if a.minY != b.minY { return a.minY < b.minY }
        if a.height != b.height { return a.height > b.height }
        if a.width != b.width { return a.width > b.width }
        return true
    }

    func reordered(_ list: [Int]) -> [Int] {
        var list = list
        func uses(_ k: Int) -> Bool { useful(k).map { $0 != box(k) } ?? false }
        guard list.count > 1, list.contains(where: uses) else { return list }
        for i in stride(from: list.count - 2, through: 0, by: -1) where uses(list[i]) {
            var j = i
            while j + 1 < list.count, let ua = useful(list[j]), let ub = useful(list[j + 1]),
                !Self.compare(ua, ub), Self.compare(box(list[j]), box(list[j + 1]))
            {
                list.swapAt(j, j + 1)
                j += 1
            }
        }
        return list
    }

    /// TalkBack's linear order: windows by top, then left, system UI last,
    /// ties front first, bars left out; a pre-order of the tree TalkBack
    /// sees, children reordered.
    func androidOrder() -> [Int] {
        var windows: [Int] = []
        func collect(_ k: Int) {
            if isWindowTop(k) { windows.append(k) } else { children[k].forEach(collect) }
        }
        if !nodes.isEmpty { collect(0) }
        let screen = box(0)
        let kept = windows.reversed().filter { w in
            let b = box(w)
            guard nodes[w].packageName == "com.android.systemui", b.minX <= screen.minX, b.maxX >= screen.maxX
            else { return true }
            let top = b.minY <= screen.minY && b.maxY < screen.minY + screen.height / 5
            let bottom = b.maxY >= screen.maxY && b.minY > screen.minY + screen.height * 3 / 4
            return !(top || bottom)
        }
        let sorted = kept.enumerated().sorted { x, y in
            let sx = nodes[x.element].packageName == "com.android.systemui"
            let sy = nodes[y.element].packageName == "com.android.systemui"
            if sx != sy { return !sx }
            let bx = box(x.element), by = box(y.element)
            if bx.minY != by.minY { return bx.minY < by.minY }
            if bx.minX != by.minX { return bx.minX < by.minX }
            return x.offset < y.offset
        }.map(\.element)
        var out: [Int] = []
        func walk(_ k: Int) {
            if androidExposed(k) { out.append(k) }
            reordered(seenChildren(k)).forEach(walk)
        }
        for w in sorted {
            if important(w) { walk(w) } else { seenChildren(w).forEach(walk) }
        }
        return out
    }
}

/// Random trees in the shapes real dumps have (nested clickable rows with
/// clickable children, labelled texts, invisible pages, overlapping windows,
/// a front window with nothing exposed), plus transforms, scrolls, UIKit's
/// hiding keys and element nodes (labelled groups over element children).
enum RandomPlatformTrees {
    static func make(seed: UInt64, nodes count: Int, windows: Int) throws -> ElementTree {
        var rng = SeededRandom(seed: seed)
        var extras = SeededRandom(seed: seed &+ 0x9E37)
        var facts = SeededRandom(seed: seed &+ 0x51ED)
        let classes = [
            "FrameLayout", "LinearLayout", "TextView", "ImageView", "Button", "ImageButton", "RecyclerView",
            "ScrollView", "HorizontalScrollView", "ViewPager", "ProgressBar", "SeekBar", "Spinner", "CheckBox",
            "EditText", "ListView", "WebView",
        ]
        var tree = ElementTree()
        tree.platform = .android
        tree.source = .snapshot
        let root = try tree.append(.view("screen", frame: CGRect(x: 0, y: 0, width: 200, height: 200)), under: .none)
        var views: [NodeID] = []
        for w in 0 ..< windows {
            var window = Node.view(
                "window\(w)",
                frame: w == 0
                    ? CGRect(x: 0, y: 0, width: 200, height: 200)
                    : CGRect(
                        x: rng.number(0 ... 100), y: rng.number(0 ... 100), width: rng.number(40 ... 150),
                        height: rng.number(40 ... 150)))
            window.isWindow = true
            if rng.chance(0.3) { window.actions = .click }
            if w == 2 {
                // A status bar: left out of the order.
                window.frame = CGRect(x: 0, y: 0, width: 200, height: 20)
                window.packageName = "com.android.systemui"
            }
            views.append(try tree.append(window, under: root))
        }
        for k in 1 ..< count {
            let parent = views[Int.random(in: 0 ..< views.count, using: &rng)]
            let parentFrame = tree[parent]!.frame
            var v = Node.view(
                "v\(k)",
                frame: CGRect(
                    x: rng.number(-10 ... parentFrame.width * 0.8), y: rng.number(-10 ... parentFrame.height * 0.8),
                    width: rng.number(0 ... parentFrame.width), height: rng.number(0 ... parentFrame.height)))
            if rng.chance(0.08) { v.frame = CGRect(origin: .zero, size: parentFrame.size) }  // as big as its parent
            if rng.chance(0.05) {
                v.bounds = CGRect(
                    x: rng.number(-20 ... 20), y: rng.number(-20 ... 20), width: v.frame.width, height: v.frame.height)
            }
            if rng.chance(0.03) { v.transform = CGAffineTransform(rotationAngle: rng.number(-0.5 ... 0.5)) }
            if rng.chance(0.3) { v.actions.insert(.click) }
            if rng.chance(0.05) { v.actions.insert(.longClick) }
            if rng.chance(0.1) { v.actions.insert(.focus) }
            if rng.chance(0.05) { v.actions.insert(.check) }
            if rng.chance(0.4) { v.accessibilityLabel = "text \(k)" }
            if rng.chance(0.05) { v.accessibilityValue = "value" }
            if rng.chance(0.1) { v.visibleInSnapshot = rng.chance(0.3) }
            if rng.chance(0.03) { v.accessibilityTraits = .adjustable }
            if rng.chance(0.02) { v.isHidden = true }
            if rng.chance(0.02) { v.isUserInteractionEnabled = false }
            if rng.chance(0.01) { v.accessibilityViewIsModal = true }
            // TalkBack's facts (from their own generator, so the geometry
            // is as it was): classes, scrolling, hints, importance, state.
            if facts.chance(0.5) {
                v.className = "android.widget." + classes[Int.random(in: 0 ..< classes.count, using: &facts)]
            }
            if facts.chance(0.08) { v.actions.insert(.scroll) }
            if facts.chance(0.05) { v.accessibilityHint = "hint" }
            if facts.chance(0.05) { v.importantForAccessibility = facts.chance(0.5) }
            if facts.chance(0.05) { v.accessibilityTraits.insert(.notEnabled) }
            if facts.chance(0.04) { v.actions.insert(.screenReaderFocus) }
            views.append(try tree.append(v, under: parent))
            // (From their own generator, so the views are as they were.)
            if extras.chance(0.04) {
                // An element node as big as its view, with an element child.
                var group = Node.element("g\(k)")
                group.accessibilityFrameInContainerSpace = CGRect(origin: .zero, size: v.frame.size)
                if extras.chance(0.7) { group.accessibilityLabel = "group \(k)" }
                let g = try tree.append(group, under: views[views.count - 1])
                var item = Node.element("e\(k)")
                item.accessibilityFrameInContainerSpace = CGRect(
                    x: extras.number(0 ... v.frame.width * 0.5), y: extras.number(0 ... v.frame.height * 0.5),
                    width: v.frame.width * 0.4, height: v.frame.height * 0.4)
                item.accessibilityLabel = "item \(k)"
                try tree.append(item, under: g)
            }
        }
        // Some parents list their children in another order than they are drawn.
        for v in views where facts.chance(0.1) {
            let kids = tree.children(of: v)
            guard kids.count > 1 else { continue }
            for (k, c) in kids.shuffled(using: &facts).enumerated() {
                var node = tree[c]!
                node.accessibilityIndex = k
                try tree.update(c, to: node)
            }
        }
        if windows > 1 {
            // The frontmost window holds nothing exposed: where it holds the
            // point, `hit` answers none (the topmost window decides).
            var overlay = Node.view("overlay", frame: CGRect(x: 20, y: 120, width: 90, height: 60))
            overlay.isWindow = true
            let o = try tree.append(overlay, under: root)
            try tree.append(.view("overlayContent", frame: CGRect(x: 0, y: 0, width: 60, height: 40)), under: o)
        }
        return tree
    }
}

@Suite struct PlatformReferenceTests {
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func androidAgreesWithTheSpec(seed: UInt64) throws {
        let tree = try RandomPlatformTrees.make(seed: seed, nodes: seed > 4 ? 400 : 120, windows: Int(seed % 3) + 1)
        var engine = HitTester(tree)
        let reference = PlatformReference(tree)
        let order = tree.preOrder
        // Exposure.
        let expected = order.indices.filter { reference.androidExposed($0) }.map { reference.nodes[$0].id }
        #expect(Array(engine.exposedElements).map(tree.id(of:)) == expected)
        #expect(expected.count > 15)
        // Not vacuous: some focusable nodes are passed over for their
        // children, some texts are exposed though not actionable.
        #expect(order.indices.contains { reference.focusable($0) && !reference.androidExposed($0) })
        #expect(order.indices.contains { !reference.actionable($0) && reference.androidExposed($0) })
        // The screen-space pass (activate, audit, render, maps) agrees.
        let space = ScreenSpace(tree)
        #expect(order.filter { space.isExposed($0) }.map(tree.id(of:)) == expected)
        // TalkBack's order.
        let swipes = try engine.navigationOrder().map(tree.id(of:))
        #expect(swipes == reference.androidOrder().map { reference.nodes[$0].id })
        // A whole screen grid answers the hover (`hoverEntries`), as the
        // engine's own and the per-view hover do.
        var gridded = engine
        let built = gridded.buildScreenGrid()
        #expect(built)
        var perView = engine
        perView.dropScreenGrid()
        var rng = SeededRandom(seed: seed &* 31)
        var hits = 0, touches = 0, mismatches = 0, decided = 0
        let points = TestScale.rounds(3000)
        for _ in 0 ..< points {
            let p = CGPoint(x: rng.number(-10 ... 210), y: rng.number(-10 ... 210))
            let hit = reference.androidHit(p).map { reference.nodes[$0].id }
            let touch = reference.androidTouch(p).map { reference.nodes[$0].id }
            let gotHit = engine.hit(p).map(tree.id(of:)), gotTouch = engine.touch(p).map(tree.id(of:))
            let byGrid = gridded.hit(p).map(tree.id(of:)), byView = perView.hit(p).map(tree.id(of:))
            if gridded.screenGrid?.answer(p) != .undecided { decided += 1 }
            if hit != nil { hits += 1 }
            if touch != nil { touches += 1 }
            if gotHit != hit || gotTouch != touch || byGrid != hit || byView != hit {
                mismatches += 1
                if mismatches <= 5 {
                    Issue.record(
                        "seed \(seed) at \(p): hit \(gotHit ?? "nil") (spec \(hit ?? "nil"), grid \(byGrid ?? "nil"), per view \(byView ?? "nil")), touch \(gotTouch ?? "nil") (spec \(touch ?? "nil"))"
                    )
                }
            }
        }
        #expect(mismatches == 0)
        #expect(hits > points / 20 && touches > points / 10)  // not vacuous
        #expect(decided > points / 3, "the grid decides \(decided) of \(points) points")
    }

    /// The engine kept current through updates answers as one built afresh
    /// on the updated tree, and as the spec: children inserted under leaves
    /// and removed down to none (TalkBack's rules read whether a node has
    /// children and what they say), labels and actions changed, views
    /// scrolled.
    @Test(arguments: [2, 5, 6] as [UInt64])
    func androidUpdatesAgreeWithTheSpec(seed: UInt64) throws {
        var engine = HitTester(try RandomPlatformTrees.make(seed: seed, nodes: 200, windows: 2))
        var rng = SeededRandom(seed: seed &* 7)
        var serial = 0, mismatches = 0, answered = 0
        let rounds = TestScale.rounds(30, floor: 6)
        for round in 0 ..< rounds {
            for _ in 0 ..< 5 {
                let nodes = engine.tree.preOrder.filter { engine.tree.isView($0) }
                let n = nodes[Int.random(in: 1 ..< nodes.count, using: &rng)]
                switch Int.random(in: 0 ..< 5, using: &rng) {
                case 4:
                    // A scroll moves the subtree and may change what covers
                    // its window (the whole-window rule reads geometry).
                    try engine.scroll(n, to: CGPoint(x: rng.number(-30 ... 30), y: rng.number(-30 ... 30)))
                case 0:
                    // A child as big as its parent: the parent may now have
                    // children and cover its window.
                    let size = engine.tree[n]!.frame.size
                    serial += 1
                    try engine.insert(.view("new\(serial)", frame: CGRect(origin: .zero, size: size)), under: n)
                case 1:
                    let child = engine.tree.firstChild(of: n)
                    if !child.isNone { try engine.removeSubtree(child) }
                case 2:
                    var node = engine.tree[n]!
                    node.accessibilityLabel = node.accessibilityLabel == nil ? "label" : nil
                    try engine.update(n, to: node)
                default:
                    var node = engine.tree[n]!
                    node.actions = node.actions.isEmpty ? .click : []
                    try engine.update(n, to: node)
                }
            }
            let tree = engine.tree
            let reference = PlatformReference(tree)
            let expected = tree.preOrder.indices.filter { reference.androidExposed($0) }.map { reference.nodes[$0].id }
            #expect(Array(engine.exposedElements).map(tree.id(of:)) == expected, "seed \(seed), round \(round)")
            #expect(
                try engine.navigationOrder().map(tree.id(of:))
                    == reference.androidOrder().map { reference.nodes[$0].id }, "seed \(seed), round \(round)")
            for _ in 0 ..< 100 {
                let p = CGPoint(x: rng.number(-10 ... 210), y: rng.number(-10 ... 210))
                let want = reference.androidHit(p).map { reference.nodes[$0].id }
                if want != nil { answered += 1 }
                if engine.hit(p).map(tree.id(of:)) != want { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
        #expect(answered > rounds * 50 / 3)  // not vacuous
    }

    /// The hover's screen grid kept through updates: each round builds it,
    /// makes five updates (inserts, removals, labels, actions, scrolls),
    /// and answers points as the spec does, the grid deciding where no
    /// update has marked it stale (the nearest exposed node's subtree where
    /// exposure changed, the changed node's reach).
    @Test(arguments: [2, 5, 6, 7] as [UInt64])
    func androidUpdatesKeepTheHoverGrid(seed: UInt64) throws {
        var engine = HitTester(try RandomPlatformTrees.make(seed: seed, nodes: 200, windows: 2))
        var rng = SeededRandom(seed: seed &* 11)
        var serial = 0, mismatches = 0, decided = 0
        let rounds = TestScale.rounds(30, floor: 6)
        for round in 0 ..< rounds {
            let built = engine.buildScreenGrid()
            #expect(built, "seed \(seed), round \(round)")
            for _ in 0 ..< 5 {
                let nodes = engine.tree.preOrder.filter { engine.tree.isView($0) }
                let n = nodes[Int.random(in: 1 ..< nodes.count, using: &rng)]
                switch Int.random(in: 0 ..< 6, using: &rng) {
                case 5:
                    try engine.scroll(n, to: CGPoint(x: rng.number(-30 ... 30), y: rng.number(-30 ... 30)))
                case 4:
                    // A move: the frame's origin.
                    var node = engine.tree[n]!
                    node.frame.origin.x += rng.number(-20 ... 20)
                    try engine.update(n, to: node)
                case 0:
                    let size = engine.tree[n]!.frame.size
                    serial += 1
                    var node = Node.view("new\(serial)", frame: CGRect(origin: .zero, size: size))
                    if serial % 2 == 0 { node.actions = .click }
                    try engine.insert(node, under: n)
                case 1:
                    let child = engine.tree.firstChild(of: n)
                    if !child.isNone { try engine.removeSubtree(child) }
                case 2:
                    var node = engine.tree[n]!
                    node.accessibilityLabel = node.accessibilityLabel == nil ? "label" : nil
                    try engine.update(n, to: node)
                default:
                    var node = engine.tree[n]!
                    node.actions = node.actions.isEmpty ? .click : []
                    try engine.update(n, to: node)
                }
            }
            let tree = engine.tree
            let reference = PlatformReference(tree)
            for _ in 0 ..< 100 {
                let p = CGPoint(x: rng.number(-10 ... 210), y: rng.number(-10 ... 210))
                let want = reference.androidHit(p).map { reference.nodes[$0].id }
                if let grid = engine.screenGrid, !engine.staleAreas.holds(p), grid.answer(p) != .undecided {
                    decided += 1
                }
                let got = engine.hit(p).map(tree.id(of:))
                if got != want {
                    mismatches += 1
                    if mismatches <= 5 {
                        Issue.record("seed \(seed), round \(round) at \(p): \(got ?? "nil"), spec \(want ?? "nil")")
                    }
                }
            }
        }
        #expect(mismatches == 0)
        #expect(decided > rounds * 20, "the grid decided \(decided) of \(rounds * 100) points")  // not vacuous
    }

    /// An Android screen of `children` (axhit/1) under a 100 × 100 root.
    static func androidScreen(_ children: String) throws -> ElementTree {
        let text = """
            {"format": "axhit/1", "platform": "android", "source": "snapshot",
             "root": {"id": "screen", "frame": [0, 0, 100, 100], "children": [\(children)]}}
            """
        return try ElementTree(contentsOf: Data(text.utf8))
    }

    /// The topmost window that holds the point decides, even when nothing
    /// in it is exposed: hit, explore and the focus map all answer none
    /// there, and the button behind only where the overlay is not.
    @Test func aFrontWindowWithNothingExposedDecides() throws {
        let engine = HitTester(
            try Self.androidScreen(
                """
                {"id": "app", "isWindow": true, "frame": [0, 0, 100, 100], "children": [
                   {"id": "button", "frame": [10, 10, 50, 50], "actions": ["click"], "accessibilityLabel": "OK"}]},
                {"id": "overlay", "isWindow": true, "frame": [0, 0, 100, 40], "children": [
                   {"id": "empty", "frame": [0, 0, 80, 30]}]}
                """))
        let button = try #require(engine.tree.node(withID: "button"))
        #expect(engine.hit(CGPoint(x: 20, y: 20)) == nil)
        #expect(engine.hit(CGPoint(x: 20, y: 50)) == button)
        let stretches = try engine.explore([CGPoint(x: 20, y: 20), CGPoint(x: 20, y: 50)])
        #expect(stretches.map(\.element) == [nil, button])
        #expect(stretches.first?.to.y == 40)
        let map = try engine.focusMap()
        #expect(map.map(\.node) == [button])
        // [10, 40, 50, 20]: the button below the overlay.
        #expect(abs((map.first?.area ?? 0) - 50 * 20) < 1e-9, "\(map.first?.area ?? 0)")
    }

    /// TalkBack's whole-window rule reads whether a node has children in
    /// the tree TalkBack sees: an update that gives a labelled page its
    /// first important child, or takes its last, changes its exposure as a
    /// fresh build would; a child that is not important changes nothing.
    @Test func aPageThatGainsOrLosesItsChildren() throws {
        var engine = HitTester(
            try Self.androidScreen(#"{"id": "page", "frame": [0, 0, 100, 100], "accessibilityLabel": "Page"}"#))
        let page = try #require(engine.tree.node(withID: "page"))
        let p = CGPoint(x: 50, y: 50)
        #expect(engine.isExposed(page) && engine.hit(p) == page)  // a leaf may cover its window
        let plain = try engine.insert(.view("plain", frame: CGRect(x: 0, y: 0, width: 10, height: 10)), under: page)
        #expect(engine.isExposed(page) && engine.hit(p) == page)  // a plain layout is not seen
        try engine.removeSubtree(plain)
        var labelled = Node.view("child", frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        labelled.accessibilityLabel = "Child"
        let child = try engine.insert(labelled, under: page)
        #expect(!engine.isExposed(page) && engine.hit(p) == nil)
        #expect(engine.isExposed(child) && engine.hit(CGPoint(x: 5, y: 5)) == child)
        #expect(!HitTester(engine.tree).isExposed(page))
        try engine.removeSubtree(child)
        #expect(engine.isExposed(page) && engine.hit(p) == page)
    }

    /// An element node's box is its accessibility frame: a labelled group of
    /// the window's size whose only child TalkBack does not see (nothing to
    /// say, no action) is no window-sized frame, and is exposed to the
    /// engine and to the screen-space pass (activate, audit, maps) alike.
    @Test func anElementNodeNeverCoversItsWindow() throws {
        let tree = try Self.androidScreen(
            """
            {"id": "group", "kind": "element", "accessibilityLabel": "G", "accessibilityFrame": [0, 0, 100, 100],
             "children": [{"id": "leaf", "kind": "element", "accessibilityFrame": [10, 10, 20, 20]}]}
            """)
        let group = try #require(tree.node(withID: "group"))
        let engine = HitTester(tree)
        #expect(engine.isExposed(group) && ScreenSpace(tree).isExposed(group))
        #expect(engine.hit(CGPoint(x: 50, y: 50)) == group)
        #expect(try ScreenAnalysis(engine, visibility: false).elements.map(\.element) == [group])
        #expect(try engine.focusMap().map(\.node) == [group])
    }

    /// The same trees read as iOS snapshots: VoiceOver's exposure and hit
    /// (the base reference), and a tap goes to the element `hit` answers.
    @Test(arguments: [21, 23, 25] as [UInt64])
    func iosSnapshotTouchIsTheHittableElement(seed: UInt64) throws {
        var tree = try RandomTrees.make(seed: seed, nodes: 300, wide: seed % 2 == 0)
        tree.source = .snapshot
        let engine = HitTester(tree)
        let reference = ReferenceHitTest(tree)
        var rng = SeededRandom(seed: seed)
        var hits = 0
        let points = TestScale.rounds(2000)
        for _ in 0 ..< points {
            let p = CGPoint(x: rng.number(-30 ... 230), y: rng.number(-30 ... 230))
            let expected = reference.hit(p, policy: .frame) { _, _ in nil }
            if expected != nil { hits += 1 }
            #expect(engine.touch(p).map(tree.id(of:)) == expected, "at \(p)")
        }
        #expect(hits > points * 3 / 40)
    }
}
