import Foundation

/// `axhit-bench selftest`: the harness's own arithmetic against known
/// answers (scipy's for the tests), so a verdict rests on checked statistics.
/// The harness is an executable target; these run in CI (`.ci/run`).
enum SelfTest {
    static func run(_ args: [String]) throws -> Int32 {
        var failures: [String] = []
        var checks = 0
        func check(_ ok: Bool, _ what: @autoclosure () -> String) {
            checks += 1
            if !ok { failures.append(what()) }
        }
        func near(_ a: Double, _ b: Double, _ tolerance: Double = 1e-6) -> Bool {
            abs(a - b) <= tolerance * max(1, abs(b))
        }

        // Percentiles: numpy's linear interpolation.
        let s = Stats([4, 1, 3, 2])
        check(
            s.p50 == 2.5 && near(s.p90, 3.7) && near(s.percentile(0), 1),
            "Stats percentiles of 1...4: \(s.p50), \(s.p90)")

        // Mann–Whitney U, against scipy.stats.mannwhitneyu(a, b).
        let cases: [([Double], [Double], Double, Double)] = [
            ([1, 2, 3, 4, 5], [6, 7, 8, 9, 10], 0, 0.007936507936507936),  // exact, complete separation
            ([1.1, 2.2, 3.3, 4.4], [0.5, 2.5, 3.6, 5, 6, 7, 8, 9, 10, 11], 7, 0.07592407592407593),  // exact
            ([1, 2, 2, 3, 4, 5, 5, 5], [2, 3, 4, 4, 6, 6, 7, 8, 9], 17.5, 0.08061946394852618),  // ties: normal
            // The normal approximation.
            (Array(0 ..< 10).map(Double.init), Array(3 ..< 13).map { Double($0) + 0.5 }, 21, 0.031209012771740218),
        ]
        for (a, b, u, p) in cases {
            let r = MannWhitney.test(a, b)
            check(
                r.u == u && near(r.p, p, 1e-9), "Mann-Whitney \(a) vs \(b): U \(r.u) p \(r.p), expected U \(u) p \(p)")
        }
        let same = MannWhitney.test([3, 3, 3], [3, 3, 3])
        check(same.p == 1, "Mann-Whitney of identical samples: p \(same.p), expected 1")
        check(
            MannWhitney.exactCounts(2, 2) == [1, 1, 2, 1, 1],
            "exact U counts for 2 and 2: \(MannWhitney.exactCounts(2, 2))")

        // Wilcoxon signed-rank, against scipy.stats.wilcoxon(d).
        let signed: [([Double], Double, Double)] = [
            ([0.1, 0.2, 0.05, 0.3, 0.15, 0.12, 0.08, 0.02], 0, 0.0078125),
            ([0.1, -0.2, 0.05, 0.3, 0.15, 0.12, 0.08, 0.02], 7, 0.1484375),
            ([0.1, -0.2, 0.05, 0.3, -0.15, 0.12, 0.08], 11, 0.6875),
            ([1, 2, 3, 4, 5], 0, 0.0625),
        ]
        for (d, w, p) in signed {
            let r = WilcoxonSignedRank.test(d)
            check(r.w == w && near(r.p, p, 1e-12), "Wilcoxon \(d): W \(r.w) p \(r.p), expected W \(w) p \(p)")
        }

        // Passes share samples and repetitions out without losing any.
        var settings = RunSettings()
        settings.passes = 5
        let shares = (0 ..< 5).map { settings.share(3, pass: $0) }
        check(shares == [0, 1, 0, 1, 1], "3 repetitions over 5 passes: \(shares)")
        check((0 ..< 5).map { settings.share(150, pass: $0) }.reduce(0, +) == 150, "150 samples over 5 passes")

        // Thresholds: per metric, per unit, default.
        let t = try CompareCommand.parseThresholds("latency=10%,instructions=2,7%")
        check(
            t.value(metric: "latency", unit: "ns") == 10
                && t.value(metric: "scroll-shared-instructions", unit: "instructions") == 2
                && t.value(metric: "time", unit: "ms") == 7, "--threshold parsing")

        // Verdicts on made-up rows.
        func row(
            _ values: [Double], passes: [Double]? = nil, unit: String = "ns", otherCores: Double? = nil
        ) -> ResultRow {
            let st = Stats(values)
            return ResultRow(
                benchmark: "hit-frame/grid", implementation: "axhit", elements: 1000, metric: "latency", unit: unit,
                p50: st.p50, p90: st.p90, p99: st.p99, samples: values.count, values: values,
                passMedians: passes, otherCores: otherCores)
        }
        func verdict(
            _ b: ResultRow, _ n: ResultRow, _ threshold: Double = 5, shift: Double = 0
        ) -> CompareCommand.Verdict {
            CompareCommand.judge(base: b, new: n, threshold: threshold, machineShift: shift).verdict
        }
        let base = row([100, 101, 99, 100, 102, 98, 100, 101, 99, 100], passes: [100, 101, 99, 100.5, 99.5])
        let slower = row([120, 121, 119, 120, 122, 118, 120, 121, 119, 120], passes: [120, 121, 119, 120.5, 119.5])
        check(verdict(base, base) == .noChange, "a row against itself: no change")
        check(verdict(base, slower) == .regressed, "20% slower in every pass: regressed")
        check(verdict(slower, base) == .improved, "20% faster in every pass: improved")
        let wobbly = row([120, 121, 119, 120, 122, 118, 120, 121, 119, 120], passes: [120, 80, 160, 120, 110])
        check(verdict(base, wobbly) == .inconclusive, "20% slower, passes ±33%: inconclusive")
        check(verdict(base, slower, shift: log(1.2)) == .noChange, "20% slower with the machine 20% slower: no change")
        check(verdict(row([100]), row([120])) == .inconclusive, "one time each: inconclusive")
        check(
            verdict(row([1000], unit: "instructions"), row([1011], unit: "instructions"), 1) == .regressed,
            "an instruction count up 1.1%, threshold 1%: regressed")
        check(
            verdict(row([1000], unit: "instructions"), row([1009], unit: "instructions"), 1) == .noChange,
            "an instruction count up 0.9%, threshold 1%: no change")
        let busy = row(slower.values ?? [], passes: slower.passMedians, otherCores: 1.5)
        check(
            verdict(row(base.values ?? [], passes: base.passMedians, otherCores: 0.2), busy) == .inconclusive,
            "20% slower with 1.3 more cores busy elsewhere: inconclusive")
        var legacyBase = base, legacySlow = slower
        legacyBase.values = nil
        legacySlow.values = nil
        legacyBase.passMedians = nil
        legacySlow.passMedians = nil
        check(verdict(legacyBase, legacySlow) == .inconclusive, "20% slower, p50s only (needs 25%): inconclusive")

        // A/B: paired rounds.
        func rounds(_ p50s: [Double]) -> [Int: ResultRow] {
            Dictionary(uniqueKeysWithValues: p50s.enumerated().map { ($0, row([$1])) })
        }
        let drift: [Double] = [100, 130, 90, 110, 150, 95, 105, 120]
        let ab = ABCommand.paired(
            old: rounds(drift), new: rounds(drift.map { $0 * 1.1 }), merged: (base, slower), threshold: 5)
        check(
            ab.verdict == .regressed && near(ab.change, 0.1),
            "A/B 10% slower in every round of a drifting machine: "
                + "\(ab.verdict.rawValue) \(ab.change)")
        let aa = ABCommand.paired(old: rounds(drift), new: rounds(drift.reversed()), merged: (base, base), threshold: 5)
        check(aa.verdict != .regressed, "A/B of shuffled equal rounds: not regressed (\(aa.verdict.rawValue))")

        for (what, ok) in try androidCases() { check(ok, what) }

        if failures.isEmpty {
            print("selftest: \(checks) checks passed")
            return 0
        }
        for f in failures { print("FAILED: \(f)") }
        print("selftest: \(failures.count) of \(checks) checks failed")
        return 1
    }
}
