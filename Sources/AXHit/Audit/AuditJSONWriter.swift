import AXGeometry
import Foundation

/// The audit's JSON Lines (cli.md, `audit --json`): one object per finding,
/// with `rule`, `severity`, `element`, `message`, `screen`, `fingerprint`
/// and `baseline`, then the evidence (`wkt`, `points`, `related`).
public enum AuditJSONWriter {
    /// One finding as one line of JSON (no newline).
    public static func line(_ f: AuditFinding, in tree: ElementTree) -> String {
        var s = "{\"rule\":\"\(f.rule.rawValue)\",\"severity\":\"\(f.severity.rawValue)\""
        s += ",\"element\":\(quoted(tree.id(of: f.element))),\"message\":\(quoted(f.message))"
        s += ",\"screen\":" + (f.screen.map(quoted) ?? "null")
        s += ",\"fingerprint\":\(quoted(f.fingerprint)),\"baseline\":\(f.baseline)"
        if let wkt = f.wkt { s += ",\"wkt\":\(quoted(wkt))" }
        s +=
            ",\"points\":["
            + f.points.map { "[\(number(Double($0.x))),\(number(Double($0.y)))]" }.joined(separator: ",")
        s += "]"
        if let r = f.related { s += ",\"related\":\(quoted(tree.id(of: r)))" }
        return s + "}"
    }

    /// `s` as a JSON string (`JSONBytes.string`: quotes, backslashes,
    /// control characters, U+FEFF, U+2028 and U+2029 escaped).
    static func quoted(_ s: String) -> String { JSONBytes.string(s) }

    /// A JSON number: integers without a fraction, others in Swift's
    /// shortest round-trip form, `null` for a non-finite value.
    static func number(_ v: Double) -> String {
        guard v.isFinite else { return "null" }
        if v == v.rounded() && abs(v) < 1e15 { return String(Int64(v)) }
        return "\(v)"
    }
}
