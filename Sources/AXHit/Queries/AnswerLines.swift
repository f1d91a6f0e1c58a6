import AXGeometry
import Foundation

/// One core's answers as JSON lines (`HitTester.writeAnswers(for:policy:to:)`):
/// the text of its last run of points, and what it keeps between runs (a
/// hit's scratch, its text buffer). Lines are written in place, into room
/// made at the text's end a few thousand lines at a time, with no per-byte
/// append.
struct AnswerLines {
    let tester: HitTester
    let policy: HitPolicy
    /// The lines of the last `answer`.
    private(set) var text: [UInt8] = []
    private var scratch = HitScratch()
    let ids: QuotedIDs

    init(_ tester: HitTester, _ policy: HitPolicy, _ ids: QuotedIDs) {
        self.tester = tester
        self.policy = policy
        self.ids = ids
    }

    /// Room a line takes beside its id: the keys, two numbers at their
    /// longest, `null`.
    static let lineRoom = 32 + 2 * JSONBytes.maximumNumberLength

    /// Room made at a time.
    static let batchRoom = 1 << 18

    /// Points answered before their lines are written.
    static let groupSize = 32

    /// Room a group of lines takes, ids kept in their slots included.
    static let groupRoom = groupSize * (lineRoom + QuotedIDs.inlineLength)

    /// Writes `literal`'s UTF-8 bytes at `out`, which has room for them, and
    /// returns how many: a key or a keyword of a line written in place.
    /// Here rather than beside `JSONBytes.writeNumber` so that it inlines
    /// into the loop: AXGeometry's, even `@inlinable package`, stayed a call,
    /// 40 instructions a line more.
    @inline(__always)
    private static func write(_ literal: StaticString, to out: UnsafeMutablePointer<UInt8>) -> Int {
        literal.withUTF8Buffer { bytes in
            if let base = bytes.baseAddress { out.update(from: base, count: bytes.count) }
            return bytes.count
        }
    }

    /// Replaces `text` with the lines of `points`' answers.
    mutating func answer(_ points: ArraySlice<CGPoint>) {
        // Held locally while the lines are written: the loop writes into
        // `text` and reads the rest of `self`, which a closure over `self`
        // could not do at once.
        var text: [UInt8] = [], scratch = HitScratch()
        swap(&text, &self.text)
        swap(&scratch, &self.scratch)
        defer {
            swap(&text, &self.text)
            swap(&scratch, &self.scratch)
        }
        let tester = self.tester, ids = self.ids, policy = self.policy
        // Read once: its value comes from another module, so each read
        // would check that it was made.
        let groupRoom = Self.groupRoom
        var hits = [NodeID?](repeating: nil, count: Self.groupSize)
        var slots = [SIMD2<UInt64>](repeating: .zero, count: Self.groupSize)
        text.removeAll(keepingCapacity: true)
        var next = points.startIndex
        var room = Self.batchRoom
        while next < points.endIndex {
            let start = text.count
            text.append(contentsOf: repeatElement(0, count: room))
            var end = start
            text.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                while next < points.endIndex && buffer.count - end >= groupRoom {
                    // A group's answers first (the engine reads a large
                    // screen grid ahead for them), then their ids' slots,
                    // then the lines: the reads of answers and slots, each
                    // likely a cache miss, overlap instead of waiting in turn.
                    let group = next ..< min(points.endIndex, next + Self.groupSize)
                    points[group].withUnsafeBufferPointer { group in
                        hits.withUnsafeMutableBufferPointer {
                            tester.hit(group, policy: policy, scratch: &scratch, into: $0)
                        }
                    }
                    for j in 0 ..< group.count { slots[j] = ids.slot(of: hits[j] ?? .none) }
                    for (j, p) in zip(0 ..< group.count, points[group]) {
                        var at = end
                        at += Self.write(#"{"point":["#, to: base + at)
                        at += JSONBytes.writeNumber(p.x, to: base + at)
                        base[at] = UInt8(ascii: ",")
                        at += 1
                        at += JSONBytes.writeNumber(p.y, to: base + at)
                        at += Self.write(#"],"element":"#, to: base + at)
                        if hits[j] == nil {
                            at += Self.write("null", to: base + at)
                        } else {
                            // Without room for a long id: made room for it next.
                            guard let written = ids.write(slots[j], to: base + at, room: buffer.count - at - 2)
                            else {
                                room = max(Self.batchRoom, ids.longest + groupRoom)
                                return
                            }
                            at += written
                        }
                        at += Self.write("}\n", to: base + at)
                        end = at
                        next += 1
                    }
                }
            }
            text.removeLast(text.count - end)
        }
    }
}
