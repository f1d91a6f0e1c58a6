import AXHit
import CommandLineSupport
import Foundation

/// `axhit-bench count`: instructions per engine operation on the quick
/// workloads, counted by Valgrind's Callgrind instead of timed. A count is
/// the same on every run of one binary, whatever else the machine does, so
/// `compare` can judge it with a threshold of 1.5% where times need tens: the
/// deterministic gate CI runs. Counts miss what time sees (cache misses,
/// branch mispredictions, memory bandwidth), so the timed runs stay.
///
/// The parent starts the harness again under Callgrind (`count --inside`),
/// once per workload, a few at a time. The child builds its workload as
/// `run --quick` does and runs each counted operation a fixed number of
/// times between `callgrindRegionStart` and `callgrindRegionEnd`;
/// Callgrind dumps its counters as each is entered, so the dump at an end
/// holds exactly the region's operations (on every thread), and the child
/// lists the regions in a labels file, in the same order.
enum CountCommand {
    static let help = """
        usage: axhit-bench count [--only PATTERN] [--json FILE] [--jobs N] [--cache-sim]

          --only PATTERN   count operations whose `<operation>/<workload>` matches (as run --only)
          --json FILE      write the counts as an axhit-bench JSON report (the schema of run)
          --jobs N         Callgrind processes at once (default: the number of cores)
          --cache-sim      also simulate the caches: l1-misses and ll-misses per operation
                           (slower)

        Counts, per operation, at the quick sizes (1k, 10k) of every workload:
        \(RunCommand.table(CountedOperation.all.map { ($0.name, $0.summary) }).dropLast())

        Needs valgrind (apt-get install valgrind) and taskset. A binary's counts repeat:
        queries exactly, the rest within 0.1% (0.75% at worst); `axhit-bench compare`
        judges them at 1.5%. A row's count does not depend on --only (each workload
        runs whole, in its own process). Re-record the committed baseline after an
        intended change with `scripts/bench-gate --record`.
        """

    /// Callgrind matches this against the mangled names of
    /// `callgrindRegionStart` and `callgrindRegionEnd`, which contain the
    /// identifiers whole (the module's name shares no word with them, so
    /// the mangling does not abbreviate them).
    static let regionPattern = "*callgrindRegion*"

    /// The sizes counted: the quick run's.
    static let sizes = RunSettings.quickSizes
    /// The size of the uncounted warm-up round in each process.
    static let warmUpElements = 200

    static func run(_ args: [String]) throws -> Int32 {
        if args.contains("--help") || args.contains("-h") {
            print(help)
            return 0
        }
        let a = try Arguments(
            args, options: ["only", "json", "jobs", "workloads", "labels"], flags: ["cache-sim", "inside"])
        try a.noPositionals()
        if a.flag("inside") {
            try inside(workloads: a.required("workloads"), labels: a.required("labels"))
            return 0
        }
        let jobs =
            try a.option("jobs").map { s throws(UsageError) -> Int in
                guard let v = Int(s), v >= 1 else { throw UsageError("--jobs must be a positive integer, got '\(s)'") }
                return v
            } ?? ProcessInfo.processInfo.activeProcessorCount
        let progress = Progress()
        let started = Stopwatch.now()
        let rows = try count(only: a.option("only"), jobs: jobs, cacheSim: a.flag("cache-sim"), progress: progress)
        let seconds = Double(Stopwatch.now() - started) / 1e9
        progress.log("counted \(rows.count) rows in \(String(format: "%.1f", seconds)) s")
        let out = OutputBuffer { StandardOutput.exitAfterFailedWrite($0, tool: "axhit-bench") }
        for line in Report.table(rows, notes: []) { out.writeLine(line) }
        out.flush()
        if let path = a.option("json") {
            let configuration: [(String, String)] = [
                ("mode", "\"count\""), ("only", a.option("only").map(JSONText.string) ?? "null"),
                ("sizes", "[" + sizes.map(String.init).joined(separator: ",") + "]"), ("seed", "1"),
                ("cacheSim", a.flag("cache-sim") ? "true" : "false"),
            ]
            let report = JSONReport(
                configuration: configuration, rows: rows, notes: [],
                durationSeconds: seconds, peakResident: nil)
            try RunCommand.write(report.text(), to: path)
            progress.log("wrote \(path)")
        }
        return 0
    }

    // MARK: parent

