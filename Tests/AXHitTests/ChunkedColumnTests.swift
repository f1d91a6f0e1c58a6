import Foundation
import Testing

@testable import AXHit

/// `ChunkedColumn` against `Array` oracles: random appends, writes, removals
/// and copies, where every copy must keep its own values whatever is written
/// to the others; and what a write under a copy shares (every chunk but the
/// one written), counted by chunk object identity.
@Suite struct ChunkedColumnTests {
    /// Chunk sizes from the rule (16 KB over the entry's size rounded down
    /// to a power of two: 16 to 32 KB), worked out by hand.
    @Test func chunksHoldAbout16KB() {
        #expect(ChunkedColumn<UInt8>.chunkSize == 16_384)
        #expect(ChunkedColumn<Int32>.chunkSize == 4_096)
        #expect(ChunkedColumn<UInt64>.chunkSize == 2_048)
        #expect(ChunkedColumn<CGRect>.chunkSize == 512)
        #expect(ChunkedColumn<HotNode>.chunkSize == 512)  // 48 bytes, as 32: 24 KB
        #expect(MemoryLayout<HotNode>.stride == 48)
    }

    @Test func copiesKeepTheirValuesThroughRandomWrites() {
        var rng = SeededRandom(seed: 11)
        // Strings longer than 15 bytes (stored on the heap, not inline), so
        // that a chunk copied or dropped wrongly would also show as a leak
        // or a double free under the sanitizers.
        var columns = [ChunkedColumn<String>()]
        var oracles = [[String]()]
        var steps = 0
        var longest = 0
        while steps < 40_000 {
            steps += 1
            let c = Int(rng.next() % UInt64(columns.count))
            longest = Swift.max(longest, oracles[c].count)
            switch rng.next() % 100 {
            case 0 ..< 45:
                let v = "appended value \(steps)"
                columns[c].append(v)
                oracles[c].append(v)
            case 45 ..< 50:
                let n = Int(rng.next() % 600)
                columns[c].append(repeating: "repeated value \(steps)", count: n)
                oracles[c].append(contentsOf: repeatElement("repeated value \(steps)", count: n))
            case 50 ..< 80:
                guard !oracles[c].isEmpty else { continue }
                let i = Int(rng.next() % UInt64(oracles[c].count))
                columns[c][i] = "written value \(steps)"
                oracles[c][i] = "written value \(steps)"
            case 80 ..< 86:
                let n = Int(rng.next() % UInt64(Swift.min(oracles[c].count, 700) + 1))
                columns[c].removeLast(n)
                oracles[c].removeLast(n)
            case 86 ..< 92 where columns.count < 8:
                // A snapshot: a copy that shares every chunk.
                columns.append(columns[c])
                oracles.append(oracles[c])
            case 92 ..< 95 where columns.count > 1:
                columns.remove(at: c)
                oracles.remove(at: c)
            default:
                // This copy still reads its own values (all of them are
                // checked every 2,000 steps: each check is O(entries), and
                // the sanitizers' runs multiply it).
                #expect(Array(columns[c]) == oracles[c], "step \(steps)")
            }
            if steps % 2_000 == 0 {
                for (column, oracle) in zip(columns, oracles) {
                    #expect(column.count == oracle.count)
                    #expect(Array(column) == oracle, "step \(steps)")
                }
            }
        }
        for (column, oracle) in zip(columns, oracles) {
            #expect(Array(column) == oracle)
        }
        // Not vacuous: columns ran to several chunks (of 1,024 strings).
        #expect(ChunkedColumn<String>.chunkSize == 1_024)
        #expect(longest > 4 * 1_024)
    }

    @Test func aWriteUnderACopyCopiesOneChunk() {
        var column = ChunkedColumn<Int32>(repeating: 7, count: 100_000)
        let snapshot = column
        #expect(column.sharedChunks(with: snapshot) == (25, 25))  // 100,000 / 4,096, rounded up
        column[50_000] = 1
        column[50_001] = 2  // the same chunk: no second copy
        #expect(column.sharedChunks(with: snapshot) == (24, 25))
        column[99_999] = 3
        column.append(4)
        #expect(column.sharedChunks(with: snapshot) == (23, 25))
        #expect(snapshot[50_000] == 7 && snapshot[99_999] == 7 && snapshot.count == 100_000)
        #expect(column[50_000] == 1 && column[50_001] == 2 && column[99_999] == 3 && column[100_000] == 4)
    }

    @Test func aWriterCopiesOnlyTheSharedChunksItWrites() {
        var column = ChunkedColumn<Int64>(repeating: 0, count: 10_000)
        let snapshot = column
        column.withWriter { w in
            for i in stride(from: 0, to: 2_048, by: 3) { w[i] += Int64(i) }
            w.pointer(9_999).pointee = -1
        }
        // Entries 0 ..< 2,048 are chunk 0; 9,999 is chunk 4 of 5.
        #expect(column.sharedChunks(with: snapshot) == (3, 5))
        #expect(column[3] == 3 && column[9_999] == -1 && column[1] == 0)
        #expect(snapshot[3] == 0 && snapshot[9_999] == 0)
    }

    @Test func theFirstChunkStartsSmallAndGrows() {
        var column = ChunkedColumn<Int32>()
        for i in 0 ..< 10 { column.append(Int32(i)) }
        // 16 entries of 4 bytes, not a 16 KB chunk, for a small tree.
        #expect(column.memoryBytes < 200)
        for i in 10 ..< 5_000 { column.append(Int32(i)) }
        #expect(Array(column) == (0 ..< 5_000).map { Int32($0) })
        #expect(column.memoryBytes >= 5_000 * 4 && column.memoryBytes < 9_000 * 4)
    }

    @Test func outOfRangeIndexesAreRefusedAsAnArrayRefusesThem() async {
        await #expect(processExitsWith: .failure) {
            let column = ChunkedColumn<Int32>(repeating: 0, count: 10)
            _ = column[10]
        }
        await #expect(processExitsWith: .failure) {
            var column = ChunkedColumn<Int32>(repeating: 0, count: 4_097)
            column.removeLast(1)
            column[4_096] = 1
        }
    }
}
