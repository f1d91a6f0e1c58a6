import AXHit
import CommandLineSupport
import Foundation

/// `axhit explore TREE --path "x,y x,y ..."`.
enum ExploreCommand {
    static let help = """
        usage: axhit explore TREE --path "x,y x,y ..."

        Drag a finger along a polyline (screen coordinates, at least two points) and
        print what touch exploration meets, one line per stretch, in order:
          {"element":"ID" or null,"from":[x,y],"to":[x,y]}
        A stretch is a maximal part of the path over which `hit` (frame policy) gives
        one answer; consecutive stretches differ. Computed exactly from the regions
        (no sampling): `from` and `to` are where the path enters and leaves them.

        \(TreeOptions.help)

        \(Limits.geometry)
        """

    static func run(_ argv: [String]) throws {
        let (args, treeOptions) = try TreeOptions.parse(argv, options: ["path"], flags: ["help"])
        if args.flag("help") {
            Output.line(help)
            return
        }
        let treePath = try args.single("TREE")
        let polyline = try parse(try args.required("path"))
        let tester = try Input.hitTester(treePath, treeOptions)
        let stretches = try tester.explore(polyline)
        let out = Output.buffer()
        for s in stretches {
            let element = s.element.map { JSONText.string(tester.tree.id(of: $0)) } ?? "null"
            out.writeLine(
                "{\"element\":\(element),\"from\":\(JSONText.point(s.from.x, s.from.y)),\"to\":\(JSONText.point(s.to.x, s.to.y))}"
            )
        }
        out.flush()
    }

    /// The points of `--path`: `x,y` pairs separated by spaces.
    /// - Throws: `UsageError` for a malformed pair, a number that is not
    ///   finite, or fewer than two points.
    static func parse(_ text: String) throws(UsageError) -> [CGPoint] {
        var points: [CGPoint] = []
        for pair in text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
            let v = try Input.numbers(String(pair), count: 2, option: "path")
            points.append(CGPoint(x: v[0], y: v[1]))
        }
        guard points.count >= 2 else {
            throw UsageError("--path needs at least two points as \"x,y x,y ...\", got \(points.count)")
        }
        return points
    }
}