    /// Runs the Callgrind jobs and turns their dumps into rows.
    static func count(only: String?, jobs: Int, cacheSim: Bool, progress: Progress) throws -> [ResultRow] {
        guard let valgrind = findExecutable("valgrind") else {
            throw BenchError("count needs valgrind, which is not on PATH: apt-get install valgrind")
        }
        guard let taskset = findExecutable("taskset") else {
            throw BenchError("count needs taskset (util-linux), which is not on PATH")
        }
        let selected = allWorkloads.filter { w in
            CountedOperation.all.contains { RunCommand.matches("\($0.name)/\(w.name)", only) }
        }.map(\.name)
        guard !selected.isEmpty else { throw UsageError("--only '\(only ?? "")' matches no counted operation") }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("axhit-bench-count-\(getpid())", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")

        // One process per workload, running all of its operations whatever
        // --only selects (the rest are left out of the rows): an operation
        // then always meets the heap the same operations left before it, so
        // a count does not depend on what else was counted. `jobs` queues,
        // the most expensive workloads dealt out first, each on its own CPU.
        let order = selected.sorted { cost($0) > cost($1) }
        let queues = (0 ..< min(jobs, order.count)).map { j in
            stride(from: j, to: order.count, by: jobs).map { order[$0] }
        }
        let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let lock = NSLock()
        nonisolated(unsafe) var rows: [ResultRow] = []
        nonisolated(unsafe) var failures: [String] = []
        DispatchQueue.concurrentPerform(iterations: queues.count) { j in
            for workload in queues[j] {
                do {
                    progress.log("callgrind: \(workload)")
                    let counted = try countWorkload(
                        workload, cpu: j % cores, cacheSim: cacheSim, valgrind: valgrind,
                        taskset: taskset, executable: executable, directory: directory)
                    let kept = counted.filter { RunCommand.matches($0.benchmark, only) }
                    lock.lock()
                    rows += kept
                    lock.unlock()
                } catch {
                    lock.lock()
                    failures.append("\(workload): \(error)")
                    lock.unlock()
                }
            }
        }
        if !failures.isEmpty { throw BenchError(failures.joined(separator: "\n")) }
        // Report order: as run's (workload, then size, then operation).
        let rank = Dictionary(uniqueKeysWithValues: allWorkloads.enumerated().map { ($1.name, $0) })
        let opRank = Dictionary(uniqueKeysWithValues: CountedOperation.all.enumerated().map { ($1.name, $0) })
        func sortKey(_ r: ResultRow) -> (Int, Int, Int) {
            let parts = r.benchmark.split(separator: "/").map(String.init)
            return (r.elements < 5_000 ? 0 : 1, rank[parts.last ?? ""] ?? 0, opRank[parts.first ?? ""] ?? 0)
        }
        return rows.enumerated().sorted { (x, y) in
            let a = sortKey(x.element), b = sortKey(y.element)
            return a != b ? a < b : x.offset < y.offset
        }.map(\.element)
    }

    /// Counts every operation on `workload` in one Callgrind process,
    /// pinned to `cpu`.
    static func countWorkload(
        _ workload: String, cpu: Int, cacheSim: Bool, valgrind: String, taskset: String,
        executable: String, directory: URL
    ) throws -> [ResultRow] {
        let out = directory.appendingPathComponent("callgrind-\(workload).out")
        let labels = directory.appendingPathComponent("labels-\(workload).txt")
        let log = directory.appendingPathComponent("log-\(workload).txt")
        let process = Process()
        // On one CPU the engine's parallel loops (filling paths) run on one
        // thread: with several, which thread takes which chunk, and so the
        // state of the allocator every later operation meets, changes from
        // run to run (hitAll's counts moved by 20%). It also makes the counts
        // the same on a machine of any size.
        process.executableURL = URL(fileURLWithPath: taskset)
        process.arguments = [
            "--cpu-list", String(cpu), valgrind, "--tool=callgrind", "--dump-before=\(regionPattern)",
            "--combine-dumps=yes", "--dump-line=no", "--callgrind-out-file=\(out.path)",
            "--cache-sim=\(cacheSim ? "yes" : "no")", executable, "count", "--inside",
            "--workloads", workload, "--labels", labels.path,
        ]
        // Swift seeds its hashing per process; fixed, a Set or Dictionary
        // walks in the same order and costs the same every run. One malloc
        // arena for every thread: a worker thread's blocks then leave the
        // same heap behind whichever thread ran them.
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
        environment["MALLOC_ARENA_MAX"] = "1"
        process.environment = environment
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let logHandle = try FileHandle(forWritingTo: log)
        defer { try? logHandle.close() }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = logHandle
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw BenchError(
                "callgrind exited with \(process.terminationStatus):\n"
                    + text.split(separator: "\n").suffix(15).joined(separator: "\n"))
        }
        return try parse(dump: out, labels: labels)
    }

