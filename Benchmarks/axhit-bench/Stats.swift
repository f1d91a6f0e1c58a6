import Foundation

/// Percentiles of a set of samples (linear interpolation between order
/// statistics, as numpy's default), so reports show spread, not a mean.
struct Stats {
    let sorted: [Double]

    init(_ samples: [Double]) { sorted = samples.filter(\.isFinite).sorted() }

    var count: Int { sorted.count }

    /// The `q`-th percentile (0...100), or NaN with no samples.
    func percentile(_ q: Double) -> Double {
        guard let first = sorted.first else { return .nan }
        if sorted.count == 1 { return first }
        let rank = q / 100 * Double(sorted.count - 1)
        let lo = Int(rank.rounded(.down)), hi = min(lo + 1, sorted.count - 1)
        let f = rank - Double(lo)
        return sorted[lo] + (sorted[hi] - sorted[lo]) * f
    }

    var p50: Double { percentile(50) }
    var p90: Double { percentile(90) }
    var p99: Double { percentile(99) }
}
