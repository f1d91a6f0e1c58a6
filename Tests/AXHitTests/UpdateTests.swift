import Foundation
import Testing

@testable import AXHit

/// The engine after updates must answer as the spec does for the tree as it
/// now is: checked against the brute-force reference after random update
/// sequences.
@Suite struct UpdateTests {
    /// Compares engine and reference on random points; returns (mismatches, hits).
    static func agree(_ engine: HitTester, _ rng: inout SeededRandom, points: Int, context: String) -> (Int, Int) {
        let reference = ReferenceHitTest(engine.tree)
        var mismatches = 0, hits = 0
        for _ in 0 ..< points {
            let p = CGPoint(x: rng.number(-30 ... 230), y: rng.number(-30 ... 230))
            for policy in HitPolicy.allCases {
                let expected = reference.hit(p, policy: policy) { _, _ in nil }
                let got = engine.hit(p, policy: policy).map { engine.tree.id(of: $0) }
                if expected != nil { hits += 1 }
                if got != expected {
                    mismatches += 1
                    if mismatches <= 3 {
                        Issue.record(
                            "\(context): point \(p), policy \(policy): got \(got ?? "nil"), expected \(expected ?? "nil")"
                        )
                    }
                }
            }
        }
        return (mismatches, hits)
    }

    /// Runs `rounds` rounds of `updatesPerRound` calls of `update`, each
    /// round followed by `agree` on `points` points; returns the summed
    /// mismatches and hits, and the serial number `update` got to (it names
    /// inserted nodes with it).
    static func agreeThroughUpdates(
        _ engine: inout HitTester, _ rng: inout SeededRandom, rounds: Int, updatesPerRound: Int, points: Int,
        context: String, update: (inout HitTester, inout SeededRandom, inout Int) throws -> Void
    ) rethrows -> (mismatches: Int, hits: Int, serial: Int) {
        var serial = 0, mismatches = 0, hits = 0
        for round in 0 ..< rounds {
            for _ in 0 ..< updatesPerRound { try update(&engine, &rng, &serial) }
            let (m, h) = agree(engine, &rng, points: points, context: "\(context), round \(round)")
            mismatches += m
            hits += h
        }
        return (mismatches, hits, serial)
    }