    /// Relative cost of a workload under Callgrind (paths fills polygons
    /// through GEOS at every build; corpus reads files), for sharing it out.
    static func cost(_ workload: String) -> Int {
        ["paths": 5, "corpus": 3, "flat": 2, "rotated": 2][workload] ?? 1
    }

    /// The rows from one child's combined dump: the dumps made on entering
    /// `callgrindRegionEnd` hold the regions' counts, in the labels' order.
    static func parse(dump: URL, labels: URL) throws -> [ResultRow] {
        let text: String, labelText: String
        do {
            text = try String(contentsOf: dump, encoding: .utf8)
            labelText = try String(contentsOf: labels, encoding: .utf8)
        } catch {
            throw BenchError("cannot read Callgrind's output: \(error.localizedDescription)")
        }
        var events: [String] = []
        var regions: [[String: Double]] = []
        var trigger = ""
        for line in text.split(separator: "\n") {
            if line.hasPrefix("events:") {
                events = line.dropFirst("events:".count).split(separator: " ").map(String.init)
            } else if line.hasPrefix("desc: Trigger:") {
                trigger = String(line)
            } else if line.hasPrefix("totals:") {
                // The other dumps hold what ran between regions.
                guard trigger.contains("callgrindRegionEnd") else { continue }
                let values = line.dropFirst("totals:".count).split(separator: " ").compactMap { Double($0) }
                regions.append(Dictionary(zip(events, values), uniquingKeysWith: { $1 }))
            }
        }
        let labels = labelText.split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
        guard labels.count == regions.count else {
            throw BenchError("Callgrind dumped \(regions.count) regions, the harness ran \(labels.count)")
        }
        var rows: [ResultRow] = []
        for (label, counts) in zip(labels, regions) {
            guard label.count == 4, let elements = Int(label[1]), let operations = Double(label[3]), operations > 0
            else {
                throw BenchError("bad region label '\(label.joined(separator: " "))'")
            }
            let (benchmark, variant) = (label[0], label[2])
            func metric(_ base: String) -> String { variant.isEmpty ? base : "\(variant)-\(base)" }
            func row(_ metric: String, _ unit: String, _ value: Double) -> ResultRow {
                ResultRow(
                    benchmark: benchmark, implementation: "axhit", elements: elements, metric: metric, unit: unit,
                    p50: value, p90: value, p99: value, samples: 1, values: [value])
            }
            let ir = counts["Ir"] ?? 0
            rows.append(row(metric("instructions"), "instructions", ir / operations))
            if counts["D1mr"] != nil {
                // Simulated misses: data reads and writes missing L1, and
                // instruction and data accesses missing the last level.
                let l1 = (counts["D1mr"] ?? 0) + (counts["D1mw"] ?? 0) + (counts["I1mr"] ?? 0)
                let ll = (counts["DLmr"] ?? 0) + (counts["DLmw"] ?? 0) + (counts["ILmr"] ?? 0)
                rows.append(row(metric("l1-misses"), "misses", l1 / operations))
                rows.append(row(metric("ll-misses"), "misses", ll / operations))
            }
        }
        return rows
    }

    /// The first executable `name` on PATH.
    static func findExecutable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    // MARK: child (under Callgrind)

    /// Builds `workloads` at the quick sizes and counts every operation on
    /// them, writing one label per region to `labels`.
    static func inside(workloads: String, labels: String) throws {
        let names = Set(workloads.split(separator: ",").map(String.init))
        var settings = RunSettings()
        settings.quick = true
        settings.sizes = sizes
        let progress = Progress()
        let sink = ResultSink(progress: Progress(enabled: false))
        let log = RegionLog()
        let options = WorkloadOptions(corpusDirectory: settings.corpus)
        // First every operation once on a small tree, uncounted: what a
        // process does only the first time (the runtime's lazy metadata and
        // conformance lookups, GEOS's setup) then counts nowhere.
        for size in [warmUpElements] + sizes {
            log.counting = size != warmUpElements
            for workload in allWorkloads where names.contains(workload.name) && size <= workload.maxElements {
                let operations = CountedOperation.all.filter { $0.applies(workload.name, size) }
                let screen = try workload.generate(elements: size, seed: settings.seed, options: options)
                let context = BenchContext(
                    settings: settings, workload: workload, screen: screen, treeBytes: 0, results: sink)
                for op in operations {
                    progress.log("count \(op.name)/\(workload.name) \(context.elements) elements")
                    try op.run(context, log)
                }
            }
        }
        do {
            try Data(log.lines.joined().utf8).write(to: URL(fileURLWithPath: labels))
        } catch {
            throw BenchError("cannot write \(labels): \(error.localizedDescription)")
        }
    }
}

