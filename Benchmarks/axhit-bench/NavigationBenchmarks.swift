import AXHit
import Foundation

/// Navigation order, touch exploration and maps (issue 13): `order/<workload>`
/// (the whole order from scratch, one core), `reorder-after-scroll/<workload>`
/// (a scroll, then the next swipe: only what changed is redone),
/// `explore/<workload>` (a 1,000-point finger path) and
/// `map-touch/<workload>` (every view's touch region as exact polygons; on
/// `corpus`, each real screen on its own). Each works on a copy of the
/// engine, so the context's engine never carries an order.
enum NavigationBenchmarks {
    /// Points per explored path.
    static let pathPoints = 1_000
    /// Paths explored per measurement (cycled).
    static let paths = 32
    /// Whole-screen maps run up to this many elements (the row is
    /// at 10k: past it, wide flat or rotated screens take seconds).
    static let mapElementLimit = 10_000

    /// Whether the workload is the chain, where a path's every segment and
    /// every view's map region reach the whole depth (n): quadratic by
    /// construction, so explore and maps skip it.
    static func skipsChain(_ c: BenchContext, _ operation: String) -> Bool {
        guard c.workload.name == "chain" else { return false }
        c.results.note("\(operation)/chain: skipped (every segment and region reaches the whole chain's depth)")
        return true
    }

    // MARK: order

    static func runOrder(_ c: BenchContext) throws {
        let name = c.name("order")
        let engine = try c.engine()
        var count = 0
        var first: [NodeID] = []
        let times = try c.repeated(name) { _ in
            var e = engine
            let (order, ns) = try Stopwatch.time { try e.navigationOrder() }
            count = order.count
            if first.isEmpty { first = order }
            return ns / 1e6
        }
        // Guard: every exposed element once (the workloads list none twice).
        let space = try c.resolved()
        let exposed = c.screen.tree.preOrder.reduce(0) { $0 + (space.isExposed($1) ? 1 : 0) }
        if count != exposed || Set(first).count != count {
            throw BenchError(
                "\(name) at \(c.elements) elements: the order holds \(count) elements (\(Set(first).count) distinct), "
                    + "the screen exposes \(exposed); not timing a wrong order")
        }
        c.log.log("  \(count) elements in order")
        c.results.add(name, "axhit", elements: c.elements, metric: "time", unit: "ms", samples: times)
    }

    // MARK: reorder-after-scroll

    /// One `scroll(view, to:)` of a workload's scroll views to a random
    /// offset, then `next(after:)` (which brings the order up to date), ns
    /// each; the kept order must then equal a fresh build.
    static func runReorderAfterScroll(_ c: BenchContext) throws {
        let name = c.name("reorder-after-scroll")
        let views = c.screen.scrollViews
        guard !views.isEmpty else {
            c.log.log("  no scroll view in \(c.workload.name): skipped")
            return
        }
        var rng = SplitMix64(seed: c.settings.seed &+ 0x0DE4)
        let targets: [(NodeID, CGPoint)] = (0 ..< UpdateBenchmarks.scrollTargets).map { _ in
            let v = views[rng.below(views.count)]
            return (
                v.id,
                CGPoint(
                    x: rng.uniform(0, Double(v.maxOffset.x)).rounded(),
                    y: rng.uniform(0, Double(v.maxOffset.y)).rounded())
            )
        }
        var e = try c.engine()
        let tree = c.screen.tree
        // Untimed: the copy's first scrolls copy what they touch; the order is built.
        for v in views { try e.scroll(v.id, to: try tree.node(v.id).effectiveBounds.origin) }
        guard let probe = try e.navigationOrder().first else { return }
        var failure: (any Error)?
        let m = c.sampler.measure(cycle: targets.count, batchLimit: 8) { k in
            do {
                try e.scroll(targets[k].0, to: targets[k].1)
                return Int(try e.next(after: probe)?.rawValue ?? -1)
            } catch {
                failure = error
                return 0
            }
        }
        if let failure { throw failure }
        var fresh = HitTester(e.tree)
        if try e.navigationOrder() != fresh.navigationOrder() {
            throw BenchError(
                "\(name) at \(c.elements) elements: the order kept through scrolls differs from a fresh build")
        }
        c.results.add(name, "axhit", elements: c.elements, metric: "latency", unit: "ns", samples: m.samples)
    }

    // MARK: explore

