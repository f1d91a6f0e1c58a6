import AXHit
import CommandLineSupport
import Foundation

/// `axhit-bench run`: generate each workload at each size, run the
/// operations that match `--only`, print the table, write JSON and SVG.
enum RunCommand {
    static let help = """
        usage: axhit-bench run [--quick] [--only PATTERN] [--elements N[,N...]] [--seed S]
                               [--passes P] [--churn-cycles C] [--cli-points N] [--json FILE]
                               [--svg FILE] [--corpus DIR]

          --quick          small sizes (1k, 10k), short budgets, 5 passes: about a minute (CI smoke run)
          --only PATTERN   run benchmarks whose `<operation>/<workload>` matches: a glob
                           (`hit-*/grid`, `build/*`) or, without * ? [, a substring (`flat`);
                           several, comma-separated: `build/*,hit-frame/*`
          --elements N     element counts instead of the defaults (1k,10k,100k,1M);
                           suffixes k and M, comma-separated: `--elements 1M,10M`
          --seed S         generator and query-point seed (default 1)
          --passes P       run every operation P times, each with 1/P of the samples and
                           repetitions, and keep each pass's median (default: 5 with --quick,
                           else 1): `compare` then knows each row's own noise
          --churn-cycles C insert/remove cycles of each churn row (default 100k; --quick: 20k;
                           the long-lived goal's row: --only churn/list --elements 1M
                           --churn-cycles 1M)
          --cli-points N   points of each cli-hit run (default 1M; --quick: 20k; the goal's
                           row: --only cli-hit/list --elements 1M --cli-points 10M)
          --json FILE      write machine info, configuration and one row per measurement
          --svg FILE       plot hit-frame latency against element count (log-log)
          --corpus DIR     real screens for the corpus workload (default Tests/Fixtures/corpus)

        Progress goes to stderr, the table to stdout.
        """

    static func run(_ args: [String]) throws -> Int32 {
        if args.contains("--help") || args.contains("-h") {
            print(help + "\n\n" + catalogue)
            return 0
        }
        let a = try Arguments(
            args,
            options: [
                "only", "elements", "seed", "json", "svg", "corpus", "passes", "churn-cycles", "cli-points",
            ],
            flags: ["quick"])
        try a.noPositionals()
        var settings = RunSettings()
        settings.quick = a.flag("quick")
        if settings.quick {
            settings.sizes = RunSettings.quickSizes
            settings.passes = RunSettings.quickPasses
        }
        if let p = a.option("passes") {
            guard let v = Int(p), (1 ... 100).contains(v) else {
                throw UsageError("--passes must be 1 to 100, got '\(p)'")
            }
            settings.passes = v
        }
        if let c = a.option("churn-cycles") {
            guard let v = try? parseSizes(c), v.count == 1, let cycles = v.first, cycles >= 1_000 else {
                throw UsageError("--churn-cycles must be one count of 1000 or more (suffixes k, M), got '\(c)'")
            }
            settings.churnCycles = cycles
        }
        if let n = a.option("cli-points") {
            guard let v = try? parseSizes(n), v.count == 1, let points = v.first, points >= 1 else {
                throw UsageError("--cli-points must be one count of 1 or more (suffixes k, M), got '\(n)'")
            }
            settings.cliPoints = points
        }
        settings.only = a.option("only")
        if let e = a.option("elements") { settings.sizes = try parseSizes(e) }
        if let s = a.option("seed") {
            guard let v = UInt64(s) else { throw UsageError("--seed must be a non-negative integer, got '\(s)'") }
            settings.seed = v
        }
        settings.jsonPath = a.option("json")
        settings.svgPath = a.option("svg")
        if let dir = a.option("corpus") { settings.corpus = URL(fileURLWithPath: dir) }

        MemoryProbe.fixAllocatorThreshold()
        let progress = Progress()
        let results = ResultSink(progress: progress)
        #if DEBUG
        results.note("this is a debug build: numbers are not representative (swift build -c release)")
        #endif
        progress.log(
            "axhit-bench run: \(settings.quick ? "quick" : "full"), sizes \(settings.sizes.map(Report.count).joined(separator: ", ")), "
                + "\(ProcessInfo.processInfo.activeProcessorCount) cores")
        let options = WorkloadOptions(corpusDirectory: settings.corpus)
        for pass in 0 ..< settings.passes {
            if settings.passes > 1 { progress.log("pass \(pass + 1) of \(settings.passes)") }
            for size in settings.sizes {
                for workload in allWorkloads {
                    let operations = BenchmarkOperation.all.filter {
                        matches("\($0.name)/\(workload.name)", settings.only)
                    }
                    if operations.isEmpty { continue }
                    if size > workload.maxElements {
                        results.note(
                            "\(workload.name): skipped at \(Report.count(size)) elements (capped at \(Report.count(workload.maxElements)))"
                        )
                        continue
                    }
                    // Generated again in every pass (the same tree, from the
                    // seed), so that each pass also has its own memory
                    // layout: a tree that landed badly in one process is
                    // then one pass's noise, not the whole run's shift.
                    progress.log("generate \(workload.name) \(Report.count(size)) (seed \(settings.seed))")
                    let before = MemoryProbe.residentAfterTrim()
                    let screen = try workload.generate(elements: size, seed: settings.seed, options: options)
                    let context = BenchContext(
                        settings: settings, workload: workload, screen: screen,
                        treeBytes: MemoryProbe.residentAfterTrim() - before, results: results,
                        pass: pass)
                    results.startWorkload()
                    for op in operations {
                        progress.log("\(op.name)/\(workload.name) \(context.elements) elements")
                        try op.run(context)
                    }
                    results.endWorkload()
                }
            }
        }
        let peak = MemoryProbe.peakResident()
        progress.log(
            "done in \(String(format: "%.1f", progress.elapsedSeconds)) s; peak RSS \(peak.map { "\($0 >> 20) MiB" } ?? "unknown")"
        )

        let out = OutputBuffer { StandardOutput.exitAfterFailedWrite($0, tool: "axhit-bench") }
        for line in Report.table(results.rows, notes: results.notes) { out.writeLine(line) }
        out.flush()
        if let path = settings.jsonPath {
            let report = JSONReport(
                configuration: settings.jsonFields, rows: results.rows, notes: results.notes,
                durationSeconds: progress.elapsedSeconds, peakResident: peak)
            try write(report.text(), to: path)
            progress.log("wrote \(path)")
        }
        if let path = settings.svgPath {
            try write(SVGPlot.render(results.rows), to: path)
            progress.log("wrote \(path)")
        }
        return 0
    }

