import Foundation

/// The monotonic clock, in nanoseconds (CLOCK_MONOTONIC: never steps, unlike
/// the wall clock).
enum Stopwatch {
    @inline(__always)
    static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// Runs `body` and returns its result and its duration in nanoseconds.
    @inline(__always)
    static func time<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        let start = now()
        let value = try body()
        return (value, Double(now() - start))
    }
}

/// Keeps results observable so the optimizer cannot drop the work that made
/// them.
final class BlackHole: @unchecked Sendable {
    private let lock = NSLock()
    private var sum = 0

    /// Folds `value` in (once per batch or worker, never per query).
    func consume(_ value: Int) {
        lock.lock()
        sum &+= value
        lock.unlock()
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return sum
    }
}
