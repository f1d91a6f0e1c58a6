import Foundation
import Testing

@testable import AXHit

/// Touch delivery computed by hand from the spec's rules, and against a
/// brute-force reference written from tree-format.md.
@Suite struct TouchTests {
    /// window [0,0,200,200] {
    ///   back [0,0,100,100] { deep [10,10,20,20] { deeper [0,0,10,10] } }
    ///   hidden [0,0,100,100] isHidden
    ///   faint [0,0,100,100] alpha 0.005
    ///   inert [0,0,100,100] isUserInteractionEnabled false { inertChild [0,0,100,100] }
    ///   front [50,50,100,100] { outside [60,60,10,10] }   (outside front's bounds)
    ///   element node "label" [0,0,200,200] (never receives)
    /// }
    static func tree() throws -> (HitTester, [String: NodeID]) {
        var tree = ElementTree()
        var ids: [String: NodeID] = [:]
        func add(_ n: Node, _ parent: String?) throws {
            ids[n.id] = try tree.append(n, under: parent.flatMap { ids[$0] } ?? .none)
        }
        try add(.view("window", frame: CGRect(x: 0, y: 0, width: 200, height: 200)), nil)
        try add(.view("back", frame: CGRect(x: 0, y: 0, width: 100, height: 100)), "window")
        try add(.view("deep", frame: CGRect(x: 10, y: 10, width: 20, height: 20)), "back")
        try add(.view("deeper", frame: CGRect(x: 0, y: 0, width: 10, height: 10)), "deep")
        var hidden = Node.view("hidden", frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        hidden.isHidden = true
        try add(hidden, "window")
        var faint = Node.view("faint", frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        faint.alpha = 0.005
        try add(faint, "window")
        var inert = Node.view("inert", frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        inert.isUserInteractionEnabled = false
        try add(inert, "window")
        try add(.view("inertChild", frame: CGRect(x: 0, y: 0, width: 100, height: 100)), "inert")
        try add(.view("front", frame: CGRect(x: 50, y: 50, width: 100, height: 100)), "window")
        try add(.view("outside", frame: CGRect(x: 110, y: 60, width: 10, height: 10)), "front")
        var label = Node.element("label")
        label.accessibilityFrame = CGRect(x: 0, y: 0, width: 200, height: 200)
        try add(label, "window")
        return (HitTester(tree), ids)
    }

    @Test func handComputedReceivers() throws {
        let (t, ids) = try Self.tree()
        func name(_ p: CGPoint) -> String? { t.touch(p).map { t.tree.id(of: $0) } }
        // Hidden, faint and inert views (and the inert view's child) take nothing.
        #expect(name(CGPoint(x: 5, y: 5)) == "back")
        // The deepest view that takes the point receives it.
        #expect(name(CGPoint(x: 12, y: 12)) == "deeper")
        #expect(name(CGPoint(x: 25, y: 25)) == "deep")
        // Overlapping siblings: the frontmost wins.
        #expect(name(CGPoint(x: 60, y: 60)) == "front")
        // Closed-open bounds: front's minX is in, back's maxX is out.
        #expect(name(CGPoint(x: 50, y: 40)) == "back")
        #expect(name(CGPoint(x: 100, y: 40)) == "window")
        // A subview outside its parent's bounds is pruned with the parent:
        // "outside" spans 160..170 on screen, beyond front's 150.
        #expect(name(CGPoint(x: 165, y: 115)) == "window")
        #expect(name(CGPoint(x: 165, y: 105)) == "window")
        // Outside the window: nothing.
        #expect(t.touch(CGPoint(x: 200, y: 10)) == nil)
        #expect(t.touch(CGPoint(x: -1, y: 10)) == nil)
        #expect(ids["label"] != nil)
    }

    @Test func inertRootDeliversNothing() throws {
        var tree = ElementTree()
        var w = Node.view("window", frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        w.isUserInteractionEnabled = false
        let root = try tree.append(w, under: .none)
        try tree.append(.view("child", frame: CGRect(x: 0, y: 0, width: 100, height: 100)), under: root)
        #expect(HitTester(tree).touch(CGPoint(x: 5, y: 5)) == nil)
    }

    @Test func engineAgreesWithTheSpecPointByPoint() throws {
        var mismatches = 0, received = 0, deep = 0
        for seed in 1 ... 16 as ClosedRange<UInt64> {
            let tree = try TouchTrees.make(seed: seed, nodes: 300, wide: seed > 8)
            let tester = HitTester(tree)
            let reference = ReferenceTouch(tree)
            var rng = SeededRandom(seed: seed &* 104_729)
            let points = (0 ..< 2000).map { _ in CGPoint(x: rng.number(-30 ... 230), y: rng.number(-30 ... 230)) }
            let batch = tester.touch(points)
            for (i, p) in points.enumerated() {
                let expected = reference.touch(p).map { reference.base.nodes[$0].id }
                let got = tester.touch(p).map { tree.id(of: $0) }
                let gotBatch = batch[i].map { tree.id(of: $0) }
                if got != expected || gotBatch != expected {
                    mismatches += 1
                    if mismatches <= 5 {
                        Issue.record("seed \(seed), point \(p): got \(got ?? "nil"), expected \(expected ?? "nil")")
                    }
                }
                if let e = expected {
                    received += 1
                    if e != "root" { deep += 1 }
                }
            }
        }
        #expect(mismatches == 0)
        #expect(received > 5000)
        #expect(deep > 3000)
    }
}

/// UIKit's `hitTest(_:with:)` written plainly from the spec, recursively,
/// over the reference's `Node` values.
struct ReferenceTouch {
    let base: ReferenceHitTest

    init(_ tree: ElementTree) { base = ReferenceHitTest(tree) }

    func touch(_ p: CGPoint) -> Int? { hitTest(0, p) }

    func hitTest(_ k: Int, _ p: CGPoint) -> Int? {
        let n = base.nodes[k]
        guard n.kind == .view, !n.isHidden, n.alpha >= 0.01, n.isUserInteractionEnabled,
            base.inQuad(n.effectiveBounds, of: k, p)
        else { return nil }
        for c in base.children[k].reversed() {
            if let r = hitTest(c, p) { return r }
        }
        return k
    }

    /// The nearest view: `k` itself, or its container.
    func view(of k: Int) -> Int {
        var v = k
        while v >= 0 && base.nodes[v].kind != .view { v = base.parents[v] }
        return v
    }

    func isDescendant(_ k: Int, of a: Int) -> Bool {
        var n = k
        while n >= 0 {
            if n == a { return true }
            n = base.parents[n]
        }
        return false
    }

    /// Whether `p` lies in element `k`'s region under the shape policy, cut
    /// by every proper ancestor view's bounds (no paths in these trees).
    func inShapeRegion(_ k: Int, _ p: CGPoint) -> Bool {
        var a = base.parents[k]
        while a >= 0 {
            if base.nodes[a].kind == .view && !base.inQuad(base.nodes[a].effectiveBounds, of: a, p) { return false }
            a = base.parents[a]
        }
        let n = base.nodes[k]
        if n.kind == .view { return base.inQuad(n.effectiveBounds, of: k, p) }
        if let r = n.accessibilityFrameInContainerSpace { return base.inQuad(r, of: k, p) }
        return base.accessibilityFrame(k).containsClosedOpen(p)
    }
}

/// `RandomTrees` with touch variety: some views refuse interaction.
enum TouchTrees {
    static func make(seed: UInt64, nodes: Int, wide: Bool = false) throws -> ElementTree {
        var tree = try RandomTrees.make(seed: seed, nodes: nodes, wide: wide)
        var rng = SeededRandom(seed: seed ^ 0xA5A5)
        for id in tree.preOrder where tree.kind(of: id) == .view && id != tree.root {
            var n = tree[id]!
            if rng.chance(0.1) { n.isUserInteractionEnabled = false }
            if rng.chance(0.15) {
                n.accessibilityActivationPoint = CGPoint(x: rng.number(-20 ... 220), y: rng.number(-20 ... 220))
            }
            try tree.update(id, to: n)
        }
        return tree
    }
}