/// The regions a child ran, in order, for the parent to match with dumps.
final class RegionLog {
    private(set) var lines: [String] = []
    private let sink = BlackHole()
    /// False while warming up: `count` then only runs its body.
    var counting = true

    /// Runs `body` (which performs `operations` operations) as one counted
    /// region of `operation`, and labels it; `variant` names a second
    /// region of the same operation (its metrics are prefixed with it).
    /// What `body` does besides the operations counts too, so it should
    /// only loop.
    func count(
        _ c: BenchContext, _ operation: String, variant: String = "", operations: Int,
        _ body: () throws -> Void
    ) rethrows {
        guard counting else { return try body() }
        callgrindRegionStart(sink)
        try body()
        callgrindRegionEnd(sink)
        lines.append("\(c.name(operation))\t\(c.elements)\t\(variant)\t\(operations)\n")
    }
}

// Callgrind dumps its counters on entering either function
// (`--dump-before=*callgrindRegion*`): the dump made on entering the end
// holds exactly the region. Never inlined, and each with an effect the
// optimizer must keep, so that the calls stay where they are.

/// Marks where a counted region starts.
@inline(never)
func callgrindRegionStart(_ sink: BlackHole) { sink.consume(1) }

/// Marks where a counted region ends.
@inline(never)
func callgrindRegionEnd(_ sink: BlackHole) { sink.consume(2) }

/// One operation counted by `count`: a fixed number of engine calls, the
/// same points and updates as `run` uses, after an untimed warm-up (so that
/// lazily made state and the caches are as in steady state). Sized so that
/// the whole count takes minutes under Callgrind (about 50 times slower than
/// native) on two cores. Not `hitAll`: it allocates an array per query, and
/// what malloc costs then follows the heap's history (its count moved by up
/// to 2.5% between runs of one binary); its search is `hit`'s, counted.
struct CountedOperation: Sendable {
    let name: String
    let summary: String
    /// Whether it is counted on a workload (by name) at a size: the slowest
    /// combinations under Callgrind are left out.
    var applies: @Sendable (String, Int) -> Bool = { _, _ in true }
    let run: @Sendable (BenchContext, RegionLog) throws -> Void

    /// Queries per counted region: the first measured points of `run`.
    /// `chain`'s queries walk every level (10k at 10k elements), so fewer.
    static func queries(_ c: BenchContext) -> Int { c.workload.name == "chain" ? 20 : 200 }
    /// Queries before the region, at the warm-up points.
    static let warmUpQueries = 50
    /// Rows inserted (then removed) per counted region: one index rebuild's
    /// worth (`IndexPolicy.overflowLimit`).
    static let inserts = 256

