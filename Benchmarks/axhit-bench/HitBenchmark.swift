import AXHit
import Foundation

/// `hit-frame/<workload>` and `hit-shape/<workload>`: the frontmost exposed
/// element under random points, per query and in bulk, against the baselines.
enum HitBenchmark {
    static func runFrame(_ c: BenchContext) throws {
        let name = c.name("hit-frame")
        let engine = try c.engine()
        let naive = try c.naive()
        try checkAgainstNaive(c, engine: engine, naive: naive)

        let sampler = c.sampler
        // One scratch reused across queries: the engine then allocates nothing.
        var scratch = HitScratch()
        let axhit = sampler.measure { p in Int(engine.hit(p, policy: .frame, scratch: &scratch)?.rawValue ?? -1) }
        c.results.add(name, "axhit", elements: c.elements, metric: "latency", unit: "ns", samples: axhit.samples)
        c.results.add(
            name, "axhit", elements: c.elements, metric: "throughput", unit: "queries/s",
            samples: axhit.samples.map { 1e9 / $0 })
        let parallel = sampler.parallelThroughput(
            rounds: max(1, c.share(c.settings.parallelRounds)),
            roundTime: c.settings.parallelRoundTime, estimate: axhit.estimate
        ) { p in
            Int(engine.hit(p, policy: .frame)?.rawValue ?? -1)
        }
        c.results.add(
            name, "axhit", elements: c.elements, metric: "throughput-all-cores", unit: "queries/s",
            samples: parallel.samples)

        try measureScreenGrid(c, name: name, engine: engine)
        try measureAfterMoves(c, name: name, engine: engine)

        let n = sampler.measure { p in Int(naive.hit(p)?.rawValue ?? -1) }
        c.results.add(name, "naive", elements: c.elements, metric: "latency", unit: "ns", samples: n.samples)
        c.results.add(
            name, "naive", elements: c.elements, metric: "throughput", unit: "queries/s",
            samples: n.samples.map { 1e9 / $0 })

        let flat = try c.flat()
        let f = sampler.measure { p in Int(flat.hit(p)?.rawValue ?? -1) }
        c.results.add(name, "flat-scan", elements: c.elements, metric: "latency", unit: "ns", samples: f.samples)

        let grid = UniformGridBaseline(flat)
        let u = sampler.measure { p in Int(grid.hit(p)?.rawValue ?? -1) }
        c.results.add(name, "uniform-grid", elements: c.elements, metric: "latency", unit: "ns", samples: u.samples)
        c.results.add(
            name, "uniform-grid", elements: c.elements, metric: "bytes-per-element", unit: "bytes",
            samples: [Double(grid.memoryBytes) / Double(max(1, flat.boxes.count))])
        let shape = grid.shape
        c.log.log(
            "  uniform grid: \(shape.columns) x \(shape.rows) cells of \(shape.cellSize) (median box), "
                + "\(grid.memoryBytes >> 10) KiB")
        try measureCUniformGrid(c, name: name, flat: flat, swift: grid)
        noteBoxAnswers(c, name: name, engine: engine, grid: grid)

        let rtree = PackedRTreeBaseline(flat)
        let r = sampler.measure { p in Int(rtree.hit(p)?.rawValue ?? -1) }
        c.results.add(name, "flatbush", elements: c.elements, metric: "latency", unit: "ns", samples: r.samples)

        let geos = try c.geos()
        let g = sampler.measure { p in Int(geos.hit(p)?.rawValue ?? -1) }
        c.results.add(name, "geos-strtree", elements: c.elements, metric: "latency", unit: "ns", samples: g.samples)
    }

