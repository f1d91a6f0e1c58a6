import Foundation
import Testing

@testable import AXHit

/// The tree's id index against a `Dictionary` oracle: random inserts,
/// removals and lookups through growth and the backward shifts of
/// removals, and Swift's string equality kept (canonically equivalent ids
/// are one id).
@Suite struct IDTableTests {
    /// A table and the `Dictionary` it must agree with, walked by random
    /// lookups, inserts and removals.
    struct OracleWalk {
        var table = IDTable()
        var oracle: [String: Int32] = [:]
        var ids = ChunkedColumn<String>()  // the tree's column: slot -> id
        var flags = ChunkedColumn<NodeFlags>()  // and its flags: `.alive` where a node holds the slot
        var free: [Int32] = []
        var removals = 0

        /// Looks `key` up (checked against the oracle); inserts it when
        /// absent, else removes it with probability `removal`. As in the
        /// tree, a freed slot keeps its id (only its flags say it is free),
        /// and a key is entered before its slot is written.
        mutating func step(_ key: String, removal: Double, rng: inout SeededRandom, _ step: Int) {
            let hash = IDTable.hash(key)
            let found = table.slot(of: key, hash: hash, ids: ids, flags: flags)
            #expect(found == oracle[key], "step \(step): \(key)")
            if let slot = found {
                if rng.chance(removal) {
                    table.remove(hash: hash, slot: slot)
                    oracle[key] = nil
                    flags[Int(slot)] = []
                    free.append(slot)
                    removals += 1
                }
            } else {
                let slot = free.popLast() ?? Int32(ids.count)
                table.insert(hash: hash, slot: slot, ids: ids, flags: flags)
                if Int(slot) == ids.count {
                    ids.append(key)
                    flags.append(.alive)
                } else {
                    ids[Int(slot)] = key
                    flags[Int(slot)] = .alive
                }
                oracle[key] = slot
            }
            #expect(table.count == oracle.count)
        }

        /// Checks every key of `prefix`0 ..< `n` (every `stride`th) against
        /// the oracle.
        func expectAgrees(_ prefix: String, _ n: Int, stride by: Int = 1) {
            for k in stride(from: 0, to: n, by: by) {
                let key = "\(prefix)\(k)"
                #expect(table.slot(of: key, hash: IDTable.hash(key), ids: ids, flags: flags) == oracle[key], "\(key)")
            }
        }
    }

    @Test func agreesWithADictionaryThroughGrowthAndRemovals() {
        var rng = SeededRandom(seed: 7)
        var walk = OracleWalk()
        for step in 0 ..< 60_000 {
            // Keys from a small space, so that lookups hit, inserts collide
            // with live keys and removals (half the time) empty long runs.
            walk.step("n\(rng.next() % 20_000)", removal: 0.5, rng: &rng, step)
        }
        // Every key the oracle holds is found; none it lacks is.
        walk.expectAgrees("n", 20_000)
        // Not vacuous: the table grew, shrank and refilled.
        #expect(walk.removals > 10_000)
        #expect(walk.oracle.count > 5_000)
    }

    /// The same walk while copies of the table (snapshots) are alive: the
    /// table agrees with the oracle at every step, and each copy, read at
    /// the end, with the oracle as it was when the copy was taken. Enough
    /// ids go in under copies to fill every level and merge the last into
    /// the main table; removals under copies leave stale entries, which
    /// lookups must pass over (their slots are emptied, and some reused
    /// with other ids).
    @Test func agreesWhileCopiesAreAlive() {
        var rng = SeededRandom(seed: 11)
        var walk = OracleWalk()
        var copies: [OracleWalk] = [], kept: [OracleWalk] = []
        var mergedIntoMain = 0, mostInLevels = 0
        for step in 0 ..< 110_000 {
            // Phases of publishing (a copy every few steps, the oldest
            // dropped) and of updates alone while the last copies live on
            // (`IDTable.quietLimit`). Some copies are kept to the end.
            if step % 7 == 0 && (step < 80_000 || (step / 5_000) % 2 == 0) {
                copies.append(walk)
                if copies.count > 3 { copies.removeFirst() }
            }
            if step % 20_000 == 0 { kept.append(walk) }
            let before = walk.table.entriesInLevels
            walk.step("k\(rng.next() % 150_000)", removal: 0.2, rng: &rng, step)
            mostInLevels = max(mostInLevels, walk.table.entriesInLevels)
            if before - walk.table.entriesInLevels >= 60_000 { mergedIntoMain += 1 }
        }
        for copy in kept + copies { copy.expectAgrees("k", 150_000, stride: 7) }
        walk.expectAgrees("k", 150_000)
        // Not vacuous: the levels filled and the last merged into the main
        // table; removals under copies happened; copies were kept.
        #expect(mostInLevels > 65_536)
        #expect(mergedIntoMain > 0)
        #expect(walk.removals > 5_000)
        #expect(kept.count == 6)
    }

