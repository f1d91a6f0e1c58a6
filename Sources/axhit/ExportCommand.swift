import AXHit
import CommandLineSupport
import Foundation

/// `axhit export TREE -o FILE.json`.
enum ExportCommand {
    static let help = """
        usage: axhit export TREE -o FILE.json

        Write TREE, whatever it was read from (an Appium or idb page source, a
        uiautomator dump, a DroidBot state, axhit/1), as axhit/1 JSON: every node
        with the ids the importers gave it, its platform and source, and the
        snapshot's facts (visibleInSnapshot, actions), so that a dump can be
        curated by hand and fed back with the same answers. `-o -` writes to
        standard output; the input is never overwritten.

        \(TreeOptions.help)

        \(Limits.geometry)
        """

    static func run(_ argv: [String]) throws {
        let (args, treeOptions) = try TreeOptions.parse(
            argv, options: ["output"], flags: ["help"], shortNames: ["-o": "output"])
        if args.flag("help") {
            Output.line(help)
            return
        }
        let treePath = try args.single("TREE")
        guard let output = args.option("output") else { throw UsageError("-o FILE.json is required") }
        let tree = try Input.tree(treePath, treeOptions)
        try Output.write(tree.axhitJSON(), to: output, input: treePath)
    }
}