    /// The same queries on a copy of the engine with a screen grid
    /// (`buildScreenGrid()`): its build time, its memory beyond the engine's
    /// and its latency (`axhit+screen-grid`), once its answers are checked
    /// against the engine's without it.
    static func measureScreenGrid(_ c: BenchContext, name: String, engine: HitTester) throws {
        var gridded = engine
        let start = DispatchTime.now().uptimeNanoseconds
        guard gridded.buildScreenGrid() else {
            c.log.log("  screen grid: declined (the boxes don't suit a uniform grid)")
            return
        }
        let buildMs = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        var check = SplitMix64(seed: 0x5C8E_E2)
        let area = c.screen.queryArea
        for _ in 0 ..< 10_000 {
            let p = CGPoint(x: check.uniform(area.minX, area.maxX), y: check.uniform(area.minY, area.maxY))
            guard gridded.hit(p) == engine.hit(p) else {
                throw BenchError("\(name): the screen grid disagrees with the engine at \(p); not timing it")
            }
        }
        let implementation = "axhit+screen-grid"
        c.results.add(name, implementation, elements: c.elements, metric: "build", unit: "ms", samples: [buildMs])
        c.results.add(
            name, implementation, elements: c.elements, metric: "extra-bytes-per-element", unit: "bytes",
            samples: [Double(gridded.memoryBytes - engine.memoryBytes) / Double(max(1, c.elements))])
        var scratch = HitScratch()
        let m = c.sampler.measure { p in Int(gridded.hit(p, policy: .frame, scratch: &scratch)?.rawValue ?? -1) }
        c.results.add(name, implementation, elements: c.elements, metric: "latency", unit: "ns", samples: m.samples)
        // Runs of unseen points on one core: through the call for many
        // points, which reads a large grid ahead, and one query at a time.
        // Both are means over a run, where `latency`'s p50 is over batches
        // of a few dozen, which leaves out more of the slow queries.
        // A constant: a closure over the `var` would copy the engine out of
        // its box at every use, retaining each of its arrays.
        let engine = gridded
        let batch = c.sampler.measureRuns(size: runPoints, half: 0) { points in
            engine.hit(points, policy: .frame, threads: 1).reduce(0) { $0 &+ Int($1?.rawValue ?? -1) }
        }
        c.results.add(name, implementation, elements: c.elements, metric: "batch-per-point", unit: "ns", samples: batch)
        let loop = c.sampler.measureRuns(size: runPoints, half: 1) { points in
            var sum = 0
            for p in points { sum &+= Int(engine.hit(p, policy: .frame, scratch: &scratch)?.rawValue ?? -1) }
            return sum
        }
        c.results.add(name, implementation, elements: c.elements, metric: "loop-per-point", unit: "ns", samples: loop)
    }

    /// Points a `batch-per-point` or `loop-per-point` sample answers.
    static let runPoints = 1_024

    /// The same queries on a copy of the engine after the first 16 updates
    /// of `move`'s plan (`axhit+16-moves`): the engine keeps its tiles away
    /// from what the moves reached, and searches per view there. Its answers
    /// are checked first against an engine built afresh on the moved tree.
    static func measureAfterMoves(_ c: BenchContext, name: String, engine: HitTester) throws {
        guard let plan = UpdateBenchmarks.MovePlan(c) else { return }
        var moved = engine
        for k in 0 ..< min(movesBeforeQueries, plan.targets.count) { try plan.step(&moved, k) }
        let fresh = HitTester(moved.tree)
        var check = SplitMix64(seed: 0x30FE_C4)
        let area = c.screen.queryArea
        for _ in 0 ..< 10_000 {
            let p = CGPoint(x: check.uniform(area.minX, area.maxX), y: check.uniform(area.minY, area.maxY))
            guard moved.hit(p) == fresh.hit(p) else {
                throw BenchError(
                    "\(name): after the moves, the engine disagrees with a fresh one at \(p); not timing it")
            }
        }
        var scratch = HitScratch()
        let m = c.sampler.measure { p in Int(moved.hit(p, policy: .frame, scratch: &scratch)?.rawValue ?? -1) }
        c.results.add(name, "axhit+16-moves", elements: c.elements, metric: "latency", unit: "ns", samples: m.samples)
    }

    /// Updates `measureAfterMoves` makes before it queries.
    static let movesBeforeQueries = 16

