import Foundation
import Testing

@testable import AXHit

/// A long-lived engine does not grow: an app that inserts and removes rows
/// forever reuses the slots, side-table entries and index room the removed
/// rows gave back.
@Suite struct LongLivedEngineTests {
    /// A list of 2,000 rows (a wide view: a grid index) with labelled,
    /// scrolled, transformed rows; then 12,000 cycles of inserting a
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
        let memory = engine.memoryBytes
        let tables = (engine.tree.boundsTable.count, engine.tree.transformTable.count, engine.tree.extras.count)
        for k in 1000 ..< 12_000 { try cycle(k) }
        #expect(engine.tree.capacity == capacity)
        #expect(engine.tree.boundsTable.count == tables.0)
        #expect(engine.tree.transformTable.count == tables.1)
        #expect(engine.tree.extras.count == tables.2)
        #expect(
            Double(engine.memoryBytes) <= Double(memory) * 1.05,
            "engine memory grew from \(memory) to \(engine.memoryBytes) bytes")
        // And it still answers as a fresh build does.
        let fresh = HitTester(engine.tree)
        for y in stride(from: 0.0, to: 844, by: 7) {
            #expect(engine.hit(CGPoint(x: 20, y: y)) == fresh.hit(CGPoint(x: 20, y: y)))
        }
        #expect(engine.tree.count == 2002)
    }
}
