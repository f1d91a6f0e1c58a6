import Foundation

/// One measurement: the `--json` row schema.
struct ResultRow: Codable {
    /// `<operation>/<workload>`, e.g. `hit-frame/grid`.
    var benchmark: String
    /// `axhit`, or a baseline: `naive`, `flat-scan`, `uniform-grid`, `geos-strtree`, `jsondecoder`, ...
    var implementation: String
    /// Nodes in the tree.
    var elements: Int
    /// `latency` (ns per query), `time` (ms per operation), `throughput`
    /// (queries/s, one core), `throughput-all-cores`, `bytes-per-element`,
    /// `tree-bytes-per-element`.
    var metric: String
    var unit: String
    /// Percentiles, worst last: for a higher-is-better metric (throughput)
    /// p90 and p99 are the values 90% and 99% of samples beat (the 10th and
    /// 1st percentiles), as package-benchmark reports them, so that a larger
    /// percentile always means a worse tail.
    var p50: Double
    var p90: Double
    var p99: Double
    var samples: Int

    /// Whether a larger value is better (throughputs) or worse (everything else).
    var higherIsBetter: Bool { unit == "queries/s" }

    /// The key rows are matched by across runs.
    var key: String { "\(benchmark)|\(implementation)|\(elements)|\(metric)" }
}

/// Collects rows and notes as the run goes.
final class ResultSink {
    private(set) var rows: [ResultRow] = []
    private(set) var notes: [String] = []
    let progress: Progress

    init(progress: Progress) { self.progress = progress }

    func add(_ benchmark: String, _ implementation: String, elements: Int, metric: String, unit: String, samples: [Double]) {
        let s = Stats(samples)
        guard s.count > 0 else { return }
        let better = unit == "queries/s"
        let row = ResultRow(benchmark: benchmark, implementation: implementation, elements: elements, metric: metric,
                            unit: unit, p50: s.p50, p90: s.percentile(better ? 10 : 90),
                            p99: s.percentile(better ? 1 : 99), samples: s.count)
        rows.append(row)
        progress.log("  \(implementation): \(metric) p50 \(Report.format(row.p50)) \(unit) (\(s.count) samples)")
    }

    /// A note for the report (a skipped measurement and why), logged once.
    func note(_ text: String) {
        guard !notes.contains(text) else { return }
        notes.append(text)
        progress.log("note: \(text)")
    }
}
