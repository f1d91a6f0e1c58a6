import AXHit
import CommandLineSupport
import Foundation

/// `axhit order TREE`.
enum OrderCommand {
    static let help = """
        usage: axhit order TREE

        Print the exposed elements in navigation order, the order a screen reader user
        meets them swiping right from the first, one per line:
          {"index":i,"element":"ID","frame":[x,y,w,h]}
        index   from 0
        frame   the accessibility frame on the screen
        VoiceOver (iOS views and snapshots): groups first (a view's accessibilityElements
        in its own order; shouldGroupAccessibilityChildren, a container type or the
        tabBar trait keep a view's elements together, placed by the first of them),
        then rows top to bottom (frames' origins 8 points apart, 13 on a pad), left to
        right (right to left under screen.layoutDirection "rightToLeft").
        TalkBack (Android): the dump's order of the exposed nodes.
        An accessibilityElements list naming an id outside its view's subtree, the view
        itself, or an id twice is invalid input.

        \(TreeOptions.help)

        \(Limits.geometry)
        """

    static func run(_ argv: [String]) throws {
        let (args, treeOptions) = try TreeOptions.parse(argv, options: [], flags: ["help"])
        if args.flag("help") {
            Output.line(help)
            return
        }
        let treePath = try args.single("TREE")
        var tester = try Input.hitTester(treePath, treeOptions)
        let order: [NodeID]
        do throws(TreeError) {
            order = try tester.navigationOrder()
        } catch {
            throw error.located(file: Input.displayName(treePath))
        }
        let space = ScreenSpace(tester.tree)
        let out = Output.buffer()
        for (i, e) in order.enumerated() {
            let f = space.accessibilityFrame(of: e)
            do throws(TreeError) { try space.checkFinite(e) } catch {
                throw error.located(file: Input.displayName(treePath))
            }
            out.writeLine(
                "{\"index\":\(i),\"element\":\(JSONText.string(tester.tree.id(of: e)))"
                    + ",\"frame\":\(JSONText.numbers([f.origin.x, f.origin.y, f.size.width, f.size.height]))}")
        }
        out.flush()
    }
}
