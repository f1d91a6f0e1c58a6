import Foundation
import Testing

@testable import AXHit

/// Narrow views keep their children's boxes in blocks (`ChildBlocks`); these
/// tests change a block's views in the ways that must rebuild, refit, drop or
/// compact it, and check hits against hand-computed screen positions.
@Suite struct ChildBlockTests {
    /// A window holding `count` cards side by side, 100 × 100, each holding
    /// one exposed 50×50 "button" at (10, 10) in the card.
    static func cards(_ count: Int) throws -> (ElementTree, window: NodeID, cards: [NodeID]) {
        var tree = ElementTree()
        let w = try tree.append(
            .view("w", frame: CGRect(x: 0, y: 0, width: Double(count) * 100, height: 1000)), under: .none)
        var cards: [NodeID] = []
        for k in 0 ..< count {
            let card = try tree.append(
                .view("card\(k)", frame: CGRect(x: Double(k) * 100, y: 0, width: 100, height: 100)), under: w)
            var button = Node.view("b\(k)", frame: CGRect(x: 10, y: 10, width: 50, height: 50))
            button.isAccessibilityElement = true
            try tree.append(button, under: card)
            cards.append(card)
        }
        return (tree, w, cards)
    }

    static func name(_ engine: HitTester, _ x: Double, _ y: Double) -> String? {
        engine.hit(CGPoint(x: x, y: y)).map { engine.tree.id(of: $0) }
    }

    /// Blocks of 15 entries (views of 15 buttons), 300 of them: 4,500
    /// entries over nine chunks of 512 boxes. No block may straddle two
    /// chunks (a query reads a block through plain pointers), and every
    /// button is found where it was put.
    @Test func noBlockStraddlesTwoChunks() throws {
        var tree = ElementTree()
        let w = try tree.append(.view("w", frame: CGRect(x: 0, y: 0, width: 1500, height: 3000)), under: .none)
        for r in 0 ..< 300 {
            // 300 rows under the window make it wide: each row is narrow.
            let row = try tree.append(
                .view("row\(r)", frame: CGRect(x: 0, y: Double(r) * 10, width: 1500, height: 10)), under: w)
            for k in 0 ..< 15 {
                var b = Node.view("b\(r)-\(k)", frame: CGRect(x: Double(k) * 100, y: 0, width: 100, height: 10))
                b.isAccessibilityElement = true
                try tree.append(b, under: row)
            }
        }
        let engine = HitTester(tree)
        let chunk = ChunkedColumn<SIMD4<Float>>.chunkSize
        #expect(chunk == 512)
        var blocks = 0
        for row in tree.children(of: w) {
            let h = engine.hot[row.index]
            #expect(h.blockStart >= 0 && h.blockCount == 15)
            #expect(Int(h.blockStart) % chunk + 15 <= chunk, "the block at \(h.blockStart) straddles")
            blocks += 1
        }
        #expect(blocks == 300 && engine.blocks.boxes.count > 8 * chunk)
        for (r, k) in [(0, 0), (68, 4), (136, 14), (205, 7), (299, 14)] {
            #expect(Self.name(engine, Double(k) * 100 + 50, Double(r) * 10 + 5) == "b\(r)-\(k)")
        }
    }

    @Test func theRecordIs48Bytes() {
        #expect(MemoryLayout<HotNode>.stride == 48)
    }

    @Test func narrowViewsGetBlocksAndWideOnesIndexes() throws {
        let (tree, w, cards) = try Self.cards(3)
        let engine = HitTester(tree)
        #expect(engine.hot[w.index].blockStart >= 0 && engine.hot[w.index].blockCount == 3)
        #expect(engine.hot[w.index].indexSlot == -1)
        #expect(engine.hot[cards[0].index].blockCount == 1)
        #expect(Self.name(engine, 15, 15) == "b0")
        #expect(Self.name(engine, 215, 59) == "b2")
        #expect(Self.name(engine, 215, 60) == nil)  // closed-open
        #expect(Self.name(engine, 165, 15) == nil)  // in card1, beside its button
    }

    @Test func growingPast15ChildrenSwitchesToAnIndex() throws {
        let (tree, w, _) = try Self.cards(15)
        var engine = HitTester(tree)
        #expect(engine.hot[w.index].blockCount == 15)
        var extra = Node.view("extra", frame: CGRect(x: 0, y: 500, width: 100, height: 100))
        extra.isAccessibilityElement = true
        let id = try engine.insert(extra, under: w)
        #expect(engine.hot[w.index].indexSlot >= 0 && engine.hot[w.index].blockStart == -1)
        #expect(Self.name(engine, 50, 550) == "extra")
        #expect(Self.name(engine, 1415, 15) == "b14")
        // Removal empties the child's box in place: the index stays until
        // half its items are gone, so that views near 16 don't flip back and forth.
        try engine.removeSubtree(id)
        #expect(engine.hot[w.index].indexSlot >= 0)
        #expect(Self.name(engine, 50, 550) == nil)
        #expect(Self.name(engine, 1415, 15) == "b14")
    }