    /// One random update of a random live node; returns what it did.
    @discardableResult
    static func randomUpdate(_ engine: inout HitTester, _ rng: inout SeededRandom, serial: inout Int) throws -> String {
        let nodes = engine.tree.preOrder
        let id = nodes[Int.random(in: 0 ..< nodes.count, using: &rng)]
        var node = engine.tree[id]!
        let isRoot = id == engine.tree.root
        var subtreeSize = 0
        engine.tree.forEachInPreOrder(from: id) { _ in subtreeSize += 1 }
        let kind = Int.random(in: 0 ..< 12, using: &rng)
        let what = "update \(kind) of \(node.id)"
        switch kind {
        case 0 where node.kind == .view:
            try engine.scroll(id, to: CGPoint(x: rng.number(-40 ... 40), y: rng.number(-40 ... 40)))
        case 1 where node.kind == .view && id != engine.tree.root:
            node.frame = RandomTrees.rect(&rng, 120)
            try engine.update(id, to: node)
        case 2 where node.kind == .view && id != engine.tree.root:
            node.transform =
                rng.chance(0.3)
                ? .identity
                : CGAffineTransform(rotationAngle: rng.number(-3 ... 3)).concatenating(
                    CGAffineTransform(scaleX: rng.number(0.5 ... 2), y: 1))
            try engine.update(id, to: node)
        case 3 where node.kind == .view && !isRoot:
            node.isHidden.toggle()
            try engine.update(id, to: node)
        case 4 where node.kind == .view && !isRoot:
            node.alpha = node.alpha < 0.01 ? 1 : 0.001
            try engine.update(id, to: node)
        case 5:
            node.accessibilityViewIsModal.toggle()
            try engine.update(id, to: node)
        case 6 where !isRoot:
            node.accessibilityElementsHidden.toggle()
            try engine.update(id, to: node)
        case 7 where !isRoot && subtreeSize < 30:
            node.isAccessibilityElement.toggle()
            try engine.update(id, to: node)
        case 8 where node.kind == .element:
            if rng.chance(0.5) {
                node.accessibilityFrameInContainerSpace = RandomTrees.rect(&rng, 120)
            } else {
                node.accessibilityFrameInContainerSpace = nil
                node.accessibilityFrame = RandomTrees.rect(&rng, 200)
            }
            try engine.update(id, to: node)
        case 9, 10:
            // Insert a small subtree under a random view (or element node).
            serial += 1
            var sub = ElementTree()
            if node.kind == .view && rng.chance(0.6) {
                var v = Node.view("n\(serial)", frame: RandomTrees.rect(&rng, 120))
                v.isAccessibilityElement = rng.chance(0.3)
                v.accessibilityViewIsModal = rng.chance(0.15)
                let top = try sub.append(v, under: .none)
                for k in 0 ..< Int.random(in: 0 ... 20, using: &rng) {
                    var child = Node.view("n\(serial).\(k)", frame: RandomTrees.rect(&rng, 100))
                    child.isAccessibilityElement = rng.chance(0.6)
                    try sub.append(child, under: top)
                }
                let siblings = engine.tree.children(of: id)
                let before =
                    siblings.isEmpty || rng.chance(0.5)
                    ? NodeID.none : siblings[Int.random(in: 0 ..< siblings.count, using: &rng)]
                try engine.insert(sub, under: id, before: before)
            } else {
                var e = Node.element("n\(serial)")
                e.accessibilityFrame = RandomTrees.rect(&rng, 200)
                if rng.chance(0.5) { e.accessibilityFrameInContainerSpace = RandomTrees.rect(&rng, 100) }
                try engine.insert(e, under: id)
            }
        case 11 where !isRoot && subtreeSize <= 15:
            try engine.removeSubtree(id)
        default:
            return "nothing"
        }
        return what
    }

    /// Seeds whose trees expose enough elements for the comparison to mean
    /// something (some random trees have a modal view that hides nearly all).
    static let richSeeds: [UInt64] = (11 ... 60).filter { seed in
        guard let tree = try? RandomTrees.make(seed: seed, nodes: 250, wide: seed % 2 == 0) else { return false }
        return ReferenceHitTest(tree).exposed.filter { $0 }.count >= 25
    }.prefix(8).map { $0 }

    @Test(arguments: richSeeds)
    func randomUpdateSequencesKeepTheEngineExact(seed: UInt64) throws {
        var engine = HitTester(try RandomTrees.make(seed: seed, nodes: 250, wide: seed % 2 == 0))
        var rng = SeededRandom(seed: seed &* 31)
        let nodesBefore = engine.tree.count
        let (mismatches, hits, serial) = try Self.agreeThroughUpdates(
            &engine, &rng, rounds: 30, updatesPerRound: 5, points: 150, context: "seed \(seed)"
        ) { engine, rng, serial in try Self.randomUpdate(&engine, &rng, serial: &serial) }
        #expect(mismatches == 0)
        // The sequence must have hit things and changed the tree's shape.
        #expect(hits > 500)
        #expect(serial > 5 && engine.tree.count != nodesBefore)
        // The engine after updates is the engine built afresh from the same tree.
        let fresh = HitTester(engine.tree)
        #expect(fresh.exposedCounts[fresh.tree.root.index] == engine.exposedCounts[engine.tree.root.index])
    }

