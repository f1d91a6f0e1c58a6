import AXHit
import Foundation

/// A collection view: rows of ten cells, each row a container view, every
/// cell an accessible view with a 2-point gap around it. Not scrolled: the
/// whole content is the canvas.
struct GridWorkload: Workload {
    let name = "grid"
    let summary = "collection view: rows of 10 cells in row containers"

    func generate(elements: Int, seed: UInt64, options: WorkloadOptions) throws -> GeneratedScreen {
        var rng = SplitMix64(seed: seed)
        let columns = 10, cellW = 80.0, cellH = 60.0
        let rows = max(1, (elements - 2) / (columns + 1))
        let width = Double(columns) * cellW, height = Double(rows) * cellH
        var b = TreeBuilder(capacity: 2 + rows * (columns + 1))
        let window = try b.view(CGRect(x: 0, y: 0, width: width, height: height), under: .none)
        let collection = try b.view(CGRect(x: 0, y: 0, width: width, height: height), under: window) {
            $0.clipsToBounds = true
        }
        for r in 0 ..< rows {
            let row = try b.view(CGRect(x: 0, y: Double(r) * cellH, width: width, height: cellH), under: collection)
            for c in 0 ..< columns {
                // Cells vary slightly in height, as self-sizing cells do.
                let h = cellH - 4 - Double(rng.below(8))
                try b.view(
                    CGRect(x: Double(c) * cellW + 2, y: 2, width: cellW - 4, height: h), under: row, accessible: true)
            }
        }
        return GeneratedScreen(tree: b.tree, queryArea: CGRect(x: 0, y: 0, width: width, height: height))
    }
}
