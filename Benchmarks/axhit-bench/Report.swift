import Foundation

/// The table on stdout: one line per measurement, and for the engine's rows
/// how many times faster (or smaller) it is than each baseline measured on
/// the same benchmark, size and metric (`naive 3.2x`: 3.2 times better).
enum Report {
    static func table(_ rows: [ResultRow], notes: [String]) -> [String] {
        let header = [
            "benchmark", "impl", "elements", "metric", "unit", "p50", "p90", "p99", "n", "axhit vs baselines",
        ]
        var lines: [[String]] = [header]
        for r in rows {
            lines.append([
                r.benchmark, r.implementation, count(r.elements), r.metric, r.unit,
                format(r.p50), format(r.p90), format(r.p99), String(r.samples),
                r.isEngine ? ratios(of: r, in: rows) : "",
            ])
        }
        var widths = [Int](repeating: 0, count: header.count)
        for l in lines { for (k, cell) in l.enumerated() { widths[k] = max(widths[k], cell.count) } }
        let numeric: Set<Int> = [2, 5, 6, 7, 8]
        var out = lines.map { l in
            l.enumerated().map { k, cell in
                let pad = String(repeating: " ", count: widths[k] - cell.count)
                return numeric.contains(k) ? pad + cell : (k == l.count - 1 ? cell : cell + pad)
            }.joined(separator: "  ")
        }
        out.insert(String(repeating: "-", count: out[0].count), at: 1)
        out.append("")
        out.append(
            "axhit vs baselines: baseline p50 / axhit p50 (throughput: axhit / baseline); above 1 = axhit better")
        if !notes.isEmpty {
            out += notes.map { "note: \($0)" }
        }
        return out
    }

    /// `naive 3.2x, geos-strtree 1.4x`: each baseline's p50 over the
    /// engine's (inverted for throughput, where more is better).
    static func ratios(of r: ResultRow, in rows: [ResultRow]) -> String {
        rows.filter {
            !$0.isEngine && $0.benchmark == r.benchmark && $0.elements == r.elements
                && $0.metric == r.metric
        }.map { b in
            let x = r.higherIsBetter ? r.p50 / b.p50 : b.p50 / r.p50
            return "\(b.implementation) \(String(format: x >= 10 ? "%.0f" : x >= 0.1 ? "%.2f" : "%.2g", x))x"
        }.joined(separator: ", ")
    }

    /// A value with three significant digits, or thousands-grouped when large.
    static func format(_ v: Double) -> String {
        guard v.isFinite else { return "-" }
        let a = abs(v)
        if a >= 100_000 {
            return String(format: "%.3g", v).replacingOccurrences(of: "e+0", with: "e").replacingOccurrences(
                of: "e+", with: "e")
        }
        if a >= 100 { return String(format: "%.0f", v) }
        if a >= 10 { return String(format: "%.1f", v) }
        return String(format: "%.3g", v)
    }

    /// 1000 → 1k, 1000000 → 1M; other counts as they are.
    static func count(_ n: Int) -> String {
        if n >= 1_000_000 && n % 1_000_000 == 0 { return "\(n / 1_000_000)M" }
        if n >= 1_000 && n % 1_000 == 0 { return "\(n / 1_000)k" }
        return String(n)
    }
}
