import Foundation
import Testing

@testable import AXHit

@Suite struct SlotMapTests {
    @Test func holdsTheFirstAndLastSlots() {
        var map = SlotMap(filler: Int32(0))
        map.set(0, 7)
        map.set(Int32.max, 9)
        #expect(map[0] == 7 && map[Int32.max] == 9 && map[1] == nil)
        #expect(map.count == 2)
        map.set(0, 8)
        #expect(map[0] == 8 && map.count == 2)
        #expect(map.removeValue(forSlot: 0) == 8)
        #expect(map[0] == nil && map[Int32.max] == 9 && map.count == 1)
        #expect(map.removeValue(forSlot: 0) == nil)
        // A negative slot (`NodeID.none`'s) is in no map, though its key
        // would read as an empty bucket's.
        #expect(map[-1] == nil && map[NodeID.none.rawValue] == nil && map.removeValue(forSlot: -1) == nil)
        #expect(map.count == 1)
    }

    @Test func agreesWithADictionaryThroughSetsAndRemovals() {
        // Slots from a small range, so that runs form, wrap and are shifted
        // back by removals; the map grows from empty through several sizes.
        var rng = SeededRandom(seed: 77)
        var map = SlotMap(filler: Int32(-1))
        var truth: [Int32: Int32] = [:]
        var removedPresent = 0
        for step in 0 ..< 40_000 {
            let slot = Int32.random(in: 0 ..< 6_000, using: &rng)
            if rng.chance(0.4) {
                if truth[slot] != nil { removedPresent += 1 }
                #expect(map.removeValue(forSlot: slot) == truth.removeValue(forKey: slot))
            } else {
                let value = Int32(truncatingIfNeeded: step)
                map.set(slot, value)
                truth[slot] = value
            }
            if step % 4_000 == 3_999 {
                #expect(map.count == truth.count)
                for s in Int32(0) ..< 6_000 where map[s] != truth[s] {
                    Issue.record("slot \(s): \(String(describing: map[s])), expected \(String(describing: truth[s]))")
                }
            }
        }
        // The run was not vacuous: the map held thousands, and removals met
        // entries present.
        #expect(truth.count > 2_000 && removedPresent > 5_000)
    }

    @Test func aWriteUnderACopyCopiesOneChunk() {
        var map = SlotMap(filler: Int32(0))
        for s in Int32(0) ..< 20_000 { map.set(s * 3, s) }
        let copy = map
        // 20,001 entries fit the buckets without growth: one bucket's chunk
        // (or two, where the run crosses into the next) is copied.
        map.set(1, -5)
        let (shared, all) = map.sharedChunks(with: copy)
        #expect(all >= 16 && shared >= all - 2)
        #expect(map[1] == -5 && copy[1] == nil && copy.count == 20_000 && map.count == 20_001)
        #expect(map[300] == 100 && copy[300] == 100)
    }
}
