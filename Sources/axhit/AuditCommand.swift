import AXHit
import CommandLineSupport
import Foundation

/// `axhit audit TREE... [--json | --sarif] [--profile platform|wcag22]
/// [--min-target N] [--baseline FILE] [--write-baseline FILE]
/// [--fail-on error|warning|info|never]`.
enum AuditCommand {
    static let help = """
        usage: axhit audit TREE... [--json | --sarif] [--profile platform|wcag22] [--min-target N]
                                   [--baseline FILE] [--write-baseline FILE]
                                   [--fail-on error|warning|info|never]

        Check each screen as an accessibility reviewer would, on exact geometry, and
        report only what the app's developers should change (Docs/tree-format.md,
        "Audits"): elements off the screen or with no area, elements touch
        exploration never finds or finds something else over (at least 2 pt/dp
        wide), controls whose double-tap is obstructed or lost, activation points
        outside the shape (view trees), small touch targets, clickable nodes with
        the same bounds (Android), visibility flags the geometry contradicts (iOS
        snapshots) and elements mostly not drawn (view trees). Nothing is reported
        about the part of an element a scroll would bring into view.

        TREE is a file or a folder (every file in it that a reader recognises; the
        others are skipped and named on standard error). Several may be given.

        --profile platform   touch targets of 44 pt (iOS, where a tap reaches the
                             control) or as ATF's TouchTargetSizeCheck measures them
                             (Android: 48 dp, 32 dp at the screen's edge) (default)
        --profile wcag22     WCAG 2.2 (2.5.8) as axe-core measures it: 24 pt/dp, or spacing
        --min-target N       the profile's minimum size in pt/dp instead (Android's 32 by
                             round(32 N / 48))
        --json               one object per finding: {"rule","severity","element","message",
                             "screen","fingerprint","baseline","wkt","points","related"}
        --sarif              one SARIF 2.1.0 document, for code-scanning services
        --baseline FILE      findings whose fingerprint FILE holds are baseline, not new
        --write-baseline FILE  write this run's fingerprints to FILE (accepting them all)
        --fail-on LEVEL      exit 3 when a new finding has LEVEL or a higher severity
                             (default error; never: always 0)

        Exit status: 0; 3 for new findings at --fail-on; 1 when an input is invalid (each
        gets its line on standard error, the valid ones are still audited; 1 wins over
        3); 2 on a usage error.

        \(TreeOptions.help)

        \(Limits.geometry)
        \(Limits.elementPaths)
        \(Limits.inscribedCircle)
        \(Limits.coverage)
        """

    /// The tool's version, as SARIF reports it.
    static let version = "0.45.0"

    /// The exit status for new findings at the `--fail-on` severity.
    static let findingsStatus: Int32 = 3

