import CommandLineSupport
import Foundation

/// `axhit-bench compare BASELINE.json NEW.json [--threshold 5%]`: a verdict
/// per measurement present in both (`regressed`, `improved`, `no change`,
/// `inconclusive (noisy)`), and exit 2 when an engine row (`axhit`, `axhit+...`)
/// regressed. Baseline implementations are shown but never gate: they
/// measure the machine, not the engine (and correct for it, `MachineShift`).
enum CompareCommand {
    static let help = """
        usage: axhit-bench compare BASELINE.json NEW.json [--threshold T]

          T is a percentage for every metric (`5%`), or thresholds per metric or
          unit plus an optional default: `latency=10%,time=15%,5%`. Without
          --threshold: 5%, but 10% for the memory metrics (page-granular), 15%
          for throughput-all-cores, 25% for amortized (a mean carrying a few
          index rebuilds), 1.5% for instruction counts (`count`: they repeat
          to within 0.1%, 0.75% at worst) and 5% for simulated cache misses.

        Rows match on benchmark, implementation, elements and metric. The change
        is that of the medians, less the machine's own change over the same run
        (the median change of the baseline implementations on the same workload
        and size; time rows only). Verdicts:

          no change              the change is within the threshold
          regressed / improved   beyond the threshold, and significant: a
                                 Mann-Whitney U test of the two runs' pass medians
                                 (or samples) gives p < 0.01, and the change is more
                                 than 3 times the row's own noise (how far its passes
                                 strayed from their median, in either run)
          inconclusive (noisy)   beyond the threshold, but not significant, within
                                 the noise, or in a run with 0.5 more cores busy with
                                 other processes: measure again (`axhit-bench ab`)

        Rows with one value on each side that is not a time (instruction counts,
        memory) are exact: beyond the threshold is a regression. Files from before samples were kept have p50s
        only: a change needs 25% (or the threshold, if higher) and the new median
        beyond the baseline's p90 to count, else beyond the threshold it is
        inconclusive.

        Exit 2 on a regression of an axhit row, 0 otherwise, 1 for unreadable
        input, 64 for a usage error.
        """

    struct Thresholds {
        var fallback = 5.0
        /// By metric name, or by unit (a metric's own entry wins).
        var perKey: [String: Double] = [:]
        func value(metric: String, unit: String) -> Double { perKey[metric] ?? perKey[unit] ?? fallback }

        /// Used when --threshold is not given. `amortized` is a single mean
        /// dominated by a few rebuilds; counts repeat to within 0.75%, so
        /// 1.5% is already a real change.
        static let defaults = Thresholds(
            fallback: 5,
            perKey: [
                "bytes-per-element": 10, "tree-bytes-per-element": 10, "throughput-all-cores": 15, "amortized": 25,
                "instructions": 1.5, "misses": 5,
            ])
    }

    enum Verdict: String {
        case regressed, improved
        case noChange = "no change"
        case inconclusive = "inconclusive (noisy)"
    }

    /// What `judge` concluded about one row, and from what.
    struct Judgement {
        var verdict: Verdict
        /// new / baseline − 1 of the medians, less the machine's change.
        var change: Double
        /// The test's two-sided p-value; nil where no test applies.
        var p: Double?
        /// The row's own noise (a fraction); nil where unknown.
        var noise: Double?
    }

    /// Significance level of the Mann–Whitney test.
    static let alpha = 0.01
    /// A change must be more than this many times the row's noise.
    static let noiseMultiple = 3.0
    /// A time change is not judged when the slower run had this many more
    /// cores' worth of other processes running (`ResultRow.otherCores`).
    static let busierLimit = 0.5
    /// Without kept samples, a change must pass this (%) to count.
    static let p50OnlyThreshold = 25.0
    /// A row's samples are cut into this many consecutive groups when it has
    /// no pass medians (a single-pass run), to see it drift.
    static let groupsWithoutPasses = 5

