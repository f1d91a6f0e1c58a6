import Foundation

/// SplitMix64: a tiny seeded generator, so that the same seed gives the same
/// tree and the same query points on every machine and Swift version
/// (`SystemRandomNumberGenerator` is unseeded; Swift's algorithms may change).
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform double in `0 ..< 1` from the top 53 bits (the stdlib's
    /// `Double.random(in:using:)` is not guaranteed stable across versions).
    mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// A uniform double in `lo ..< hi`.
    mutating func uniform(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * unit() }

    /// A uniform integer in `0 ..< n` (n > 0); the tiny modulo bias is irrelevant here.
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
}
