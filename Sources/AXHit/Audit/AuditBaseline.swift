import Foundation

/// The fingerprints of findings a team has accepted (tree-format.md,
/// "Audits"): findings whose fingerprint it holds are reported as baseline,
/// not as new.
///
/// The file is JSON: `{"format": "axhit-baseline/1", "fingerprints": [...]}`,
/// the fingerprints sorted, one each.
public struct AuditBaseline: Sendable, Hashable {
    /// The accepted fingerprints.
    public var fingerprints: Set<String>

    /// A baseline holding `fingerprints`.
    public init(_ fingerprints: Set<String> = []) { self.fingerprints = fingerprints }

    /// The baseline of `findings`: every one of them accepted.
    public init(accepting findings: [AuditFinding]) { fingerprints = Set(findings.map(\.fingerprint)) }

    /// Whether the baseline holds `fingerprint`.
    public func contains(_ fingerprint: String) -> Bool { fingerprints.contains(fingerprint) }

    /// The format name the file carries.
    public static let format = "axhit-baseline/1"

    /// Reads a baseline file's bytes.
    ///
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - file: the file's name, for errors.
    /// - Throws: `TreeError` (`.validation`) naming the file when it is not
    ///   JSON, or not a baseline (no `format` of `axhit-baseline/1`, or
    ///   `fingerprints` not an array of strings).
    public init(contentsOf data: Data, file: String) throws(TreeError) {
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            throw TreeError(.validation, "is not JSON, so not a baseline", file: file)
        }
        guard let dict = object as? [String: Any], dict["format"] as? String == Self.format else {
            throw TreeError(
                .validation,
                "is not a baseline: it needs \"format\": \"\(Self.format)\" (axhit audit --write-baseline)",
                file: file)
        }
        guard let list = dict["fingerprints"] as? [Any] else {
            throw TreeError(.validation, "is not a baseline: \"fingerprints\" must be an array of strings", file: file)
        }
        var out = Set<String>()
        for item in list {
            guard let s = item as? String else {
                throw TreeError(
                    .validation, "is not a baseline: \"fingerprints\" must be an array of strings", file: file,
                    key: "fingerprints")
            }
            out.insert(s)
        }
        fingerprints = out
    }

    /// The file's bytes: JSON, fingerprints sorted, a newline at the end.
    public var data: Data {
        let list = fingerprints.sorted().map { "    \(AuditJSONWriter.quoted($0))" }.joined(separator: ",\n")
        let body = list.isEmpty ? "[]" : "[\n\(list)\n  ]"
        return Data("{\n  \"format\": \"\(Self.format)\",\n  \"fingerprints\": \(body)\n}\n".utf8)
    }
}
