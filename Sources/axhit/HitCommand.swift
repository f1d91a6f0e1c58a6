import AXHit
import CommandLineSupport
import Dispatch
import Foundation
import Synchronization

/// `axhit hit TREE --points FILE [--policy frame|shape]`.
enum HitCommand {
    static let help = """
        usage: axhit hit TREE --points FILE [--policy frame|shape]

        For each point of FILE (one per line, `x y` or `x,y`, in screen points, or
        the dump's pixels on Android; `-` is standard input), print the element a
        screen reader focuses there, by the tree's platform rules (VoiceOver: the
        frontmost exposed element whose region holds it; TalkBack: Android's hover
        dispatch in the topmost window that holds it, the node the last view
        to report the hover finds):
          {"point":[x,y],"element":"ID"}   or   "element":null
        --policy frame   the accessibility frame, closed-open (VoiceOver's; default)
        --policy shape   the exact shape: accessibilityPath, or the converted bounds

        \(TreeOptions.help)

        \(Limits.geometry)
        \(Limits.pointsFile)
        """

    static func run(_ argv: [String]) throws {
        let (args, treeOptions) = try TreeOptions.parse(argv, options: ["points", "policy"], flags: ["help"])
        if args.flag("help") {
            Output.line(help)
            return
        }
        let treePath = try args.single("TREE")
        let pointsPath = try args.required("points")
        let policyName = args.option("policy") ?? "frame"
        guard let policy = HitPolicy(rawValue: policyName) else {
            throw UsageError("--policy must be frame or shape, got '\(policyName)'")
        }
        if treePath == "-" && pointsPath == "-" { throw UsageError("TREE and --points cannot both be standard input") }
        // The points are read and parsed on other cores while this one reads
        // the tree: neither waits for the other. A bad tree is reported
        // first, as if read first.
        let reading = Background { () throws(TreeError) in try Input.points(pointsPath) }
        let tree = Result { () throws(TreeError) in try Input.hitTester(treePath, treeOptions) }
        let read = reading.result()
        var engine = try tree.get()
        let points = try read.get()
        engine.prepare(forQueries: points.count, policy: policy)
        let tester = engine
        let out = Output.buffer()
        // A window of points at a time, answered as text on all cores (one
        // run of points per core) and printed in input order. While a
        // window's text is printed, the next window is answered into the
        // other of two sets of writers, so that printing (a pipe, a file)
        // does not leave the cores idle. Each writer keeps its text buffer
        // and scratch from window to window; all read one table of quoted
        // ids, made first (about 30 ms for a million nodes on two cores).
        let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let windows = consecutiveRuns(points.count, parts: (points.count + windowPoints - 1) / windowPoints)
        let runs = windows.map { consecutiveRuns($0.count, parts: cores) }
        let ids = QuotedIDs(tester.tree, cores: cores)
        var writers = (0 ..< 2 * cores).map { _ in AnswerLines(tester, policy, ids) }
        writers.withUnsafeMutableBufferPointer { buffer in
            // Window k is answered by set k % 2 alone, while only set
            // (k - 1) % 2 is read.
            nonisolated(unsafe) let writers = buffer
            @Sendable func answer(_ k: Int) {
                let window = windows[k], set = k % 2 * cores
                DispatchQueue.concurrentPerform(iterations: runs[k].count) { r in
                    let run = runs[k][r]
                    writers[set + r].answer(
                        points[window.lowerBound + run.lowerBound ..< window.lowerBound + run.upperBound])
                }
            }
            if !windows.isEmpty { answer(0) }
            for k in windows.indices {
                let next = DispatchGroup()
                if k + 1 < windows.count { DispatchQueue.global().async(group: next) { answer(k + 1) } }
                let set = k % 2 * cores
                for r in runs[k].indices { out.write(bytes: writers[set + r].text) }
                next.wait()
            }
        }
        out.flush()
    }

    /// Points answered per window: about 10 MB of text.
    static let windowPoints = 1 << 18
}

/// Work started on another thread at once, its result waited for when
/// needed.
private final class Background<Value: Sendable>: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let value = Mutex<Result<Value, TreeError>?>(nil)

    init(_ work: @escaping @Sendable () throws(TreeError) -> Value) {
        DispatchQueue.global().async { [self] in
            value.withLock { $0 = Result(catching: work) }
            done.signal()
        }
    }

    /// The work's result, once it has finished.
    func result() -> Result<Value, TreeError> {
        done.wait()
        done.signal()
        return value.withLock { $0! }
    }
}

/// One core's answers as JSON lines: the text of its last run of points,
/// and what it keeps between runs (a hit's scratch, its text buffer). Lines
/// are written in place, into room made at the text's end a few thousand
/// lines at a time, with no per-byte append.
private struct AnswerLines {
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
    static let lineRoom = 32 + 2 * JSONText.maximumNumberLength

    /// Room made at a time.
    static let batchRoom = 1 << 18

    /// Points answered before their lines are written.
    static let groupSize = 32