    @Test func scrollingAViewWithAViewSpacePathRefitsItsBox() throws {
        // 20 children, so the window has an index; "shape" is exposed with a
        // path covering its bounds in its own (scrolled) space.
        var tree = ElementTree()
        let w = try tree.append(.view("w", frame: CGRect(x: 0, y: 0, width: 400, height: 400)), under: .none)
        for k in 0 ..< 19 {
            try tree.append(.view("v\(k)", frame: CGRect(x: 300, y: Double(k) * 10, width: 5, height: 5)), under: w)
        }
        var shape = Node.view("shape", frame: CGRect(x: 100, y: 100, width: 100, height: 100))
        shape.isAccessibilityElement = true
        shape.accessibilityPath = AccessibilityPath(
            BezierPath(rect: CGRect(x: 0, y: 0, width: 100, height: 100)), coordinateSpace: .view)
        let id = try tree.append(shape, under: w)
        var engine = HitTester(tree)
        #expect(engine.hot[w.index].indexSlot >= 0)
        // Scrolled by 50, the path (in bounds space) moves up by 50 on screen:
        // it now spans y 50..150, outside the view's own frame above y 100.
        try engine.scroll(id, to: CGPoint(x: 0, y: 50))
        #expect(engine.hit(CGPoint(x: 150, y: 60), policy: .shape) == id)
        #expect(engine.hit(CGPoint(x: 150, y: 160), policy: .shape) == nil)
        let fresh = HitTester(engine.tree)
        #expect(fresh.hit(CGPoint(x: 150, y: 60), policy: .shape) == id)
    }

    /// A window `window` holding a view "list" (both `width` × `height` at
    /// the origin) with `rows` accessible row views `rowHeight` tall,
    /// stacked from the top and named `rowPrefix` and their number.
    static func rowList(
        rows: Int, width: Double, height: Double, rowHeight: Double, window: String = "w", rowPrefix: String = "row"
    ) throws -> (tree: ElementTree, window: NodeID, list: NodeID) {
        var tree = ElementTree()
        let w = try tree.append(.view(window, frame: CGRect(x: 0, y: 0, width: width, height: height)), under: .none)
        let list = try tree.append(.view("list", frame: CGRect(x: 0, y: 0, width: width, height: height)), under: w)
        for k in 0 ..< rows {
            var row = Node.view(
                "\(rowPrefix)\(k)", frame: CGRect(x: 0, y: Double(k) * rowHeight, width: width, height: rowHeight))
            row.isAccessibilityElement = true
            try tree.append(row, under: list)
        }
        return (tree, w, list)
    }

    @Test func aScrollUnderASnapshotCopiesNoColumn() throws {
        // A list of 100 rows, scrolled once (so it has its bounds slot).
        let (tree, _, list) = try Self.rowList(rows: 100, width: 400, height: 800, rowHeight: 44)
        var engine = HitTester(tree)
        try engine.scroll(list, to: CGPoint(x: 0, y: 10))
        let snapshot = engine
        try engine.scroll(list, to: CGPoint(x: 0, y: 440))
        // The scroll changed one number in the tree's bounds table; the
        // engine's columns are still the snapshot's.
        func same<T>(_ a: ChunkedColumn<T>, _ b: ChunkedColumn<T>) -> Bool {
            let (shared, all) = a.sharedChunks(with: b)
            return all > 0 && shared == all
        }
        #expect(same(engine.hot, snapshot.hot))
        #expect(same(engine.exposedCounts, snapshot.exposedCounts) && same(engine.ranks, snapshot.ranks))
        #expect(engine.hit(CGPoint(x: 10, y: 5)) == tree.node(withID: "row10"))
        #expect(snapshot.hit(CGPoint(x: 10, y: 5)) == tree.node(withID: "row0"))
    }

