import AXHit
import Foundation

/// The updates: `scroll/<workload>`, `move/<workload>`, `insert/<workload>`,
/// `remove/<workload>`, each on the context's engine in place (not a copy),
/// each undoing itself so that later operations see the same screen; the
/// engine must then still agree with the naive walk.
enum UpdateBenchmarks {
    /// Offsets drawn per scroll measurement (cycled).
    static let scrollTargets = 4096
    /// Distinct nodes moved per move measurement (each moved, then back).
    static let moveTargets = 1024
    /// Views with at least this many children have an index in the engine
    /// (`IndexPolicy.wideViewChildren`, internal): "wide" below.
    static let wideChildren = 8
    /// Inserts (or removals) per latency sample: the one rebuild in 256
    /// inserts then falls in 1 sample of 64, above p99, so p99 shows it.
    static let updateBatch = 4

    // MARK: scroll

    /// One `scroll(view, to:)` of a workload's scroll views to random offsets
    /// (a different one each time), ns each; then the same while a snapshot
    /// (a copy of the engine, as a reader thread holds) is alive at every
    /// scroll, which makes the scroll copy the table of scroll offsets (one
    /// entry per scroll view) but nothing as long as the rows.
    static func runScroll(_ c: BenchContext) throws {
        let name = c.name("scroll")
        guard let plan = ScrollPlan(c) else { return }
        try c.withEngine { e in
            var failure: (any Error)?
            // Untimed: a first scroll may give a view its bounds entry.
            try plan.restore(&e)
            let sampler = c.sampler
            let plain = sampler.measure(cycle: plan.targets.count) { k in
                do { try plan.scroll(&e, k) } catch { failure = error }
                return k
            }
            let shared = sampler.measure(cycle: plan.targets.count) { k in
                do { try plan.scrollShared(&e, k) } catch { failure = error }
                return k
            }
            if let failure { throw failure }
            try plan.restore(&e)
            c.results.add(name, "axhit", elements: c.elements, metric: "latency", unit: "ns", samples: plain.samples)
            c.results.add(
                name, "axhit", elements: c.elements, metric: "scroll-shared", unit: "ns", samples: shared.samples)
        }
        try checkRestored(c, name)
    }

    /// What `scroll` does: `scrollTargets` seeded (view, offset) pairs among
    /// the workload's scroll views, and their offsets to go back to.
    struct ScrollPlan {
        var targets: [(NodeID, CGPoint)]
        var original: [(NodeID, CGPoint)]

        /// Nil (and a log line) when the workload has no scroll view.
        init?(_ c: BenchContext) {
            let views = c.screen.scrollViews
            guard !views.isEmpty else {
                c.log.log("  no scroll view in \(c.workload.name): skipped")
                return nil
            }
            var rng = SplitMix64(seed: c.settings.seed &+ 0x5C4011)
            targets = (0 ..< scrollTargets).map { _ in
                let v = views[rng.below(views.count)]
                return (
                    v.id,
                    CGPoint(
                        x: rng.uniform(0, Double(v.maxOffset.x)).rounded(),
                        y: rng.uniform(0, Double(v.maxOffset.y)).rounded())
                )
            }
            let tree = c.screen.tree
            original = views.compactMap { v in tree[v.id].map { (v.id, $0.effectiveBounds.origin) } }
        }

        /// Scroll `k` (of `targets`).
        @inline(__always)
        func scroll(_ e: inout HitTester, _ k: Int) throws { try e.scroll(targets[k].0, to: targets[k].1) }

        /// Scroll `k` while a reader's snapshot (a copy of the engine) is
        /// alive across it.
        @inline(__always)
        func scrollShared(_ e: inout HitTester, _ k: Int) throws {
            let snapshot = e
            try withExtendedLifetime(snapshot) { try e.scroll(targets[k].0, to: targets[k].1) }
        }

        /// Every scroll view back at its original offset.
        func restore(_ e: inout HitTester) throws {
            for (v, o) in original { try e.scroll(v, to: o) }
        }
    }

    // MARK: move