    /// The same grid in plain C (`uniform-grid-c`), once its answers are
    /// checked against the Swift grid's at the guard points and 10,000 more.
    static func measureCUniformGrid(_ c: BenchContext, name: String, flat: FlatScan, swift: UniformGridBaseline) throws
    {
        guard let grid = CUniformGridBaseline(flat, cellsOf: swift) else {
            throw BenchError("\(name): the C uniform grid could not allocate its cells")
        }
        var check = SplitMix64(seed: 0xC6_81D)
        let area = c.screen.queryArea
        let probes =
            QueryBenchmarks.guardProbes(c)
            + (0 ..< 10_000).map { _ in
                CGPoint(x: check.uniform(area.minX, area.maxX), y: check.uniform(area.minY, area.maxY))
            }
        for p in probes where grid.node(grid.hitIndex(p)) != swift.hit(p) {
            throw BenchError("\(name): the C uniform grid disagrees with the Swift one at \(p); not timing it")
        }
        let u = c.sampler.measure { p in Int(grid.hitIndex(p)) }
        c.results.add(name, "uniform-grid-c", elements: c.elements, metric: "latency", unit: "ns", samples: u.samples)
        c.results.add(
            name, "uniform-grid-c", elements: c.elements, metric: "bytes-per-element", unit: "bytes",
            samples: [Double(grid.memoryBytes) / Double(max(1, flat.boxes.count))])
    }

    /// The grids answer from the exposed boxes alone, as the flat scan does:
    /// an ancestor's bounds that cut an element (a turned panel's corner,
    /// a scroll view's edge) are not theirs to check. Where that changes
    /// answers, the yardstick does less than the engine; the note says how
    /// often, so that the ratio is read with it.
    static func noteBoxAnswers(_ c: BenchContext, name: String, engine: HitTester, grid: UniformGridBaseline) {
        var rng = SplitMix64(seed: 0xB0_C5)
        let area = c.screen.queryArea
        let total = 10_000
        var differ = 0
        for _ in 0 ..< total {
            let p = CGPoint(x: rng.uniform(area.minX, area.maxX), y: rng.uniform(area.minY, area.maxY))
            if grid.hit(p) != engine.hit(p, policy: .frame) { differ += 1 }
        }
        guard differ > 0 else { return }
        c.results.note(
            "\(name) at \(c.elements): the grids' box answers differ from the engine's (the spec's) on "
                + "\(differ) of \(total) random points: they do not check ancestors' bounds")
    }

    static func runShape(_ c: BenchContext) throws {
        let name = c.name("hit-shape")
        let engine = try c.engine()
        let sampler = c.sampler
        var scratch = HitScratch()
        let axhit = sampler.measure { p in Int(engine.hit(p, policy: .shape, scratch: &scratch)?.rawValue ?? -1) }
        c.results.add(name, "axhit", elements: c.elements, metric: "latency", unit: "ns", samples: axhit.samples)
        c.results.add(
            name, "axhit", elements: c.elements, metric: "throughput", unit: "queries/s",
            samples: axhit.samples.map { 1e9 / $0 })
    }

    /// A benchmark of a wrong engine is worthless: before timing, the engine
    /// and the naive walk (the same spec, written independently) must agree
    /// on random points and on the centre of random exposed elements.
    static func checkAgainstNaive(_ c: BenchContext, engine: HitTester, naive: NaiveWalk) throws {
        let probes = QueryBenchmarks.guardProbes(c)
        var mismatches: [String] = []
        var hits = 0
        for p in probes {
            let a = engine.hit(p, policy: .frame), b = naive.hit(p)
            if a != nil { hits += 1 }
            if a != b {
                let tree = c.screen.tree
                mismatches.append(
                    "(\(p.x), \(p.y)): axhit \(a.map { tree.id(of: $0) } ?? "none"), naive \(b.map { tree.id(of: $0) } ?? "none")"
                )
            }
        }
        c.log.log("  guard: axhit = naive on \(probes.count - mismatches.count)/\(probes.count) points (\(hits) hits)")
        if !mismatches.isEmpty {
            throw BenchError(
                "\(c.name("hit-frame")) at \(c.elements) elements: the engine disagrees with the naive walk on "
                    + "\(mismatches.count) of \(probes.count) points; not timing a wrong engine:\n  "
                    + mismatches.prefix(5).joined(separator: "\n  "))
        }
    }
}
