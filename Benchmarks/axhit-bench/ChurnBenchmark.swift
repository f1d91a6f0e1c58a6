import AXHit
import Foundation

/// `churn/<workload>`: a long-lived engine, as an app that shows and hides
/// rows forever drives it. Each cycle inserts a row of ten cells into the
/// widest view (at a random place and z-position, as `insert` does) and
/// removes it again, on the context's engine in place.
///
/// Rows, per pass:
/// - `cycle`: ns per insert + remove, one sample per 1,000 cycles;
/// - `resident-growth`: the process's resident memory after the last cycle
///   against after the first 1,000, in percent (the long-lived goal: within
///   5% over 1M cycles on a 1M-element engine);
/// - `engine-growth`: the same for the engine's own count of its bytes
///   (`HitTester.memoryBytes`). It rises and falls with the phase of the
///   engine's batched reclaiming (a dropped child block stays until the
///   dropped ones are half the blocks' arrays, then they are compacted), so
///   it is bounded by the live blocks' size, not by the cycles;
/// - `slot-growth`: slots the tree added after the first 1,000 cycles (0
///   when every removal's slots are reused).
enum ChurnBenchmark {
    /// Cycles per sample, and before the first memory reading.
    static let batch = 1_000

    static func run(_ c: BenchContext) throws {
        let name = c.name("churn")
        guard let s = try UpdateBenchmarks.inserts(c, count: 64) else { return }
        let cycles = max(2 * batch, c.share(c.settings.churnTotal))
        try c.withEngine { e in
            var samples: [Double] = []
            samples.reserveCapacity(cycles / batch + 1)
            var first: (resident: Int, engine: Int, slots: Int)?
            var done = 0
            while done < cycles {
                let n = min(batch, cycles - done)
                let start = Stopwatch.now()
                for j in 0 ..< n {
                    let r = (done + j) % s.rows.count
                    let id = try e.insert(s.rows[r], under: s.container, before: s.behind[r])
                    try e.removeSubtree(id)
                }
                samples.append(Double(Stopwatch.now() - start) / Double(n))
                done += n
                if first == nil {
                    first = (MemoryProbe.residentAfterTrim(), e.memoryBytes, e.tree.capacity)
                }
            }
            guard let first else { return }
            let resident = MemoryProbe.residentAfterTrim()
            func growth(_ after: Int, _ before: Int) -> Double {
                100 * (Double(after) - Double(before)) / Double(max(before, 1))
            }
            c.results.add(name, "axhit", elements: c.elements, metric: "cycle", unit: "ns", samples: samples)
            c.results.add(
                name, "axhit", elements: c.elements, metric: "resident-growth", unit: "%",
                samples: [growth(resident, first.resident)])
            c.results.add(
                name, "axhit", elements: c.elements, metric: "engine-growth", unit: "%",
                samples: [growth(e.memoryBytes, first.engine)])
            c.results.add(
                name, "axhit", elements: c.elements, metric: "slot-growth", unit: "slots",
                samples: [Double(e.tree.capacity - first.slots)])
            c.log.log(
                "  \(name): \(cycles) cycles, resident \(first.resident >> 20) -> \(resident >> 20) MiB, "
                    + "engine \(first.engine >> 10) -> \(e.memoryBytes >> 10) KiB")
        }
        try UpdateBenchmarks.checkRestored(c, name)
    }
}
