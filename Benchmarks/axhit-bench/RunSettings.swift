import Foundation

/// The configuration of one `run`: what to measure, how long, where to write.
struct RunSettings {
    var quick = false
    var only: String?
    var sizes: [Int] = RunSettings.defaultSizes
    var seed: UInt64 = 1
    var jsonPath: String?
    var svgPath: String?
    var corpus: URL = BenchPaths.defaultCorpus
    /// Times every operation runs, each with its share of the samples and
    /// repetitions (`share`). Several passes spread a row's samples over the
    /// whole run instead of one instant of it: on a shared machine a
    /// neighbour's burst then slows one pass, not the row, and `compare`
    /// can see how far a row's passes disagree (its own noise).
    var passes = 1
    /// Insert/remove cycles of a `churn` row (all passes), when set.
    var churnCycles: Int?

    static let defaultSizes = [1_000, 10_000, 100_000, 1_000_000]
    static let quickSizes = [1_000, 10_000]
    /// Passes of `--quick`: five, so that a row's pass medians can separate
    /// two runs at p < 0.01 (Mann–Whitney, 5 against 5).
    static let quickPasses = 5

    /// Pass `pass`'s part of `total` (samples, repetitions): the parts add
    /// up to `total` and, when fewer than the passes, are spread out among
    /// them (3 in 5 passes: the second, fourth and fifth).
    func share(_ total: Int, pass: Int) -> Int {
        (pass + 1) * total / passes - pass * total / passes
    }

    /// Query points per workload: the guards' first, then the measured
    /// ones, then the warm-up's (see `LatencySampler`).
    var pointCount: Int { 65_536 }
    /// Warm-up before each query latency, in nanoseconds (per pass).
    var warmUpTime: Double { (quick ? 20e6 : 200e6) / Double(passes) }
    /// Points the correctness guard checks (random plus element centres).
    var guardPoints: Int { 300 }
    /// Time to spend on one latency measurement, in nanoseconds (all passes).
    var latencyBudget: Double { quick ? 150e6 : 600e6 }
    var minSamples: Int { quick ? 5 : 10 }
    var maxSamples: Int { quick ? 150 : 300 }
    /// Rounds of the all-cores throughput measurement.
    var parallelRounds: Int { quick ? 8 : 15 }
    /// Wall time of one parallel round, in nanoseconds.
    var parallelRoundTime: Double { quick ? 20e6 : 50e6 }

    /// Timed repetitions of a whole-tree operation (build, load) at `n` elements.
    func repetitions(_ n: Int) -> Int {
        switch n {
        case ..<20_000: return quick ? 5 : 15
        case ..<200_000: return quick ? 3 : 7
        case ..<2_000_000: return 3
        default: return 1
        }
    }

    /// Seconds after which a whole-operation measurement stops repeating
    /// (it always runs once).
    var wholeOperationBudget: Double { quick ? 1.5 : 8 }
    /// Subtrees inserted (and removed) per `insert` / `remove` measurement:
    /// four index rebuilds' worth (one per `IndexPolicy.overflowLimit`
    /// (256) overflowing inserts into the same view), shared by the passes
    /// but at least one rebuild's worth per pass.
    /// Insert/remove cycles of a `churn` row, all passes together.
    var churnTotal: Int { churnCycles ?? (quick ? 20_000 : 100_000) }

    var insertCount: Int { max(256, 1024 / passes) }
    /// Points of a `cli-hit` run, when set.
    var cliPoints: Int?
    /// Points of a `cli-hit` run (the goal's row: `--cli-points 10M`).
    var cliPointTotal: Int { cliPoints ?? (quick ? 20_000 : 1_000_000) }
    /// Whole-screen operations (`activate`, `audit`) run up to this many
    /// elements: O(n log n), but GEOS work per element makes a million slow
    /// (quick: the 1k size only, as overlapping and rotated screens take
    /// seconds at 10k).
    var screenElementLimit: Int { quick ? 5_000 : 150_000 }
    /// Seconds a whole-screen operation may be projected to take (from the
    /// previous size, linearly) before a size is skipped.
    var screenProjectionLimit: Double { 40 }

    /// Repetitions of loading a file (JSONDecoder is slow: fewer at scale).
    func loadRepetitions(_ n: Int) -> Int {
        switch n {
        case ..<20_000: return quick ? 3 : 7
        case ..<200_000: return 3
        default: return 1
        }
    }

    /// Configuration as JSON key/values, for the report.
    var jsonFields: [(String, String)] {
        [
            ("mode", quick ? "\"quick\"" : "\"full\""),
            ("only", only.map { "\"\($0)\"" } ?? "null"),
            ("sizes", "[" + sizes.map(String.init).joined(separator: ",") + "]"),
            ("seed", String(seed)),
            ("latencyBudgetMs", String(Int(latencyBudget / 1e6))),
            ("minSamples", String(minSamples)), ("maxSamples", String(maxSamples)),
            ("queryBatchMax", String(LatencySampler.maxBatch)),
            ("points", String(pointCount)), ("warmUpMs", String(Int(warmUpTime * Double(passes) / 1e6))),
            ("passes", String(passes)),
        ]
    }
}

/// Paths relative to this package, found from this file's own path.
enum BenchPaths {
    /// The package root: this file is Benchmarks/axhit-bench/RunSettings.swift.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The copy of the shared corpus that the tests use, in Tests/Fixtures.
    static let defaultCorpus = packageRoot.appendingPathComponent("Tests/Fixtures/corpus")
}