    /// Audits the inputs `argv` names and writes the findings; the exit
    /// status, which `main` exits with once everything read is released.
    static func run(_ argv: [String]) throws -> Int32 {
        let (args, treeOptions) = try TreeOptions.parse(
            argv, options: ["profile", "min-target", "baseline", "write-baseline", "fail-on"],
            flags: ["json", "sarif", "help"])
        if args.flag("help") {
            Output.line(help)
            return 0
        }
        guard !args.positionals.isEmpty else { throw UsageError("missing TREE") }
        if args.flag("json") && args.flag("sarif") { throw UsageError("--json and --sarif cannot both be given") }
        var options = AuditOptions()
        if let name = args.option("profile") {
            guard let profile = AuditProfile(rawValue: name) else {
                throw UsageError("--profile must be platform or wcag22, got '\(name)'")
            }
            options.profile = profile
        }
        if let text = args.option("min-target") {
            guard let n = Double(text), n.isFinite, n >= 0 else {
                throw UsageError("--min-target must be a finite number >= 0 (points or dp), got '\(text)'")
            }
            options.minimumTarget = n
        }
        var failOn: AuditSeverity? = .error
        if let word = args.option("fail-on") {
            if word == "never" {
                failOn = nil
            } else {
                guard let s = AuditSeverity(rawValue: word) else {
                    throw UsageError("--fail-on must be error, warning, info or never, got '\(word)'")
                }
                failOn = s
            }
        }
        let writeBaseline = args.option("write-baseline")
        if let path = args.option("baseline") {
            options.baseline = try AuditBaseline(contentsOf: try Input.read(path), file: Input.displayName(path))
        }

        let files = try expand(args.positionals)
        var invalid = false
        var screens: [AuditSARIFWriter.Screen] = []
        let out = Output.buffer()
        var all: [AuditFinding] = []
        for file in files {
            let name = Input.displayName(file)
            do {
                let data = try Input.read(file)
                let tree = try ElementTree(contentsOf: data, file: name, options: treeOptions.importOptions)
                let findings: [AuditFinding]
                do {
                    findings = try Auditor.findings(HitTester(tree), options: options, screen: name)
                } catch {
                    throw error.located(file: name)
                }
                all += findings
                if args.flag("sarif") {
                    screens.append(
                        AuditSARIFWriter.Screen(
                            file: name, tree: tree, findings: findings, lines: ElementLines.lines(in: data, of: tree)))
                } else {
                    write(findings, tree: tree, json: args.flag("json"), several: files.count > 1, to: out)
                }
            } catch {
                invalid = true
                // Findings so far go out before the error, in input order.
                out.flush()
                StandardOutput.writeError("axhit: \(TerminalText.escaped("\(error)"))\n")
            }
        }
        if args.flag("sarif") {
            out.write(AuditSARIFWriter.document(screens, version: version))
        } else if !args.flag("json") {
            summary(all, to: out)
        }
        out.flush()
        if let path = writeBaseline {
            try Output.write(AuditBaseline(accepting: all).data, to: path, input: files.first ?? "-")
        }
        if invalid { return 1 }
        if writeBaseline == nil, let failOn, all.contains(where: { !$0.baseline && $0.severity <= failOn }) {
            return findingsStatus
        }
        return 0
    }

    /// The files to audit: each TREE that is a file (or `-`), and every
    /// file a reader recognises in each TREE that is a folder, sorted by
    /// name; the others are named on standard error.
    /// - Throws: `TreeError` naming a folder in which no file is a dump.
    static func expand(_ paths: [String]) throws(TreeError) -> [String] {
        var out: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard path != "-", FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
                isDirectory.boolValue
            else {
                out.append(path)
                continue
            }
            let names: [String]
            do { names = try FileManager.default.contentsOfDirectory(atPath: path) } catch {
                throw TreeError(.io, "the folder cannot be read", file: path)
            }
            var found = 0
            for name in names.sorted() where !name.hasPrefix(".") {
                let file = path.hasSuffix("/") ? path + name : path + "/" + name
                var sub: ObjCBool = false
                guard FileManager.default.fileExists(atPath: file, isDirectory: &sub), !sub.boolValue else { continue }
                // Recognised by content, as a single TREE is.
                guard let data = try? Input.read(file), TreeFormat.detect(data) != nil else {
                    StandardOutput.writeError(
                        "axhit: \(TerminalText.escaped(file)): skipped: not a dump AXHit reads\n")
                    continue
                }
                out.append(file)
                found += 1
            }
            if found == 0 { throw TreeError(.input, "the folder holds no dump AXHit reads", file: path) }
        }
        return out
    }

    static func write(_ findings: [AuditFinding], tree: ElementTree, json: Bool, several: Bool, to out: OutputBuffer) {
        for f in findings {
            if json {
                out.writeLine(AuditJSONWriter.line(f, in: tree))
            } else {
                // Ids, labels and file names come from the input: escaped for the terminal.
                let screen = several ? "\(f.screen ?? ""): " : ""
                let state = f.baseline ? " (baseline)" : ""
                out.writeLine(
                    TerminalText.escaped(
                        "\(screen)\(f.severity.rawValue): \(f.rule.rawValue): \"\(tree.id(of: f.element))\"\(state): \(f.message)"
                    ))
            }
        }
    }

    static func summary(_ findings: [AuditFinding], to out: OutputBuffer) {
        func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
        let by = { (s: AuditSeverity) in findings.filter { $0.severity == s }.count }
        let baseline = findings.filter(\.baseline).count
        out.writeLine(
            "\(count(findings.count, "finding")): \(count(by(.error), "error")), \(count(by(.warning), "warning")), \(by(.info)) info"
                + (baseline > 0 ? "; \(baseline) in the baseline" : ""))
    }
}
