import AXHit
import Foundation

/// One workload at one size: the generated tree, its query points, and the
/// engine and baselines built over it (lazily, once, shared by operations).
final class BenchContext {
    let settings: RunSettings
    let workload: any Workload
    let screen: GeneratedScreen
    /// Nodes in the tree: the `elements` of every row.
    let elements: Int
    /// Resident bytes the tree holds (growth across generation, `MemoryProbe`).
    let treeBytes: Int
    let points: [CGPoint]
    let results: ResultSink
    let sink = BlackHole()
    /// The pass this context is measured in (`RunSettings.passes`):
    /// operations take this pass's share of their samples and repetitions.
    let pass: Int

    private var space: ScreenSpace?
    private var tester: HitTester?
    private var naiveWalk: NaiveWalk?
    private var naiveTouchWalk: NaiveTouch?
    private var flatScan: FlatScan?
    private var strtree: GEOSBaseline?

    init(
        settings: RunSettings, workload: any Workload, screen: GeneratedScreen, treeBytes: Int, results: ResultSink,
        pass: Int = 0
    ) {
        self.settings = settings
        self.pass = pass
        self.workload = workload
        self.screen = screen
        self.elements = screen.tree.count
        self.treeBytes = treeBytes
        self.results = results
        // Seeded apart from the tree, so a different size sees the same kind of points.
        var rng = SplitMix64(seed: settings.seed &+ 0x5EED)
        let a = screen.queryArea
        points = (0 ..< settings.pointCount).map { _ in
            CGPoint(x: rng.uniform(Double(a.minX), Double(a.maxX)), y: rng.uniform(Double(a.minY), Double(a.maxY)))
        }
    }

    var log: Progress { results.progress }

    func name(_ operation: String) -> String { "\(operation)/\(workload.name)" }

    /// The requested size this tree was generated for (`100k`), not the
    /// count the generator reached (`99993`), for notes.
    var sizeName: String {
        Report.count(settings.sizes.min { abs($0 - elements) < abs($1 - elements) } ?? elements)
    }

    /// This pass's part of `total` samples or repetitions.
    func share(_ total: Int) -> Int { settings.share(total, pass: pass) }

    /// A sampler with this pass's share of the budget and samples, starting
    /// where the previous pass's points end, so no pass re-measures a point.
    var sampler: LatencySampler {
        let maxSamples = max(1, share(settings.maxSamples))
        return LatencySampler(
            points: points, budget: settings.latencyBudget / Double(settings.passes),
            minSamples: max(1, share(settings.minSamples)), maxSamples: maxSamples,
            warmUpTime: settings.warmUpTime,
            firstMeasured: settings.guardPoints + pass * LatencySampler.maxBatch * maxSamples,
            runRange: runRange, sink: sink)
    }

    /// This pass's points for `LatencySampler.measureRuns`: its share
    /// of those between every pass's latency points and the warm-up's.
    private var runRange: Range<Int> {
        let first = settings.guardPoints + LatencySampler.maxBatch * settings.maxSamples
        let share = max(0, points.count - LatencySampler.warmUpPoints - first) / max(1, settings.passes)
        return first + pass * share ..< first + (pass + 1) * share
    }

    /// The engine over this tree (built now if `build` did not run).
    func engine() throws -> HitTester {
        if let tester { return tester }
        let t = HitTester(screen.tree)
        adopt(tester: t)
        return t
    }

    /// Keeps a built engine for the query operations.
    func adopt(tester: HitTester) {
        self.tester = tester
    }

    /// Runs `body` on the engine itself, not a copy, so that updates work in
    /// place (a copy would duplicate every column the first update touches:
    /// a whole tree's worth at a million nodes). `body` must leave the engine
    /// answering as before (undo its updates); the result is kept.
    func withEngine<T>(_ body: (inout HitTester) throws -> T) throws -> T {
        var t = try engine()
        // Drop the context's reference so that `t` is the only one.
        tester = nil
        defer { tester = t }
        return try body(&t)
    }

    /// The whole tree resolved into screen space, for the baselines.
    func resolved() throws -> ScreenSpace {
        if let space { return space }
        let s = ScreenSpace(screen.tree)
        space = s
        return s
    }

    func naive() throws -> NaiveWalk {
        if let naiveWalk { return naiveWalk }
        let n = NaiveWalk(try resolved())
        naiveWalk = n
        return n
    }

    func naiveTouch() throws -> NaiveTouch {
        if let naiveTouchWalk { return naiveTouchWalk }
        let n = NaiveTouch(try resolved())
        naiveTouchWalk = n
        return n
    }

    /// Repetitions of a whole operation `name`: `body(rep)` returns the
    /// time it measured (ms). This pass's share of `limit` (default:
    /// `settings.repetitions`), but none once `settings.wholeOperationBudget`
    /// is spent on `name` over all passes, so a slow one (a path-heavy
    /// build) runs once.
    func repeated(_ name: String, _ limit: Int? = nil, _ body: (Int) throws -> Double) rethrows -> [Double] {
        let reps = share(limit ?? settings.repetitions(elements))
        var times: [Double] = []
        let key = "\(name)|\(elements)"
        for rep in 0 ..< reps {
            if results.spentMilliseconds[key, default: 0] > settings.wholeOperationBudget * 1e3 { break }
            let ms = try body(rep)
            times.append(ms)
            results.spentMilliseconds[key, default: 0] += ms
        }
        return times
    }

    func flat() throws -> FlatScan {
        if let flatScan { return flatScan }
        let f = FlatScan(try resolved())
        flatScan = f
        return f
    }

    func geos() throws -> GEOSBaseline {
        if let strtree { return strtree }
        let g = try GEOSBaseline(flat())
        strtree = g
        return g
    }

    func adopt(geos: GEOSBaseline) { strtree = geos }
}
