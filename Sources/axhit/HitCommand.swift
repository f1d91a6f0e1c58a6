import AXHit
import CommandLineSupport
import Foundation

/// `axhit hit TREE --points FILE [--policy frame|shape]`.
enum HitCommand {
    static let help = """
        usage: axhit hit TREE --points FILE [--policy frame|shape]

        For each point of FILE (one per line, `x y` or `x,y`, screen points; `-` is
        standard input), print the frontmost exposed element whose region holds it:
          {"point":[x,y],"element":"ID"}   or   "element":null
        --policy frame   the accessibility frame, closed-open (VoiceOver's; default)
        --policy shape   the exact shape: accessibilityPath, or the converted bounds
        """

    static func run(_ argv: [String]) throws {
        let args = try Arguments(argv, options: ["points", "policy"], flags: ["help"])
        if args.flag("help") { print(help); return }
        let treePath = try args.single("TREE")
        let pointsPath = try args.required("points")
        let policyName = args.option("policy") ?? "frame"
        guard let policy = HitPolicy(rawValue: policyName) else {
            throw UsageError("--policy must be frame or shape, got '\(policyName)'")
        }
        if treePath == "-" && pointsPath == "-" { throw UsageError("TREE and --points cannot both be standard input") }
        let tester = try Input.hitTester(treePath)
        let points = try Input.points(pointsPath)
        // Answered on all cores, printed in input order.
        let hits = tester.hit(points, policy: policy)
        let out = OutputBuffer()
        for (p, hit) in zip(points, hits) {
            let element = hit.map { JSONText.string(tester.tree.id(of: $0)) } ?? "null"
            out.writeLine("{\"point\":\(JSONText.point(p.x, p.y)),\"element\":\(element)}")
        }
        out.flush()
    }
}
