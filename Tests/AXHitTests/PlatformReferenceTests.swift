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
/// clickable children, labelled texts, invisible pages, overlapping windows),
/// plus transforms, scrolls and UIKit's hiding keys.
enum RandomPlatformTrees {
    static func make(seed: UInt64, nodes count: Int, windows: Int) throws -> ElementTree {
        var rng = SeededRandom(seed: seed)
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
            let parentFrame = tree[parent].frame
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
        // Hit and touch, point by point.
        var rng = SeededRandom(seed: seed &* 31)
        var hits = 0, touches = 0, mismatches = 0
        for _ in 0 ..< 3000 {
            let p = CGPoint(x: rng.number(-10 ... 210), y: rng.number(-10 ... 210))
            let hit = reference.androidHit(p).map { reference.nodes[$0].id }
            let touch = reference.androidTouch(p).map { reference.nodes[$0].id }
            let gotHit = engine.hit(p).map(tree.id(of:)), gotTouch = engine.touch(p).map(tree.id(of:))
            if hit != nil { hits += 1 }
            if touch != nil { touches += 1 }
            if gotHit != hit || gotTouch != touch {
                mismatches += 1
                if mismatches <= 5 {
                    Issue.record(
                        "seed \(seed) at \(p): hit \(gotHit ?? "nil") (spec \(hit ?? "nil")), touch \(gotTouch ?? "nil") (spec \(touch ?? "nil"))"
                    )
                }
            }
        }
        #expect(mismatches == 0)
        #expect(hits > 300 && touches > 300)  // not vacuous
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
