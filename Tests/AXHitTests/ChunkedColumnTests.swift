import Dispatch
import Foundation
import Synchronization
import Testing

@testable import AXHit

/// `ChunkedColumn` against `Array` oracles: random appends, writes, removals
/// and copies, where every copy must keep its own values whatever is written
/// to the others; and what a write under a copy shares (every chunk but the
/// one written), counted by chunk object identity.
@Suite struct ChunkedColumnTests {
    /// Chunk sizes from the rule (8 KB over the entry's size rounded down
    /// to a power of two: 8 to 16 KB), worked out by hand.
    @Test func chunksHoldAbout8KB() {
        #expect(ChunkedColumn<UInt8>.chunkSize == 8_192)
        #expect(ChunkedColumn<Int32>.chunkSize == 2_048)
        #expect(ChunkedColumn<UInt64>.chunkSize == 1_024)
        #expect(ChunkedColumn<CGRect>.chunkSize == 256)
        #expect(ChunkedColumn<HotNode>.chunkSize == 256)  // 48 bytes, as 32: 12 KB
        #expect(MemoryLayout<HotNode>.stride == 48)
        // Entries of 256 bytes or more, 8 to a chunk: a wide view's index
        // (a dozen arrays and more, each retained when its chunk is copied).
        #expect(MemoryLayout<ContainerIndex>.stride >= 256)
        #expect(ChunkedColumn<ContainerIndex>.chunkSize == 8)
        // Just under: 248 bytes, as 128, 64 to a chunk (15.5 KB).
        #expect(MemoryLayout<Bytes248>.stride == 248)
        #expect(ChunkedColumn<Bytes248>.chunkSize == 64)
    }

    /// 31 words: an entry just under 256 bytes, which still takes the 8 KB
    /// rule.
    struct Bytes248 {
        var words = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    }

    @Test func copiesKeepTheirValuesThroughRandomWrites() {
        // Strings longer than 15 bytes (stored on the heap, not inline), so
        // that a chunk copied or dropped wrongly would also show as a leak
        // or a double free under the sanitizers.
        let longest = Self.randomWrites(seed: 11, steps: 40_000, longestRun: 700) { $0 }
        // Not vacuous: columns ran to several chunks (of 512 strings).
        #expect(ChunkedColumn<String>.chunkSize == 512)
        #expect(longest > 8 * 512)
    }

    /// Entries of 264 bytes: 8 to a chunk, so 256 to a group of 32 chunks,
    /// and random runs cross groups: appends that open one, removals that
    /// drop one or cut one short, writes to a group a copy shares.
    @Test func copiesKeepTheirValuesAcrossGroups() {
        let longest = Self.randomWrites(seed: 12, steps: 12_000, longestRun: 3_000) { Wide(text: $0) }
        #expect(ChunkedColumn<Wide>.chunkSize == 8)
        #expect(ChunkTable<Wide>.groupSize == 32)
        #expect(longest > 24 * 256)  // 24 groups
    }

    /// A heap string and 248 bytes of padding.
    struct Wide: Equatable {
        var text: String
        var padding = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        static func == (a: Wide, b: Wide) -> Bool { a.text == b.text }
    }

