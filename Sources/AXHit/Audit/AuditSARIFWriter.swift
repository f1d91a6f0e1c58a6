import Foundation

/// The audit as one SARIF 2.1.0 document (cli.md, `audit --sarif`), as
/// code-scanning services read it: one run whose driver lists every rule
/// (short, full and help texts, default level), and per finding its rule,
/// level (`info` as `note`), message, the file as a relative URI with the
/// element's line, the element as a logical location, its fingerprint
/// under `axhit/v1`, and `baselineState` (`unchanged` for a finding the
/// baseline holds, `new` for the others).
public enum AuditSARIFWriter {
    /// One audited screen.
    public struct Screen: Sendable {
        /// The file, as the user named it.
        public var file: String
        /// The tree read from it.
        public var tree: ElementTree
        /// Its findings.
        public var findings: [AuditFinding]
        /// The 1-based line of each element in the file, where known
        /// (`ElementLines`); 1 for the others.
        public var lines: [NodeID: Int]

        /// A screen read from `file`.
        public init(file: String, tree: ElementTree, findings: [AuditFinding], lines: [NodeID: Int] = [:]) {
            self.file = file
            self.tree = tree
            self.findings = findings
            self.lines = lines
        }
    }

    /// The SARIF level of a severity.
    public static func level(_ s: AuditSeverity) -> String {
        switch s {
        case .error: return "error"
        case .warning: return "warning"
        case .info: return "note"
        }
    }

    /// The document, JSON with a newline at the end.
    ///
    /// - Parameters:
    ///   - screens: the screens audited, in input order.
    ///   - version: the tool's version, for `tool.driver.version`.
    public static func document(_ screens: [Screen], version: String) -> String {
        let q = AuditJSONWriter.quoted
        let rules = AuditRule.allCases
        var ruleIndex: [AuditRule: Int] = [:]
        for (k, r) in rules.enumerated() { ruleIndex[r] = k }
        let ruleObjects = rules.map { r in
            "{\"id\":\(q(r.rawValue)),\"name\":\(q(r.rawValue)),\"shortDescription\":{\"text\":\(q(r.summary))},"
                + "\"fullDescription\":{\"text\":\(q(r.explanation))},\"help\":{\"text\":\(q(r.help))},"
                + "\"defaultConfiguration\":{\"level\":\"\(level(r.severity))\"}}"
        }
        var results: [String] = []
        for screen in screens {
            for f in screen.findings {
                let id = screen.tree.id(of: f.element)
                let line = max(1, screen.lines[f.element] ?? 1)
                results.append(
                    "{\"ruleId\":\(q(f.rule.rawValue)),\"ruleIndex\":\(ruleIndex[f.rule] ?? 0),"
                        + "\"level\":\"\(level(f.severity))\",\"message\":{\"text\":\(q(f.message))},"
                        + "\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":\(q(uri(screen.file)))},"
                        + "\"region\":{\"startLine\":\(line)}},"
                        + "\"logicalLocations\":[{\"name\":\(q(id)),\"kind\":\"element\"}]}],"
                        + "\"partialFingerprints\":{\"axhit/v1\":\(q(f.fingerprint))},"
                        + "\"baselineState\":\"\(f.baseline ? "unchanged" : "new")\"}")
            }
        }
        return "{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\",\"runs\":[{"
            + "\"tool\":{\"driver\":{\"name\":\"axhit\",\"version\":\(q(version)),"
            + "\"rules\":[\(ruleObjects.joined(separator: ","))]}},"
            + "\"columnKind\":\"unicodeCodePoints\",\"results\":[\(results.joined(separator: ","))]}]}\n"
    }

    /// A relative URI reference for a file as the user named it: its path
    /// with `/` separators, percent-encoded where a URI needs it; a path
    /// under the current directory is made relative to it.
    static func uri(_ file: String) -> String {
        var path = file
        let cwd = FileManager.default.currentDirectoryPath
        if path.hasPrefix("/") && path.hasPrefix(cwd + "/") { path = String(path.dropFirst(cwd.count + 1)) }
        if path.hasPrefix("./") { path = String(path.dropFirst(2)) }
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: ":?#[]@")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }
}
