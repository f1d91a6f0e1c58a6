import AXHit
import Foundation

/// Rotated and scaled subtrees: panels turned by up to ±30° and scaled
/// 0.7–1.3, each holding four sub-panels turned and scaled again, each of
/// those six accessible cells. Frames become bounding boxes of turned rects,
/// so frame and shape answers differ.
struct RotatedWorkload: Workload {
    let name = "rotated"
    let summary = "panels rotated/scaled, with rotated/scaled sub-panels of cells"

    func generate(elements: Int, seed: UInt64, options: WorkloadOptions) throws -> GeneratedScreen {
        var rng = SplitMix64(seed: seed)
        let perPanel = 1 + 4 * (1 + 6)
        let panels = max(1, (elements - 1) / perPanel)
        let columns = max(1, Int(Double(panels).squareRoot().rounded(.up)))
        let rows = (panels + columns - 1) / columns
        let pitch = 400.0
        let width = Double(columns) * pitch, height = Double(rows) * pitch
        var b = TreeBuilder(capacity: 1 + panels * perPanel)
        let window = try b.view(CGRect(x: 0, y: 0, width: width, height: height), under: .none)
        func turn(_ maxDegrees: Double, _ rng: inout SplitMix64) -> CGAffineTransform {
            let angle = rng.uniform(-maxDegrees, maxDegrees) * Double.pi / 180
            let s = rng.uniform(0.7, 1.3)
            return CGAffineTransform(rotationAngle: angle).scaledBy(x: s, y: s)
        }
        for p in 0 ..< panels {
            let frame = CGRect(
                x: Double(p % columns) * pitch + 50, y: Double(p / columns) * pitch + 50, width: 300, height: 300)
            let panel = try b.view(frame, under: window) { $0.transform = turn(30, &rng) }
            for q in 0 ..< 4 {
                let sub = try b.view(
                    CGRect(x: Double(q % 2) * 150 + 5, y: Double(q / 2) * 150 + 5, width: 140, height: 140),
                    under: panel
                ) { $0.transform = turn(45, &rng) }
                for c in 0 ..< 6 {
                    try b.view(
                        CGRect(x: Double(c % 2) * 70 + 4, y: Double(c / 2) * 46 + 4, width: 62, height: 40),
                        under: sub, accessible: true)
                }
            }
        }
        return GeneratedScreen(tree: b.tree, queryArea: CGRect(x: 0, y: 0, width: width, height: height))
    }
}
