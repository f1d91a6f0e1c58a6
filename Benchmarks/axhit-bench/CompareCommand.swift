import CommandLineSupport
import Foundation

/// `axhit-bench compare BASELINE.json NEW.json [--threshold 5%]`: the change
/// of every measurement present in both, and exit 2 when an engine (`axhit`)
/// metric got worse beyond its threshold. Baseline implementations are shown
/// but never gate: they measure the machine, not the engine.
enum CompareCommand {
    static let help = """
    usage: axhit-bench compare BASELINE.json NEW.json [--threshold T]

      T is a percentage for every metric (`5%`), or per-metric thresholds
      plus an optional default: `latency=10%,time=15%,5%`. Without
      --threshold: 5%, but 10% for the memory metrics (page-granular),
      15% for throughput-all-cores (sensitive to other load on the machine)
      and 25% for amortized (one value, a mean carrying a few index rebuilds).

    Rows match on benchmark, implementation, elements and metric; the change
    is that of the medians (p50). A metric regresses when it is worse by more
    than its threshold and, for a lower-is-better metric measured with 3 or
    more samples, the new median is also beyond the baseline's p90 (outside
    the baseline's own noise). Exit 2 on a regression of an axhit row, 0
    otherwise, 1 for unreadable input, 64 for a usage error.
    """

    struct Thresholds {
        var fallback = 5.0
        var perMetric: [String: Double] = [:]
        func value(for metric: String) -> Double { perMetric[metric] ?? fallback }

        /// Used when --threshold is not given. `amortized` is a single mean
        /// dominated by a few rebuilds, so it has no spread to judge noise by.
        static let defaults = Thresholds(fallback: 5, perMetric: [
            "bytes-per-element": 10, "tree-bytes-per-element": 10, "throughput-all-cores": 15, "amortized": 25,
        ])
    }

    enum Verdict: String {
        case regressed = "REGRESSED", improved, ok, noise = "ok (noise)"
    }

    static func run(_ args: [String]) throws -> Int32 {
        if args.contains("--help") || args.contains("-h") { print(help); return 0 }
        let a = try Arguments(args, options: ["threshold"], flags: [])
        guard a.positionals.count == 2 else { throw UsageError("compare needs BASELINE.json and NEW.json") }
        let thresholds = try a.option("threshold").map(parseThresholds) ?? .defaults
        let base = try JSONReport.read(a.positionals[0]), new = try JSONReport.read(a.positionals[1])
        let (lines, regressions) = compare(base: base, new: new, thresholds: thresholds)
        let out = OutputBuffer { StandardOutput.exitAfterFailedWrite($0, tool: "axhit-bench") }
        for l in lines { out.writeLine(l) }
        out.flush()
        return regressions > 0 ? 2 : 0
    }

    /// The table and the number of gating regressions.
    static func compare(base: [ResultRow], new: [ResultRow], thresholds: Thresholds) -> ([String], Int) {
        var baseByKey: [String: ResultRow] = [:]
        for r in base { baseByKey[r.key] = r }
        var rows: [[String]] = [["benchmark", "impl", "elements", "metric", "baseline p50", "new p50", "change", "threshold", "verdict"]]
        var regressions = 0, matched = 0
        var seen: Set<String> = []
        for n in new {
            seen.insert(n.key)
            guard let b = baseByKey[n.key] else {
                rows.append([n.benchmark, n.implementation, Report.count(n.elements), n.metric, "-", Report.format(n.p50), "new", "", ""])
                continue
            }
            matched += 1
            let t = thresholds.value(for: n.metric)
            let verdict = judge(base: b, new: n, threshold: t)
            let gates = n.implementation == "axhit"
            if verdict == .regressed && gates { regressions += 1 }
            let change = b.p50 != 0 ? (n.p50 - b.p50) / b.p50 * 100 : 0
            rows.append([n.benchmark, n.implementation, Report.count(n.elements), n.metric, Report.format(b.p50),
                         Report.format(n.p50), String(format: "%+.1f%%", change), String(format: "%g%%", t),
                         verdict.rawValue + (gates ? "" : " (baseline, not gating)")])
        }
        for b in base where !seen.contains(b.key) {
            rows.append([b.benchmark, b.implementation, Report.count(b.elements), b.metric, Report.format(b.p50), "-", "missing", "", ""])
        }
        var widths = [Int](repeating: 0, count: rows[0].count)
        for r in rows { for (k, c) in r.enumerated() { widths[k] = max(widths[k], c.count) } }
        var lines = rows.map { r in
            r.enumerated().map { k, c in k == r.count - 1 ? c : c.padding(toLength: widths[k], withPad: " ", startingAt: 0) }
                .joined(separator: "  ")
        }
        lines.insert(String(repeating: "-", count: lines[0].count), at: 1)
        lines.append("")
        lines.append("\(matched) measurements compared, \(regressions) axhit regression\(regressions == 1 ? "" : "s")")
        return (lines, regressions)
    }

    /// Worse beyond the threshold (and, where samples allow, beyond the
    /// baseline's own spread) is a regression; better beyond it, an improvement.
    static func judge(base b: ResultRow, new n: ResultRow, threshold t: Double) -> Verdict {
        guard b.p50 != 0 else { return .ok }
        let change = (n.p50 - b.p50) / b.p50 * 100
        let worse = n.higherIsBetter ? -change : change
        if worse > t {
            let withinNoise = n.higherIsBetter ? n.p50 >= b.p90 : n.p50 <= b.p90
            if b.samples >= 3 && withinNoise { return .noise }
            return .regressed
        }
        if worse < -t { return .improved }
        return .ok
    }

    static func parseThresholds(_ text: String) throws(UsageError) -> Thresholds {
        var t = Thresholds()
        func percent(_ s: Substring) throws(UsageError) -> Double {
            let digits = s.hasSuffix("%") ? s.dropLast() : s
            guard let v = Double(digits), v.isFinite, v >= 0 else {
                throw UsageError("--threshold: '\(s)' is not a percentage (e.g. 5%)")
            }
            return v
        }
        for part in text.split(separator: ",") {
            if let eq = part.firstIndex(of: "=") {
                t.perMetric[String(part[..<eq])] = try percent(part[part.index(after: eq)...])
            } else {
                t.fallback = try percent(part)
            }
        }
        return t
    }
}
