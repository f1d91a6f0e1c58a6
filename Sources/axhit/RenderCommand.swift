import AXHit
import CommandLineSupport
import Foundation

/// `axhit render TREE -o FILE.svg`.
enum RenderCommand {
    static let help = """
        usage: axhit render TREE -o FILE.svg

        Draw the screen as an SVG picture: every view's bounds (faint), every exposed
        element's shape and frame coloured by its worst audit finding (hover a shape:
        its tooltip is what the screen reader says there, as axhit speak), activation
        points by status (ok, obstructed, lost; ringed when outside the shape),
        suggested points, the views that take obstructed taps, covered parts, duplicate
        bounds and small touch targets, and a legend.
        `-o -` writes the picture to standard output; the input is never overwritten.

        \(TreeOptions.help)

        \(Limits.geometry)
        \(Limits.elementPaths)
        \(Limits.picture)
        """

    static func run(_ argv: [String]) throws {
        let (args, treeOptions) = try TreeOptions.parse(
            argv, options: ["output"], flags: ["help"], shortNames: ["-o": "output"])
        if args.flag("help") {
            Output.line(help)
            return
        }
        let treePath = try args.single("TREE")
        guard let output = args.option("output") else { throw UsageError("-o FILE.svg is required") }
        let tester = try Input.hitTester(treePath, treeOptions)
        let svg: String
        do {
            let analysis = try ScreenAnalysis(tester)
            let findings = try Auditor.findings(analysis)
            svg = try SVGRenderer.svg(
                analysis, findings: findings, title: URL(fileURLWithPath: Input.displayName(treePath)).lastPathComponent
            )
        } catch {
            throw error.located(file: Input.displayName(treePath))
        }
        try Output.write(Data(svg.utf8), to: output, input: treePath)
    }
}