    @Test func insertsAndRemovalsInANarrowViewRebuildItsBlock() throws {
        let (tree, _, cards) = try Self.cards(3)
        var engine = HitTester(tree)
        // A new button in front of b1, shifted 20 right: it wins where both are.
        var front = Node.view("front", frame: CGRect(x: 30, y: 10, width: 50, height: 50))
        front.isAccessibilityElement = true
        let id = try engine.insert(front, under: cards[1])
        #expect(engine.hot[cards[1].index].blockCount == 2)
        #expect(Self.name(engine, 135, 30) == "front")
        #expect(Self.name(engine, 115, 30) == "b1")
        #expect(Self.name(engine, 175, 30) == "front")
        try engine.removeSubtree(id)
        #expect(engine.hot[cards[1].index].blockCount == 1)
        #expect(Self.name(engine, 135, 30) == "b1")
        #expect(Self.name(engine, 175, 30) == nil)
    }

    @Test func movingAChildRefitsItsBox() throws {
        let (tree, _, cards) = try Self.cards(3)
        var engine = HitTester(tree)
        let b0 = try #require(engine.tree.node(withID: "b0"))
        var node = engine.tree[b0]!
        node.frame = CGRect(x: 40, y: 40, width: 50, height: 50)
        try engine.update(b0, to: node)
        #expect(engine.hot[cards[0].index].blockCount == 1)
        #expect(Self.name(engine, 15, 15) == nil)
        #expect(Self.name(engine, 85, 85) == "b0")
        #expect(Self.name(engine, 95, 95) == nil)  // outside the card's bounds
    }

    @Test func aScreenFixedFrameUnderAScrolledViewDropsTheBlock() throws {
        let (tree, _, cards) = try Self.cards(3)
        var engine = HitTester(tree)
        // Scroll card 2 by 30 down: its button shows at y -20...30.
        try engine.scroll(cards[2], to: CGPoint(x: 0, y: 30))
        #expect(Self.name(engine, 215, 25) == "b2")
        #expect(Self.name(engine, 215, 35) == nil)
        // Give b2 an explicit screen frame: it no longer moves with the scroll.
        let b2 = try #require(engine.tree.node(withID: "b2"))
        var node = engine.tree[b2]!
        node.accessibilityFrame = CGRect(x: 250, y: 50, width: 20, height: 20)
        try engine.update(b2, to: node)
        #expect(engine.hot[cards[2].index].blockStart == -1)
        #expect(Self.name(engine, 255, 55) == "b2")
        #expect(Self.name(engine, 215, 25) == nil)
        try engine.scroll(cards[2], to: CGPoint(x: 0, y: 0))
        #expect(Self.name(engine, 255, 55) == "b2")
        #expect(HitTester.rebuiltAgrees(engine, [CGPoint(x: 255, y: 55), CGPoint(x: 215, y: 25)]))
    }

