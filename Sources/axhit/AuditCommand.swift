import AXHit
import CommandLineSupport
import Foundation

/// `axhit audit TREE [--json]`.
enum AuditCommand {
    static let help = """
        usage: axhit audit TREE [--json]

        Check every exposed element's geometry by its platform's rules: forgotten
        (zero) frames, frames off the screen (on Android also empty bounds),
        activation points outside the shape, obstructed or lost activation, touch
        targets under 44 pt (iOS) or 48 dp (Android, pixels divided by the density),
        measured on the part a tap really reaches, elements touch exploration can
        never land on, overlapping elements, paths outside their frames, elements
        nothing of which is visible, and (iOS snapshots) visibility flags that the
        geometry contradicts. Human-readable text by default (control characters
        from the input escaped); with --json one object per finding:
          {"rule":"...","severity":"error"|"warning"|"info","element":"ID","message":"...",
           "wkt":"..." (optional),"points":[[x,y],...],"related":"ID" (optional)}

        \(TreeOptions.help)

        \(Limits.geometry)
        \(Limits.inscribedCircle)
        \(Limits.overlaps)
        """

    static func run(_ argv: [String]) throws {
        let (args, treeOptions) = try TreeOptions.parse(argv, options: [], flags: ["json", "help"])
        if args.flag("help") {
            Output.line(help)
            return
        }
        let treePath = try args.single("TREE")
        let tester = try Input.hitTester(treePath, treeOptions)
        let findings: [AuditFinding]
        do {
            findings = try Auditor.findings(ScreenAnalysis(tester))
        } catch {
            throw error.located(file: Input.displayName(treePath))
        }
        let tree = tester.tree
        let out = Output.buffer()
        if args.flag("json") {
            for f in findings { out.writeLine(json(f, tree)) }
        } else {
            for f in findings {
                // Ids and labels come from the input: escaped for the terminal.
                out.writeLine(
                    TerminalText.escaped(
                        "\(f.severity.rawValue): \(f.rule.rawValue): \"\(tree.id(of: f.element))\": \(f.message)"))
            }
            func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
            let by = { (s: AuditSeverity) in findings.filter { $0.severity == s }.count }
            out.writeLine(
                "\(count(findings.count, "finding")): \(count(by(.error), "error")), \(count(by(.warning), "warning")), \(by(.info)) info"
            )
        }
        out.flush()
    }

    static func json(_ f: AuditFinding, _ tree: ElementTree) -> String {
        var s = "{\"rule\":\"\(f.rule.rawValue)\",\"severity\":\"\(f.severity.rawValue)\""
        s += ",\"element\":\(JSONText.string(tree.id(of: f.element))),\"message\":\(JSONText.string(f.message))"
        if let wkt = f.wkt { s += ",\"wkt\":\(JSONText.string(wkt))" }
        s += ",\"points\":[" + f.points.map { JSONText.point($0.x, $0.y) }.joined(separator: ",") + "]"
        if let r = f.related { s += ",\"related\":\(JSONText.string(tree.id(of: r)))" }
        return s + "}"
    }
}
