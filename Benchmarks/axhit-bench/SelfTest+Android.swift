import AXHit
import Foundation

extension SelfTest {
    /// The Android baselines (`NaiveHover` through `NaiveWalk`, and
    /// `NaiveTouch`) on small screens whose answers tree-format.md states
    /// ("Android": `hit(p)`, `touch(p)`), so that the yardstick the
    /// engine is guarded by is itself checked against the spec and not only
    /// against the engine. Each case: what it shows, and whether it held.
    static func androidCases() throws -> [(what: String, ok: Bool)] {
        var cases: [(String, Bool)] = []
        func label(_ text: String) -> (inout Node) -> Void { { $0.accessibilityLabel = text } }

        // An app window holding a clickable row (an icon, a title, a
        // button), a caption drawn over the row that is not part of it, an
        // empty overlay over a button, a disabled button over an enabled
        // one, and a button under a dialog window drawn above the app.
        var b = TreeBuilder(capacity: 16)
        b.platform(.android)
        let screen = try b.view(CGRect(x: 0, y: 0, width: 1000, height: 1000), under: .none)
        let app = try b.view(CGRect(x: 0, y: 0, width: 1000, height: 1000), under: screen) { $0.isWindow = true }
        let row = try b.view(CGRect(x: 0, y: 0, width: 1000, height: 200), under: app) {
            $0.actions = [.click, .focus]
        }
        try b.view(CGRect(x: 0, y: 0, width: 100, height: 100), under: row)  // an undescribed icon
        try b.view(CGRect(x: 200, y: 0, width: 400, height: 100), under: row, label("Title"))
        let more = try b.view(CGRect(x: 800, y: 0, width: 100, height: 100), under: row) {
            $0.accessibilityLabel = "More"
            $0.actions = .click
        }
        try b.view(CGRect(x: 0, y: 150, width: 300, height: 100), under: app, label("Caption"))
        let play = try b.view(CGRect(x: 0, y: 300, width: 200, height: 200), under: app) {
            $0.accessibilityLabel = "Play"
            $0.actions = .click
        }
        try b.view(CGRect(x: 0, y: 300, width: 200, height: 200), under: app)  // an empty overlay
        let on = try b.view(CGRect(x: 300, y: 300, width: 200, height: 200), under: app) {
            $0.accessibilityLabel = "On"
            $0.actions = .click
        }
        try b.view(CGRect(x: 300, y: 300, width: 200, height: 200), under: app) {
            $0.accessibilityLabel = "Off"
            $0.actions = .click
            $0.accessibilityTraits = .notEnabled
        }
        try b.view(CGRect(x: 0, y: 900, width: 1000, height: 100), under: app) {
            $0.accessibilityLabel = "Behind the dialog"
            $0.actions = .click
        }
        let dialog = try b.view(CGRect(x: 0, y: 800, width: 1000, height: 200), under: screen) { $0.isWindow = true }
        let message = try b.view(CGRect(x: 0, y: 0, width: 1000, height: 100), under: dialog, label("Dialog"))
        let tree = b.tree
        let space = ScreenSpace(tree)
        let hover = NaiveWalk(space)
        func hits(_ x: Double, _ y: Double, _ expected: NodeID?, _ what: String) {
            let got = hover.hit(CGPoint(x: x, y: y))
            let answer = got.map { tree.id(of: $0) } ?? "none"
            cases.append(("Android hit at (\(x), \(y)), \(what): \(answer)", got == expected))
        }
        hits(850, 50, more, "the deepest exposed node wins over the row holding it")
        hits(300, 50, row, "a title that is not exposed reports its row")
        hits(50, 50, row, "so does an undescribed icon")
        hits(50, 175, row, "a caption over the row gives way to the clickable row behind it")
        hits(50, 350, play, "an empty overlay lets the finger reach the button behind")
        hits(350, 350, on, "a disabled button reports but takes nothing: the one behind reports last")
        hits(510, 350, nil, "a point no node holds reports the window, which is not exposed")
        hits(50, 850, message, "the dialog's text")
        hits(50, 950, nil, "the dialog window does not pass the hover on to the app's button behind")

        // Touch: a tap the children pass goes to a node that consumes it.
        var t = TreeBuilder(capacity: 16)
        t.platform(.android)
        let root = try t.view(CGRect(x: 0, y: 0, width: 1000, height: 1000), under: .none) { $0.isWindow = true }
        let list = try t.view(CGRect(x: 0, y: 0, width: 1000, height: 400), under: root) {
            $0.className = "androidx.recyclerview.widget.RecyclerView"
        }
        let item = try t.view(CGRect(x: 0, y: 0, width: 1000, height: 100), under: list) { $0.actions = .click }
        let spinner = try t.view(CGRect(x: 0, y: 400, width: 200, height: 100), under: root) {
            $0.className = "android.widget.Spinner"
            $0.actions = .scroll
        }
        try t.view(CGRect(x: 0, y: 0, width: 100, height: 100), under: spinner)
        let seek = try t.view(CGRect(x: 0, y: 500, width: 200, height: 100), under: root) {
            $0.className = "com.example.MySeekBar"
        }
        try t.view(CGRect(x: 0, y: 600, width: 200, height: 100), under: root) {
            $0.actions = .scroll
        }
        let disabled = try t.view(CGRect(x: 0, y: 700, width: 200, height: 100), under: root) {
            $0.actions = .longClick
            $0.accessibilityTraits = .notEnabled
        }
        let touchTree = t.tree
        let touch = NaiveTouch(ScreenSpace(touchTree))
        func taps(_ x: Double, _ y: Double, _ expected: NodeID?, _ what: String) {
            let got = touch.touch(CGPoint(x: x, y: y))
            let answer = got.map { touchTree.id(of: $0) } ?? "none"
            cases.append(("Android touch at (\(x), \(y)), \(what): \(answer)", got == expected))
        }
        taps(50, 50, item, "a clickable item in a list takes the tap")
        taps(50, 250, list, "a list with a child takes a tap between its items, to scroll")
        taps(50, 450, nil, "a Spinner is no scroll container, though it declares scroll")
        taps(50, 550, seek, "a SeekBar subclass handles its own touches")
        taps(50, 650, nil, "a scroll container without a child passes the tap")
        taps(50, 750, disabled, "a long-clickable node takes it, enabled or not")
        return cases
    }
}
