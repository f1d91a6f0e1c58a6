/// One `<operation>`: what it measures, run once per workload and size.
struct BenchmarkOperation: Sendable {
    /// The `<operation>` half of benchmark names.
    let name: String
    let summary: String
    /// Measures `context` and adds rows to `context.results`.
    let run: @Sendable (BenchContext) throws -> Void

    /// Every operation, in run order. The engine's later APIs slot in as one
    /// entry each, with the same shape: `hit-all` (every exposed element
    /// under a point), `touch` (UIKit's hitTest), `activate` and `audit`
    /// (a whole screen), `scroll`, `move`, `insert`, `remove` (updates).
    static let all: [BenchmarkOperation] = [
        BenchmarkOperation(name: "build", summary: "resolve + index (ScreenSpace + HitTester), memory per element",
                           run: BuildBenchmark.run),
        BenchmarkOperation(name: "hit-frame", summary: "frontmost hit, frame policy: latency, throughput, baselines",
                           run: HitBenchmark.runFrame),
        BenchmarkOperation(name: "hit-shape", summary: "frontmost hit, shape policy: latency, throughput",
                           run: HitBenchmark.runShape),
        BenchmarkOperation(name: "load", summary: "read an axhit/1 file vs Foundation's JSONDecoder",
                           run: LoadBenchmark.run),
    ]
}
