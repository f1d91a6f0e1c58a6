import AXHit
import Foundation

/// `hit-all/<workload>` (every exposed element under a point) and
/// `touch/<workload>` (UIKit's hitTest: the view a tap reaches), per query.
enum QueryBenchmarks {
    static func runHitAll(_ c: BenchContext) throws {
        let name = c.name("hit-all")
        let engine = try c.engine()
        // hitAll must start with the frontmost hit: a cheap guard that the
        // two queries share one contract.
        let probes = guardProbes(c)
        var found = 0
        for p in probes {
            let all = engine.hitAll(p, policy: .frame), one = engine.hit(p, policy: .frame)
            found += all.count
            if all.first != one {
                let tree = c.screen.tree
                throw BenchError(
                    "\(name) at \(c.elements) elements: hitAll's first answer \(all.first.map { tree.id(of: $0) } ?? "none") "
                        + "is not hit's \(one.map { tree.id(of: $0) } ?? "none") at (\(p.x), \(p.y)); not timing a wrong engine"
                )
            }
        }
        c.log.log("  \(String(format: "%.2f", Double(found) / Double(max(1, probes.count)))) elements per guard point")
        let m = c.sampler.measure { p in engine.hitAll(p, policy: .frame).count }
        c.results.add(name, "axhit", elements: c.elements, metric: "latency", unit: "ns", samples: m.samples)
    }

    static func runTouch(_ c: BenchContext) throws {
        let name = c.name("touch")
        let engine = try c.engine()
        let naive = try c.naiveTouch()
        try checkTouch(c, engine: engine, naive: naive)
        let sampler = c.sampler
        let axhit = sampler.measure { p in Int(engine.touch(p)?.rawValue ?? -1) }
        c.results.add(name, "axhit", elements: c.elements, metric: "latency", unit: "ns", samples: axhit.samples)
        let n = sampler.measure { p in Int(naive.touch(p)?.rawValue ?? -1) }
        c.results.add(name, "naive", elements: c.elements, metric: "latency", unit: "ns", samples: n.samples)
    }

    /// Random query points and the centres of random exposed elements (where
    /// views are), as the hit-frame guard draws them.
    static func guardProbes(_ c: BenchContext) -> [CGPoint] {
        var rng = SplitMix64(seed: c.settings.seed &+ 0xC4EC)
        var probes = Array(c.points.prefix(c.settings.guardPoints * 2 / 3))
        if let flat = try? c.flat(), !flat.rects.isEmpty {
            for _ in 0 ..< (c.settings.guardPoints - probes.count) {
                let r = flat.rects[rng.below(flat.rects.count)]
                probes.append(CGPoint(x: r.midX, y: r.midY))
            }
        }
        return probes
    }

    /// The engine's touch and the naive recursive hitTest must agree before
    /// either is timed.
    static func checkTouch(_ c: BenchContext, engine: HitTester, naive: NaiveTouch) throws {
        let probes = guardProbes(c)
        var mismatches: [String] = []
        var hits = 0
        let tree = c.screen.tree
        for p in probes {
            let a = engine.touch(p), b = naive.touch(p)
            if a != nil { hits += 1 }
            if a != b {
                mismatches.append(
                    "(\(p.x), \(p.y)): axhit \(a.map { tree.id(of: $0) } ?? "none"), naive \(b.map { tree.id(of: $0) } ?? "none")"
                )
            }
        }
        c.log.log(
            "  guard: axhit touch = naive hitTest on \(probes.count - mismatches.count)/\(probes.count) points (\(hits) received)"
        )
        if !mismatches.isEmpty {
            throw BenchError(
                "\(c.name("touch")) at \(c.elements) elements: the engine's touch disagrees with the naive hitTest on "
                    + "\(mismatches.count) of \(probes.count) points; not timing a wrong engine:\n  "
                    + mismatches.prefix(5).joined(separator: "\n  "))
        }
    }
}