    /// Random appends, writes, removals, copies, drops and reservations of
    /// columns, each checked against its `Array` oracle; runs of appends and
    /// removals up to `longestRun`. Returns the longest column seen.
    static func randomWrites<E: Equatable>(
        seed: UInt64, steps total: Int, longestRun: Int, _ make: (String) -> E
    ) -> Int {
        var rng = SeededRandom(seed: seed)
        var columns = [ChunkedColumn<E>()]
        var oracles = [[E]()]
        var steps = 0
        var longest = 0
        while steps < total {
            steps += 1
            let c = Int(rng.next() % UInt64(columns.count))
            longest = Swift.max(longest, oracles[c].count)
            switch rng.next() % 100 {
            case 0 ..< 45:
                let v = make("appended value \(steps)")
                columns[c].append(v)
                oracles[c].append(v)
            case 45 ..< 50:
                let n = Int(rng.next() % UInt64(longestRun))
                columns[c].append(repeating: make("repeated value \(steps)"), count: n)
                oracles[c].append(contentsOf: repeatElement(make("repeated value \(steps)"), count: n))
            case 50 ..< 80:
                guard !oracles[c].isEmpty else { continue }
                let i = Int(rng.next() % UInt64(oracles[c].count))
                columns[c][i] = make("written value \(steps)")
                oracles[c][i] = make("written value \(steps)")
            case 80 ..< 86:
                let n = Int(rng.next() % UInt64(Swift.min(oracles[c].count, longestRun) + 1))
                columns[c].removeLast(n)
                oracles[c].removeLast(n)
            case 86 ..< 92 where columns.count < 8:
                // A snapshot: a copy that shares every chunk.
                columns.append(columns[c])
                oracles.append(oracles[c])
            case 92 ..< 95 where columns.count > 1:
                columns.remove(at: c)
                oracles.remove(at: c)
            case 95:
                // Room for more: a larger table, copied from a shared one
                // when a snapshot holds it.
                columns[c].reserveCapacity(oracles[c].count + Int(rng.next() % UInt64(4 * longestRun)))
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
        return longest
    }

    /// A copy of the table retains groups; a write copies the one group it
    /// lands in, and in it the one chunk.
    @Test func aWriteUnderACopyCopiesOneGroup() {
        // 3 groups of 32 chunks of 2,048 entries.
        let c = ChunkedColumn<Int32>.chunkSize
        #expect(c == 2_048)
        #expect(ChunkTable<Int32>.groupSize == 32)
        var column = ChunkedColumn<Int32>(repeating: 7, count: 3 * 32 * c)
        let snapshot = column
        #expect(column.sharedGroups(with: snapshot) == (3, 3))
        column[32 * c + 5] = 1  // group 1, chunk 32
        #expect(column.sharedGroups(with: snapshot) == (2, 3))
        #expect(column.sharedChunks(with: snapshot) == (95, 96))
        column.append(2)  // a fourth group, of the column's own
        #expect(column.sharedGroups(with: snapshot) == (2, 4))
        column.removeLast(3 * c + 1)  // back into group 2, which the snapshot shares
        #expect(column.sharedGroups(with: snapshot) == (1, 3))
        #expect(column.sharedChunks(with: snapshot) == (92, 93))
        #expect(snapshot[32 * c + 5] == 7 && snapshot.count == 3 * 32 * c)
        #expect(column[32 * c + 5] == 1 && column.count == 3 * 32 * c - 3 * c)
    }

    /// A column and its copies count their holders under one lock, kept
    /// through every write that copies a table or a group; columns made
    /// apart draw their locks from the whole set, not all the same one.
    @Test func aColumnsCopiesShareItsLockAndOtherColumnsSpreadOverTheSet() {
        let c = ChunkedColumn<Int32>.chunkSize
        var column = ChunkedColumn<Int32>(repeating: 7, count: 2 * 32 * c)
        let lock = column.holderLock
        var copy = column
        copy[5] = 1  // copies the table and group 0
        copy.append(contentsOf: [1, 2, 3])  // a third group
        column.removeLast(c + 1)
        #expect(copy.holderLock == lock && column.holderLock == lock)
        #expect(HolderLock.all.contains { ObjectIdentifier($0) == lock })
        var families = Set<ObjectIdentifier>()
        let columns = (0 ..< 256).map { ChunkedColumn<Int32>(repeating: Int32($0), count: 1) }
        for other in columns { families.insert(other.holderLock) }
        // 256 draws from 64 locks cover about 63 of them; 32 or fewer would
        // mean the choice ignores most of the address.
        #expect(families.count > 32, "\(families.count) locks for 256 columns")
    }

    @Test func aWriteUnderACopyCopiesOneChunk() {
        var column = ChunkedColumn<Int32>(repeating: 7, count: 100_000)
        let snapshot = column
        #expect(column.sharedChunks(with: snapshot) == (49, 49))  // 100,000 / 2,048, rounded up
        column[50_000] = 1
        column[50_001] = 2  // the same chunk: no second copy
        #expect(column.sharedChunks(with: snapshot) == (48, 49))
        column[99_999] = 3
        column.append(4)  // into chunk 48, which 99,999 copied
        #expect(column.sharedChunks(with: snapshot) == (47, 49))
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
        // Entries 0 ..< 2,048 are chunks 0 and 1; 9,999 is chunk 9 of 10.
        #expect(column.sharedChunks(with: snapshot) == (7, 10))
        #expect(column[3] == 3 && column[9_999] == -1 && column[1] == 0)
        #expect(snapshot[3] == 0 && snapshot[9_999] == 0)
    }

    @Test func theFirstChunkStartsSmallAndGrows() {
        var column = ChunkedColumn<Int32>()
        for i in 0 ..< 10 { column.append(Int32(i)) }
        // 16 entries of 4 bytes, not an 8 KB chunk, for a small tree (and
        // one chunk's and one group's objects and places: 200 bytes in all).
        #expect(column.memoryBytes < 256)
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

extension ChunkedColumnTests {
    @Test func aStackPopsAcrossChunksAndLeavesACopyWhole() {
        // Strings on the heap, so that a popped entry moved out wrongly (or
        // left behind) shows under the sanitizers.
        func value(_ i: Int) -> String { "entry number \(i) on the heap" }
        var stack = ChunkedColumn<String>()
        for i in 0 ..< 1_300 { stack.append(value(i)) }
        let copy = stack
        // 1,300 entries: chunks of 512, 512 and 276; pop through two
        // boundaries (at 1,024 and 512), under the copy.
        for i in stride(from: 1_299, through: 400, by: -1) { #expect(stack.removeLast() == value(i)) }
        #expect(stack.count == 400 && stack.popLast() == value(399) && stack.count == 399)
        #expect(copy.count == 1_300 && copy[1_299] == value(1_299) && copy[512] == value(512))
        #expect(Array(copy) == (0 ..< 1_300).map(value))
        // Pushed again: the popped slots are reused, the copy still untouched.
        for i in 399 ..< 700 { stack.append(value(i + 10_000)) }
        #expect(stack[398] == value(398) && stack[399] == value(10_399) && stack.count == 700)
        #expect(copy[399] == value(399) && copy[600] == value(600))
        var empty = ChunkedColumn<String>()
        #expect(empty.popLast() == nil)
    }

    /// Copies taken, written and dropped on several threads at once, while
    /// the writer writes and publishes: every copy keeps its own values (an
    /// `Array` oracle taken with it), whichever thread lets a chunk or a
    /// group go last. The counts of the chunks' and groups' holders change
    /// under their family's lock (`SharedPart`): a lost count would free a part still
    /// held (a wrong value here; a use after free or a double free of the
    /// heap strings under the address sanitizer), and a race on them shows
    /// under the thread sanitizer.
    @Test func copiesOnManyThreadsKeepTheirValues() {
        func value(_ round: Int, _ i: Int) -> String { "round \(round), entry \(i), on the heap" }
        // 40,000 strings: 79 chunks of 512, in 3 groups.
        let n = 40_000
        var column = ChunkedColumn<String>()
        for i in 0 ..< n { column.append(value(0, i)) }
        var oracle = (0 ..< n).map { value(0, $0) }
        let published = PublishedColumn(column, oracle)
        let started = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
        let readers = 3
        let checked = Atomic<Int>(0), wrong = Atomic<Int>(0)
        for r in 0 ..< readers {
            Thread {
                var rng = SeededRandom(seed: UInt64(100 + r))
                var first = true
                while first || !published.isDone {
                    var (copy, expected) = published.latest
                    var bad = 0
                    for _ in 0 ..< 16 {
                        let i = Int.random(in: 0 ..< n, using: &rng)
                        if copy[i] != expected[i] { bad += 1 }
                    }
                    // A reader's own writes, to its copy alone: the chunks and
                    // groups it copies are counted from this thread.
                    for _ in 0 ..< 4 {
                        let i = Int.random(in: 0 ..< n, using: &rng)
                        copy[i] = "reader \(r) wrote \(i) here"
                        expected[i] = copy[i]
                    }
                    for _ in 0 ..< 8 {
                        let i = Int.random(in: 0 ..< n, using: &rng)
                        if copy[i] != expected[i] { bad += 1 }
                    }
                    checked.add(24, ordering: .relaxed)
                    wrong.add(bad, ordering: .relaxed)
                    if first { started.signal() }
                    first = false
                }
                finished.signal()
            }.start()
        }
        // Every reader has checked a copy before the writer starts, so that
        // they run while it writes however the threads are scheduled.
        for _ in 0 ..< readers { started.wait() }
        var rng = SeededRandom(seed: 7)
        for round in 1 ... 300 {
            for _ in 0 ..< 8 {
                let i = Int.random(in: 0 ..< n, using: &rng)
                column[i] = value(round, i)
                oracle[i] = value(round, i)
            }
            if round % 50 == 0 {
                // Off the end and back, across a chunk: tables and groups
                // shrink and grow under the readers' copies.
                for _ in 0 ..< 600 { _ = column.removeLast() }
                oracle.removeLast(600)
                for i in n - 600 ..< n { column.append(value(round, i)) }
                oracle += (n - 600 ..< n).map { value(round, $0) }
            }
            published.publish(column, oracle)
        }
        published.finish()
        for _ in 0 ..< readers { finished.wait() }
        #expect(Array(column) == oracle)
        #expect(wrong.load(ordering: .relaxed) == 0)
        // Not vacuous: every reader checked copies (the writer waited for it).
        #expect(checked.load(ordering: .relaxed) >= 24 * readers)
    }
}

/// The column a writer last published, and its oracle, behind a lock
/// (`NSLock`, which the thread sanitizer sees).
private final class PublishedColumn: @unchecked Sendable {
    private let lock = NSLock()
    private var column: ChunkedColumn<String>
    private var oracle: [String]
    private var done = false

    init(_ column: ChunkedColumn<String>, _ oracle: [String]) {
        self.column = column
        self.oracle = oracle
    }

    var latest: (ChunkedColumn<String>, [String]) { lock.withLock { (column, oracle) } }
    var isDone: Bool { lock.withLock { done } }

    func publish(_ column: ChunkedColumn<String>, _ oracle: [String]) {
        lock.withLock {
            self.column = column
            self.oracle = oracle
        }
    }

    func finish() { lock.withLock { done = true } }
}