    static let all: [CountedOperation] = [
        CountedOperation(
            name: "build", summary: "HitTester(tree), once (paths: at 1k only)",
            applies: { w, size in w != "paths" || size < 5_000 }
        ) { c, log in
            log.count(c, "build", operations: 1) {
                c.adopt(tester: HitTester(c.screen.tree))
            }
        },
        query("hit-frame", "hit(p, policy: .frame, scratch:) at 200 points (chain: 20)") { engine in
            var scratch = HitScratch()
            return { p in Int(engine.hit(p, policy: .frame, scratch: &scratch)?.rawValue ?? -1) }
        },
        query("hit-shape", "hit(p, policy: .shape, scratch:), the same points") { engine in
            var scratch = HitScratch()
            return { p in Int(engine.hit(p, policy: .shape, scratch: &scratch)?.rawValue ?? -1) }
        },
        query("touch", "touch(p), the same points") { engine in { p in Int(engine.touch(p)?.rawValue ?? -1) } },
        CountedOperation(name: "scroll", summary: "1,024 scrolls; scroll-shared: with a snapshot alive") { c, log in
            guard let plan = UpdateBenchmarks.ScrollPlan(c) else { return }
            let n = 1_024
            try c.withEngine { e in
                try plan.restore(&e)
                for k in 0 ..< 64 { try plan.scroll(&e, n + k) }
                try log.count(c, "scroll", operations: n) { for k in 0 ..< n { try plan.scroll(&e, k) } }
                try log.count(c, "scroll", variant: "scroll-shared", operations: n) {
                    for k in 0 ..< n { try plan.scrollShared(&e, k) }
                }
                try plan.restore(&e)
            }
        },
        CountedOperation(name: "move", summary: "update(id, to:): every target moved and moved back") { c, log in
            guard let plan = UpdateBenchmarks.MovePlan(c) else { return }
            try c.withEngine { e in
                // A whole cycle first: its writes copy the chunks the engine
                // shares with the generated tree (as `run`'s `first-cycle`).
                for k in 0 ..< plan.cycle { try plan.step(&e, k) }
                try log.count(c, "move", operations: plan.cycle) { for k in 0 ..< plan.cycle { try plan.step(&e, k) } }
            }
        },
        CountedOperation(name: "modal", summary: "update(id, to:): a modal flag set and cleared, 8 times") { c, log in
            guard let plan = UpdateBenchmarks.ModalPlan(c) else { return }
            try c.withEngine { e in
                try plan.step(&e, 0)
                try plan.step(&e, 1)
                try log.count(c, "modal", operations: 16) { for k in 0 ..< 16 { try plan.step(&e, k) } }
            }
        },
        CountedOperation(
            name: "insert",
            summary: "insert(subtree, under:, before:) of 256 insert rows, after 256 untimed; "
                + "insert-shared: 64 inserted and removed, each under the snapshot published before it"
        ) { c, log in
            guard let s = try UpdateBenchmarks.inserts(c, count: inserts) else { return }
            try c.withEngine { e in
                let (warm, _) = try UpdateBenchmarks.insertAll(&e, s, timed: false)
                _ = try UpdateBenchmarks.removeAll(&e, warm, seed: c.settings.seed)
                var ids: [NodeID] = []
                try log.count(c, "insert", operations: s.rows.count) {
                    ids = try UpdateBenchmarks.insertAll(&e, s, timed: false).0
                }
                _ = try UpdateBenchmarks.removeAll(&e, ids, seed: c.settings.seed)
                // What chunked columns bound: an update after a snapshot
                // copies chunks, not columns (per update, an insert or a removal).
                let shared = 2 * min(UpdateBenchmarks.sharedUpdates, s.rows.count)
                try log.count(c, "insert", variant: "insert-shared", operations: shared) {
                    _ = try UpdateBenchmarks.insertAllShared(&e, s)
                }
            }
        },
        CountedOperation(name: "remove", summary: "removeSubtree of those 256 rows") { c, log in
            guard let s = try UpdateBenchmarks.inserts(c, count: inserts) else { return }
            try c.withEngine { e in
                let (ids, _) = try UpdateBenchmarks.insertAll(&e, s, timed: false)
                try log.count(c, "remove", operations: ids.count) {
                    _ = try UpdateBenchmarks.removeAll(&e, ids, seed: c.settings.seed &+ 1)
                }
            }
        },
        CountedOperation(
            name: "load", summary: "ElementTree(contentsOf:) of the tree's axhit/1 JSON, once (1k only, not paths)",
            applies: { w, size in w != "paths" && size < 5_000 }
        ) { c, log in
            let data = c.screen.tree.axhitJSON()
            try log.count(c, "load", operations: 1) {
                c.sink.consume(try ElementTree(contentsOf: data, file: "generated").count)
            }
        },
    ]

    /// A query counted over `queries(c)` of the run's measured points, after
    /// `warmUpQueries` at its warm-up points. `make` returns the query over
    /// the engine (with its own scratch).
    static func query(
        _ name: String, _ summary: String,
        _ make: @escaping @Sendable (HitTester) -> (CGPoint) -> Int
    ) -> CountedOperation {
        CountedOperation(name: name, summary: summary) { c, log in
            let engine = try c.engine()
            let query = make(engine)
            let points = c.points
            let first = c.settings.guardPoints, warm = points.count - LatencySampler.warmUpPoints
            let n = queries(c)
            var check = 0
            for k in 0 ..< warmUpQueries { check &+= query(points[warm + k]) }
            log.count(c, name, operations: n) {
                for k in 0 ..< n { check &+= query(points[first + k]) }
            }
            c.sink.consume(check)
        }
    }
}
