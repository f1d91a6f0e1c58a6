import Foundation
import Testing

@testable import AXHit

/// `ElementTree.append(_ batch:under:)` against its rule: the tree the
/// same `append(_:under:)` calls make in the batch's order, the error they
/// meet first, and no change at all on an error.
@Suite struct NodeBatchTests {
    /// Every node of `tree` by id: its values, its parent's id and its
    /// children's ids in z-order.
    static func contents(_ tree: ElementTree) throws -> [String: (Node, String?, [String])] {
        var out: [String: (Node, String?, [String])] = [:]
        for id in tree.preOrder {
            let parent = tree.parent(of: id)
            out[tree.id(of: id)] = (
                try tree.node(id), parent.isNone ? nil : tree.id(of: parent),
                tree.children(of: id).map { tree.id(of: $0) }
            )
        }
        return out
    }

    static func expectSameTrees(_ a: ElementTree, _ b: ElementTree) throws {
        let ca = try contents(a), cb = try contents(b)
        #expect(ca.count == cb.count)
        for (id, (node, parent, children)) in ca {
            guard let other = cb[id] else {
                Issue.record("\(id) missing")
                continue
            }
            #expect(node == other.0, "\(id)")
            #expect(parent == other.1, "\(id)")
            #expect(children == other.2, "\(id)")
        }
        #expect(a.root.isNone == b.root.isNone)
        if !a.root.isNone { #expect(a.id(of: a.root) == b.id(of: b.root)) }
        #expect(a.pathPointBudget == b.pathPointBudget)
    }

    /// A random node: views and elements, some with explicit bounds,
    /// transforms and rare properties (labels, traits, container frames,
    /// paths). Elements only under elements' parents that allow them.
    static func randomNode(_ id: String, element: Bool, _ rng: inout SeededRandom) -> Node {
        var node: Node
        if element {
            node = .element(id)
            if rng.chance(0.6) {
                node.accessibilityFrameInContainerSpace = CGRect(
                    x: rng.number(0 ... 100), y: rng.number(0 ... 100), width: 20, height: 10)
            }
        } else {
            node = .view(id, frame: CGRect(x: rng.number(0 ... 50), y: rng.number(0 ... 50), width: 40, height: 30))
            if rng.chance(0.2) { node.bounds = CGRect(x: 0, y: rng.number(0 ... 200), width: 40, height: 30) }
            if rng.chance(0.1) { node.transform = CGAffineTransform(rotationAngle: rng.number(0 ... 3)) }
            if rng.chance(0.2) { node.clipsToBounds = true }
            node.isAccessibilityElement = rng.chance(0.3)
        }
        if rng.chance(0.3) { node.accessibilityLabel = "label of \(id), long enough to be a heap string" }
        if rng.chance(0.3) { node.accessibilityTraits = .button }
        if rng.chance(0.05) {
            node.accessibilityPath = AccessibilityPath(BezierPath(ovalIn: CGRect(x: 0, y: 0, width: 30, height: 20)))
        }
        if rng.chance(0.05) { node.accessibilityIdentifier = "ident\(rng.next() % 7)" }
        return node
    }

    /// Random forests appended as batches, under the root or under a random
    /// node, into trees that also lose random subtrees (so that slots are
    /// reused), each step done twice: by one batch, and by the same
    /// `append` calls. Sizes cross the id table's radix-sort threshold.
    @Test func aBatchMakesTheTreeItsAppendsMake() throws {
        var rng = SeededRandom(seed: 11)
        var viaBatch = ElementTree(), viaAppends = ElementTree()
        var counter = 0
        var reusedSlots = 0, largest = 0
        for step in 0 ..< 30 {
            // The parent: none for the first batch, then a random view.
            let live = viaAppends.preOrder.filter { viaAppends.kind(of: $0) == .view }
            let target: String? = step == 0 ? nil : viaAppends.id(of: live[Int(rng.next() % UInt64(live.count))])
            let n = rng.chance(0.3) ? 300 + Int(rng.next() % 700) : 1 + Int(rng.next() % 40)
            largest = max(largest, n)
            var batch = NodeBatch()
            var nodes: [(Node, Int?)] = []
            var isElement: [Bool] = []
            for k in 0 ..< n {
                // The first node of a first batch is the root, the only
                // one with no parent; later, a third go under the target.
                let parent: Int? = k == 0 || (step > 0 && rng.chance(0.3)) ? nil : Int(rng.next() % UInt64(k))
                let underElement = parent.map { isElement[$0] } ?? false
                let element = underElement || (parent != nil && rng.chance(0.3))
                let node = Self.randomNode("n\(counter)", element: element, &rng)
                counter += 1
                isElement.append(element)
                nodes.append((node, parent))
                #expect(try batch.append(node, under: parent) == k)
            }
            let freeBefore = viaBatch.freeSlots.count
            let batchTarget = target.flatMap { viaBatch.node(withID: $0) } ?? .none
            let made = try viaBatch.append(batch, under: batchTarget)
            reusedSlots += min(freeBefore, n)
            var appended: [NodeID] = []
            let appendTarget = target.flatMap { viaAppends.node(withID: $0) } ?? .none
            for (node, parent) in nodes {
                appended.append(try viaAppends.append(node, under: parent.map { appended[$0] } ?? appendTarget))
            }
            // The same handles, slot for slot, generation for generation.
            #expect(made == appended, "step \(step)")
            for k in made.indices { #expect(viaBatch.id(of: made[k]) == nodes[k].0.id) }
            try Self.expectSameTrees(viaBatch, viaAppends)
            // The same layout inside: side-table entries (free ones taken
            // first), the id table's size.
            #expect(viaBatch.sideSlots.map(\.bounds) == viaAppends.sideSlots.map(\.bounds), "step \(step)")
            #expect(viaBatch.sideSlots.map(\.transform) == viaAppends.sideSlots.map(\.transform), "step \(step)")
            #expect(viaBatch.sideSlots.map(\.extra) == viaAppends.sideSlots.map(\.extra), "step \(step)")
            #expect(viaBatch.idTable.bucketCount == viaAppends.idTable.bucketCount)
            // Identifier lookups see the batch (the index is built on first
            // use, so a batch must drop the one built before it).
            for k in 0 ..< 7 {
                let names = { (t: ElementTree) in t.nodes(withAccessibilityIdentifier: "ident\(k)").map { t.id(of: $0) }
                }
                #expect(names(viaBatch) == names(viaAppends))
            }
            // Remove the same random subtrees from both.
            for _ in 0 ..< 3 {
                let ids = viaAppends.preOrder.dropFirst()
                if let victim = ids.randomElement(using: &rng) {
                    let name = viaAppends.id(of: victim)
                    try viaAppends.removeSubtree(victim)
                    try viaBatch.removeSubtree(#require(viaBatch.node(withID: name)))
                }
            }
        }
        // Not vacuous: slots were reused, the radix sort ran, the tree is large.
        #expect(reusedSlots > 100)
        #expect(largest >= 256)
        #expect(viaBatch.count > 3_000)
    }

    /// A batch grafted under a node with children goes after them, its own
    /// children in order; checked by hand.
    @Test func aGraftGoesFrontmostInOrder() throws {
        var tree = ElementTree()
        let root = try tree.append(.view("root", frame: CGRect(x: 0, y: 0, width: 100, height: 100)), under: .none)
        try tree.append(.view("old", frame: .zero), under: root)
        var batch = NodeBatch()
        let a = try batch.append(.view("a", frame: .zero), under: nil)
        try batch.append(.element("a1"), under: a)
        try batch.append(.view("b", frame: .zero), under: nil)
        try batch.append(.element("a2"), under: a)
        let made = try tree.append(batch, under: root)
        #expect(made.map { tree.id(of: $0) } == ["a", "a1", "b", "a2"])
        #expect(tree.children(of: root).map { tree.id(of: $0) } == ["old", "a", "b"])
        #expect(tree.children(of: made[0]).map { tree.id(of: $0) } == ["a1", "a2"])
        #expect(tree.previousSibling(of: made[0]) == tree.node(withID: "old"))
        #expect(tree.nextSibling(of: made[1]) == made[3])
        #expect(tree.lastChild(of: root) == made[2])
        #expect(tree.count == 6)
    }

    /// Each error, the node it names, and the tree left as it was: no node
    /// added, no id registered.
    @Test func errorsNameTheFirstNodeAtFaultAndChangeNothing() throws {
        var tree = ElementTree()
        let root = try tree.append(.view("root", frame: CGRect(x: 0, y: 0, width: 100, height: 100)), under: .none)
        let label = try tree.append(.element("label"), under: root)
        let before = try Self.contents(tree)

        func expectError(
            _ batch: NodeBatch, under parent: NodeID, node: String, key: String?, _ message: String,
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            var copy = tree
            do {
                try copy.append(batch, under: parent)
                Issue.record("no error", sourceLocation: sourceLocation)
            } catch {
                #expect(error.node == node, sourceLocation: sourceLocation)
                #expect(error.key == key, sourceLocation: sourceLocation)
                #expect(error.message.contains(message), "\(error)", sourceLocation: sourceLocation)
            }
            // Nothing was written: the same nodes, no id of the batch
            // registered, the id table not grown.
            #expect(copy.idTable.bucketCount == tree.idTable.bucketCount, sourceLocation: sourceLocation)
            let after = try Self.contents(copy)
            #expect(after.count == before.count, sourceLocation: sourceLocation)
            #expect(copy.count == 2, sourceLocation: sourceLocation)
            for k in 0 ..< batch.count where before[batch.names[k]] == nil {
                #expect(copy.node(withID: batch.names[k]) == nil, sourceLocation: sourceLocation)
            }
        }
        func batch(_ nodes: [(Node, Int?)]) throws(TreeError) -> NodeBatch {
            var b = NodeBatch()
            for (node, parent) in nodes { try b.append(node, under: parent) }
            return b
        }
        let v = { (id: String) in Node.view(id, frame: .zero) }

        // An id the tree holds; one the batch repeats (the second is at
        // fault).
        try expectError(batch([(v("x"), nil), (v("label"), 0)]), under: root, node: "label", key: "id", "duplicate id")
        try expectError(
            batch([(v("x"), nil), (v("y"), 0), (.element("x"), 1)]), under: root, node: "x", key: "id", "duplicate id")
        // A second root; an element as the root.
        try expectError(batch([(v("x"), nil)]), under: .none, node: "x", key: nil, "one root")
        var empty = ElementTree()
        do {
            try empty.append(batch([(.element("e"), nil)]), under: .none)
            Issue.record("an element became the root")
        } catch {
            #expect(error.node == "e" && error.key == "kind")
        }
        #expect(empty.count == 0 && empty.root.isNone)
        do {
            try empty.append(batch([(v("r1"), nil), (v("r2"), nil)]), under: .none)
            Issue.record("two roots")
        } catch {
            #expect(error.node == "r2" && error.message.contains("one root"))
        }
        #expect(empty.count == 0 && empty.node(withID: "r1") == nil)
        // A view under an element node: of the tree, and of the batch.
        try expectError(batch([(v("x"), nil)]), under: label, node: "x", key: "kind", "view cannot be a child")
        try expectError(
            batch([(v("x"), nil), (.element("e"), 0), (v("y"), 1)]), under: root, node: "y", key: "kind",
            "view cannot be a child")
        // A parent the tree does not hold (removed).
        var other = tree
        let gone = try other.append(v("gone"), under: root)
        try other.removeSubtree(gone)
        try expectError(batch([(v("x"), nil)]), under: gone, node: "x", key: nil, "not a node of the tree")

        // The first node at fault wins: a misplaced node before a repeated
        // id, and a repeated id before a misplaced node; at one node, its id
        // first.
        try expectError(
            batch([(.element("e"), nil), (v("bad"), 0), (v("root"), nil)]), under: root, node: "bad", key: "kind",
            "view cannot be a child")
        try expectError(
            batch([(.element("e"), nil), (v("root"), nil), (v("bad"), 0)]), under: root, node: "root", key: "id",
            "duplicate id")
        try expectError(
            batch([(.element("e"), nil), (v("label"), 0)]), under: root, node: "label", key: "id", "duplicate id")

        // The same rule in a batch past the radix sort's threshold: of two
        // repeated ids, the earlier repetition is reported.
        var large: [(Node, Int?)] = (0 ..< 5_000).map { (v("m\($0)"), $0 == 0 ? nil : 0) }
        large[3_000].0.id = "m10"
        large[2_000].0.id = "m1500"
        try expectError(batch(large), under: root, node: "m1500", key: "id", "duplicate id")
        large[2_000].0.id = "m2000"
        try expectError(batch(large), under: root, node: "m10", key: "id", "duplicate id")
        large[3_000].0.id = "m3000"
        large[4_000].0.id = "label"
        try expectError(batch(large), under: root, node: "label", key: "id", "duplicate id")
        large[4_000].0.id = "m4000"
        var grown = tree
        #expect(try grown.append(batch(large), under: root).count == 5_000)
        #expect(grown.count == 5_002)
        #expect(tree.count == 2)  // a copy taken before is unchanged
    }

    /// What a batch refuses as each node is added: values
    /// (`Node.validate()`) and a parent index not given out yet. The batch
    /// is unchanged then.
    @Test func aBatchChecksEachNodeAsItIsAdded() throws {
        var batch = NodeBatch()
        try batch.append(.view("a", frame: .zero), under: nil)
        for parent in [1, 5, -1, Int.max, Int.min] {
            #expect(throws: TreeError.self) { try batch.append(.view("b", frame: .zero), under: parent) }
        }
        do {
            try batch.append(.view("b", frame: .zero), under: 1)
            Issue.record("a parent not added yet was taken")
        } catch {
            #expect(error.node == "b" && error.key == "parent")
        }
        do {
            try batch.append(.view("c", frame: CGRect(x: 0, y: 0, width: -1, height: 1)), under: 0)
            Issue.record("a negative width was taken")
        } catch {
            #expect(error.node == "c" && error.key == "frame")
        }
        #expect(batch.count == 1)
        var tree = ElementTree()
        let made = try tree.append(batch, under: .none)
        #expect(made.count == 1 && tree.root == made[0] && tree.count == 1)
        // An empty batch adds nothing and checks nothing, under any parent,
        // into any tree (as no appends at all).
        #expect(try tree.append(NodeBatch(), under: made[0]).isEmpty)
        #expect(try tree.append(NodeBatch(), under: NodeID(slot: 7, generation: 0)).isEmpty)
        var fresh = ElementTree()
        #expect(try fresh.append(NodeBatch(), under: .none).isEmpty)
        #expect(try fresh.append(NodeBatch(), under: made[0]).isEmpty)
        #expect(tree.count == 1 && fresh.count == 0)
    }

    /// A tree copied before a batch (a snapshot) keeps its nodes: the batch's
    /// column appends copy what they share.
    @Test func aCopyTakenBeforeKeepsItsNodes() throws {
        var tree = ElementTree()
        let root = try tree.append(.view("root", frame: CGRect(x: 0, y: 0, width: 100, height: 100)), under: .none)
        for k in 0 ..< 3_000 { try tree.append(.view("v\(k)", frame: .zero), under: root) }
        let snapshot = tree
        let before = try Self.contents(snapshot)
        var batch = NodeBatch()
        for k in 0 ..< 3_000 { try batch.append(.element("e\(k)"), under: nil) }
        try tree.append(batch, under: tree.node(withID: "v2999")!)
        #expect(tree.count == 6_001)
        #expect(snapshot.count == 3_001)
        #expect(snapshot.children(of: try #require(snapshot.node(withID: "v2999"))).isEmpty)
        #expect(snapshot.node(withID: "e0") == nil)
        let after = try Self.contents(snapshot)
        #expect(after.count == before.count)
        for (id, value) in before { #expect(after[id]?.0 == value.0 && after[id]?.2 == value.2, "\(id)") }
    }

    /// The example of the "Hit-testing a screen" article, as written there:
    /// a window and 1,000 rows of 44 pt; a point in row 500 hits it.
    @Test func theArticlesExampleBuilds() throws {
        var batch = NodeBatch()
        let window = try batch.append(.view("window", frame: CGRect(x: 0, y: 0, width: 390, height: 844)), under: nil)
        for row in 0 ..< 1_000 {
            var cell = Node.element("row-\(row)")
            cell.accessibilityFrameInContainerSpace = CGRect(x: 0, y: Double(row) * 44, width: 390, height: 44)
            try batch.append(cell, under: window)
        }
        var tree = ElementTree()
        let handles = try tree.append(batch, under: .none)
        #expect(handles.count == 1_001 && tree.root == handles[0])
        #expect(tree.id(of: handles[501]) == "row-500")
        // Row 10 spans y 440 to 484 on the screen (the window is at the origin).
        let hit = HitTester(tree).hit(CGPoint(x: 100, y: 460))
        #expect(hit.map { tree.id(of: $0) } == "row-10")
    }

    /// A batch appended into an empty tree is taken whole, its columns
    /// shared: writes to the tree afterwards must not reach the batch, nor
    /// another tree made from it.
    @Test func treesMadeFromOneBatchAreIndependent() throws {
        var batch = NodeBatch()
        let root = try batch.append(.view("root", frame: CGRect(x: 0, y: 0, width: 100, height: 100)), under: nil)
        for k in 0 ..< 2_000 {
            var node = Node.element("e\(k)")
            node.accessibilityLabel = "label \(k), long enough to live on the heap"
            node.accessibilityFrameInContainerSpace = CGRect(x: 0, y: Double(k), width: 10, height: 1)
            try batch.append(node, under: root)
        }
        var first = ElementTree(), second = ElementTree()
        try first.append(batch, under: .none)
        // Rewrite, remove and add in the first tree.
        let e5 = try #require(first.node(withID: "e5"))
        var changed = try first.node(e5)
        changed.accessibilityLabel = "changed"
        try first.update(e5, to: changed)
        try first.removeSubtree(try #require(first.node(withID: "e1999")))
        try first.append(.element("extra"), under: first.root)
        try second.append(batch, under: .none)
        #expect(second.count == 2_001)
        #expect(try second.node(#require(second.node(withID: "e5"))).accessibilityLabel?.hasPrefix("label 5,") == true)
        #expect(second.node(withID: "e1999") != nil && second.node(withID: "extra") == nil)
        #expect(try first.node(e5).accessibilityLabel == "changed")
        #expect(first.count == 2_001)
        // And the other way: the second tree's writes leave the first alone.
        try second.update(try #require(second.node(withID: "e7")), to: .element("e7"))
        #expect(try first.node(#require(first.node(withID: "e7"))).accessibilityLabel != nil)
    }
}
