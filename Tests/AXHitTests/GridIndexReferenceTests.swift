import Foundation
import Testing

@testable import AXHit

/// Wide views whose children suit a uniform grid (many small boxes spread
/// out) are indexed by `CellGrid`; the random trees of `RandomTrees` are too
/// dense for one. These trees are built for it, then checked point by point
/// against the brute-force reference, built and after random updates.
@Suite struct GridIndexReferenceTests {
    /// A root holding one scrolled view with `children` small children:
    /// views (some exposed, hidden, rotated, or holding an element node) and
    /// element nodes framed in the view's space.
    static func wideTree(seed: UInt64, children: Int) throws -> ElementTree {
        var rng = SeededRandom(seed: seed)
        var tree = ElementTree()
        let root = try tree.append(.view("root", frame: CGRect(x: 0, y: 0, width: 200, height: 200)), under: .none)
        var wideNode = Node.view("wide", frame: CGRect(x: 10, y: 10, width: 180, height: 180))
        wideNode.bounds = CGRect(x: 5, y: 12, width: 180, height: 180)
        let wide = try tree.append(wideNode, under: root)
        func small() -> CGRect {
            CGRect(
                x: rng.number(-5 ... 190), y: rng.number(-5 ... 190), width: rng.number(2 ... 14),
                height: rng.number(2 ... 14))
        }
        for k in 0 ..< children {
            if rng.chance(0.25) {
                var e = Node.element("e\(k)")
                e.isAccessibilityElement = rng.chance(0.8)
                e.accessibilityFrameInContainerSpace = small()
                try tree.append(e, under: wide)
            } else {
                var v = Node.view("v\(k)", frame: small())
                v.isAccessibilityElement = rng.chance(0.6)
                if rng.chance(0.05) { v.isHidden = true }
                if rng.chance(0.1) { v.transform = CGAffineTransform(rotationAngle: rng.number(-0.5 ... 0.5)) }
                let id = try tree.append(v, under: wide)
                if !v.isAccessibilityElement && rng.chance(0.3) {
                    var e = Node.element("c\(k)")
                    e.isAccessibilityElement = true
                    e.accessibilityFrameInContainerSpace = CGRect(
                        x: rng.number(-2 ... 6), y: rng.number(-2 ... 6), width: 6, height: 6)
                    try tree.append(e, under: id)
                }
            }
        }
        return tree
    }

    /// One update of a child of the wide view that keeps it on a grid (no
    /// screen-space frames, which send a view to R-trees): a move, a new
    /// frame in container space, an exposure toggle, a removal or an insert.
    static func randomGridUpdate(_ engine: inout HitTester, _ rng: inout SeededRandom, serial: inout Int) throws {
        let wide = try #require(engine.tree.node(withID: "wide"))
        let children = engine.tree.children(of: wide)
        let id = children[Int.random(in: 0 ..< children.count, using: &rng)]
        var node = engine.tree[id]!
        func small() -> CGRect {
            CGRect(
                x: rng.number(-5 ... 190), y: rng.number(-5 ... 190), width: rng.number(2 ... 14),
                height: rng.number(2 ... 14))
        }
        switch Int.random(in: 0 ..< 5, using: &rng) {
        case 0 where node.kind == .view:
            node.frame = small()
            try engine.update(id, to: node)
        case 0:
            node.accessibilityFrameInContainerSpace = small()
            try engine.update(id, to: node)
        case 1:
            node.isAccessibilityElement.toggle()
            try engine.update(id, to: node)
        case 2:
            try engine.removeSubtree(id)
        default:
            serial += 1
            var v = Node.view("n\(serial)", frame: small())
            v.isAccessibilityElement = rng.chance(0.7)
            let before = rng.chance(0.5) ? NodeID.none : children[Int.random(in: 0 ..< children.count, using: &rng)]
            try engine.insert(v, under: wide, before: before)
        }
    }

