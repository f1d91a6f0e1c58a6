/// One `<operation>`: what it measures, run once per workload and size.
struct BenchmarkOperation: Sendable {
    /// The `<operation>` half of benchmark names.
    let name: String
    let summary: String
    /// Measures `context` and adds rows to `context.results`.
    let run: @Sendable (BenchContext) throws -> Void

    /// Every operation, in run order: queries first, then the whole-screen
    /// analyses, then the updates (each undoes itself, so the order does not
    /// change what the others measure). A new engine API is one more entry.
    static let all: [BenchmarkOperation] = [
        BenchmarkOperation(
            name: "build", summary: "resolve + index (ScreenSpace + HitTester), memory per element",
            run: BuildBenchmark.run),
        BenchmarkOperation(
            name: "hit-frame", summary: "frontmost hit, frame policy: latency, throughput, baselines",
            run: HitBenchmark.runFrame),
        BenchmarkOperation(
            name: "hit-shape", summary: "frontmost hit, shape policy: latency, throughput",
            run: HitBenchmark.runShape),
        BenchmarkOperation(
            name: "hit-all", summary: "every exposed element under a point (frame policy): latency",
            run: QueryBenchmarks.runHitAll),
        BenchmarkOperation(
            name: "touch", summary: "UIKit hitTest (the view a tap reaches) vs a naive recursive hitTest",
            run: QueryBenchmarks.runTouch),
        BenchmarkOperation(
            name: "cli-hit", summary: "`axhit hit` end to end on a points file, output included (--cli-points)",
            run: CLIHitBenchmark.run),
        BenchmarkOperation(
            name: "activate", summary: "whole-screen activation (as `axhit activate`), up to ~100k elements",
            run: ScreenBenchmarks.runActivate),
        BenchmarkOperation(
            name: "audit", summary: "whole-screen audit (as `axhit audit`), up to ~100k elements",
            run: ScreenBenchmarks.runAudit),
        BenchmarkOperation(
            name: "scroll", summary: "one scroll(view, to:), alone and with a snapshot held (list, nested)",
            run: UpdateBenchmarks.runScroll),
        BenchmarkOperation(
            name: "move", summary: "update(id, to:) moving one view's frame",
            run: UpdateBenchmarks.runMove),
        BenchmarkOperation(
            name: "modal", summary: "update(id, to:) setting or clearing one child's modal flag (widest view)",
            run: UpdateBenchmarks.runModal),
        BenchmarkOperation(
            name: "insert", summary: "insert a row of 10 cells (a subtree) into the widest view",
            run: UpdateBenchmarks.runInsert),
        BenchmarkOperation(
            name: "remove", summary: "removeSubtree of such a row",
            run: UpdateBenchmarks.runRemove),
        BenchmarkOperation(
            name: "churn", summary: "a long-lived engine: insert a row, remove it, again; resident growth",
            run: ChurnBenchmark.run),
        BenchmarkOperation(
            name: "load", summary: "read an axhit/1 file vs Foundation's JSONDecoder",
            run: LoadBenchmark.run),
        BenchmarkOperation(
            name: "import", summary: "read real dumps, each format's largest (corpus); a uiautomator dump (android)",
            run: ImportBenchmark.run),
        // Navigation order, exploration and maps (NavigationBenchmarks), on copies of the engine.
        BenchmarkOperation(
            name: "order", summary: "the whole navigation order from scratch, one core",
            run: NavigationBenchmarks.runOrder),
        BenchmarkOperation(
            name: "reorder-after-scroll", summary: "a scroll, then next(after:) (only what changed is redone)",
            run: NavigationBenchmarks.runReorderAfterScroll),
        BenchmarkOperation(
            name: "explore", summary: "touch exploration of a 1,000-point path", run: NavigationBenchmarks.runExplore),
        BenchmarkOperation(
            name: "speak", summary: "the whole transcript (speech along the order; corpus: each real screen)",
            run: SpeechBenchmarks.run),
        BenchmarkOperation(
            name: "map-touch", summary: "every view's touch region, exact (corpus: each real screen)",
            run: NavigationBenchmarks.runMapTouch),
    ]
}
