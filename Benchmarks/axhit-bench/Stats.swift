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

/// The Mann–Whitney U test (Wilcoxon rank-sum): whether one set of samples
/// tends to be larger than another, from ranks alone, so a few wild samples
/// (a batch that met a context switch) weigh no more than any other. Two
/// medians alone cannot say whether their difference is more than chance.
///
/// As scipy's `mannwhitneyu(a, b)` with its default method: the exact
/// distribution when there are no ties and a sample has at most 8 values,
/// else the normal approximation with the tie correction and a continuity
/// correction.
enum MannWhitney {
    struct Result: Equatable {
        /// U of the first sample: pairs (x from a, y from b) with x > y,
        /// plus half the ties. 0 when every a is below every b.
        var u: Double
        /// Two-sided p-value: how often samples of one distribution would
        /// sit at least this far apart.
        var p: Double
    }

    /// - Complexity: O((m + n) log(m + n)), and O(m²n) for the exact case.
    static func test(_ a: [Double], _ b: [Double]) -> Result {
        let m = a.count, n = b.count
        guard m > 0, n > 0 else { return Result(u: 0, p: 1) }
        // Average ranks over ties (1-based).
        let pooled = (a.map { ($0, true) } + b.map { ($0, false) }).sorted { $0.0 < $1.0 }
        var rankSumA = 0.0, tieTerm = 0.0
        var i = 0
        while i < pooled.count {
            var j = i
            while j + 1 < pooled.count && pooled[j + 1].0 == pooled[i].0 { j += 1 }
            let rank = Double(i + j + 2) / 2
            for k in i ... j where pooled[k].1 { rankSumA += rank }
            let t = Double(j - i + 1)
            tieTerm += t * t * t - t
            i = j + 1
        }
        let u = rankSumA - Double(m * (m + 1)) / 2
        let mn = Double(m * n)
        if tieTerm == 0 && min(m, n) <= 8 {
            // P(U <= min(U, mn - U)), doubled: the distribution is symmetric.
            let counts = exactCounts(m, n)
            let total = counts.reduce(0, +)
            let low = Int(min(u, mn - u).rounded())
            let tail = counts[0 ... low].reduce(0, +) / total
            return Result(u: u, p: min(1, 2 * tail))
        }
        let count = Double(m + n)
        let variance = mn / 12 * ((count + 1) - tieTerm / (count * (count - 1)))
        guard variance > 0 else { return Result(u: u, p: 1) }
        let z = max(0, abs(u - mn / 2) - 0.5) / variance.squareRoot()
        return Result(u: u, p: min(1, erfc(z / 2.0.squareRoot())))
    }

    /// How many of the C(m+n, m) orderings give each U = 0 ... m·n: the
    /// coefficients of the Gaussian binomial ∏ᵢ (1 − q^(n+i)) / (1 − q^i),
    /// i = 1 ... m (each factor is a multiplication and a division by a
    /// binomial in q, done in place).
    static func exactCounts(_ m: Int, _ n: Int) -> [Double] {
        let degree = m * n
        var c = [Double](repeating: 0, count: degree + 1)
        c[0] = 1
        for i in stride(from: 1, through: m, by: 1) {
            // Times (1 - q^(n+i)).
            let shift = n + i
            if shift <= degree {
                for k in stride(from: degree, through: shift, by: -1) { c[k] -= c[k - shift] }
            }
            // Divided by (1 - q^i): a running sum with stride i.
            for k in stride(from: i, through: degree, by: 1) { c[k] += c[k - i] }
        }
        return c
    }
}

/// The Wilcoxon signed-rank test: whether paired differences (new against
/// old in the same round of an A/B run) lean to one side, from their signs
/// and ranks. Pairing takes out what both sides of a round shared: a machine
/// that was slower for a minute slowed both.
///
/// As scipy's `wilcoxon(d)`: zeros dropped, ties given their average rank,
/// the exact distribution of the smaller rank sum up to 50 differences,
/// else the normal approximation.
enum WilcoxonSignedRank {
    struct Result: Equatable {
        /// The smaller of the positive and the negative differences' rank sums.
        var w: Double
        /// Two-sided p-value.
        var p: Double
    }

    static func test(_ differences: [Double]) -> Result {
        let d = differences.filter { $0 != 0 && $0.isFinite }
        guard !d.isEmpty else { return Result(w: 0, p: 1) }
        let order = d.indices.sorted { abs(d[$0]) < abs(d[$1]) }
        // Doubled average ranks, so that they stay integers.
        var doubled = [Int](repeating: 0, count: d.count)
        var i = 0
        while i < order.count {
            var j = i
            while j + 1 < order.count && abs(d[order[j + 1]]) == abs(d[order[i]]) { j += 1 }
            for k in i ... j { doubled[order[k]] = i + j + 2 }
            i = j + 1
        }
        let plus = d.indices.filter { d[$0] > 0 }.map { doubled[$0] }.reduce(0, +)
        let total = doubled.reduce(0, +)
        let smaller = min(plus, total - plus)
        let n = Double(d.count)
        if d.count <= 50 {
            // How many of the 2^n sign patterns give each doubled sum.
            var counts = [Double](repeating: 0, count: total + 1)
            counts[0] = 1
            for r in doubled {
                for s in stride(from: total, through: r, by: -1) { counts[s] += counts[s - r] }
            }
            let tail = counts[0 ... smaller].reduce(0, +) / pow(2, n)
            return Result(w: Double(smaller) / 2, p: min(1, 2 * tail))
        }
        let mean = n * (n + 1) / 4
        let sd = (n * (n + 1) * (2 * n + 1) / 24).squareRoot()
        let z = (mean - Double(smaller) / 2) / sd
        return Result(w: Double(smaller) / 2, p: min(1, erfc(z / 2.0.squareRoot())))
    }
}
