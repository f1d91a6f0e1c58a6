import CommandLineSupport
import Foundation

/// `axhit-bench ab OLD_BENCH NEW_BENCH`: two builds' harnesses run in turns
/// on the same workloads (as Chromium's Pinpoint does), one report. Each
/// round runs both on one workload after the other, alternating which goes
/// first, so what the machine does over minutes falls on both alike; each
/// row is then judged on its rounds' paired differences.
enum ABCommand {
    static let help = """
        usage: axhit-bench ab OLD_BENCH NEW_BENCH [--only PATTERN] [--elements N] [--rounds R]
                              [--cli-points N] [--threshold T] [--keep DIR]

          OLD_BENCH, NEW_BENCH  two axhit-bench executables (e.g. built from main and from
                                your branch: copy .build/release/axhit-bench after each build)
          --only PATTERN        benchmarks to run, as run --only (default: every quick one)
          --elements N          sizes, as run --elements (default: the quick sizes, 1k,10k)
          --rounds R            rounds (default 12): each runs `run --quick --passes 1` of OLD
                                and of NEW on each workload in turn
          --cli-points N        points of each cli-hit run, as run --cli-points (default:
                                --quick's); the axhit beside each executable answers them
          --threshold T         as compare's (default: compare's defaults)
          --keep DIR            keep every run's JSON in DIR (else a temporary directory)

        Per row, each round gives one difference: log(NEW median / OLD median) of the
        two runs made back to back. The change is the median difference over the rounds;
        a row regressed (or improved) when the change passes the threshold and a Wilcoxon
        signed-rank test of the differences gives p < 0.01 (with 12 rounds: at most two
        rounds disagree, and only by little). Within the threshold: no change; else
        inconclusive (noisy). The noise column is half the differences' interquartile range.
        Exit 2 on a regression of an axhit row, 0 otherwise, 1 when a run fails, 64 for
        a usage error. Takes about 2 x R x the time of one `run --quick --only PATTERN`.
        """

    static func run(_ args: [String]) throws -> Int32 {
        if args.contains("--help") || args.contains("-h") {
            print(help)
            return 0
        }
        let a = try Arguments(
            args, options: ["only", "elements", "rounds", "cli-points", "threshold", "keep"], flags: [])
        guard a.positionals.count == 2 else { throw UsageError("ab needs OLD_BENCH and NEW_BENCH") }
        let benches = try a.positionals.map { path throws(UsageError) -> String in
            guard FileManager.default.isExecutableFile(atPath: path) else {
                throw UsageError("'\(path)' is not an executable")
            }
            return URL(fileURLWithPath: path).standardizedFileURL.path
        }
        let rounds = Int(a.option("rounds") ?? "12") ?? 0
        guard rounds >= 3 else { throw UsageError("--rounds must be 3 or more") }
        let thresholds = try a.option("threshold").map(CompareCommand.parseThresholds) ?? .defaults
        if let e = a.option("elements") { _ = try RunCommand.parseSizes(e) }
        if let n = a.option("cli-points") { _ = try RunCommand.parseSizes(n) }
        let only = a.option("only")
        // One group of benchmark names per workload, named exactly (no glob
        // characters: run matches them as substrings, and none is part of
        // another).
        let groups: [(String, String)] = allWorkloads.compactMap { w in
            let names = BenchmarkOperation.all.map { "\($0.name)/\(w.name)" }.filter { RunCommand.matches($0, only) }
            return names.isEmpty ? nil : (w.name, names.joined(separator: ","))
        }
        guard !groups.isEmpty else { throw UsageError("--only '\(only ?? "")' matches no benchmark") }

        let directory: URL
        if let keep = a.option("keep") {
            directory = URL(fileURLWithPath: keep, isDirectory: true)
        } else {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "axhit-bench-ab-\(getpid())", isDirectory: true)
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { if a.option("keep") == nil { try? FileManager.default.removeItem(at: directory) } }

        let progress = Progress()
        // rows[side][round]: every row the side's runs measured in that round.
        var rows = [[[ResultRow]]](repeating: [[ResultRow]](repeating: [], count: rounds), count: 2)
        for round in 0 ..< rounds {
            for (k, (workload, names)) in groups.enumerated() {
                // Alternate who goes first, by round and by workload.
                for side in (round + k) % 2 == 0 ? [0, 1] : [1, 0] {
                    let json = directory.appendingPathComponent(
                        "\(side == 0 ? "old" : "new")-\(workload)-\(round + 1).json")
                    progress.log("round \(round + 1)/\(rounds) \(workload): \(side == 0 ? "OLD" : "NEW")")
                    var arguments = ["run", "--quick", "--passes", "1", "--only", names, "--json", json.path]
                    if let e = a.option("elements") { arguments += ["--elements", e] }
                    if let n = a.option("cli-points") { arguments += ["--cli-points", n] }
                    try runChild(benches[side], arguments, log: directory.appendingPathComponent("log.txt"))
                    rows[side][round] += try JSONReport.read(json.path)
                }
            }
        }
        let old = merge(rows[0]), new = merge(rows[1])
        let oldRounds = byRound(rows[0]), newRounds = byRound(rows[1])
        let (lines, regressions) = CompareCommand.report(
            base: old, new: new, thresholds: thresholds,
            footer: "\(rounds) rounds, OLD \(benches[0]), NEW \(benches[1]); change: median over rounds of NEW/OLD"
        ) { b, n, t in
            paired(old: oldRounds[b.key] ?? [:], new: newRounds[n.key] ?? [:], merged: (b, n), threshold: t)
        }
        let out = OutputBuffer { StandardOutput.exitAfterFailedWrite($0, tool: "axhit-bench") }
        for l in lines { out.writeLine(l) }
        out.flush()
        return regressions > 0 ? 2 : 0
    }

