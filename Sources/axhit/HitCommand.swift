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
        // The points are read and parsed on the other cores while this one
        // reads the tree, then parses what is left of them (`PieceShare`).
        // A bad tree is reported first, as if read first.
        let share = PieceShare()
        let reading = Background { () throws(TreeError) in
            defer { share.close() }
            return try Input.points(pointsPath, sharing: share)
        }
        let tree = Result { () throws(TreeError) in try Input.hitTester(treePath, treeOptions) }
        // A bad tree ends the run: its thread does not parse points too.
        if case .success = tree { share.help() }
        let read = reading.result()
        let engine = try tree.get()
        let points = try read.get()
        // The library answers on all cores and hands the lines over in
        // input order; a failed write ends the tool (`Output.failed`).
        let out = Output.buffer()
        engine.writeAnswers(for: points, policy: policy) { out.write(bytes: $0) }
        out.flush()
    }
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
