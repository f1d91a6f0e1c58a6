import AXHit
import Foundation

/// Deeply nested layouts: scroll views (clipped, scrolled to a random
/// offset) holding stacks of cards; each card an image view, a title element
/// (an element node framed in the card's space) and a button.
struct NestedWorkload: Workload {
    let name = "nested"
    let summary = "cards (image, title element, button) in stacks in scroll views"

    func generate(elements: Int, seed: UInt64, options: WorkloadOptions) throws -> GeneratedScreen {
        var rng = SplitMix64(seed: seed)
        let cardsPerStack = 10, stacksPerScroll = 10
        let nodesPerCard = 4, nodesPerStack = 1 + cardsPerStack * nodesPerCard
        let nodesPerScroll = 1 + stacksPerScroll * nodesPerStack
        let scrolls = max(1, (elements - 1) / nodesPerScroll)
        let columns = max(1, Int(Double(scrolls).squareRoot().rounded(.up)))
        let rowsOfScrolls = (scrolls + columns - 1) / columns
        let screenW = 390.0, screenH = 844.0, gap = 10.0
        let cardH = 120.0, cardGap = 10.0
        let stackH = Double(cardsPerStack) * (cardH + cardGap)
        let contentH = Double(stacksPerScroll) * (stackH + 20)
        let width = Double(columns) * (screenW + gap), height = Double(rowsOfScrolls) * (screenH + gap)

        var b = TreeBuilder(capacity: 1 + scrolls * nodesPerScroll)
        var scrollViews: [ScrollView] = []
        let window = try b.view(CGRect(x: 0, y: 0, width: width, height: height), under: .none)
        for s in 0 ..< scrolls {
            let origin = CGPoint(x: Double(s % columns) * (screenW + gap), y: Double(s / columns) * (screenH + gap))
            let offset = rng.uniform(0, contentH - screenH).rounded()
            let scroll = try b.view(
                CGRect(origin: origin, size: CGSize(width: screenW, height: screenH)), under: window
            ) {
                $0.bounds = CGRect(x: 0, y: offset, width: screenW, height: screenH)
                $0.clipsToBounds = true
            }
            scrollViews.append(ScrollView(id: scroll, maxOffset: CGPoint(x: 0, y: contentH - screenH)))
            for k in 0 ..< stacksPerScroll {
                let stack = try b.view(
                    CGRect(x: 0, y: Double(k) * (stackH + 20), width: screenW, height: stackH), under: scroll)
                for c in 0 ..< cardsPerStack {
                    let card = try b.view(
                        CGRect(x: 16, y: Double(c) * (cardH + cardGap), width: screenW - 32, height: cardH),
                        under: stack)
                    try b.view(CGRect(x: 8, y: 8, width: 104, height: 104), under: card, accessible: true) {
                        $0.accessibilityTraits = .image
                    }
                    try b.element(inContainer: CGRect(x: 120, y: 8, width: 220, height: 60), under: card) {
                        $0.accessibilityTraits = .staticText
                    }
                    try b.view(CGRect(x: 120, y: 76, width: 100, height: 36), under: card, accessible: true) {
                        $0.accessibilityTraits = .button
                    }
                }
            }
        }
        return GeneratedScreen(
            tree: b.tree, queryArea: CGRect(x: 0, y: 0, width: width, height: height),
            scrollViews: scrollViews)
    }
}
