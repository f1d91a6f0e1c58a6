import Foundation
import Testing

@testable import AXHit

/// The platform rules of tree-format.md ("Platforms and snapshots"), written
/// plainly and recursively from the spec's own wording over `Node` values,
/// sharing nothing with the engine but the model's storage: TalkBack's
/// exposure, its front-to-back `hit` with final windows, Android's touch
/// dispatch, and XCUITest's hittable touch.
struct PlatformReference {
    let nodes: [Node]  // pre-order
    let parents: [Int]
    let children: [[Int]]
    let toScreen: [CGAffineTransform]
    let base: ReferenceHitTest

    init(_ tree: ElementTree) {
        base = ReferenceHitTest(tree)
        nodes = base.nodes
        parents = base.parents
        children = base.children
        toScreen = base.toScreen
    }

    // MARK: Android

    /// Hidden from sight: the dump's flag, or UIKit's own keys when set.
    func hidden(_ k: Int) -> Bool {
        nodes[k].visibleInSnapshot == false || nodes[k].isHidden || nodes[k].alpha < 0.01
    }

    func actionable(_ k: Int) -> Bool { !nodes[k].actions.isEmpty }

    func labelled(_ k: Int) -> Bool {
        !(nodes[k].accessibilityLabel ?? "").isEmpty || !(nodes[k].accessibilityValue ?? "").isEmpty
    }

    func isWindow(_ k: Int) -> Bool { parents[k] < 0 || nodes[k].isWindow }

    func screenBox(_ k: Int) -> CGRect {
        nodes[k].kind == .view ? nodes[k].effectiveBounds.applying(toScreen[k]) : .null
    }

    /// Suppressed by a modal sibling (the frontmost one not itself hidden).
    func suppressed(_ k: Int) -> Bool {
        let p = parents[k]
        guard p >= 0 else { return false }
        let visibleModal = children[p].last {
            nodes[$0].accessibilityViewIsModal && !hidden($0) && !nodes[$0].accessibilityElementsHidden
        }
        return visibleModal.map { $0 != k } ?? false
    }

    func androidExposed(_ k: Int) -> Bool {
        var a = k
        var window = -1
        while a >= 0 {
            if hidden(a) || nodes[a].accessibilityElementsHidden || suppressed(a) { return false }
            if window < 0 && isWindow(a) { window = a }
            a = parents[a]
        }
        if actionable(k) { return true }
        var ancestor = parents[k]
        while ancestor >= 0 {
            if actionable(ancestor) { return false }
            ancestor = parents[ancestor]
        }
        guard labelled(k) else { return false }
        let wholeWindow = screenBox(k) == screenBox(window)
        return !(wholeWindow && !children[k].isEmpty)
    }

    /// "At a visible node whose bounds contain p, try its children from the
    /// frontmost and answer the first non-none answer among them; when no
    /// child answers, answer the node itself if it is exposed, else none ...
    /// the topmost window whose bounds contain p decides."
    func androidHit(_ p: CGPoint, _ k: Int = 0) -> Int? {
        if hidden(k) { return nil }
        if nodes[k].kind == .view && !base.inQuad(nodes[k].effectiveBounds, of: k, p) { return nil }
        for c in children[k].reversed() {
            let answer = androidHit(p, c)
            if answer != nil { return answer }
            if nodes[c].isWindow && !hidden(c) && nodes[c].kind == .view
                && base.inQuad(nodes[c].effectiveBounds, of: c, p)
            {
                return nil  // a window that holds p decides
            }
        }
        guard androidExposed(k) else { return nil }
        // An element node has no bounds: its frame is its region.
        if nodes[k].kind == .element { return base.accessibilityFrame(k).containsClosedOpen(p) ? k : nil }
        return k
    }