    @Test func rotatingAnAncestorRebuildsTheBlocksBelow() throws {
        // An element node framed in its card's space: under a rotation of the
        // window, its frame-policy region is the screen box of its quad.
        var tree = ElementTree()
        let root = try tree.append(.view("root", frame: CGRect(x: 0, y: 0, width: 400, height: 400)), under: .none)
        let w = try tree.append(.view("w", frame: CGRect(x: 100, y: 100, width: 200, height: 200)), under: root)
        let card = try tree.append(.view("card", frame: CGRect(x: 0, y: 0, width: 100, height: 100)), under: w)
        var e = Node.element("e")
        e.isAccessibilityElement = true
        e.accessibilityFrameInContainerSpace = CGRect(x: 0, y: 0, width: 100, height: 10)
        try tree.append(e, under: card)
        var engine = HitTester(tree)
        #expect(Self.name(engine, 150, 105) == "e")
        // Rotate w by 90° about its centre (200, 200): the card's top strip
        // (w's local x 0...100, y 0...10) goes to screen x 290...300, y 100...200.
        var node = engine.tree[w]!
        node.transform = CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0)
        try engine.update(w, to: node)
        #expect(Self.name(engine, 295, 150) == "e")
        #expect(Self.name(engine, 150, 105) == nil)
        #expect(HitTester.rebuiltAgrees(engine, [CGPoint(x: 295, y: 150), CGPoint(x: 150, y: 105)]))
    }

    @Test func droppedBlocksAreCompacted() throws {
        // 1500 cards; inserting and removing a second button in each card
        // rebuilds its block twice, leaving about 6000 dropped entries.
        let (tree, _, cards) = try Self.cards(1500)
        var engine = HitTester(tree)
        for (k, card) in cards.enumerated() {
            var extra = Node.view("x\(k)", frame: CGRect(x: 60, y: 60, width: 30, height: 30))
            extra.isAccessibilityElement = true
            let id = try engine.insert(extra, under: card)
            try engine.removeSubtree(id)
        }
        #expect(engine.blocks.garbage < 4096 + 4)
        #expect(engine.blocks.boxes.count < 2 * 3001)
        for k in stride(from: 0, to: 1500, by: 7) {
            #expect(Self.name(engine, Double(k) * 100 + 15, 15) == "b\(k)")
            #expect(Self.name(engine, Double(k) * 100 + 75, 75) == nil)
        }
    }

    @Test func compactionLeavesOutTheBlocksOfRemovedViews() throws {
        // 600 cards of 15 buttons (rows 10 high), each card a block of 15:
        // 9,000 entries. A removal leaves the freed slots' records as they
        // were, naming their old blocks; compaction must copy live views'
        // blocks only.
        var tree = ElementTree()
        let w = try tree.append(.view("w", frame: CGRect(x: 0, y: 0, width: 60_000, height: 200)), under: .none)
        var cards: [NodeID] = []
        for k in 0 ..< 600 {
            let card = try tree.append(
                .view("card\(k)", frame: CGRect(x: Double(k) * 100, y: 0, width: 100, height: 150)), under: w)
            for j in 0 ..< 15 {
                var b = Node.view("b\(k)-\(j)", frame: CGRect(x: 0, y: Double(j) * 10, width: 100, height: 10))
                b.isAccessibilityElement = true
                try tree.append(b, under: card)
            }
            cards.append(card)
        }
        var engine = HitTester(tree)
        #expect(engine.blocks.boxes.count >= 9000 && engine.blocks.garbage < 100)
        // Every other card goes: 4,500 dropped entries, past half of them,
        // so the blocks are compacted once, near the 300th removal.
        for k in stride(from: 0, to: 600, by: 2) { try engine.removeSubtree(cards[k]) }
        // The 300 live blocks alone (4,500 entries, and a chunk's padding at
        // most), not the removed views' as well.
        #expect(engine.blocks.boxes.count - engine.blocks.garbage <= 4500 + 40)
        #expect(engine.blocks.boxes.count < 4500 + 512)
        for k in stride(from: 0, to: 600, by: 25) {
            let j = k % 15
            let expected: String? = k % 2 == 1 ? "b\(k)-\(j)" : nil
            #expect(Self.name(engine, Double(k) * 100 + 50, Double(j) * 10 + 5) == expected, "card \(k)")
        }
        // New cards take the freed slots, with blocks of their own.
        for k in 0 ..< 20 {
            var card = ElementTree()
            let c = try card.append(
                .view("new\(k)", frame: CGRect(x: Double(2 * k) * 100, y: 0, width: 100, height: 150)), under: .none)
            for j in 0 ..< 3 {
                var b = Node.view("n\(k)-\(j)", frame: CGRect(x: 0, y: Double(j) * 50, width: 100, height: 50))
                b.isAccessibilityElement = true
                try card.append(b, under: c)
            }
            try engine.insert(card, under: w)
        }
        for k in 0 ..< 20 {
            #expect(Self.name(engine, Double(2 * k) * 100 + 50, 120) == "n\(k)-2")
            #expect(Self.name(engine, Double(2 * k + 1) * 100 + 50, 125) == "b\(2 * k + 1)-12")
        }
        #expect(HitTester.rebuiltAgrees(engine, (0 ..< 60).map { CGPoint(x: Double($0) * 100 + 50, y: 75) }))
    }
}

extension HitTester {
    /// Whether the engine answers as one built afresh from its tree, at `points`.
    static func rebuiltAgrees(_ engine: HitTester, _ points: [CGPoint]) -> Bool {
        let fresh = HitTester(engine.tree)
        return points.allSatisfy { p in
            HitPolicy.allCases.allSatisfy { engine.hit(p, policy: $0) == fresh.hit(p, policy: $0) }
        }
    }
}
