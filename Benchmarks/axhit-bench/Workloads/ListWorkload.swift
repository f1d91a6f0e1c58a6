import AXHit
import Foundation

/// A long scrolling list: one clipped scroll view holding every row (a row
/// view and its label, an element node), scrolled to the middle. Queries
/// fall on the visible screen, as a user's would.
struct ListWorkload: Workload {
    let name = "list"
    let summary = "one scroll view with n/2 rows (row view + label element), scrolled to the middle"

    func generate(elements: Int, seed: UInt64, options: WorkloadOptions) throws -> GeneratedScreen {
        var rng = SplitMix64(seed: seed)
        let rows = max(1, (elements - 2) / 2)
        let screenW = 390.0, screenH = 844.0, rowH = 44.0
        let contentH = Double(rows) * rowH
        let offset = max(0, (contentH / 2 - screenH / 2).rounded())
        var b = TreeBuilder(capacity: 2 + rows * 2)
        let window = try b.view(CGRect(x: 0, y: 0, width: screenW, height: screenH), under: .none)
        let scroll = try b.view(CGRect(x: 0, y: 0, width: screenW, height: screenH), under: window) {
            $0.bounds = CGRect(x: 0, y: offset, width: screenW, height: screenH)
            $0.clipsToBounds = true
        }
        for r in 0 ..< rows {
            let row = try b.view(CGRect(x: 0, y: Double(r) * rowH, width: screenW, height: rowH), under: scroll)
            let labelW = rng.uniform(120, 340).rounded()
            try b.element(inContainer: CGRect(x: 16, y: 4, width: labelW, height: rowH - 8), under: row) {
                $0.accessibilityTraits = .staticText
            }
        }
        return GeneratedScreen(
            tree: b.tree, queryArea: CGRect(x: 0, y: 0, width: screenW, height: screenH),
            scrollViews: [ScrollView(id: scroll, maxOffset: CGPoint(x: 0, y: max(0, contentH - screenH)))])
    }
}
