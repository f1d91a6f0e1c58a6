import Foundation
import Testing

@testable import AXHit

@Suite struct OverflowLevelsTests {
    static func box(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> ItemBoxes {
        ItemBoxes(local: CGRect(x: x, y: y, width: w, height: h))
    }

    static func found(_ o: OverflowLevels, _ p: CGPoint) -> Set<NodeID> {
        var out = Set<NodeID>()
        o.forEach(local: p, screen: p) { out.insert($0) }
        return out
    }

    @Test func levelsFollowABinaryCounter() {
        var o = OverflowLevels()
        for k in 0 ..< 64 * 5 { o.insert(NodeID(Int32(k)), Self.box(Double(k), 0, 1, 1)) }
        // 5 merges of 64: levels hold 64 (the fifth) and 256 (the first four).
        #expect(o.list.isEmpty)
        #expect(o.levels.map(\.live) == [64, 0, 256])
        #expect(o.count == 320)
        // Every child is found at its own box, and only there.
        for k in stride(from: 0, to: 320, by: 7) {
            #expect(Self.found(o, CGPoint(x: Double(k) + 0.5, y: 0.5)) == [NodeID(Int32(k))])
        }
    }

    @Test func agreesWithABruteForceScanThroughInsertsRemovalsAndMoves() {
        var rng = SeededRandom(seed: 21)
        var o = OverflowLevels()
        var truth: [NodeID: ItemBoxes] = [:]
        var next: Int32 = 0
        for step in 0 ..< 3000 {
            let roll = Int.random(in: 0 ..< 10, using: &rng)
            if roll < 6 || truth.isEmpty {
                let b = Self.box(
                    rng.number(0 ... 500), rng.number(0 ... 500), rng.number(1 ... 40), rng.number(1 ... 40))
                o.insert(NodeID(next), b)
                truth[NodeID(next)] = b
                next += 1
            } else if roll < 8 {
                let c = truth.keys.randomElement(using: &rng)!
                let removed = o.remove(c)
                #expect(removed)
                truth[c] = nil
            } else {
                let c = truth.keys.randomElement(using: &rng)!
                var b = Self.box(
                    rng.number(0 ... 500), rng.number(0 ... 500), rng.number(1 ... 40), rng.number(1 ... 40))
                // Now and then a screen box, which a level's screen tree must take up.
                if roll == 9 {
                    b.screen = CGRect(x: rng.number(0 ... 500), y: rng.number(0 ... 500), width: 10, height: 10)
                }
                o.setBoxes(of: c, to: b)
                truth[c] = b
            }
            if step % 100 == 0 {
                #expect(o.count == truth.count)
                for _ in 0 ..< 50 {
                    let p = CGPoint(x: rng.number(0 ... 540), y: rng.number(0 ... 540))
                    let expected = Set(truth.filter { $0.value.mayHold(local: p, screen: p) }.keys)
                    #expect(Self.found(o, p) == expected)
                }
            }
        }
        let removedUnknown = o.remove(NodeID(next + 5))
        #expect(!removedUnknown)
        var all = Set<NodeID>()
        o.forEachChild { all.insert($0) }
        #expect(all == Set(truth.keys))
    }
}

extension OverflowLevelsTests {
    @Test func anInsertUnderACopySharesThePlaceTable() {
        // 5,000 children: levels of 4,096, 512, 256 and 128, and 8 in the
        // list, so that the next insert goes to the list and merges nothing.
        var o = OverflowLevels()
        for k in 0 ..< 5_000 { o.insert(NodeID(Int32(k)), Self.box(Double(k % 100), Double(k / 100), 1, 1)) }
        #expect(o.list.count == 8)
        let copy = o
        o.insert(NodeID(Int32(9_000)), Self.box(0, 0, 1, 1))
        let (shared, all) = o.places.sharedChunks(with: copy.places)
        #expect(all >= 8 && shared >= all - 2)
        #expect(Self.found(o, CGPoint(x: 0.5, y: 0.5)) == [NodeID(0), NodeID(9_000)])
        #expect(Self.found(copy, CGPoint(x: 0.5, y: 0.5)) == [NodeID(0)])
        let removedNew = o.remove(NodeID(Int32(9_000))), removedLast = o.remove(NodeID(Int32(4_999)))
        let removedTwice = o.remove(NodeID(Int32(9_000)))
        #expect(removedNew && removedLast && !removedTwice)
        #expect(copy.count == 5_000 && o.count == 4_999)
        // A removal and a move from the largest level leave its arrays
        // shared with the copy (each would otherwise copy 4,096 items).
        let removedFirst = o.remove(NodeID(0))
        #expect(removedFirst)
        o.setBoxes(of: NodeID(1), to: Self.box(700, 700, 1, 1))
        func same(_ a: [NodeID], _ b: [NodeID]) -> Bool {
            a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress } }
        }
        #expect(
            o.levels.count == copy.levels.count
                && o.levels.indices.allSatisfy { same(o.levels[$0].items, copy.levels[$0].items) })
        #expect(
            Self.found(o, CGPoint(x: 0.5, y: 0.5)).isEmpty && Self.found(copy, CGPoint(x: 0.5, y: 0.5)) == [NodeID(0)])
        #expect(
            Self.found(o, CGPoint(x: 1.5, y: 0.5)).isEmpty && Self.found(o, CGPoint(x: 700.5, y: 700.5)) == [NodeID(1)])
        #expect(Self.found(copy, CGPoint(x: 1.5, y: 0.5)) == [NodeID(1)] && o.count == 4_998)
    }
}