    @Test func aRemovalUnderASnapshotLeavesTheFreedSlotsEngineEntries() throws {
        // A wide window of 300 cards, each with one accessible button at
        // (10, 10), 50 × 50: 601 nodes, records in three chunks of 256. Card
        // 250 and its button sit in the second; the window, the only
        // ancestor, in the first.
        let (tree, w, cards) = try ChildBlockTests.cards(300)
        #expect(ChunkedColumn<HotNode>.chunkSize == 256 && cards[250].index / 256 == 1)
        var engine = HitTester(tree)
        let snapshot = engine
        try engine.removeSubtree(cards[250])
        // The freed slots' records, box-hit bits and ordinals are left as
        // they were (nothing reads them until reuse writes them), and the
        // window's record and bit did not change: every chunk is still the
        // snapshot's. Its exposed count did.
        func allShared<T>(_ a: ChunkedColumn<T>, _ b: ChunkedColumn<T>) -> Bool {
            let (shared, all) = a.sharedChunks(with: b)
            return all > 0 && shared == all
        }
        #expect(allShared(engine.hot, snapshot.hot))
        #expect(allShared(engine.ordinals, snapshot.ordinals))
        #expect(!allShared(engine.exposedCounts, snapshot.exposedCounts))
        #expect(engine.hit(CGPoint(x: 25_025, y: 25)) == nil)
        #expect(snapshot.hit(CGPoint(x: 25_025, y: 25)) == snapshot.tree.node(withID: "b250"))
        // A new card and its leaf take the two freed slots: they answer by
        // their own records, counts and block, not the old ones.
        var card = ElementTree()
        let c = try card.append(.view("new", frame: CGRect(x: 25_000, y: 0, width: 100, height: 100)), under: .none)
        var leaf = Node.view("newLeaf", frame: CGRect(x: 50, y: 50, width: 50, height: 50))
        leaf.isAccessibilityElement = true
        try card.append(leaf, under: c)
        let added = try engine.insert(card, under: w)
        let newSlots = Set([added.index, engine.tree.children(of: added)[0].index])
        #expect(newSlots == [cards[250].index, cards[250].index + 1])
        #expect(engine.hit(CGPoint(x: 25_025, y: 25)) == nil)
        #expect(engine.hit(CGPoint(x: 25_075, y: 75)) == engine.tree.node(withID: "newLeaf"))
        #expect(engine.exposedCounts[w.index] == 300)
        #expect(HitTester.rebuiltAgrees(engine, [CGPoint(x: 25_025, y: 25), CGPoint(x: 25_075, y: 75)]))
        try engine.removeSubtree(added)
        #expect(engine.exposedCounts[w.index] == 299)
        #expect(engine.hit(CGPoint(x: 25_075, y: 75)) == nil)
    }