    /// `update(id, to:)` changing the frame of one random view below the
    /// root (a cell, a row, a card, ...), ns per update; every node moved is
    /// moved back on the second half of the cycle.
    ///
    /// Two figures, because the first writes cost more than the rest: the
    /// engine shares its columns' chunks with the tree it was built from
    /// (the context keeps that tree, as a user who keeps theirs does), so
    /// the first write to each chunk copies it. `first-cycle` times each
    /// update of the first cycle alone (one sample each; the clock's ~30 ns
    /// is in them); `latency` is measured after it, in steady state, when
    /// every chunk the cycle writes is the engine's own.
    static func runMove(_ c: BenchContext) throws {
        let name = c.name("move")
        guard let plan = MovePlan(c) else { return }
        try c.withEngine { e in
            var first: [Double] = []
            first.reserveCapacity(plan.cycle)
            for k in 0 ..< plan.cycle {
                let start = Stopwatch.now()
                try plan.step(&e, k)
                first.append(Double(Stopwatch.now() - start))
            }
            var failure: (any Error)?
            let m = c.sampler.measure(cycle: plan.cycle) { k in
                do { try plan.step(&e, k) } catch { failure = error }
                return k
            }
            // Finish the cycle: every moved node goes back.
            for k in m.next ..< plan.cycle { try plan.step(&e, k) }
            if let failure { throw failure }
            c.results.add(name, "axhit", elements: c.elements, metric: "latency", unit: "ns", samples: m.samples)
            c.results.add(name, "axhit", elements: c.elements, metric: "first-cycle", unit: "ns", samples: first)
        }
        try checkRestored(c, name)
    }

    /// What `move` does: up to `moveTargets` distinct seeded views below the
    /// root, each with its node moved by up to 20 points; a cycle moves each
    /// one, then each one back.
    struct MovePlan {
        var targets: [NodeID]
        var originals: [Node]
        var moved: [Node]
        /// Updates per cycle: every target moved, then moved back.
        var cycle: Int { 2 * targets.count }

        /// Nil (and a log line) when there is no view below the root.
        init?(_ c: BenchContext) {
            let tree = c.screen.tree
            var rng = SplitMix64(seed: c.settings.seed &+ 0x30FE)
            var picked = Set<NodeID>()
            var targets: [NodeID] = []
            var attempts = 0
            while targets.count < moveTargets && attempts < moveTargets * 50 && tree.capacity > 0 {
                attempts += 1
                guard let id = tree.nodeID(inSlot: rng.below(tree.capacity)), tree.kind(of: id) == .view else {
                    continue
                }
                let parent = tree.parent(of: id)
                guard !parent.isNone, tree.kind(of: parent) == .view, picked.insert(id).inserted else { continue }
                targets.append(id)
            }
            guard !targets.isEmpty else {
                c.log.log("  no view below the root in \(c.workload.name): skipped")
                return nil
            }
            self.targets = targets
            originals = targets.compactMap { tree[$0] }  // all live: picked above
            moved = originals.map { node -> Node in
                var n = node
                n.frame = n.frame.offsetBy(dx: rng.uniform(-20, 20).rounded(), dy: rng.uniform(-20, 20).rounded())
                return n
            }
        }

        /// Update `k` of the cycle: the first half moves, the second moves back.
        @inline(__always)
        func step(_ e: inout HitTester, _ k: Int) throws {
            let count = targets.count
            if k < count {
                try e.update(targets[k], to: moved[k])
            } else {
                try e.update(targets[k - count], to: originals[k - count])
            }
        }
    }

    // MARK: modal

    /// What `modal` toggles: the backmost child view of the widest view,
    /// as it is and with `accessibilityViewIsModal`.
    struct ModalPlan {
        var target: NodeID
        var plain: Node
        var modal: Node

        /// Nil (and a log line) when no view is wide enough.
        init?(_ c: BenchContext) {
            let tree = c.screen.tree
            guard let container = UpdateBenchmarks.widestView(tree),
                let target = tree.children(of: container).first(where: { tree.kind(of: $0) == .view })
            else {
                c.log.log("  no view with \(UpdateBenchmarks.wideChildren)+ subviews in \(c.workload.name): skipped")
                return nil
            }
            guard let plain = tree[target] else { return nil }
            self.target = target
            self.plain = plain
            modal = plain
            modal.accessibilityViewIsModal = true
        }

        /// Update `k`: even ones make the target modal, odd ones take it back.
        @inline(__always)
        func step(_ e: inout HitTester, _ k: Int) throws {
            try e.update(target, to: k % 2 == 0 ? modal : plain)
        }
    }

    /// `update(id, to:)` that gives the backmost child of the widest view
    /// `accessibilityViewIsModal`, or takes it back, ns each: the modal view
    /// suppresses or releases all its siblings, one walk of the parent's
    /// subtree, O(that subtree) whatever the number of siblings.
    static func runModal(_ c: BenchContext) throws {
        let name = c.name("modal")
        guard let plan = ModalPlan(c) else { return }
        try c.withEngine { e in
            var failure: (any Error)?
            let m = c.sampler.measure(cycle: 2) { k in
                do { try plan.step(&e, k) } catch { failure = error }
                return k
            }
            if let failure { throw failure }
            try plan.step(&e, 1)
            c.results.add(name, "axhit", elements: c.elements, metric: "latency", unit: "ns", samples: m.samples)
        }
        try checkRestored(c, name)
    }