    /// Ids added or removed while each update is published (a copy taken
    /// before it) copy none of the main table: the ids go to the levels,
    /// the removals leave their entries stale. A copy taken once and then
    /// updated alone sends `quietLimit` + 1 ids to the levels, then moves
    /// them into the main table, writes it, and removes in place. With no
    /// copy alive, in place.
    @Test func updatesUnderCopiesLeaveTheMainTableShared() throws {
        var tree = ElementTree()
        let root = try tree.append(.view("root", frame: CGRect(x: 0, y: 0, width: 100, height: 100)), under: .none)
        var children: [NodeID] = []
        for k in 0 ..< 20_000 { children.append(try tree.append(.view("c\(k)", frame: .zero), under: root)) }
        do {
            let first = tree
            var published = tree
            for k in 0 ..< 300 {
                published = tree
                _ = try tree.append(.view("new\(k)", frame: .zero), under: root)
                published = tree
                try tree.removeSubtree(children[k])
            }
            withExtendedLifetime(published) {}
            let (shared, of) = tree.idTable.sharedMainChunks(with: first.idTable)
            #expect(of > 16 && shared == of)
            #expect(tree.idTable.entriesInLevels >= 300)
            #expect(tree.idTable.staleEntries == 300)
            for k in 0 ..< 300 {
                #expect(tree.node(withID: "new\(k)") != nil)
                #expect(tree.node(withID: "c\(k)") == nil)
                #expect(first.node(withID: "c\(k)") == children[k])
                #expect(first.node(withID: "new\(k)") == nil)
            }
            #expect(tree.count == 20_001 && first.count == 20_001)
            // A batch checks the levels too: an id held there is taken,
            // one left stale is free.
            var taken = NodeBatch()
            _ = try taken.append(.view("fresh", frame: .zero), under: nil)
            _ = try taken.append(.view("new7", frame: .zero), under: nil)
            #expect(throws: TreeError.self) { try tree.append(taken, under: root) }
            var free = NodeBatch()
            _ = try free.append(.view("c7", frame: .zero), under: nil)
            let made = try tree.append(free, under: root)
            #expect(tree.node(withID: "c7") == made[0])
            #expect(tree.node(withID: "fresh") == nil)
        }
        // A copy taken once, then 300 ids added alone.
        do {
            var alone = ElementTree()
            let top = try alone.append(.view("top", frame: .zero), under: .none)
            for k in 0 ..< 20_000 { _ = try alone.append(.view("c\(k)", frame: .zero), under: top) }
            let kept = alone
            let toLevels = IDTable.quietLimit + 1
            for k in 0 ..< toLevels { _ = try alone.append(.view("new\(k)", frame: .zero), under: top) }
            #expect(alone.idTable.entriesInLevels == toLevels)
            // The next moves them all into the main table, which it writes.
            for k in toLevels ..< 300 { _ = try alone.append(.view("new\(k)", frame: .zero), under: top) }
            #expect(alone.idTable.entriesInLevels == 0)
            // Removals then go in place too, none left stale.
            for k in 0 ..< 100 { try alone.removeSubtree(try #require(alone.node(withID: "c\(k)"))) }
            #expect(alone.idTable.staleEntries == 0)
            #expect(alone.count == 20_201 && kept.count == 20_001)
            let (shared, of) = alone.idTable.sharedMainChunks(with: kept.idTable)
            #expect(shared < of)
            for k in 0 ..< 300 { #expect(alone.node(withID: "new\(k)") != nil && kept.node(withID: "new\(k)") == nil) }
        }
        // With no copy alive, in place: nothing more goes to the levels.
        let inLevels = tree.idTable.entriesInLevels
        _ = try tree.append(.view("alone", frame: .zero), under: root)
        #expect(tree.idTable.entriesInLevels == inLevels)
        #expect(tree.node(withID: "alone") != nil)
    }

    @Test func canonicallyEquivalentIdsAreOneId() throws {
        var tree = ElementTree()
        let root = try tree.append(.view("caf\u{E9}", frame: CGRect(x: 0, y: 0, width: 10, height: 10)), under: .none)
        #expect(tree.node(withID: "cafe\u{301}") == root)
        #expect(throws: TreeError.self) {
            try tree.append(.view("cafe\u{301}", frame: .zero), under: root)
        }
        #expect(tree.count == 1)
        // Removed ids are free again, and lookups of them fail.
        let child = try tree.append(.view("child", frame: .zero), under: root)
        try tree.removeSubtree(child)
        #expect(tree.node(withID: "child") == nil)
        let again = try tree.append(.view("child", frame: .zero), under: root)
        #expect(tree.node(withID: "child") == again)
        #expect(tree.count == 2)
    }

    /// A batch's two sorts (radix from 256 keys, a comparison sort below)
    /// give the same order, by home bucket and then index, for every table
    /// size: checked against a sort by the rule itself.
    @Test func bothBatchSortsOrderByBucketThenIndex() {
        var rng = SeededRandom(seed: 3)
        for bits in [4, 10, 11, 12, 21, 22, 23, 27] {
            for n in [1, 255, 256, 3_000] {
                let hashes = (0 ..< n).map { _ in UInt32(truncatingIfNeeded: rng.next()) }
                let entries = hashes.indices.map { UInt64(hashes[$0]) << 32 | UInt64($0) }
                let bucket = { (e: UInt64) in (e >> 32) & (UInt64(1) << UInt64(bits) - 1) }
                let expected = entries.sorted { (bucket($0), $0 & 0xFFFF_FFFF) < (bucket($1), $1 & 0xFFFF_FFFF) }
                for radix in [false, true] {
                    var sorted = entries
                    IDTable.sortByBucket(&sorted, bits: bits, radix: radix)
                    #expect(sorted == expected, "bits \(bits), n \(n), radix \(radix)")
                }
            }
        }
    }
}