    static func run(_ args: [String]) throws -> Int32 {
        if args.contains("--help") || args.contains("-h") {
            print(help)
            return 0
        }
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

    /// The table, a list of the regressions, and their number (axhit rows).
    static func compare(base: [ResultRow], new: [ResultRow], thresholds: Thresholds) -> ([String], Int) {
        let machine = MachineShift(base: base, new: new)
        return report(base: base, new: new, thresholds: thresholds, footer: machine.summary) { b, n, t in
            judge(base: b, new: n, threshold: t, machineShift: machine.shift(for: n))
        }
    }

    /// The table of `judge`'s verdicts on the rows of `new` and `base` that
    /// match, a list of the regressions, and their number (axhit rows).
    static func report(
        base: [ResultRow], new: [ResultRow], thresholds: Thresholds, footer: String,
        judge: (ResultRow, ResultRow, Double) -> Judgement
    ) -> ([String], Int) {
        var baseByKey: [String: ResultRow] = [:]
        for r in base { baseByKey[r.key] = r }
        var rows: [[String]] = [
            [
                "benchmark", "impl", "elements", "metric", "baseline p50", "new p50", "change", "p", "noise",
                "threshold", "verdict",
            ]
        ]
        var regressed: [String] = []
        var counts: [Verdict: Int] = [:]
        var matched = 0
        var seen: Set<String> = []
        for n in new {
            seen.insert(n.key)
            let size = Report.count(n.elements)
            guard let b = baseByKey[n.key] else {
                rows.append([
                    n.benchmark, n.implementation, size, n.metric, "-", Report.format(n.p50), "new", "", "", "", "",
                ])
                continue
            }
            matched += 1
            let t = thresholds.value(metric: n.metric, unit: n.unit)
            let j = judge(b, n, t)
            let gates = n.isEngine
            if gates { counts[j.verdict, default: 0] += 1 }
            let change = String(format: "%+.1f%%", j.change * 100)
            if j.verdict == .regressed && gates {
                regressed.append(
                    "  \(n.benchmark) \(n.implementation) \(size) \(n.metric): \(Report.format(b.p50)) -> "
                        + "\(Report.format(n.p50)) \(n.unit), \(change) (threshold \(String(format: "%g", t))%)")
            }
            rows.append([
                n.benchmark, n.implementation, size, n.metric, Report.format(b.p50), Report.format(n.p50), change,
                j.p.map { String(format: $0 < 0.001 ? "%.0e" : "%.3f", $0) } ?? "-",
                j.noise.map { String(format: "±%.1f%%", $0 * 100) } ?? "-",
                String(format: "%g%%", t), j.verdict.rawValue + (gates ? "" : " (baseline, not gating)"),
            ])
        }
        for b in base where !seen.contains(b.key) {
            rows.append([
                b.benchmark, b.implementation, Report.count(b.elements), b.metric, Report.format(b.p50), "-",
                "missing", "", "", "", "",
            ])
        }
        var widths = [Int](repeating: 0, count: rows[0].count)
        for r in rows { for (k, c) in r.enumerated() { widths[k] = max(widths[k], c.count) } }
        var lines = rows.map { r in
            r.enumerated().map { k, c in
                k == r.count - 1 ? c : c.padding(toLength: widths[k], withPad: " ", startingAt: 0)
            }
            .joined(separator: "  ")
        }
        lines.insert(String(repeating: "-", count: lines[0].count), at: 1)
        lines.append("")
        lines.append(footer)
        let tally = [Verdict.regressed, .improved, .noChange, .inconclusive].map {
            "\(counts[$0, default: 0]) \($0.rawValue)"
        }
        lines.append("\(matched) measurements compared; axhit rows: " + tally.joined(separator: ", "))
        if !regressed.isEmpty {
            lines.append("regressed:")
            lines += regressed
        }
        return (lines, regressed.count)
    }

    /// The verdict on one row (see `help`). `machineShift` is the log of
    /// the machine's own slowdown to take out of a time row's change.
    static func judge(base b: ResultRow, new n: ResultRow, threshold t: Double, machineShift: Double) -> Judgement {
        let limit = log1p(t / 100)
        // Worse is positive: the change of a lower-is-better value, or the
        // inverse change of a throughput. The machine's own move in the same
        // direction is taken off (it can explain a change away, never make
        // one).
        func worse(_ baseValue: Double, _ newValue: Double) -> Double? {
            guard baseValue > 0, newValue > 0 else { return nil }
            let observed = n.higherIsBetter ? -log(newValue / baseValue) : log(newValue / baseValue)
            if observed > 0 && machineShift > 0 { return max(0, observed - machineShift) }
            if observed < 0 && machineShift < 0 { return min(0, observed - machineShift) }
            return observed
        }
        func judgement(_ verdict: Verdict, _ w: Double, p: Double? = nil, noise: Double? = nil) -> Judgement {
            Judgement(verdict: verdict, change: exp(n.higherIsBetter ? -w : w) - 1, p: p, noise: noise)
        }
        guard let baseValues = b.values, let newValues = n.values else {
            // p50s only: a wide threshold, and beyond the baseline's p90.
            guard let w = worse(b.p50, n.p50) else { return judgement(.noChange, 0) }
            if abs(w) <= limit { return judgement(.noChange, w) }
            let beyondNoise = b.samples < 3 || (w > 0 ? worse(b.p90, n.p50).map { $0 > 0 } ?? true : true)
            if abs(w) > log1p(max(t, p50OnlyThreshold) / 100) && beyondNoise {
                return judgement(w > 0 ? .regressed : .improved, w)
            }
            return judgement(.inconclusive, w)
        }
        guard let w = worse(Stats(baseValues).p50, Stats(newValues).p50) else { return judgement(.noChange, 0) }
        if abs(w) <= limit { return judgement(.noChange, w) }
        if baseValues.count == 1 && newValues.count == 1 && !MachineShift.isTime(n.unit) {
            // One value each of what does not vary with the machine (an
            // instruction count, bytes): beyond the threshold is real.
            return judgement(w > 0 ? .regressed : .improved, w)
        }
        let baseGroups = groupMedians(b), newGroups = groupMedians(n)
        let test =
            baseGroups.count >= 3 && newGroups.count >= 3
            ? MannWhitney.test(baseGroups, newGroups) : MannWhitney.test(baseValues, newValues)
        let noise = max(spread(baseGroups), spread(newGroups))
        // More company on the machine in the run that got slower (fewer
        // cores free for a parallel build, more cache thrashing) explains it.
        let busier = (n.otherCores ?? 0) - (b.otherCores ?? 0)
        let explained = MachineShift.isTime(n.unit) && (w > 0 ? busier : -busier) > busierLimit
        if test.p < alpha && abs(w) > noiseMultiple * noise && !explained {
            return judgement(w > 0 ? .regressed : .improved, w, p: test.p, noise: expm1(noise))
        }
        return judgement(.inconclusive, w, p: test.p, noise: expm1(noise))
    }

    /// The medians of a row's passes, or of consecutive groups of its
    /// samples when it has one pass (enough to see drift within the run).
    static func groupMedians(_ r: ResultRow) -> [Double] {
        if let medians = r.passMedians, medians.count > 1 { return medians }
        guard let values = r.values, values.count >= 2 * groupsWithoutPasses else { return [] }
        let g = groupsWithoutPasses
        return (0 ..< g).map { k in Stats(Array(values[(k * values.count / g) ..< ((k + 1) * values.count / g)])).p50 }
    }

    /// How far the furthest group median strays from their median, as a log
    /// ratio (0 with fewer than two).
    static func spread(_ medians: [Double]) -> Double {
        guard medians.count > 1 else { return 0 }
        let m = Stats(medians).p50
        guard m > 0 else { return 0 }
        return medians.filter { $0 > 0 }.map { abs(log($0 / m)) }.max() ?? 0
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
                t.perKey[String(part[..<eq])] = try percent(part[part.index(after: eq)...])
            } else {
                t.fallback = try percent(part)
            }
        }
        return t
    }
}

