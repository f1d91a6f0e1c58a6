import AXHit
import CommandLineSupport
import Dispatch
import Foundation

/// `axhit hit TREE --points FILE [--policy frame|shape]`.
enum HitCommand {
    static let help = """
        usage: axhit hit TREE --points FILE [--policy frame|shape]

        For each point of FILE (one per line, `x y` or `x,y`, in screen points, or
        the dump's pixels on Android; `-` is standard input), print the element a
        screen reader focuses there, by the tree's platform rules (VoiceOver: the
        frontmost exposed element whose region holds it; TalkBack: the deepest
        exposed node, within the topmost window that holds it):
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
        var engine = try Input.hitTester(treePath, treeOptions)
        let points = try Input.points(pointsPath)
        engine.prepare(forQueries: points.count, policy: policy)
        let tester = engine
        let out = Output.buffer()
        // A window of points at a time, answered and written as text on all
        // cores (one run of points per core), then printed in input order:
        // the text of a window is all that is held at once.
        let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
        for window in consecutiveRuns(points.count, parts: (points.count + windowPoints - 1) / windowPoints) {
            let runs = consecutiveRuns(window.count, parts: cores)
            let texts = [[UInt8]](unsafeUninitializedCapacity: runs.count) { buffer, initialized in
                // Each run initializes only its own element.
                nonisolated(unsafe) let texts = buffer
                DispatchQueue.concurrentPerform(iterations: runs.count) { r in
                    let run = runs[r]
                    let slice = points[window.lowerBound + run.lowerBound ..< window.lowerBound + run.upperBound]
                    texts.initializeElement(at: r, to: lines(slice, tester, policy))
                }
                initialized = runs.count
            }
            for text in texts { out.write(bytes: text) }
        }
        out.flush()
    }

    /// Points answered per window: about 40 MB of text.
    static let windowPoints = 1 << 20

    /// The JSON lines of `points`' answers.
    private static func lines(_ points: ArraySlice<CGPoint>, _ tester: HitTester, _ policy: HitPolicy) -> [UInt8] {
        var text: [UInt8] = []
        text.reserveCapacity(points.count * 48)
        var scratch = HitScratch()
        var ids = QuotedIDs()
        for p in points {
            let hit = tester.hit(p, policy: policy, scratch: &scratch)
            append(Self.pointKey, to: &text)
            JSONText.appendPoint(p.x, p.y, to: &text)
            append(Self.elementKey, to: &text)
            if let hit {
                ids.append(hit, of: tester.tree, to: &text)
            } else {
                append(Self.null, to: &text)
            }
            append(Self.lineEnd, to: &text)
        }
        return text
    }

    private static let pointKey = Array(#"{"point":"#.utf8)
    private static let elementKey = Array(#","element":"#.utf8)
    private static let null = Array("null".utf8)
    private static let lineEnd = Array("}\n".utf8)

    /// Appends `bytes` by one copy (a String's UTF-8 view would be walked
    /// generically, a byte at a time).
    @inline(__always)
    private static func append(_ bytes: [UInt8], to text: inout [UInt8]) {
        text.append(contentsOf: bytes)
    }
}

/// Each answered node's id as a JSON string, made at its first answer:
/// answers repeat a screen's few elements over millions of points, so an id
/// is escaped and encoded once, not at every point. Memory: 8 bytes per node
/// slot (made at the first answer), plus the answered ids' text.
private struct QuotedIDs {
    /// Per node slot: its text's range in `bytes`, or -1 while not made.
    private var starts: [Int32] = []
    private var ends: [Int32] = []
    private var bytes: [UInt8] = []

    /// Appends node `n`'s id, quoted and escaped (`JSONText.appendString`).
    mutating func append(_ n: NodeID, of tree: ElementTree, to text: inout [UInt8]) {
        let i = n.index
        if i >= starts.count {
            starts.append(contentsOf: repeatElement(-1, count: max(tree.capacity, i + 1) - starts.count))
            ends.append(contentsOf: repeatElement(-1, count: starts.count - ends.count))
        }
        // A made text stays valid: the tree does not change while points are
        // answered. Past 2 GB of text (Int32 offsets), ids are escaped in place.
        if starts[i] < 0 && bytes.count < Int(Int32.max) - (1 << 20) {
            starts[i] = Int32(bytes.count)
            JSONText.appendString(tree.id(of: n), to: &bytes)
            ends[i] = Int32(bytes.count)
        }
        guard starts[i] >= 0 else { return JSONText.appendString(tree.id(of: n), to: &text) }
        bytes.withUnsafeBufferPointer { all in
            text.append(contentsOf: UnsafeBufferPointer(rebasing: all[Int(starts[i]) ..< Int(ends[i])]))
        }
    }
}
