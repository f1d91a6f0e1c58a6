import Foundation

/// Times per-query latency without the clock in the numbers: queries run in
/// batches (up to `maxBatch`), each batch is one sample, and a sample's
/// value is the batch time divided by its size. Percentiles are over
/// batches, so p99 is "the slowest 1% of batches", not of single queries.
struct LatencySampler {
    static let maxBatch = 64
    /// A batch should last at least this long (ns) so that the clock's own
    /// cost (~20–50 ns) stays under 1%.
    static let minBatchTime = 10_000.0

    let points: [CGPoint]
    let budget: Double
    let minSamples: Int
    let maxSamples: Int
    let sink: BlackHole

    /// Per-query latency samples in ns for `query`, and the mean cost seen
    /// while calibrating (ns per query).
    func measure(_ query: (CGPoint) -> Int) -> (samples: [Double], estimate: Double) {
        let points = self.points
        let m = measure(cycle: points.count) { query(points[$0]) }
        return (m.samples, m.estimate)
    }

    /// Per-operation latency samples in ns for `operation(k)`, where `k`
    /// counts up from 0 and wraps at `cycle` (so an operation can undo
    /// itself on the way round: move, then move back). Batches as `measure`.
    /// `next` is where the cycle stopped, for a caller that must finish it.
    func measure(cycle: Int, batchLimit: Int = LatencySampler.maxBatch,
                 _ operation: (Int) -> Int) -> (samples: [Double], estimate: Double, next: Int) {
        var next = 0
        var check = 0
        @inline(__always) func run(_ count: Int) {
            for _ in 0..<count {
                check &+= operation(next)
                next += 1
                if next == cycle { next = 0 }
            }
        }
        // Calibrate (and warm caches) on a few operations.
        let calibration = min(16, cycle)
        let t0 = Stopwatch.now()
        run(calibration)
        let estimate = max(Double(Stopwatch.now() - t0) / Double(calibration), 1)
        let batch = max(1, min(batchLimit, Int((Self.minBatchTime / estimate).rounded(.up))))
        let wanted = max(minSamples, min(maxSamples, Int(budget / (estimate * Double(batch)))))
        var samples: [Double] = []
        samples.reserveCapacity(wanted)
        let started = Stopwatch.now()
        for _ in 0..<wanted {
            let s = Stopwatch.now()
            run(batch)
            samples.append(Double(Stopwatch.now() - s) / Double(batch))
            // A bad estimate must not run away with the clock.
            if samples.count >= minSamples && Double(Stopwatch.now() - started) > 4 * budget { break }
        }
        sink.consume(check)
        return (samples, estimate, next)
    }

    /// Queries per second on all cores: each round, every core runs its own
    /// share of queries on its own points; a sample is the round's total
    /// queries over its wall time.
    func parallelThroughput(rounds: Int, roundTime: Double, estimate: Double,
                            _ query: @Sendable (CGPoint) -> Int) -> (samples: [Double], workers: Int) {
        let workers = ProcessInfo.processInfo.activeProcessorCount
        let perWorker = max(4, Int(roundTime / max(estimate, 1)))
        let points = self.points
        var samples: [Double] = []
        for _ in 0..<rounds {
            let s = Stopwatch.now()
            DispatchQueue.concurrentPerform(iterations: workers) { w in
                var check = 0
                var next = (w * 977) % points.count
                for _ in 0..<perWorker {
                    check &+= query(points[next])
                    next += 1
                    if next == points.count { next = 0 }
                }
                sink.consume(check)
            }
            samples.append(Double(workers * perWorker) / (Double(Stopwatch.now() - s) / 1e9))
        }
        return (samples, workers)
    }
}
