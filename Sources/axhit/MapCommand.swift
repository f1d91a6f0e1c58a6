import AXHit
import CommandLineSupport
import Foundation

/// `axhit map TREE (--focus|--touch)`.
enum MapCommand {
    static let help = """
        usage: axhit map TREE (--focus|--touch)

        Print, for each node that owns some of the screen, the exact region where it
        answers, as WKT (screen coordinates), one line each, in pre-order:
        --focus   each exposed element, where `hit` (a finger exploring, frame policy)
                  lands on it:  {"element":"ID","wkt":"..."}
        --touch   each view, where a tap reaches it (UIKit's hitTest; an iOS snapshot:
                  the element XCUITest taps; Android: the node that consumes it):
                                {"view":"ID","wkt":"..."}
        Regions do not overlap; where none holds a point, nothing answers there.

        \(TreeOptions.help)

        \(Limits.geometry)
        """

    static func run(_ argv: [String]) throws {
        let (args, treeOptions) = try TreeOptions.parse(argv, options: [], flags: ["focus", "touch", "help"])
        if args.flag("help") {
            Output.line(help)
            return
        }
        let treePath = try args.single("TREE")
        guard args.flag("focus") != args.flag("touch") else { throw UsageError("give exactly one of --focus, --touch") }
        let focus = args.flag("focus")
        let tester = try Input.hitTester(treePath, treeOptions)
        let map: [MapRegion]
        do throws(TreeError) {
            map = try focus ? tester.focusMap() : tester.touchMap()
        } catch {
            throw error.located(file: Input.displayName(treePath))
        }
        let key = focus ? "element" : "view"
        let out = Output.buffer()
        for r in map {
            out.writeLine(
                "{\"\(key)\":\(JSONText.string(tester.tree.id(of: r.node))),\"wkt\":\(JSONText.string(r.wkt))}")
        }
        out.flush()
    }
}