/// How much slower the machine itself was in the new run: the median log
/// ratio of the baseline implementations' time medians (naive walk, flat
/// scan, GEOS, JSONDecoder, ...), per workload and size where it has three
/// or more of them, else over all. The engine's code cannot change them, so
/// they measure the machine: a neighbour's build that slowed a whole
/// workload's measurements slowed its baselines too.
struct MachineShift {
    private var byGroup: [String: Double] = [:]
    private(set) var overall = 0.0
    private var rows = 0

    /// Units whose values are times (or their inverse).
    static func isTime(_ unit: String) -> Bool { unit == "ns" || unit == "ms" || unit == "queries/s" }

    init(base: [ResultRow], new: [ResultRow]) {
        var baseByKey: [String: ResultRow] = [:]
        for r in base { baseByKey[r.key] = r }
        var groups: [String: [Double]] = [:]
        var all: [Double] = []
        for n in new where !n.isEngine && (n.unit == "ns" || n.unit == "ms") {
            guard let b = baseByKey[n.key], b.p50 > 0, n.p50 > 0 else { continue }
            let r = log(n.p50 / b.p50)
            groups[Self.group(n), default: []].append(r)
            all.append(r)
        }
        rows = all.count
        overall = all.isEmpty ? 0 : Stats(all).p50
        for (g, ratios) in groups where ratios.count >= 3 { byGroup[g] = Stats(ratios).p50 }
    }

    private static func group(_ r: ResultRow) -> String {
        "\(r.benchmark.split(separator: "/").last ?? "")|\(r.elements)"
    }

    /// The log slowdown to take out of `row`'s change (0 unless a time).
    func shift(for row: ResultRow) -> Double {
        guard Self.isTime(row.unit) else { return 0 }
        return byGroup[Self.group(row)] ?? overall
    }

    var summary: String {
        guard rows > 0 else { return "machine: no baseline implementation rows in common: no correction" }
        return
            "machine: the baseline implementations' medians moved \(String(format: "%+.1f%%", expm1(overall) * 100)) "
            + "(\(rows) rows); time changes above are net of their move on the same workload and size"
    }
}