    /// `explore` of 1,000-point paths (a finger wandering in steps of up to
    /// 40 points), ns per path; a guard checks each stretch against `hit`.
    static func runExplore(_ c: BenchContext) throws {
        if skipsChain(c, "explore") { return }
        let name = c.name("explore")
        let engine = try c.engine()
        let area = c.screen.queryArea
        var rng = SplitMix64(seed: c.settings.seed &+ 0xE4B1)
        let lines: [[CGPoint]] = (0 ..< paths).map { _ in
            var p = CGPoint(
                x: rng.uniform(Double(area.minX), Double(area.maxX)),
                y: rng.uniform(Double(area.minY), Double(area.maxY)))
            return (0 ..< pathPoints).map { _ in
                p.x = min(max(p.x + rng.uniform(-40, 40), area.minX), area.maxX)
                p.y = min(max(p.y + rng.uniform(-40, 40), area.minY), area.maxY)
                return p
            }
        }
        // Guard: on each segment of two paths, every stretch's middle has its answer.
        var stretches = 0
        for line in lines.prefix(2) {
            for (a, b) in zip(line, line.dropFirst()) {
                for s in try engine.explore([a, b]) {
                    stretches += 1
                    let mid = CGPoint(x: (s.from.x + s.to.x) / 2, y: (s.from.y + s.to.y) / 2)
                    if engine.hit(mid) != s.element {
                        throw BenchError(
                            "\(name) at \(c.elements) elements: a stretch answers "
                                + "\(s.element.map { engine.tree.id(of: $0) } ?? "none"), hit at its middle "
                                + "\(engine.hit(mid).map { engine.tree.id(of: $0) } ?? "none"); not timing a wrong engine"
                        )
                    }
                }
            }
        }
        c.log.log("  guard: \(stretches) stretches on \(2 * (pathPoints - 1)) segments agree with hit")
        var scratch = ExploreScratch()
        var failure: (any Error)?
        let m = c.sampler.measure(cycle: lines.count, batchLimit: 4) { k in
            do { return try engine.explore(lines[k], scratch: &scratch).count } catch {
                failure = error
                return 0
            }
        }
        if let failure { throw failure }
        c.results.add(name, "axhit", elements: c.elements, metric: "latency", unit: "ns", samples: m.samples)
    }

    // MARK: map-touch

    /// `touchMap()`: on `corpus`, each real screen alone (one sample per
    /// screen: the median of a few runs), at the run's first size only; on
    /// the other workloads the whole generated screen, up to
    /// `mapElementLimit` elements.
    static func runMapTouch(_ c: BenchContext) throws {
        if skipsChain(c, "map-touch") { return }
        let name = c.name("map-touch")
        if c.workload.name == "corpus" {
            guard c.sizeName == Report.count(c.settings.sizes.min() ?? 0) else { return }
            let screens = try CorpusWorkload.load(c.settings.corpus)
            var samples: [Double] = []
            var slowest = (0.0, 0)
            for screen in screens {
                let tester = HitTester(screen.tree)
                try checkMap(tester, name)
                let times = try (0 ..< 5).map { _ in try Stopwatch.time { try tester.touchMap() }.1 / 1e6 }.sorted()
                samples.append(times[2])
                if times[2] > slowest.0 { slowest = (times[2], screen.tree.count) }
            }
            c.log.log("  \(screens.count) screens; slowest \(Report.format(slowest.0)) ms (\(slowest.1) nodes)")
            c.results.add(
                name, "axhit", elements: screens.map(\.tree.count).max() ?? 0, metric: "time", unit: "ms",
                samples: samples)
            return
        }
        guard c.elements <= mapElementLimit else {
            c.results.note(
                "map-touch/*: skipped at \(c.sizeName) elements (measured up to \(Report.count(mapElementLimit)))")
            return
        }
        let engine = try c.engine()
        try checkMap(engine, name)
        var regions = 0
        let times = try c.repeated(name, c.settings.loadRepetitions(c.elements)) { _ in
            let (map, ns) = try Stopwatch.time { try engine.touchMap() }
            regions = map.count
            return ns / 1e6
        }
        c.log.log("  \(regions) regions")
        c.results.add(name, "axhit", elements: c.elements, metric: "time", unit: "ms", samples: times)
    }

    /// The touch map must answer as `touch` at random points of the screen.
    static func checkMap(_ tester: HitTester, _ name: String) throws {
        let map = try tester.touchMap()
        let boxes = map.map(bounds)
        guard var screen = boxes.first else { return }
        for b in boxes { screen = screen.union(b) }
        var rng = SplitMix64(seed: 0x3A9)
        for _ in 0 ..< 200 {
            let p = CGPoint(
                x: rng.uniform(Double(screen.minX), Double(screen.maxX)),
                y: rng.uniform(Double(screen.minY), Double(screen.maxY)))
            let expected = tester.touch(p)
            let holders = map.filter { $0.contains(p) }
            // Points on an edge may go either way: only a clear disagreement fails.
            if holders.count > 1 || (holders.first?.node != expected && !nearEdge(p, map)) {
                throw BenchError(
                    "\(name): the touch map gives \(holders.map { tester.tree.id(of: $0.node) }) at (\(p.x), \(p.y)), "
                        + "touch \(expected.map { tester.tree.id(of: $0) } ?? "none"); not timing a wrong map")
            }
        }
    }

    static func bounds(_ r: MapRegion) -> CGRect {
        let points = r.polygons.flatMap { $0.flatMap { $0 } }
        return CGRect.boundingBox(of: points)
    }

    static func nearEdge(_ p: CGPoint, _ map: [MapRegion]) -> Bool {
        for r in map {
            for polygon in r.polygons {
                for ring in polygon {
                    for (a, b) in zip(ring, ring.dropFirst()) {
                        let dx = Double(b.x - a.x), dy = Double(b.y - a.y)
                        let len2 = dx * dx + dy * dy
                        let t = len2 > 0 ? max(0, min(1, (Double(p.x - a.x) * dx + Double(p.y - a.y) * dy) / len2)) : 0
                        let qx = Double(a.x) + t * dx - Double(p.x), qy = Double(a.y) + t * dy - Double(p.y)
                        if qx * qx + qy * qy < 1e-12 { return true }
                    }
                }
            }
        }
        return false
    }
}
