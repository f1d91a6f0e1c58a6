import AXHit
import Foundation

/// What the screen reader says (issue 46): `speak/<workload>`, the whole
/// transcript (`transcript()`: every exposed element's speech along the
/// navigation order, the order built too) on a copy of the engine, one
/// core; on `corpus`, each real screen on its own (the median of 5 runs per
/// screen is one sample), as `axhit speak` speaks a page source.
enum SpeechBenchmarks {
    static func run(_ c: BenchContext) throws {
        let name = c.name("speak")
        if c.workload.name == "corpus" {
            guard c.sizeName == Report.count(c.settings.sizes.min() ?? 0) else { return }
            let screens = try CorpusWorkload.load(c.settings.corpus)
            var samples: [Double] = []
            var slowest = (0.0, 0)
            for screen in screens {
                let engine = HitTester(screen.tree)
                try check(engine, name)
                let times = try (0 ..< 5).map { _ in
                    var e = engine
                    return try Stopwatch.time { try e.transcript() }.1 / 1e6
                }.sorted()
                samples.append(times[2])
                if times[2] > slowest.0 { slowest = (times[2], screen.tree.count) }
            }
            c.log.log("  \(screens.count) screens; slowest \(Report.format(slowest.0)) ms (\(slowest.1) nodes)")
            c.results.add(
                name, "axhit", elements: screens.map(\.tree.count).max() ?? 0, metric: "time", unit: "ms",
                samples: samples)
            return
        }
        let engine = try c.engine()
        try check(engine, name)
        let times = try c.repeated(name) { _ in
            var e = engine
            return try Stopwatch.time { try e.transcript() }.1 / 1e6
        }
        c.results.add(name, "axhit", elements: c.elements, metric: "time", unit: "ms", samples: times)
    }

    /// Guard: one speech per exposed element, in navigation order.
    static func check(_ engine: HitTester, _ name: String) throws {
        var e = engine
        let spoken = try e.transcript().map(\.element)
        if spoken != (try e.navigationOrder()) {
            throw BenchError("\(name): the transcript does not follow the navigation order; not timing it")
        }
    }
}