    // MARK: insert, remove

    /// The widest view (most child views), if wide enough to be indexed.
    static func widestView(_ tree: ElementTree) -> NodeID? {
        var counts = [Int32](repeating: 0, count: tree.capacity)
        tree.forEachInPreOrder(from: tree.root) { id in
            let p = tree.parent(of: id)
            if !p.isNone && tree.kind(of: id) == .view { counts[p.index] += 1 }
        }
        guard let best = counts.indices.max(by: { counts[$0] < counts[$1] }), counts[best] >= wideChildren else {
            return nil
        }
        return NodeID(Int32(best))
    }

    /// What `insert` and `remove` put in: `count` (default
    /// `settings.insertCount`) rows of ten
    /// accessible cells (an `ElementTree` each, fresh ids), each at a random
    /// place in the widest view and a random z-position among its children.
    struct Inserts {
        var container: NodeID
        var rows: [ElementTree]
        var behind: [NodeID]
    }

    static func inserts(_ c: BenchContext, count: Int? = nil) throws -> Inserts? {
        let tree = c.screen.tree
        guard let container = widestView(tree) else {
            c.log.log("  no view with \(wideChildren)+ subviews in \(c.workload.name): skipped")
            return nil
        }
        let children = tree.children(of: container)
        let bounds = try tree.node(container).effectiveBounds
        var rng = SplitMix64(seed: c.settings.seed &+ 0x1A5E)
        let rowW = min(Double(bounds.width), 800), rowH = 60.0, cellW = rowW / 10
        var rows: [ElementTree] = [], behind: [NodeID] = []
        for k in 0 ..< (count ?? c.settings.insertCount) {
            var t = ElementTree()
            let x = Double(bounds.minX) + rng.uniform(0, max(0, Double(bounds.width) - rowW))
            let y = Double(bounds.minY) + rng.uniform(0, max(0, Double(bounds.height) - rowH))
            // Ids of the `x` family: the generators use `n`.
            let row = try t.append(
                Node.view("x\(k)", frame: CGRect(x: x, y: y, width: rowW, height: rowH)), under: .none)
            for j in 0 ..< 10 {
                var cell = Node.view(
                    "x\(k).\(j)", frame: CGRect(x: Double(j) * cellW + 2, y: 2, width: cellW - 4, height: rowH - 4))
                cell.isAccessibilityElement = true
                try t.append(cell, under: row)
            }
            rows.append(t)
            behind.append(rng.below(8) == 0 ? .none : children[rng.below(children.count)])
        }
        return Inserts(container: container, rows: rows, behind: behind)
    }

    /// Inserts every row, `updateBatch` per sample when `timed`; returns
    /// the new rows' ids and the samples (ns per insert).
    static func insertAll(_ e: inout HitTester, _ s: Inserts, timed: Bool) throws -> ([NodeID], [Double]) {
        var ids: [NodeID] = []
        ids.reserveCapacity(s.rows.count)
        var samples: [Double] = []
        var k = 0
        while k < s.rows.count {
            let n = min(updateBatch, s.rows.count - k)
            let start = Stopwatch.now()
            for _ in 0 ..< n {
                ids.append(try e.insert(s.rows[k], under: s.container, before: s.behind[k]))
                k += 1
            }
            if timed { samples.append(Double(Stopwatch.now() - start) / Double(n)) }
        }
        return (ids, samples)
    }

