import Foundation
import Testing

@testable import AXHit

/// A long-lived engine does not grow: an app that inserts and removes rows
/// forever reuses the slots, side-table entries and index room the removed
/// rows gave back.
@Suite struct LongLivedEngineTests {
    /// A list of 2,000 rows (a wide view: a grid index) with labelled,
    /// scrolled, transformed rows; then 12,200 cycles of inserting a
    /// 3-node row with every kind of side-table entry and removing it again,
    /// at random places (a harness row runs 1M cycles on a 1M-element engine).
    @Test func insertAndRemoveForeverStaysBounded() throws {
        var tree = ElementTree()
        let window = try tree.append(.view("window", frame: CGRect(x: 0, y: 0, width: 390, height: 844)), under: .none)
        var list = Node.view("list", frame: CGRect(x: 0, y: 0, width: 390, height: 844))
        list.bounds = CGRect(x: 0, y: 500, width: 390, height: 844)
        let listID = try tree.append(list, under: window)
        for k in 0 ..< 2000 {
            var row = Node.view("row\(k)", frame: CGRect(x: 0, y: Double(k) * 50, width: 390, height: 48))
            row.isAccessibilityElement = true
            row.accessibilityLabel = "Row \(k)"
            try tree.append(row, under: listID)
        }
        var engine = HitTester(tree)
        var rng = SeededRandom(seed: 7)

        func cycle(_ k: Int) throws {
            var row = Node.view("new\(k)", frame: CGRect(x: 0, y: rng.number(0 ... 100_000), width: 390, height: 48))
            row.bounds = CGRect(x: 0, y: 1, width: 390, height: 48)  // a bounds entry
            row.transform = CGAffineTransform(scaleX: 1, y: 1.01)  // a transform entry
            row.accessibilityLabel = "New row \(k)"  // an extras entry
            row.accessibilityIdentifier = "new"
            let rows = engine.tree.children(of: listID)
            let before = rows[Int(rng.next() % UInt64(rows.count))]
            let id = try engine.insert(row, under: listID, before: before)
            var label = Node.element("label\(k)")
            label.accessibilityFrameInContainerSpace = CGRect(x: 10, y: 10, width: 100, height: 20)
            try engine.insert(label, under: id)
            try engine.insert(.element("badge\(k)"), under: id)
            // A query through the new row, as an app's test would.
            _ = engine.hit(CGPoint(x: 20, y: 20))
            try engine.removeSubtree(id)
        }
        for k in 0 ..< 1000 { try cycle(k) }
        let capacity = engine.tree.capacity
        let tables = (engine.tree.boundsTable.count, engine.tree.transformTable.count, engine.tree.extras.count)
        // Memory is compared peak to peak over a whole period of the child
        // blocks' compaction (about 2,050 cycles: each cycle leaves two
        // dropped entries, reclaimed past 4,096), early and late: a
        // sample at one cycle would compare two phases of that period.
        func peakMemory(over cycles: Range<Int>) throws -> Int {
            var peak = 0
            for k in cycles {
                try cycle(k)
                peak = max(peak, engine.memoryBytes)
            }
            return peak
        }
        let early = try peakMemory(over: 1000 ..< 3200)
        for k in 3200 ..< 10_000 { try cycle(k) }
        let late = try peakMemory(over: 10_000 ..< 12_200)
        #expect(engine.tree.capacity == capacity)
        #expect(engine.tree.boundsTable.count == tables.0)
        #expect(engine.tree.transformTable.count == tables.1)
        #expect(engine.tree.extras.count == tables.2)
        #expect(Double(late) <= Double(early) * 1.05, "engine memory grew from a peak of \(early) to \(late) bytes")
        // And it still answers as a fresh build does.
        let fresh = HitTester(engine.tree)
        for y in stride(from: 0.0, to: 844, by: 7) {
            #expect(engine.hit(CGPoint(x: 20, y: y)) == fresh.hit(CGPoint(x: 20, y: y)))
        }
        #expect(engine.tree.count == 2002)
    }

    /// A handle kept past its node's removal never names the node that takes
    /// the slot: the tree and the engine refuse it, and every answer names
    /// the new node by its own handle (here through a list's grid index,
    /// whose keys are slots).
    @Test func staleHandlesAreDetected() throws {
        let (tree, _, list) = try UpdateTests.rowList(
            rows: 40, width: 100, height: 1000, rowHeight: 20, window: "window")
        var engine = HitTester(tree)
        let old = try #require(engine.hit(CGPoint(x: 50, y: 30)))  // row1: y 20..<40
        #expect(engine.tree.id(of: old) == "row1")
        try engine.removeSubtree(old)

        // The slot is reused at once, under the next generation.
        var row = Node.view("new", frame: CGRect(x: 0, y: 20, width: 100, height: 20))
        row.isAccessibilityElement = true
        let new = try engine.insert(row, under: list)
        #expect(new.rawValue == old.rawValue && new.generation == old.generation + 1 && new != old)

        // The stale handle: not in the tree, no node, every update throws.
        #expect(!engine.tree.contains(old))
        #expect(engine.tree[old] == nil)
        #expect(throws: TreeError.self) { try engine.tree.node(old) }
        #expect(engine.tree.parent(of: old) == .none && engine.tree.children(of: old).isEmpty)
        #expect(engine.tree.kind(of: old) == nil && engine.tree.id(of: old) == "")
        #expect(engine.element(old) == nil && !engine.isExposed(old) && engine.accessibilityFrame(of: old) == nil)
        #expect(throws: TreeError.self) { try engine.update(old, to: row) }
        #expect(throws: TreeError.self) { try engine.scroll(old, to: .zero) }
        #expect(throws: TreeError.self) { try engine.removeSubtree(old) }
        #expect(throws: TreeError.self) { try engine.insert(.element("child"), under: old) }
        #expect(try engine.next(after: old) == nil)

        // Answers name the new node by its own handle.
        #expect(engine.hit(CGPoint(x: 50, y: 30)) == new)
        #expect(engine.hitAll(CGPoint(x: 50, y: 30)) == [new])
        #expect(engine.touch(CGPoint(x: 50, y: 30)) == new)
        #expect(engine.tree.node(withID: "new") == new)
        #expect(try engine.navigationOrder().contains(new) && !engine.navigationOrder().contains(old))
        #expect(engine.element(new)?.frame == CGRect(x: 0, y: 20, width: 100, height: 20))
        #expect(HitTester(engine.tree).hit(CGPoint(x: 50, y: 30)) == new)

        // A handle from nowhere (beyond the slots) is refused, not a trap.
        let foreign = NodeID(Int32(9_999))
        #expect(!engine.tree.contains(foreign) && engine.tree[foreign] == nil && engine.element(foreign) == nil)
        #expect(engine.tree.nodeID(inSlot: 9_999) == nil && engine.tree.nodeID(inSlot: Int(new.rawValue)) == new)
    }
}
