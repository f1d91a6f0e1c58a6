import AXHit
import CommandLineSupport
import Foundation

/// `axhit activate TREE [--element ID]`.
enum ActivateCommand {
    static let help = """
        usage: axhit activate TREE [--element ID]

        For each exposed element, in pre-order (or only element ID), where a
        double-tap lands and whether it reaches the element, by the tree's platform:
          {"element":"ID","activationPoint":[x,y],"receiver":"ID" or null,
           "status":"ok"|"obstructed"|"lost","outside":true|false,"suggested":[x,y] or null}
        receiver    what takes the tap at the activation point: the view UIKit's
                    hitTest gives (iOS views), the element VoiceOver finds there
                    (iOS snapshots, as XCUITest's isHittable), the node that consumes
                    it (Android), or the node itself when it declares a click
                    (Android: TalkBack sends the click action)
        status      ok: the tap reaches the element (iOS views: its view or container
                    or a descendant; snapshots: the element itself; Android: the
                    node, a descendant or an ancestor); obstructed: something else
                    takes it; lost: nothing does
        outside     the point lies outside the element's shape (cut by its ancestors)
        suggested   the point of the shape a tap reaches that is farthest from the edges
                    of the reachable part (null when no tap reaches the element)
        note        only on an element whose path goes over a budget (too many points,
                    or too complex to fill): why "suggested" is null; its other
                    fields are answered as usual, "outside" by the path's winding
        --element ID   only that element (nothing is printed when it is not exposed;
                       an id no node has is an error)

        \(TreeOptions.help)

        \(Limits.geometry)
        \(Limits.elementPaths)
        \(Limits.inscribedCircle)
        """

    static func run(_ argv: [String]) throws {
        let (args, treeOptions) = try TreeOptions.parse(argv, options: ["element"], flags: ["help"])
        if args.flag("help") {
            Output.line(help)
            return
        }
        let treePath = try args.single("TREE")
        let tester = try Input.hitTester(treePath, treeOptions)
        var only: NodeID?
        if let name = args.option("element") {
            guard let id = tester.tree.node(withID: name) else {
                throw TreeError(.validation, "no node has id \"\(name)\"", file: Input.displayName(treePath))
            }
            only = id
        }
        let analysis: ScreenAnalysis
        do {
            analysis = try ScreenAnalysis(tester, visibility: false)
        } catch {
            throw error.located(file: Input.displayName(treePath))
        }
        let tree = analysis.tree
        let out = Output.buffer()
        for a in analysis.elements where only == nil || a.element == only {
            out.writeLine(line(a, tree))
        }
        out.flush()
    }

    /// Why an element whose path was not filled has no suggested point.
    static func note(_ over: PathOverBudget) -> String {
        "no suggested point, since its accessibilityPath is not filled: \(over)"
    }

    static func line(_ a: ElementAnalysis, _ tree: ElementTree) -> String {
        let receiver = a.receiver.map { JSONText.string(tree.id(of: $0)) } ?? "null"
        let suggested = a.suggested.map { JSONText.point($0.x, $0.y) } ?? "null"
        return "{\"element\":\(JSONText.string(tree.id(of: a.element)))"
            + ",\"activationPoint\":\(JSONText.point(a.activationPoint.x, a.activationPoint.y))"
            + ",\"receiver\":\(receiver),\"status\":\"\(a.status.rawValue)\",\"outside\":\(a.outside)"
            + ",\"suggested\":\(suggested)"
            + (a.pathOverBudget.map { ",\"note\":\(JSONText.string(note($0)))" } ?? "") + "}"
    }
}
