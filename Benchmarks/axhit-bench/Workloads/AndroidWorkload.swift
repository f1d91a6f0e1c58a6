import AXHit
import Foundation

/// An Android screen as a uiautomator dump gives it, in pixels: windows
/// (scrolled, clipped) of lists holding clickable rows (the lists name no
/// class and declare no scroll, so neither TalkBack nor a tap takes them for
/// scroll containers); each row an icon (no label), a title (labelled, so
/// TalkBack reads it with the row and focuses the row alone), and a
/// clickable overflow button: nested clickable nodes, so that under
/// TalkBack's hover a point on the button answers the button, and on the
/// icon, the title or the row's background the row (the nearest exposed
/// node each reports). The same shape and node count as `nested` (four
/// nodes per row), so that its `hit-frame` row compares with iOS's in the
/// same run.
struct AndroidWorkload: Workload {
    let name = "android"
    let summary = "uiautomator-shaped rows (clickable rows with clickable buttons), pixels, TalkBack rules"

    func generate(elements: Int, seed: UInt64, options: WorkloadOptions) throws -> GeneratedScreen {
        var rng = SplitMix64(seed: seed)
        let rowsPerList = 10, listsPerWindow = 10
        let nodesPerRow = 4, nodesPerList = 1 + rowsPerList * nodesPerRow
        let nodesPerWindow = 1 + listsPerWindow * nodesPerList
        let windows = max(1, (elements - 1) / nodesPerWindow)
        let columns = max(1, Int(Double(windows).squareRoot().rounded(.up)))
        let rowsOfWindows = (windows + columns - 1) / columns
        let screenW = 1080.0, screenH = 2400.0, gap = 24.0
        let rowH = 320.0, rowGap = 24.0
        let listH = Double(rowsPerList) * (rowH + rowGap)
        let contentH = Double(listsPerWindow) * (listH + 48)
        let width = Double(columns) * (screenW + gap), height = Double(rowsOfWindows) * (screenH + gap)

        var b = TreeBuilder(capacity: 1 + windows * nodesPerWindow)
        b.platform(.android)
        var scrollViews: [ScrollView] = []
        let screen = try b.view(CGRect(x: 0, y: 0, width: width, height: height), under: .none)
        for w in 0 ..< windows {
            let origin = CGPoint(x: Double(w % columns) * (screenW + gap), y: Double(w / columns) * (screenH + gap))
            let offset = rng.uniform(0, contentH - screenH).rounded()
            // The app's window: a scrolling content view (uiautomator gives
            // scrolled content in screen pixels; an axhit/1 tree may keep the
            // scroll offset, as here).
            let window = try b.view(
                CGRect(origin: origin, size: CGSize(width: screenW, height: screenH)), under: screen
            ) {
                $0.bounds = CGRect(x: 0, y: offset, width: screenW, height: screenH)
                $0.clipsToBounds = true
                $0.isWindow = true
            }
            scrollViews.append(ScrollView(id: window, maxOffset: CGPoint(x: 0, y: contentH - screenH)))
            for k in 0 ..< listsPerWindow {
                let list = try b.view(
                    CGRect(x: 0, y: Double(k) * (listH + 48), width: screenW, height: listH), under: window)
                for r in 0 ..< rowsPerList {
                    let row = try b.view(
                        CGRect(x: 0, y: Double(r) * (rowH + rowGap), width: screenW, height: rowH),
                        under: list
                    ) {
                        $0.actions = [.click, .focus]
                    }
                    try b.view(CGRect(x: 42, y: 42, width: 236, height: 236), under: row)  // icon: no label
                    try b.view(CGRect(x: 320, y: 42, width: 560, height: 120), under: row) {
                        $0.accessibilityLabel = "Title"
                    }
                    try b.view(CGRect(x: 920, y: 110, width: 126, height: 126), under: row) {
                        $0.accessibilityLabel = "More options"
                        $0.actions = .click
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