    /// Runs one harness to completion, its progress appended to `log`. An
    /// older harness without `--passes` runs without it (one pass was all it had).
    static func runChild(_ executable: String, _ arguments: [String], log: URL) throws {
        func attempt(_ arguments: [String]) throws -> Int32 {
            if !FileManager.default.fileExists(atPath: log.path) {
                _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            }
            let handle = try FileHandle(forWritingTo: log)
            defer { try? handle.close() }
            handle.seekToEndOfFile()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = handle
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        var status = try attempt(arguments)
        if status == 64, let k = arguments.firstIndex(of: "--passes") {
            var older = arguments
            older.removeSubrange(k ... (k + 1))
            status = try attempt(older)
        }
        guard status == 0 else {
            throw BenchError(
                "\(executable) \(arguments.joined(separator: " ")) exited with \(status); its output is in \(log.path)")
        }
    }

    /// Each row key's row per round.
    static func byRound(_ rounds: [[ResultRow]]) -> [String: [Int: ResultRow]] {
        var out: [String: [Int: ResultRow]] = [:]
        for (round, rows) in rounds.enumerated() { for r in rows { out[r.key, default: [:]][round] = r } }
        return out
    }

    /// One row per key over all rounds: every round's samples (or, from an
    /// older harness, its median), one pass median per round.
    static func merge(_ rounds: [[ResultRow]]) -> [ResultRow] {
        var order: [String] = []
        var parts: [String: [ResultRow]] = [:]
        for rows in rounds {
            for r in rows {
                if parts[r.key] == nil { order.append(r.key) }
                parts[r.key, default: []].append(r)
            }
        }
        return order.compactMap { key in
            guard var row = parts[key]?.first, let all = parts[key] else { return nil }
            let values = all.flatMap { $0.values ?? [$0.p50] }
            let s = Stats(values)
            row.p50 = s.p50
            row.p90 = s.percentile(row.higherIsBetter ? 10 : 90)
            row.p99 = s.percentile(row.higherIsBetter ? 1 : 99)
            row.samples = values.count
            row.values = values
            row.passMedians = all.map(\.p50)
            let loads = all.compactMap(\.otherCores)
            row.otherCores = loads.isEmpty ? nil : loads.reduce(0, +) / Double(loads.count)
            return row
        }
    }

    /// The verdict from the rounds in which both sides measured the row: the
    /// median of their paired log differences against the threshold, a
    /// Wilcoxon signed-rank test and the differences' spread. With fewer
    /// than three pairs, compare's unpaired judgement of the merged rows.
    static func paired(
        old: [Int: ResultRow], new: [Int: ResultRow], merged: (ResultRow, ResultRow),
        threshold t: Double
    ) -> CompareCommand.Judgement {
        let sign = merged.1.higherIsBetter ? -1.0 : 1.0
        let differences = old.keys.sorted().compactMap { round -> Double? in
            guard let b = old[round], let n = new[round], b.p50 > 0, n.p50 > 0 else { return nil }
            return sign * log(n.p50 / b.p50)
        }
        guard differences.count >= 3 else {
            return CompareCommand.judge(base: merged.0, new: merged.1, threshold: t, machineShift: 0)
        }
        let w = Stats(differences).p50
        let change = expm1(sign * w)
        // The noise shown: half the differences' interquartile range. A
        // round that met a burst of the machine is an outlier the median
        // and the signed-rank test shrug off; it should not veto.
        let d = Stats(differences)
        let noise = expm1((d.percentile(75) - d.percentile(25)) / 2)
        if abs(w) <= log1p(t / 100) {
            return .init(verdict: .noChange, change: change, p: nil, noise: noise)
        }
        let p = WilcoxonSignedRank.test(differences).p
        let verdict: CompareCommand.Verdict =
            p < CompareCommand.alpha ? (w > 0 ? .regressed : .improved) : .inconclusive
        return .init(verdict: verdict, change: change, p: p, noise: noise)
    }
}
