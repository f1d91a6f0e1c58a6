import AXHit
import CommandLineSupport
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
        let tester = try Input.hitTester(treePath, treeOptions)
        let points = try Input.points(pointsPath)
        // Answered on all cores, printed in input order.
        let hits = tester.hit(points, policy: policy)
        let out = Output.buffer()
        for (p, hit) in zip(points, hits) {
            let element = hit.map { JSONText.string(tester.tree.id(of: $0)) } ?? "null"
            out.writeLine("{\"point\":\(JSONText.point(p.x, p.y)),\"element\":\(element)}")
        }
        out.flush()
    }
}
