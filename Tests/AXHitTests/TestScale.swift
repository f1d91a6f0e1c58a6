import Foundation

/// How many rounds a randomized test runs: all of them, or a share under the
/// sanitizers (scripts/sanitize sets `AXHIT_TEST_SCALE=8`). Instrumented
/// code runs 2-15 times slower, and a race, an overflow or a leak shows the
/// first time its code runs, so an eighth of the rounds keeps every path
/// while the plain run (scripts/test) keeps every round. A test's guards
/// against passing vacuously scale with the rounds it ran.
enum TestScale {
    /// The divisor: `AXHIT_TEST_SCALE` when it is a whole number above 1, else 1.
    static let divisor: Int = {
        guard let text = ProcessInfo.processInfo.environment["AXHIT_TEST_SCALE"], let n = Int(text), n > 1 else {
            return 1
        }
        return n
    }()

    /// `n` rounds divided by the divisor, at least `floor` (and never more than `n`).
    static func rounds(_ n: Int, floor: Int = 1) -> Int { min(n, max(floor, n / divisor)) }
}
