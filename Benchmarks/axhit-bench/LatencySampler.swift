import Foundation

/// Times per-query latency without the clock in the numbers: queries run in
/// batches (up to `maxBatch`), each batch is one sample, and a sample's
/// value is the batch time divided by its size. Percentiles are over
/// batches, so p99 is "the slowest 1% of batches", not of single queries.
///
/// **Steady state, the same for every implementation.** A query latency is
/// measured after `warmUpTime` of queries at the warm-up points (the last
/// `warmUpPoints`), so that what all queries share (the top of a tree, the
/// code, the branch predictors) is as warm as in a long run; then at points
/// no query has seen (from `firstMeasured`, never cycled within one
/// measurement), so that what each query reaches alone is as cold as in a
/// long run over a large screen. Without this, the number of queries (and
/// so their warmth) would follow each implementation's own speed: a slow
/// one took few samples over a cold structure, a fast one cycled warm points.
struct LatencySampler {
    static let maxBatch = 64
    /// A batch should last at least this long (ns) so that the clock's own
    /// cost (~20–50 ns) stays under 1%.
    static let minBatchTime = 10_000.0
    /// The last this many points are the warm-up's.
    static let warmUpPoints = 16_384

    let points: [CGPoint]
    let budget: Double
    let minSamples: Int
    let maxSamples: Int
    /// Time spent on warm-up queries before a query latency is measured (ns).
    let warmUpTime: Double
    /// The first point measured: the ones before are the correctness guards'.
    let firstMeasured: Int
    /// The points `measureRuns` measures: no other measurement reads them.
    let runRange: Range<Int>
    let sink: BlackHole

    /// Per-query latency samples in ns for `query`, and the mean cost seen
    /// while warming up (ns per query). See the type's notes.
    func measure(_ query: (CGPoint) -> Int) -> (samples: [Double], estimate: Double) {
        let points = self.points
        let warmStart = points.count - Self.warmUpPoints
        precondition(firstMeasured + Self.maxBatch * maxSamples <= warmStart, "too few query points")
        var check = 0
        var k = warmStart, done = 0
        let t0 = Stopwatch.now()
        repeat {
            for _ in 0 ..< 16 {
                check &+= query(points[k])
                k += 1
                if k == points.count { k = warmStart }
            }
            done += 16
        } while Double(Stopwatch.now() - t0) < warmUpTime
        sink.consume(check)
        let estimate = max(Double(Stopwatch.now() - t0) / Double(done), 1)
        let measured = warmStart - firstMeasured
        let m = sample(cycle: measured, estimate: estimate, batchLimit: Self.maxBatch) {
            query(points[firstMeasured + $0])
        }
        return (m.samples, estimate)
    }

    /// Per-point latency samples in ns of answering points a run at a time:
    /// `answer` gets runs of `size` points, after the same warm-up as
    /// `measure` (runs of the warm-up points); then each run of points no
    /// query has seen is one sample, its time over `size`. The runs are
    /// every other one of `runRange` (which `measure` never reads), from
    /// the first or the second (`half`, 0 or 1), so that two ways of
    /// answering them can be compared on points alike and alike unseen. The
    /// runs are made before the clock starts.
    func measureRuns(size: Int, half: Int, _ answer: ([CGPoint]) -> Int) -> [Double] {
        let warmStart = points.count - Self.warmUpPoints
        let warm = stride(from: warmStart, to: points.count - size + 1, by: size).map {
            Array(points[$0 ..< $0 + size])
        }
        let starts = stride(
            from: runRange.lowerBound + half * size, to: runRange.upperBound - size + 1, by: 2 * size)
        let runs = starts.map { Array(points[$0 ..< $0 + size]) }
        precondition(!warm.isEmpty && !runs.isEmpty, "too few query points for runs of \(size)")
        var check = 0, k = 0
        let t0 = Stopwatch.now()
        repeat {
            check &+= answer(warm[k])
            k = (k + 1) % warm.count
        } while Double(Stopwatch.now() - t0) < warmUpTime
        var samples: [Double] = []
        for run in runs {
            let s = Stopwatch.now()
            check &+= answer(run)
            samples.append(Double(Stopwatch.now() - s) / Double(size))
        }
        sink.consume(check)
        return samples
    }

    /// Per-operation latency samples in ns for `operation(k)`, where `k`
    /// counts up from 0 and wraps at `cycle` (so an operation can undo
    /// itself on the way round: move, then move back). Batches as `measure`.
    /// `next` is where the cycle stopped, for a caller that must finish it.
    func measure(
        cycle: Int, batchLimit: Int = LatencySampler.maxBatch,
        _ operation: (Int) -> Int
    ) -> (samples: [Double], estimate: Double, next: Int) {
        // Calibrate (and warm caches) on a few operations.
        var check = 0
        let calibration = min(16, cycle)
        let t0 = Stopwatch.now()
        for k in 0 ..< calibration { check &+= operation(k) }
        sink.consume(check)
        let estimate = max(Double(Stopwatch.now() - t0) / Double(calibration), 1)
        let m = sample(cycle: cycle, from: calibration % cycle, estimate: estimate, batchLimit: batchLimit, operation)
        return (m.samples, estimate, m.next)
    }

    /// Samples `operation(k)` in batches sized from `estimate`, `k` counting
    /// up from `from` and wrapping at `cycle`.
    private func sample(
        cycle: Int, from start: Int = 0, estimate: Double, batchLimit: Int,
        _ operation: (Int) -> Int
    ) -> (samples: [Double], next: Int) {
        var next = start
        var check = 0
        @inline(__always) func run(_ count: Int) {
            for _ in 0 ..< count {
                check &+= operation(next)
                next += 1
                if next == cycle { next = 0 }
            }
        }
        let batch = max(1, min(batchLimit, Int((Self.minBatchTime / estimate).rounded(.up))))
        let wanted = max(minSamples, min(maxSamples, Int(budget / (estimate * Double(batch)))))
        var samples: [Double] = []
        samples.reserveCapacity(wanted)
        let started = Stopwatch.now()
        for _ in 0 ..< wanted {
            let s = Stopwatch.now()
            run(batch)
            samples.append(Double(Stopwatch.now() - s) / Double(batch))
            // A bad estimate must not run away with the clock.
            if samples.count >= minSamples && Double(Stopwatch.now() - started) > 4 * budget { break }
        }
        sink.consume(check)
        return (samples, next)
    }

    /// Queries per second on all cores: each round, every core runs its own
    /// share of queries on its own points; a sample is the round's total
    /// queries over its wall time.
    func parallelThroughput(
        rounds: Int, roundTime: Double, estimate: Double,
        _ query: @Sendable (CGPoint) -> Int
    ) -> (samples: [Double], workers: Int) {
        let workers = ProcessInfo.processInfo.activeProcessorCount
        let perWorker = max(4, Int(roundTime / max(estimate, 1)))
        let points = self.points
        var samples: [Double] = []
        for _ in 0 ..< rounds {
            let s = Stopwatch.now()
            DispatchQueue.concurrentPerform(iterations: workers) { w in
                var check = 0
                var next = (w * 977) % points.count
                for _ in 0 ..< perWorker {
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
