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

    /// `s` as a JSON string: quotes, backslashes, control characters,
    /// U+FEFF, U+2028 and U+2029 escaped.
    static func quoted(_ s: String) -> String {
        // Most text (every WKT, most names) needs no escape: one pass over
        // its bytes says so. 0xE2 and 0xEF lead U+2028, U+2029 and U+FEFF.
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0xE2 || $0 == 0xEF }) {
            return "\"" + s + "\""
        }
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                // U+FEFF too (some readers, Foundation's on Linux among them,
                // drop it from strings), and the line separators U+2028, U+2029.
                if u.value < 0x20 || u.value == 0xFEFF || u.value == 0x2028 || u.value == 0x2029 {
                    let h = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }

    /// A JSON number: integers without a fraction, others in Swift's
    /// shortest round-trip form, `null` for a non-finite value.
    static func number(_ v: Double) -> String {
        guard v.isFinite else { return "null" }
        if v == v.rounded() && abs(v) < 1e15 { return String(Int64(v)) }
        return "\(v)"
    }
}