    /// "At a node, try its visible children whose bounds contain p from the
    /// frontmost; the first whose subtree consumes the tap receives it; else
    /// the node consumes it when it declares click or longClick or is an
    /// adjustable control; else it passes to the next child behind, then up."
    func androidTouch(_ p: CGPoint, _ k: Int = 0) -> Int? {
        let n = nodes[k]
        if n.kind == .element || hidden(k) || !n.isUserInteractionEnabled { return nil }
        if !base.inQuad(n.effectiveBounds, of: k, p) { return nil }
        for c in children[k].reversed() {
            if let answer = androidTouch(p, c) { return answer }
        }
        let consumes = !n.actions.isDisjoint(with: [.click, .longClick]) || n.accessibilityTraits.contains(.adjustable)
        return consumes ? k : nil
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
        let engine = HitTester(tree)
        let reference = PlatformReference(tree)
        let order = tree.preOrder
        // Exposure.
        let expected = order.indices.filter { reference.androidExposed($0) }.map { reference.nodes[$0].id }
        #expect(Array(engine.exposedElements).map(tree.id(of:)) == expected)
        #expect(expected.count > 20)
        // The screen-space pass (activate, audit, render, maps) agrees.
        let space = ScreenSpace(tree)
        #expect(order.filter { space.isExposed($0) }.map(tree.id(of:)) == expected)
        // Hit and touch, point by point: by the per-view search alone, and
        // by a whole screen grid (window stops, exposed views in front of
        // which their subtrees stand).
        var plain = engine
        plain.screenGrid = nil
        var gridded = engine
        let built = gridded.buildScreenGrid()
        #expect(built)
        var rng = SeededRandom(seed: seed &* 31)
        var hits = 0, touches = 0, mismatches = 0, decidedByGrid = 0
        for _ in 0 ..< 3000 {
            let p = CGPoint(x: rng.number(-10 ... 210), y: rng.number(-10 ... 210))
            let hit = reference.androidHit(p).map { reference.nodes[$0].id }
            let touch = reference.androidTouch(p).map { reference.nodes[$0].id }
            let gotHit = plain.hit(p).map(tree.id(of:)), gotTouch = engine.touch(p).map(tree.id(of:))
            let byGrid = gridded.hit(p).map(tree.id(of:))
            if hit != nil { hits += 1 }
            if touch != nil { touches += 1 }
            if gridded.screenGrid?.answer(p) != .undecided { decidedByGrid += 1 }
            if gotHit != hit || gotTouch != touch || byGrid != hit {
                mismatches += 1
                if mismatches <= 5 {
                    Issue.record(
                        "seed \(seed) at \(p): hit \(gotHit ?? "nil"), with a grid \(byGrid ?? "nil") (spec \(hit ?? "nil")), touch \(gotTouch ?? "nil") (spec \(touch ?? "nil"))"
                    )
                }
            }
        }
        #expect(mismatches == 0)
        #expect(hits > 300 && touches > 300)  // not vacuous
        #expect(decidedByGrid > 1500, "\(decidedByGrid) of 3,000 decided by the grid")
    }

    /// The engine kept current through updates answers as one built afresh
    /// on the updated tree, and as the spec: children inserted under leaves
    /// and removed down to none (TalkBack's whole-window rule reads whether
    /// a node has children), labels and actions changed, views scrolled;
    /// with a screen grid built at each round's start.
    @Test(arguments: [2, 5, 6] as [UInt64])
    func androidUpdatesAgreeWithTheSpec(seed: UInt64) throws {
        var engine = HitTester(try RandomPlatformTrees.make(seed: seed, nodes: 200, windows: 2))
        var rng = SeededRandom(seed: seed &* 7)
        var serial = 0, mismatches = 0, answered = 0, decidedByGrid = 0
        for round in 0 ..< 30 {
            // A whole grid each round, kept through its updates away from
            // what they reach (or dropped when they reach half of it).
            let built = engine.buildScreenGrid()
            #expect(built)
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
            for _ in 0 ..< 100 {
                let p = CGPoint(x: rng.number(-10 ... 210), y: rng.number(-10 ... 210))
                let want = reference.androidHit(p).map { reference.nodes[$0].id }
                if want != nil { answered += 1 }
                if !engine.staleAreas.holds(p), engine.screenGrid.map({ $0.answer(p) != .undecided }) == true {
                    decidedByGrid += 1
                }
                if engine.hit(p).map(tree.id(of:)) != want { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
        #expect(answered > 500)  // not vacuous
        #expect(decidedByGrid > 200, "\(decidedByGrid) of 3,000 decided by the grid")
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

    /// TalkBack's whole-window rule reads whether a node has children: an
    /// update that gives a labelled page its first child, or takes its last,
    /// changes its exposure as a fresh build would.
    @Test func aPageThatGainsOrLosesItsChildren() throws {
        var engine = HitTester(
            try Self.androidScreen(#"{"id": "page", "frame": [0, 0, 100, 100], "accessibilityLabel": "Page"}"#))
        let page = try #require(engine.tree.node(withID: "page"))
        let p = CGPoint(x: 50, y: 50)
        #expect(engine.isExposed(page) && engine.hit(p) == page)  // a leaf may cover its window
        let child = try engine.insert(.view("child", frame: CGRect(x: 0, y: 0, width: 10, height: 10)), under: page)
        #expect(!engine.isExposed(page) && engine.hit(p) == nil)
        #expect(!HitTester(engine.tree).isExposed(page))
        try engine.removeSubtree(child)
        #expect(engine.isExposed(page) && engine.hit(p) == page)
    }

    /// An element node has no bounds: it never "covers its window", so a
    /// labelled group of the window's size is exposed to the engine and to
    /// the screen-space pass (activate, audit, maps) alike.
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
        for _ in 0 ..< 2000 {
            let p = CGPoint(x: rng.number(-30 ... 230), y: rng.number(-30 ... 230))
            let expected = reference.hit(p, policy: .frame) { _, _ in nil }
            if expected != nil { hits += 1 }
            #expect(engine.touch(p).map(tree.id(of:)) == expected, "at \(p)")
        }
        #expect(hits > 150)
    }
}