extension OverflowLevelsTests {
    @Test func aSlotReusedByANewChildIsNotTheOldOne() {
        // Removals and moves leave a level's items as they are; a child that
        // reuses a removed child's slot (as the tree reuses it, under the
        // next generation) must not revive the old item, nor hide behind it.
        var rng = SeededRandom(seed: 5)
        var o = OverflowLevels()
        var truth: [NodeID: ItemBoxes] = [:]
        var freed: [NodeID] = []
        var next: Int32 = 0
        var reused = 0
        for step in 0 ..< 4000 {
            let roll = Int.random(in: 0 ..< 10, using: &rng)
            if roll < 6 || truth.isEmpty {
                let b = Self.box(
                    rng.number(0 ... 300), rng.number(0 ... 300), rng.number(5 ... 60), rng.number(5 ... 60))
                var c = NodeID(next)
                if let old = freed.popLast(), rng.chance(0.7) {
                    c = NodeID(slot: old.rawValue, generation: old.generation + 1)
                    reused += 1
                } else {
                    next += 1
                }
                o.insert(c, b)
                truth[c] = b
            } else if roll < 9 {
                let c = truth.keys.randomElement(using: &rng)!
                let removed = o.remove(c)
                #expect(removed)
                truth[c] = nil
                freed.append(c)
            } else {
                let c = truth.keys.randomElement(using: &rng)!
                let b = Self.box(
                    rng.number(0 ... 300), rng.number(0 ... 300), rng.number(5 ... 60), rng.number(5 ... 60))
                o.setBoxes(of: c, to: b)
                truth[c] = b
            }
            if step % 200 == 199 {
                #expect(o.count == truth.count)
                var all = Set<NodeID>()
                o.forEachChild { all.insert($0) }
                #expect(all == Set(truth.keys))
                for _ in 0 ..< 40 {
                    let p = CGPoint(x: rng.number(0 ... 360), y: rng.number(0 ... 360))
                    let expected = Set(truth.filter { $0.value.mayHold(local: p, screen: p) }.keys)
                    #expect(Self.found(o, p) == expected)
                }
            }
        }
        // Not vacuous: slots were reused, and levels formed.
        #expect(reused > 300 && o.levels.count >= 3)
    }
}
