import AXHit
import Foundation

/// `activate/<workload>` and `audit/<workload>`: a whole screen at once, with
/// the calls the CLI makes (`axhit activate`: `ScreenAnalysis(tester,
/// visibility: false)`; `axhit audit`: `Auditor.findings(tester)`),
/// on the engine already built (its build is `build/<workload>`).
enum ScreenBenchmarks {
    static func runActivate(_ c: BenchContext) throws {
        guard fits(c, "activate") else { return }
        let name = c.name("activate")
        let engine = try c.engine()
        var elements = 0
        let times = try c.repeated(name, c.settings.loadRepetitions(c.elements)) { _ in
            let (analysis, ns) = try Stopwatch.time { try ScreenAnalysis(engine, visibility: false) }
            elements = analysis.elements.count
            return ns / 1e6
        }
        c.log.log("  \(elements) exposed elements analysed")
        c.results.add(name, "axhit", elements: c.elements, metric: "time", unit: "ms", samples: times)
    }

    static func runAudit(_ c: BenchContext) throws {
        if c.workload.name == "corpus" { return try runAuditCorpus(c) }
        guard fits(c, "audit") else { return }
        let name = c.name("audit")
        let engine = try c.engine()
        var findings = 0
        let times = try c.repeated(name, c.settings.loadRepetitions(c.elements)) { _ in
            let (found, ns) = try Stopwatch.time { try Auditor.findings(engine) }
            findings = found.count
            return ns / 1e6
        }
        c.log.log("  \(findings) findings")
        c.results.add(name, "axhit", elements: c.elements, metric: "time", unit: "ms", samples: times)
    }

    /// Repetitions of each real screen's audit in `audit/corpus`.
    static let corpusAuditRuns = 11

    /// `audit/corpus`: each real screen alone, as `axhit audit` runs it
    /// (`Auditor.findings(tester)`, the engine built), one
    /// sample per screen: the median of `corpusAuditRuns` runs; at the
    /// run's first size only (the screens have their own sizes). The goal:
    /// every sample under 20 ms.
    static func runAuditCorpus(_ c: BenchContext) throws {
        guard c.sizeName == Report.count(c.settings.sizes.min() ?? 0) else { return }
        let name = c.name("audit")
        let screens = try CorpusWorkload.load(c.settings.corpus)
        var samples: [Double] = []
        var slowest = (0.0, 0)
        for screen in screens {
            let tester = HitTester(screen.tree)
            let runs = max(1, c.settings.quick ? 3 : corpusAuditRuns)
            let times = try (0 ..< runs).map { _ in
                try Stopwatch.time { try Auditor.findings(tester) }.1 / 1e6
            }.sorted()
            let median = times[times.count / 2]
            samples.append(median)
            if median > slowest.0 { slowest = (median, screen.tree.count) }
        }
        c.log.log("  \(screens.count) screens; slowest \(Report.format(slowest.0)) ms (\(slowest.1) nodes)")
        c.results.add(
            name, "axhit", elements: screens.map(\.tree.count).max() ?? 0, metric: "time", unit: "ms", samples: samples)
    }

    /// Whole-screen analysis is O(n log n), but with GEOS work per element
    /// (much more where elements overlap or turn): it runs up to
    /// `screenElementLimit` elements, and not at a size where the previous
    /// size's time, scaled by the element ratio, would pass
    /// `screenProjectionLimit`; nor in a pass whose share of the repetitions
    /// is none.
    private static func fits(_ c: BenchContext, _ operation: String) -> Bool {
        if c.elements > c.settings.screenElementLimit {
            // One note per operation and size, not per workload.
            c.results.note(
                "\(operation)/*: skipped at \(c.sizeName) elements (whole-screen analysis is O(n log n) "
                    + "but heavy; measured up to \(Report.count(c.settings.screenElementLimit)) elements)")
            return false
        }
        let name = c.name(operation)
        let smaller = c.results.rows.filter { $0.benchmark == name && $0.metric == "time" && $0.elements < c.elements }
        if let previous = smaller.max(by: { $0.elements < $1.elements }) {
            let projected = previous.p50 / 1e3 * Double(c.elements) / Double(previous.elements)
            if projected > c.settings.screenProjectionLimit {
                c.results.note(
                    "\(name): skipped at \(c.sizeName) elements (\(Report.format(previous.p50 / 1e3)) s "
                        + "at \(Report.count(previous.elements)) elements: at least \(Report.format(projected)) s here)"
                )
                return false
            }
        }
        return c.share(c.settings.loadRepetitions(c.elements)) > 0
    }
}
