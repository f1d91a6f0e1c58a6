import AXHit
import CommandLineSupport
import Foundation

/// `axhit audit TREE [--json]`.
enum AuditCommand {
    static let help = """
        usage: axhit audit TREE [--json]

        Check every exposed element's geometry: forgotten (zero) frames, frames off
        the screen, activation points outside the shape, obstructed or lost
        activation, touch targets under 44 pt (measured on the part a tap really
        reaches), elements touch exploration can never land on, overlapping
        elements, paths outside their frames, and elements nothing of which is
        visible. Human-readable text by default; with --json one object per finding:
          {"rule":"...","severity":"error"|"warning","element":"ID","message":"...",
           "wkt":"..." (optional),"points":[[x,y],...],"related":"ID" (optional)}
        """

    static func run(_ argv: [String]) throws {
        let args = try Arguments(argv, options: [], flags: ["json", "help"])
        if args.flag("help") { print(help); return }
        let treePath = try args.single("TREE")
        let tester = try Input.hitTester(treePath)
        let findings: [AuditFinding]
        do {
            findings = try Auditor.findings(ScreenAnalysis(tester))
        } catch {
            throw error.located(file: Input.displayName(treePath))
        }
        let tree = tester.tree
        let out = OutputBuffer()
        if args.flag("json") {
            for f in findings { out.writeLine(json(f, tree)) }
        } else {
            for f in findings {
                out.writeLine("\(f.severity.rawValue): \(f.rule.rawValue): \"\(tree.id(of: f.element))\": \(f.message)")
            }
            let errors = findings.filter { $0.severity == .error }.count
            out.writeLine("\(findings.count) finding\(findings.count == 1 ? "" : "s"): \(errors) error\(errors == 1 ? "" : "s"), \(findings.count - errors) warning\(findings.count - errors == 1 ? "" : "s")")
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