    /// Moves alone keep a wide view's grid on its fast path, with the moved
    /// children loose (`CellGrid.setBox`): the search takes the frontmost
    /// candidate over the cells and the loose children, and answers from a
    /// box alone only where no moved child is in front. Checked against the
    /// spec at points in and around the moved children's new and old boxes,
    /// where a search that overlooked them would go wrong.
    @Test(arguments: [4, 5] as [UInt64])
    func movedChildrenAgreeWithTheSpec(seed: UInt64) throws {
        var engine = HitTester(try Self.wideTree(seed: seed, children: 1500))
        var rng = SeededRandom(seed: seed &* 7727)
        let wide = try #require(engine.tree.node(withID: "wide"))
        var places: [CGRect] = []
        for _ in 0 ..< 40 {
            let children = engine.tree.children(of: wide)
            let id = children[Int.random(in: 0 ..< children.count, using: &rng)]
            var node = try #require(engine.tree[id])
            let box = CGRect(
                x: rng.number(-5 ... 180), y: rng.number(-5 ... 180), width: rng.number(8 ... 20),
                height: rng.number(8 ... 20))
            if node.kind == .view {
                places.append(node.frame)
                node.frame = box
            } else {
                places += [node.accessibilityFrameInContainerSpace].compactMap { $0 }
                node.accessibilityFrameInContainerSpace = box
            }
            places.append(box)
            try engine.update(id, to: node)
        }
        let slot = try #require(engine.hot[wide.index].indexSlot >= 0 ? Int(engine.hot[wide.index].indexSlot) : nil)
        let index = engine.indexes[slot]
        #expect(index.grid.movedCount > 0 && index.removed == 0 && index.overflow.isEmpty, "on the fast path")
        #expect(engine.screenGrid == nil || !engine.hasScreenGrid, "the search answers, not a whole grid")
        let reference = ReferenceHitTest(engine.tree)
        // Screen = the wide view's bounds space + (10, 10) − (5, 12).
        let shift = CGPoint(x: 5, y: -2)
        var mismatches = 0, hits = 0
        let points = TestScale.rounds(6000)
        for k in 0 ..< points {
            let place = places[k % places.count]
            let p = CGPoint(
                x: rng.number(place.minX - 2 ... place.maxX + 2) + shift.x,
                y: rng.number(place.minY - 2 ... place.maxY + 2) + shift.y)
            let expected = reference.hit(p, policy: .frame) { _, _ in nil }
            let got = engine.hit(p).map { engine.tree.id(of: $0) }
            if expected != nil { hits += 1 }
            if got != expected {
                mismatches += 1
                if mismatches <= 3 {
                    Issue.record("seed \(seed), point \(p): got \(got ?? "nil"), expected \(expected ?? "nil")")
                }
            }
        }
        #expect(mismatches == 0)
        #expect(hits > points * 2 / 3)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func gridIndexedViewsAgreeWithTheSpec(seed: UInt64) throws {
        var engine = HitTester(try Self.wideTree(seed: seed, children: 1500))
        #expect(
            engine.indexes.contains { $0.grid.count > 0 && $0.gridKeysAreNodes },
            "the wide view must get a grid keyed by node")
        var rng = SeededRandom(seed: seed &* 977)
        let points = TestScale.rounds(1500), rounds = TestScale.rounds(20, floor: 6)
        let built = UpdateTests.agree(engine, &rng, points: points, context: "seed \(seed), built")
        let updated = try UpdateTests.agreeThroughUpdates(
            &engine, &rng, rounds: rounds, updatesPerRound: 15, points: points / 10, context: "seed \(seed)"
        ) { engine, rng, serial in try Self.randomGridUpdate(&engine, &rng, serial: &serial) }
        #expect(built.0 + updated.mismatches == 0)
        #expect(built.1 + updated.hits > (points + rounds * (points / 10)) * 2 / 9)
        // The updates must have taken the grid off its fast path: moved,
        // removed or added children.
        #expect(engine.indexes.contains { $0.grid.movedCount > 0 })
        #expect(engine.indexes.contains { !$0.removedNodes.isEmpty })
        #expect(engine.indexes.contains { !$0.overflow.isEmpty })
    }
}
