import AXHit
import Foundation

/// A deep chain: each view the only child of the one before, shifted by ±1
/// point so that every level is a real transform, and one accessible leaf at
/// the bottom. Depth = the element count, up to 100k levels.
struct ChainWorkload: Workload {
    let name = "chain"
    let summary = "a chain of views, one per level (up to 100k levels), accessible leaf"
    let maxElements = 100_001
    // JSONDecoder stops at a nesting limit far below 100k.
    let supportsLoad = false

    /// A point descends every level (about 14 ns each), so points times
    /// levels stay under 10^9, some 15 s of answers: 1M points of a 1k-level
    /// chain, 10k of a 100k-level one (1M of those took 25 minutes).
    func cliPoints(_ requested: Int, elements: Int) -> Int {
        min(requested, max(1_000, 1_000_000_000 / max(1, min(elements, maxElements))))
    }

    func generate(elements: Int, seed: UInt64, options: WorkloadOptions) throws -> GeneratedScreen {
        var rng = SplitMix64(seed: seed)
        let levels = max(2, min(elements, maxElements))
        let w = 390.0, h = 844.0
        var b = TreeBuilder(capacity: levels)
        var parent = try b.view(CGRect(x: 0, y: 0, width: w, height: h), under: .none)
        for k in 1 ..< (levels - 1) {
            parent = try b.view(CGRect(x: k % 2 == 0 ? 1 : -1, y: 0, width: w, height: h), under: parent)
        }
        let leafW = rng.uniform(100, 300).rounded(), leafH = rng.uniform(200, 600).rounded()
        try b.view(CGRect(x: 20, y: 40, width: leafW, height: leafH), under: parent, accessible: true)
        return GeneratedScreen(tree: b.tree, queryArea: CGRect(x: 0, y: 0, width: w, height: h))
    }
}
