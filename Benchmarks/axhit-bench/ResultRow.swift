import Foundation

/// One measurement: the `--json` row schema.
struct ResultRow: Codable {
    /// `<operation>/<workload>`, e.g. `hit-frame/grid`.
    var benchmark: String
    /// `axhit` or a variant of it (`axhit+screen-grid`), or a baseline:
    /// `naive`, `flat-scan`, `uniform-grid`, `geos-strtree`, `jsondecoder`, ...
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
    /// How many samples the percentiles are over.
    var samples: Int
    /// The samples themselves, in the order measured, so that `compare` can
    /// test the two sets against each other rather than one median against
    /// another. Nil in files written before they were kept.
    var values: [Double]?
    /// The median of each pass's samples (`run --passes`; nil with one):
    /// how far the row moved within its own run, which `compare` takes as
    /// the row's noise.
    var passMedians: [Double]?
    /// CPU cores other processes kept busy, on average, while the row's
    /// workload was measured (`SystemLoad`; the mean over passes). Nil in
    /// older files and in counts.
    var otherCores: Double?

    /// Whether the row measures the engine (`axhit`, `axhit+...`), not a
    /// baseline: it gates `compare` and is not a yardstick of the machine.
    var isEngine: Bool { implementation == "axhit" || implementation.hasPrefix("axhit+") }

    /// Whether a larger value is better (throughputs) or worse (everything else).
    var higherIsBetter: Bool { Self.higherIsBetter(unit: unit) }

    static func higherIsBetter(unit: String) -> Bool { unit == "queries/s" }

    /// The key rows are matched by across runs.
    var key: String { Self.key(benchmark, implementation, elements, metric) }

    static func key(_ benchmark: String, _ implementation: String, _ elements: Int, _ metric: String) -> String {
        "\(benchmark)|\(implementation)|\(elements)|\(metric)"
    }
}

/// Collects rows and notes as the run goes.
final class ResultSink {
    private(set) var rows: [ResultRow] = []
    /// Where each row key is in `rows`.
    private var index: [String: Int] = [:]
    /// Each row's pass medians so far.
    private var medians: [String: [Double]] = [:]
    /// Each row's other processes' load, one per pass (`endWorkload`).
    private var loads: [String: [Double]] = [:]
    /// The rows added since `startWorkload`.
    private var current: Set<String> = []
    private var workloadStart = SystemLoad()
    private(set) var notes: [String] = []
    /// Milliseconds measured so far per whole operation and size, over all
    /// passes (`BenchContext.repeated` stops at a budget).
    var spentMilliseconds: [String: Double] = [:]
    let progress: Progress

    init(progress: Progress) { self.progress = progress }

    /// Adds a measurement's samples, or, when an earlier pass measured the
    /// same row, adds them to that row (percentiles over all its samples,
    /// one median per pass).
    func add(
        _ benchmark: String, _ implementation: String, elements: Int, metric: String, unit: String, samples: [Double]
    ) {
        let kept = samples.filter(\.isFinite)
        guard !kept.isEmpty else { return }
        let key = ResultRow.key(benchmark, implementation, elements, metric)
        let values = (index[key].flatMap { rows[$0].values } ?? []) + kept
        medians[key, default: []].append(Stats(kept).p50)
        let passMedians = medians[key] ?? []
        let s = Stats(values)
        let better = ResultRow.higherIsBetter(unit: unit)
        let row = ResultRow(
            benchmark: benchmark, implementation: implementation, elements: elements, metric: metric,
            unit: unit, p50: s.p50, p90: s.percentile(better ? 10 : 90),
            p99: s.percentile(better ? 1 : 99), samples: s.count, values: values,
            passMedians: passMedians.count > 1 ? passMedians : nil, otherCores: Self.mean(loads[key]))
        if let k = index[key] {
            rows[k] = row
        } else {
            index[key] = rows.count
            rows.append(row)
        }
        current.insert(key)
        progress.log(
            "  \(implementation): \(metric) p50 \(Report.format(Stats(kept).p50)) \(unit) (\(kept.count) samples)")
    }

    /// Marks the start of one workload's measurements in one pass.
    func startWorkload() {
        current = []
        workloadStart = SystemLoad()
    }

    /// Gives the rows measured since `startWorkload` the load other
    /// processes put on the machine meanwhile (seconds of it: /proc counts
    /// CPU time in hundredths, too coarse for one row's few milliseconds).
    func endWorkload() {
        let other = SystemLoad().otherCores(since: workloadStart)
        for key in current {
            guard let k = index[key] else { continue }
            loads[key, default: []].append(other)
            rows[k].otherCores = Self.mean(loads[key])
        }
        current = []
    }

    private static func mean(_ values: [Double]?) -> Double? {
        guard let values, !values.isEmpty else { return nil }
        return values.reduce(0, +) / Double(values.count)
    }

    /// A note for the report (a skipped measurement and why), logged once.
    func note(_ text: String) {
        guard !notes.contains(text) else { return }
        notes.append(text)
        progress.log("note: \(text)")
    }
}
