import AXHit
import Foundation

/// The square canvas of the outside measurement the speed goal quotes: √n
/// row views of √n accessible cells of 40 × 40 points, edge to edge (1,000
/// rows of 1,000 cells at 1M). Every box is the same size, so a uniform
/// grid with 40-point cells holds one box per cell: the structure's best
/// case, and the goal's yardstick.
struct SquareWorkload: Workload {
    let name = "square"
    let summary = "square canvas: rows of 40 x 40 pt cells, as many rows as cells per row"

    func generate(elements: Int, seed: UInt64, options: WorkloadOptions) throws -> GeneratedScreen {
        let cell = 40.0
        // rows * (side + 1) + 2 nodes: rows of `side` cells, plus the row views.
        let side = max(1, Int((Double(max(elements - 2, 1))).squareRoot()))
        let size = Double(side) * cell
        var b = TreeBuilder(capacity: 2 + side * (side + 1))
        let window = try b.view(CGRect(x: 0, y: 0, width: size, height: size), under: .none)
        let canvas = try b.view(CGRect(x: 0, y: 0, width: size, height: size), under: window)
        for r in 0 ..< side {
            let row = try b.view(CGRect(x: 0, y: Double(r) * cell, width: size, height: cell), under: canvas)
            for c in 0 ..< side {
                try b.view(CGRect(x: Double(c) * cell, y: 0, width: cell, height: cell), under: row, accessible: true)
            }
        }
        return GeneratedScreen(tree: b.tree, queryArea: CGRect(x: 0, y: 0, width: size, height: size))
    }
}