    /// Removes `ids` in a seeded random order, `updateBatch` per sample.
    static func removeAll(_ e: inout HitTester, _ ids: [NodeID], seed: UInt64) throws -> [Double] {
        var order = ids
        var rng = SplitMix64(seed: seed)
        for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, rng.below(i + 1)) }
        var samples: [Double] = []
        var k = 0
        while k < order.count {
            let n = min(updateBatch, order.count - k)
            let start = Stopwatch.now()
            for _ in 0 ..< n {
                try e.removeSubtree(order[k])
                k += 1
            }
            samples.append(Double(Stopwatch.now() - start) / Double(n))
        }
        return samples
    }

    /// `insert(subtree, under:, before:)` of a row of ten cells into the
    /// widest view, ns per insert (rebuilds of the view's index included,
    /// one per 256 inserts: p99). Measured in steady state: a first untimed
    /// round of inserts and removals pays the copy of the tree's columns and
    /// leaves free slots, so no column grows while timed. Then the updates
    /// under snapshots: `insertAllShared` and `insertManyShared`.
    static func runInsert(_ c: BenchContext) throws {
        let name = c.name("insert")
        guard let s = try inserts(c) else { return }
        try c.withEngine { e in
            let (warm, _) = try insertAll(&e, s, timed: false)
            _ = try removeAll(&e, warm, seed: c.settings.seed)
            let (ids, samples) = try insertAll(&e, s, timed: true)
            _ = try removeAll(&e, ids, seed: c.settings.seed)
            let shared = try insertAllShared(&e, s)
            c.results.add(name, "axhit", elements: c.elements, metric: "latency", unit: "ns", samples: samples)
            c.results.add(
                name, "axhit", elements: c.elements, metric: "amortized", unit: "ns",
                samples: [samples.reduce(0, +) / Double(max(1, samples.count))])
            c.results.add(
                name, "axhit", elements: c.elements, metric: "insert-shared", unit: "ns", samples: shared.inserts)
            c.results.add(
                name, "axhit", elements: c.elements, metric: "insert-publish", unit: "ns", samples: shared.publishes)
            c.results.add(
                name, "axhit", elements: c.elements, metric: "remove-shared", unit: "ns", samples: shared.removals)
            if let many = try inserts(c, count: manySharedUpdates) {
                let deep = try insertManyShared(&e, many)
                c.results.add(
                    name, "axhit", elements: c.elements, metric: "insert-shared-4k", unit: "ns", samples: deep.inserts)
                c.results.add(
                    name, "axhit", elements: c.elements, metric: "remove-shared-4k", unit: "ns", samples: deep.removals)
            }
        }
        try checkRestored(c, name)
        let built = try removeBuiltRows(c.screen.tree, s.container)
        c.results.add(name, "axhit", elements: c.elements, metric: "remove-built", unit: "ns", samples: built.plain)
        c.results.add(
            name, "axhit", elements: c.elements, metric: "remove-built-shared", unit: "ns", samples: built.shared)
    }

    /// Rows inserted (then removed) while a snapshot is alive: a reader's
    /// copy of the engine, published after every update.
    static let sharedUpdates = 64

    /// The first `sharedUpdates` rows inserted one by one, each while a
    /// snapshot taken just before it (the one published after the previous
    /// update) is alive, then removed the same way: ns per update. What an
    /// owner that publishes a snapshot after each update pays; `publishes`
    /// adds the publication itself, which drops the previous snapshot (its
    /// release, paid by whoever drops it last: here the owner).
    static func insertAllShared(
        _ e: inout HitTester, _ s: Inserts
    ) throws -> (inserts: [Double], publishes: [Double], removals: [Double]) {
        var published = e
        var ids: [NodeID] = [], inserts: [Double] = [], publishes: [Double] = [], removals: [Double] = []
        for k in 0 ..< min(sharedUpdates, s.rows.count) {
            let start = Stopwatch.now()
            ids.append(try e.insert(s.rows[k], under: s.container, before: s.behind[k]))
            let inserted = Stopwatch.now()
            published = e
            let end = Stopwatch.now()
            inserts.append(Double(inserted - start))
            publishes.append(Double(end - start))
        }
        for id in ids.reversed() {
            let start = Stopwatch.now()
            try e.removeSubtree(id)
            removals.append(Double(Stopwatch.now() - start))
            published = e
        }
        withExtendedLifetime(published) {}
        return (inserts, publishes, removals)
    }

    /// Rows of `insertManyShared`: enough for the view's unindexed children
    /// (its index's overflow) to fill levels of thousands.
    static let manySharedUpdates = 4096

    /// `manySharedUpdates` rows inserted one by one, each under the snapshot
    /// published after the previous update, then removed the same way,
    /// oldest first: ns per insert for the last 256 inserts, and per removal
    /// for the first 256 removals (from the overflow's largest level). An
    /// update whose cost grows with the rows added before it (a structure
    /// copied whole under a snapshot) shows here and not in
    /// `insertAllShared`.
    static func insertManyShared(_ e: inout HitTester, _ s: Inserts) throws -> (inserts: [Double], removals: [Double]) {
        var published = e
        var ids: [NodeID] = [], inserts: [Double] = [], removals: [Double] = []
        ids.reserveCapacity(s.rows.count)
        for k in s.rows.indices {
            let start = Stopwatch.now()
            ids.append(try e.insert(s.rows[k], under: s.container, before: s.behind[k]))
            let end = Stopwatch.now()
            if k >= s.rows.count - 256 { inserts.append(Double(end - start)) }
            published = e
        }
        for (k, id) in ids.enumerated() {
            let start = Stopwatch.now()
            try e.removeSubtree(id)
            let end = Stopwatch.now()
            if k < 256 { removals.append(Double(end - start)) }
            published = e
        }
        withExtendedLifetime(published) {}
        return (inserts, removals)
    }

    /// Rows of `removeBuiltRows`, half of them under a snapshot.
    static let builtRowRemovals = 128

    /// `removeSubtree` of rows the view's index was built with (the
    /// workload's own, spread over the view), ns per removal: alternately
    /// with no snapshot alive (`plain`) and under the snapshot published just
    /// before (`shared`).
    ///
    /// On an engine of its own, in steady state as the other update rows:
    /// the rows are first removed and put back (untimed, each a copy of its
    /// subtree in front of the sibling it was behind), so that the chunks
    /// their removal writes are the engine's own rather than shared with
    /// the tree the harness keeps (a first write copies them), and the
    /// engine is built again over its tree, so that they are in the view's
    /// index, not among its additions.
    static func removeBuiltRows(_ tree: ElementTree, _ container: NodeID) throws -> (plain: [Double], shared: [Double])
    {
        var e = HitTester(tree)
        let children = e.tree.children(of: container)
        guard children.count >= 4 else { return ([], []) }
        let step = max(2, children.count / builtRowRemovals)
        var rows = stride(from: 1, to: children.count - 1, by: step).map { children[$0] }
        var removed: [(row: ElementTree, behind: NodeID)] = []
        for row in rows {
            removed.append((try subtree(e.tree, row), e.tree.nextSibling(of: row)))
            try e.removeSubtree(row)
        }
        for j in removed.indices.reversed() {
            rows[j] = try e.insert(removed[j].row, under: container, before: removed[j].behind)
        }
        e = HitTester(e.tree)
        var plain: [Double] = [], shared: [Double] = []
        var published: HitTester?
        for (j, row) in rows.enumerated() {
            published = j % 2 == 0 ? e : nil
            let start = Stopwatch.now()
            try e.removeSubtree(row)
            let end = Stopwatch.now()
            if j % 2 == 0 { shared.append(Double(end - start)) } else { plain.append(Double(end - start)) }
        }
        withExtendedLifetime(published) {}
        return (plain, shared)
    }

    /// A copy of the subtree of `root`, as a tree of its own.
    static func subtree(_ tree: ElementTree, _ root: NodeID) throws -> ElementTree {
        var copy = ElementTree()
        var made: [NodeID: NodeID] = [:]
        try tree.forEachInPreOrder(from: root) { n in
            let parent = n == root ? NodeID.none : made[tree.parent(of: n)] ?? .none
            made[n] = try copy.append(try tree.node(n), under: parent)
        }
        return copy
    }

    /// `removeSubtree` of the rows `insert` puts in, in random order, ns per
    /// removal (a view's index is rebuilt once half its items are gone).
    static func runRemove(_ c: BenchContext) throws {
        let name = c.name("remove")
        guard let s = try inserts(c) else { return }
        try c.withEngine { e in
            let (ids, _) = try insertAll(&e, s, timed: false)
            let samples = try removeAll(&e, ids, seed: c.settings.seed &+ 1)
            c.results.add(name, "axhit", elements: c.elements, metric: "latency", unit: "ns", samples: samples)
            c.results.add(
                name, "axhit", elements: c.elements, metric: "amortized", unit: "ns",
                samples: [samples.reduce(0, +) / Double(max(1, samples.count))])
        }
        try checkRestored(c, name)
    }

    /// After an update measurement undid itself, the engine must answer as
    /// the naive walk over the original tree does.
    static func checkRestored(_ c: BenchContext, _ name: String) throws {
        let engine = try c.engine()
        let naive = try c.naive()
        let tree = c.screen.tree
        for p in QueryBenchmarks.guardProbes(c) {
            let a = engine.hit(p, policy: .frame), b = naive.hit(p)
            if a != b {
                throw BenchError(
                    "\(name) at \(c.elements) elements: after undoing its updates the engine answers "
                        + "\(a.map { engine.tree.id(of: $0) } ?? "none") at (\(p.x), \(p.y)), the naive walk "
                        + "\(b.map { tree.id(of: $0) } ?? "none")")
            }
        }
    }
}