    static var catalogue: String {
        "operations:\n" + table(BenchmarkOperation.all.map { ($0.name, $0.summary) })
            + "workloads:\n" + table(allWorkloads.map { ($0.name, $0.summary) })
    }

    /// Name and summary lines, the summaries aligned past the longest name.
    static func table(_ rows: [(name: String, summary: String)]) -> String {
        let width = rows.map(\.name.count).max() ?? 0
        return rows.map { "  \($0.name.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.summary)\n" }
            .joined()
    }

    /// Whether a benchmark name matches `--only`: any of its comma-separated
    /// patterns, each a glob when it has glob characters, else a substring.
    static func matches(_ name: String, _ patterns: String?) -> Bool {
        guard let patterns, !patterns.isEmpty else { return true }
        return patterns.split(separator: ",").contains { part in
            let pattern = String(part)
            if pattern.contains(where: { "*?[".contains($0) }) { return fnmatch(pattern, name, 0) == 0 }
            return name.contains(pattern)
        }
    }

    /// `1000`, `10k`, `1M`, comma-separated.
    static func parseSizes(_ text: String) throws(UsageError) -> [Int] {
        var sizes: [Int] = []
        for part in text.split(separator: ",") {
            var s = part.trimmingCharacters(in: .whitespaces)
            var scale = 1
            if s.hasSuffix("k") || s.hasSuffix("K") {
                scale = 1_000
                s.removeLast()
            } else if s.hasSuffix("M") || s.hasSuffix("m") {
                scale = 1_000_000
                s.removeLast()
            }
            guard let v = Double(s), v.isFinite, v >= 1, v * Double(scale) <= 1e9 else {
                throw UsageError("--elements: '\(part)' is not a count (e.g. 1000, 10k, 1M)")
            }
            sizes.append(Int(v * Double(scale)))
        }
        if sizes.isEmpty { throw UsageError("--elements needs at least one count") }
        return sizes
    }

    static func write(_ text: String, to path: String) throws {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            throw BenchError("cannot write \(path): \(error.localizedDescription)")
        }
    }
}
