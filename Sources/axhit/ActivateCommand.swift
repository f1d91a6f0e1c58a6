import AXHit
import CommandLineSupport
import Foundation

/// `axhit activate TREE [--element ID]`.
enum ActivateCommand {
    static let help = """
        usage: axhit activate TREE [--element ID]

        For each exposed element, in pre-order (or only element ID), where a
        double-tap lands and whether it reaches the element:
          {"element":"ID","activationPoint":[x,y],"receiver":"ID" or null,
           "status":"ok"|"obstructed"|"lost","outside":true|false,"suggested":[x,y] or null}
        receiver    the view UIKit's hitTest gives the activation point
        status      ok: the element's view (or container) or a descendant receives it;
                    obstructed: another view does; lost: none does
        outside     the point lies outside the element's shape (cut by its ancestors)
        suggested   the point of the shape a tap reaches that is farthest from the edges
                    of the reachable part (null when no tap reaches the element)
        --element ID   only that element (nothing is printed when it is not exposed;
                       an id no node has is an error)
        """

    static func run(_ argv: [String]) throws {
        let args = try Arguments(argv, options: ["element"], flags: ["help"])
        if args.flag("help") { print(help); return }
        let treePath = try args.single("TREE")
        let tester = try Input.hitTester(treePath)
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
        let out = OutputBuffer()
        for a in analysis.elements where only == nil || a.element == only {
            out.writeLine(line(a, tree))
        }
        out.flush()
    }

    static func line(_ a: ElementAnalysis, _ tree: ElementTree) -> String {
        let receiver = a.receiver.map { JSONText.string(tree.id(of: $0)) } ?? "null"
        let suggested = a.suggested.map { JSONText.point($0.x, $0.y) } ?? "null"
        return "{\"element\":\(JSONText.string(tree.id(of: a.element)))"
            + ",\"activationPoint\":\(JSONText.point(a.activationPoint.x, a.activationPoint.y))"
            + ",\"receiver\":\(receiver),\"status\":\"\(a.status.rawValue)\",\"outside\":\(a.outside)"
            + ",\"suggested\":\(suggested)}"
    }
}
