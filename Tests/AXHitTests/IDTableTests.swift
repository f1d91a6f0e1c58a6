import Foundation
import Testing

@testable import AXHit

/// The tree's id index against a `Dictionary` oracle: random inserts,
/// removals and lookups through growth and the backward shifts of
/// removals, and Swift's string equality kept (canonically equivalent ids
/// are one id).
@Suite struct IDTableTests {
    @Test func agreesWithADictionaryThroughGrowthAndRemovals() {
        var rng = SeededRandom(seed: 7)
        var table = IDTable()
        var oracle: [String: Int32] = [:]
        var ids = ChunkedColumn<String>()  // the tree's column: slot -> id
        var free: [Int32] = []
        var removals = 0
        for step in 0 ..< 60_000 {
            // Keys from a small space, so that lookups hit, inserts collide
            // with live keys and removals empty long runs.
            let key = "n\(rng.next() % 20_000)"
            let hash = IDTable.hash(key)
            let found = table.slot(of: key, hash: hash, ids: ids)
            #expect(found == oracle[key], "step \(step): \(key)")
            if let slot = found {
                // Half the time, remove what is there.
                if rng.chance(0.5) {
                    table.remove(hash: hash, slot: slot)
                    oracle[key] = nil
                    ids[Int(slot)] = ""
                    free.append(slot)
                    removals += 1
                }
            } else {
                let slot = free.popLast() ?? Int32(ids.count)
                if Int(slot) == ids.count { ids.append(key) } else { ids[Int(slot)] = key }
                table.insert(hash: hash, slot: slot)
                oracle[key] = slot
            }
            #expect(table.count == oracle.count)
        }
        // Every key the oracle holds is found; none it lacks is.
        for k in 0 ..< 20_000 {
            let key = "n\(k)"
            #expect(table.slot(of: key, hash: IDTable.hash(key), ids: ids) == oracle[key], "\(key)")
        }
        // Not vacuous: the table grew, shrank and refilled.
        #expect(removals > 10_000)
        #expect(oracle.count > 5_000)
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