    @Test func freedSlotsKeepTheirIdsAndLinksUntilReuseWritesThemAll() throws {
        // A card with two accessible leaves, removed under a snapshot.
        var tree = ElementTree()
        let w = try tree.append(.view("w", frame: CGRect(x: 0, y: 0, width: 400, height: 400)), under: .none)
        let card = try tree.append(.view("card", frame: CGRect(x: 0, y: 0, width: 200, height: 100)), under: w)
        for k in 0 ..< 2 {
            var leaf = Node.view("leaf\(k)", frame: CGRect(x: Double(k) * 100, y: 0, width: 100, height: 100))
            leaf.isAccessibilityElement = true
            try tree.append(leaf, under: card)
        }
        var engine = HitTester(tree)
        let snapshot = engine
        try engine.removeSubtree(card)
        // The removal wrote the freed slots' flags, not their ids.
        let (sharedIDs, allIDs) = engine.tree.ids.sharedChunks(with: snapshot.tree.ids)
        let (sharedFlags, allFlags) = engine.tree.flags.sharedChunks(with: snapshot.tree.flags)
        #expect(allIDs == 1 && sharedIDs == 1 && allFlags == 1 && sharedFlags == 0)
        // No old id answers, in the engine; every one does in the snapshot.
        for id in ["card", "leaf0", "leaf1"] {
            #expect(engine.tree.node(withID: id) == nil && snapshot.tree.node(withID: id) != nil, "\(id)")
        }
        #expect(engine.hit(CGPoint(x: 50, y: 50)) == nil)
        // Three leaves take the freed slots, last freed first: the third
        // the card's, whose old first child must not come back with it.
        var added: [NodeID] = []
        for k in 0 ..< 3 {
            var leaf = Node.view("new\(k)", frame: CGRect(x: Double(k) * 100, y: 200, width: 100, height: 100))
            leaf.isAccessibilityElement = true
            added.append(try engine.insert(leaf, under: w))
        }
        #expect(added[2].rawValue == card.rawValue)
        for (k, id) in added.enumerated() {
            #expect(engine.tree.children(of: id).isEmpty, "new\(k)")
            #expect(engine.tree.node(withID: "new\(k)") == id)
            #expect(engine.hit(CGPoint(x: Double(k) * 100 + 50, y: 250)) == id, "new\(k)")
        }
        #expect(engine.tree.children(of: w) == added)
        for id in ["card", "leaf0", "leaf1"] { #expect(engine.tree.node(withID: id) == nil, "\(id)") }
        // The old ids are free again.
        let again = try engine.insert(.view("card", frame: CGRect(x: 0, y: 0, width: 10, height: 10)), under: w)
        #expect(engine.tree.node(withID: "card") == again)
    }

    @Test func aRemovalUnderASnapshotCopiesTheLastChunkOfTheFreeSlots() throws {
        // 5,000 rows removed leave 5,000 free slots: chunks of 2,048, 2,048
        // and 904. One more removal under a snapshot appends to the last.
        let (tree, _, list) = try Self.rowList(rows: 6_000, width: 400, height: 800, rowHeight: 44)
        var engine = HitTester(tree)
        let rows = engine.tree.children(of: list)
        for r in rows.prefix(5_000) { try engine.removeSubtree(r) }
        let snapshot = engine
        try engine.removeSubtree(rows[5_000])
        let (shared, all) = engine.tree.freeSlots.sharedChunks(with: snapshot.tree.freeSlots)
        #expect(all == 3 && shared == 2)
        #expect(engine.tree.freeSlots.count == 5_001 && snapshot.tree.freeSlots.count == 5_000)
        #expect(snapshot.tree.contains(rows[5_000]) && !engine.tree.contains(rows[5_000]))
        // The freed slots are reused, last freed first.
        let added = try engine.insert(.view("again", frame: CGRect(x: 0, y: 0, width: 10, height: 10)), under: list)
        #expect(added.rawValue == rows[5_000].rawValue && engine.tree.freeSlots.count == 5_000)
    }

    @Test func memoryCountsEveryPerNodeColumnAndWindowsOnlyWhereTheRulesHaveThem() throws {
        // 5,000 rows in a list: an index over them, no paths.
        let built = try Self.rowList(rows: 5000, width: 400, height: 800, rowHeight: 44)
        var tree = built.tree
        let w = built.window, list = built.list
        let n = tree.capacity
        let ios = HitTester(tree)
        // VoiceOver has no windows to count: the column stays empty.
        #expect(ios.windowCounts.isEmpty && ios.windowCount(list.index) == 0)
        // Per node at least the record, the exposed count, the rank and the
        // ordinal (48 + 4 + 8 + 4 bytes), and the index's boxes.
        let perNode = MemoryLayout<HotNode>.stride + 4 + 8 + 4
        #expect(MemoryLayout<HotNode>.stride == 48)
        #expect(ios.memoryBytes >= n * perNode + ios.indexes.reduce(0) { $0 + $1.memoryBytes })
        #expect(ios.memoryBytes < n * 100)
        tree.platform = .android
        let android = HitTester(tree)
        #expect(android.windowCounts.count == n && android.windowCount(w.index) == 1)
        #expect(android.memoryBytes >= ios.memoryBytes - (ios.screenGrid?.memoryBytes ?? 0) + 4 * n)
    }

    @Test func scrollingWhatCannotScrollNamesTheNodeAndKey() throws {
        var tree = ElementTree()
        let w = try tree.append(.view("w", frame: CGRect(x: 0, y: 0, width: 400, height: 400)), under: .none)
        let label = try tree.append(.element("label"), under: w)
        let row = try tree.append(.view("row", frame: CGRect(x: 0, y: 40, width: 400, height: 40)), under: w)
        var engine = HitTester(tree)
        do {
            try engine.scroll(label, to: CGPoint(x: 0, y: 10))
            Issue.record("an element node scrolled")
        } catch {
            #expect(error.kind == .validation && error.node == "label" && error.key == "bounds", "\(error)")
        }
        do {
            try engine.scroll(row, to: CGPoint(x: 0, y: Double.nan))
            Issue.record("a NaN offset was taken")
        } catch {
            #expect(error.node == "row" && error.key == "bounds", "\(error)")
        }
        try engine.removeSubtree(row)
        do {
            try engine.scroll(row, to: .zero)
            Issue.record("a removed view scrolled")
        } catch {
            #expect(error.kind == .validation && error.message.contains("not a node of the tree"), "\(error)")
        }
    }

    @Test func wideListInsertsAndRemovalsGoThroughTheOverflowAndRebuilds() throws {
        // 2000 rows in one list: inserts land in the overflow list until the
        // index is rebuilt; removals empty boxes in place.
        let (tree, _, list) = try Self.rowList(rows: 2000, width: 100, height: 1000, rowHeight: 10, rowPrefix: "r")
        var engine = HitTester(tree)
        #expect(engine.hot[list.index].indexSlot >= 0)
        // Scrolling by 505 shows row 50 at the top, half of it cut off.
        try engine.scroll(list, to: CGPoint(x: 0, y: 505))
        #expect(engine.hit(CGPoint(x: 50, y: 0)).map { engine.tree.id(of: $0) } == "r50")
        #expect(engine.hit(CGPoint(x: 50, y: 6)).map { engine.tree.id(of: $0) } == "r51")
        // The rows' grid is keyed by their own ids, so the index keeps no
        // item table; removing an indexed row empties its box by its id.
        let slot = Int(engine.hot[list.index].indexSlot)
        #expect(engine.indexes[slot].gridKeysAreNodes && engine.indexes[slot].items.isEmpty)
        try engine.removeSubtree(try #require(engine.tree.node(withID: "r51")))
        #expect(engine.hit(CGPoint(x: 50, y: 6)) == nil)
        #expect(engine.hit(CGPoint(x: 50, y: 4)).map { engine.tree.id(of: $0) } == "r50")
        #expect(engine.hit(CGPoint(x: 50, y: 16)).map { engine.tree.id(of: $0) } == "r52")
        // 300 overlays in front of row 60 (at y 95 on screen), then remove them.
        var overlays: [NodeID] = []
        for k in 0 ..< 300 {
            var o = Node.view("o\(k)", frame: CGRect(x: Double(k % 10) * 10, y: 600, width: 10, height: 10))
            o.isAccessibilityElement = true
            overlays.append(try engine.insert(o, under: list))
        }
        // Fewer than the 1,999 indexed rows: they wait in the overflow.
        #expect(Int(engine.hot[list.index].indexSlot) == slot)
        #expect(engine.indexes[slot].overflow.count == 300 && engine.indexes[slot].itemCount == 2000)
        #expect(engine.hit(CGPoint(x: 55, y: 96)).map { engine.tree.id(of: $0) } == "o295")
        for o in overlays { try engine.removeSubtree(o) }
        #expect(engine.indexes[slot].overflow.count == 0)
        #expect(engine.hit(CGPoint(x: 55, y: 96)).map { engine.tree.id(of: $0) } == "r60")
        // Move row 60 to the very end of the content.
        let r60 = try #require(engine.tree.node(withID: "r60"))
        var node = engine.tree[r60]!
        node.frame.origin.y = 20_000
        try engine.update(r60, to: node)
        #expect(engine.hit(CGPoint(x: 55, y: 96)) == nil)
        try engine.scroll(list, to: CGPoint(x: 0, y: 19_995))
        #expect(engine.hit(CGPoint(x: 55, y: 6)).map { engine.tree.id(of: $0) } == "r60")
        // Removing more than half of the indexed rows (r51 and 1,000 more of
        // 2,000) rebuilds the index over the 999 left: nothing removed, nothing waiting.
        for r in 999 ..< 2000 where r != 1500 {
            try engine.removeSubtree(try #require(engine.tree.node(withID: "r\(r)")))
        }
        let rebuilt = try #require(engine.hot[list.index].indexSlot >= 0 ? Int(engine.hot[list.index].indexSlot) : nil)
        #expect(engine.indexes[rebuilt].removed == 0 && engine.indexes[rebuilt].overflow.count == 0)
        #expect(engine.indexes[rebuilt].itemCount == 999)
        try engine.scroll(list, to: CGPoint(x: 0, y: 15_000))
        #expect(engine.hit(CGPoint(x: 55, y: 5)).map { engine.tree.id(of: $0) } == "r1500")
        #expect(engine.hit(CGPoint(x: 55, y: 15)) == nil)
    }
}
