import AXHit
import Foundation

/// One container with every element as a direct child, overlapping at random:
/// the worst case for a tree walk (no pruning below the root).
struct FlatWorkload: Workload {
    let name = "flat"
    let summary = "one container, all elements direct children (worst case for a walk)"

    func generate(elements: Int, seed: UInt64, options: WorkloadOptions) throws -> GeneratedScreen {
        var rng = SplitMix64(seed: seed)
        let n = max(1, elements - 1)
        // About four elements over each point on average.
        let side = (Double(n) * 70 * 70 / 4).squareRoot().rounded(.up)
        var b = TreeBuilder(capacity: n + 1)
        let window = try b.view(CGRect(x: 0, y: 0, width: side, height: side), under: .none)
        for _ in 0 ..< n {
            let w = rng.uniform(20, 120), h = rng.uniform(20, 120)
            let x = rng.uniform(-w / 2, side - w / 2), y = rng.uniform(-h / 2, side - h / 2)
            try b.view(CGRect(x: x, y: y, width: w, height: h), under: window, accessible: true)
        }
        return GeneratedScreen(tree: b.tree, queryArea: CGRect(x: 0, y: 0, width: side, height: side))
    }
}