    /// Room a group of lines takes, ids kept in their slots included.
    static let groupRoom = groupSize * (lineRoom + QuotedIDs.inlineLength)

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
                while next < points.endIndex && buffer.count - end >= Self.groupRoom {
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
                        at += JSONText.write(#"{"point":["#, to: base + at)
                        at += JSONText.writeNumber(p.x, to: base + at)
                        base[at] = UInt8(ascii: ",")
                        at += 1
                        at += JSONText.writeNumber(p.y, to: base + at)
                        at += JSONText.write(#"],"element":"#, to: base + at)
                        if hits[j] == nil {
                            at += JSONText.write("null", to: base + at)
                        } else {
                            // Without room for a long id: made room for it next.
                            guard let written = ids.write(slots[j], to: base + at, room: buffer.count - at - 2)
                            else {
                                room = max(Self.batchRoom, ids.longest + Self.groupRoom)
                                return
                            }
                            at += written
                        }
                        at += JSONText.write("}\n", to: base + at)
                        end = at
                        next += 1
                    }
                }
            }
            text.removeLast(text.count - end)
        }
    }
}

/// Every node's id as a JSON string, made once before any point is
/// answered (on all cores) and then only read, by every core: answers repeat
/// a screen's elements over millions of points, and one shared table stays
/// in the cache where a table per core would not. A quoted id of up to 15
/// bytes (most ids) is kept in its node's slot itself, so that an answer's
/// id costs one 16-byte read; a longer one in `bytes`. Memory: 16 bytes per
/// node slot, plus the longer ids' text.
private struct QuotedIDs: Sendable {
    /// Per node slot: its last byte (in memory, the high byte of `[1]` on
    /// the little-endian machines Swift runs on) is the quoted id's length
    /// (2...15) with the text in the bytes before it, or `outOfLine` with
    /// the text's offset and length in `bytes` in the first and second 8
    /// bytes.
    private let slots: [SIMD2<UInt64>]
    private let bytes: [UInt8]
    /// The longest quoted id.
    let longest: Int

    /// The last byte's mark for a text kept in `bytes`.
    private static let outOfLine: UInt8 = 0xFF

    /// The slot of the id "".
    private static let empty = SIMD2<UInt64>(0x2222, 2 << 56)

    /// Room an id kept in its slot needs: the whole slot is copied.
    static let inlineLength = 16

    /// Makes every node's quoted id (`JSONText.appendString`), one run of
    /// slots per core.
    init(_ tree: ElementTree, cores: Int) {
        let runs = consecutiveRuns(tree.capacity, parts: cores)
        // Per run: its longer ids (slot, text) and its longest id.
        var longer = [[(slot: Int, text: [UInt8])]](repeating: [], count: runs.count)
        var longest = [Int](repeating: 0, count: runs.count)
        var slots = [SIMD2<UInt64>](repeating: .zero, count: tree.capacity)
        slots.withUnsafeMutableBufferPointer { slotBuffer in
            longer.withUnsafeMutableBufferPointer { longerBuffer in
                longest.withUnsafeMutableBufferPointer { longestBuffer in
                    // Each run writes only its own slots and its own entries.
                    nonisolated(unsafe) let (slots, longer, longest) = (slotBuffer, longerBuffer, longestBuffer)
                    DispatchQueue.concurrentPerform(iterations: runs.count) { r in
                        var quoted: [UInt8] = []
                        for i in runs[r] {
                            quoted.removeAll(keepingCapacity: true)
                            // A free slot's id is "", as `id(of:)` says.
                            JSONText.appendString(tree.nodeID(inSlot: i).map { tree.id(of: $0) } ?? "", to: &quoted)
                            longest[r] = max(longest[r], quoted.count)
                            guard quoted.count < Self.inlineLength else {
                                longer[r].append((i, quoted))
                                continue
                            }
                            withUnsafeMutableBytes(of: &slots[i]) { raw in
                                raw.copyBytes(from: quoted)
                                raw[15] = UInt8(quoted.count)
                            }
                        }
                    }
                }
            }
        }
        var bytes: [UInt8] = []
        for (slot, text) in longer.joined() {
            slots[slot] = SIMD2(UInt64(bytes.count), UInt64(text.count) | UInt64(Self.outOfLine) << 56)
            bytes.append(contentsOf: text)
        }
        self.slots = slots
        self.bytes = bytes
        self.longest = longest.max() ?? 0
    }

    /// Node `n`'s slot.
    @inline(__always)
    func slot(of n: NodeID) -> SIMD2<UInt64> {
        // Past the slots (no node of the tree): "", as `id(of:)` says.
        n.index >= 0 && n.index < slots.count ? slots[n.index] : Self.empty
    }

    /// Writes the quoted id of `slot` (`slot(of:)`) at `out` and returns how
    /// many bytes; nil, with nothing written, when it needs more than
    /// `room` (at least `inlineLength`).
    @inline(__always)
    func write(_ slot: SIMD2<UInt64>, to out: UnsafeMutablePointer<UInt8>, room: Int) -> Int? {
        let length = UInt8(truncatingIfNeeded: slot[1] >> 56)
        if length != Self.outOfLine {
            UnsafeMutableRawPointer(out).storeBytes(of: slot, as: SIMD2<UInt64>.self)
            return Int(length)
        }
        let start = Int(slot[0]), count = Int(slot[1] & 0xFF_FFFF_FFFF)
        guard count <= room else { return nil }
        bytes.withUnsafeBufferPointer { out.update(from: $0.baseAddress! + start, count: count) }
        return count
    }
}
