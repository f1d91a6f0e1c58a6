import AXGeometry
import Foundation

/// What every check of one audit shares: the analysis, the options, the
/// screen, the unit, and the audit's terms (tree-format.md, "Audits"):
/// which elements are controls and what of each a scroll would bring into
/// view.
struct AuditContext: Sendable {
    let analysis: ScreenAnalysis
    let options: AuditOptions
    /// The screen (`screen.bounds`, else the root's frame); `.infinite`
    /// when neither is known, so that nothing is off it.
    let screen: CGRect
    let screenKnown: Bool
    /// Coordinate units per size unit (Android: the density), and whether
    /// it was inferred.
    let scale: Double
    let scaleInferred: Bool
    /// Per slot: whether a scroll container is among the node's proper
    /// ancestors, and the screen cut by the frames of all of them (the
    /// screen alone when there is none).
    let scrolls: [Bool]
    let scrollWindows: [CGRect]
    /// Per slot: whether an ancestor below a scroll container is wholly
    /// scrolled away (a page of a pager off to the side): then so is the
    /// node, whatever its own frame says, since the screen reader scrolls
    /// that ancestor into view to reach it.
    let awayAbove: [Bool]
    /// Per exposed element (as `analysis.elements`): whether it is a control.
    let controls: [Bool]
    /// The exposed elements' frame regions' boxes.
    let elementIndex: PackedRTree
    /// (TalkBack's touch exploration) every node's box on the screen and an
    /// index over them, for the cells where the hover's answer may change.
    let nodeBoxes: [(node: NodeID, box: CGRect)]
    let nodeIndex: PackedRTree

    var tree: ElementTree { analysis.tree }
    var space: ScreenSpace { analysis.space }
    var rules: any PlatformRules { analysis.tester.rules }
    var unit: String { rules.sizeUnit }
    var isAndroid: Bool { rules.platform == .android }

    init(_ analysis: ScreenAnalysis, options: AuditOptions) {
        self.analysis = analysis
        self.options = options
        let tree = analysis.tree, space = analysis.space, rules = analysis.tester.rules
        let known = tree.screenBounds ?? (tree.root.isNone ? nil : space.accessibilityFrame(of: tree.root))
        if let known, !known.isNull, known.width > 0, known.height > 0 {
            screen = known
            screenKnown = true
        } else {
            screen = .infinite
            screenKnown = false
        }
        (scale, scaleInferred) = rules.unitScale(of: tree)
        var scrolls = [Bool](repeating: false, count: tree.capacity)
        var windows = [CGRect](repeating: screen, count: tree.capacity)
        var away = [Bool](repeating: false, count: tree.capacity)
        for n in tree.preOrder {
            let p = tree.backLinks[n.index].parent
            guard !p.isNone else { continue }
            scrolls[n.index] = scrolls[p.index]
            windows[n.index] = windows[p.index]
            let pf = space.accessibilityFrame(of: p)
            // A parent with area below a scroll container, none of it in view.
            let parentAway =
                scrolls[p.index] && pf.width > 0 && pf.height > 0
                && !Region.boxesOverlap(pf, windows[p.index])
            away[n.index] = away[p.index] || parentAway
            if rules.isScrollContainer(p, in: tree) {
                scrolls[n.index] = true
                windows[n.index] = windows[p.index].intersection(pf)
            }
        }
        self.scrolls = scrolls
        scrollWindows = windows
        awayAbove = away
        let elements = analysis.elements
        controls = elements.map { rules.isControl($0.element, in: tree) }
        elementIndex = PackedRTree(rects: elements.count) { elements[$0].frameRegion.bounds }
        var boxes: [(node: NodeID, box: CGRect)] = []
        if !rules.exposedHidesSubtree {
            for n in tree.preOrder {
                let box = space.accessibilityFrame(of: n)
                if !box.isNull && box.width > 0 && box.height > 0 { boxes.append((n, box)) }
            }
        }
        nodeBoxes = boxes
        nodeIndex = PackedRTree(rects: boxes.count) { boxes[$0].box }
    }

    /// The part of `e`'s frame that is judged: its frame cut by the screen
    /// and by the frames of its scroll containers. Null when nothing is left.
    func judgedPart(of e: NodeID) -> CGRect {
        if awayAbove[e.index] { return .null }
        let frame = space.accessibilityFrame(of: e)
        let part = frame.intersection(scrollWindows[e.index])
        return part.isNull || !(part.width > 0 && part.height > 0) ? .null : part
    }

    /// Whether part of `e`'s frame is scrolled away: it has a scroll
    /// container above it and its frame reaches out of the screen or of one
    /// of them.
    func isPartlyScrolledAway(_ e: NodeID) -> Bool {
        guard scrolls[e.index] else { return false }
        let frame = space.accessibilityFrame(of: e)
        return !scrollWindows[e.index].contains(frame)
    }

    // MARK: Words

    /// `"ID"`, as messages quote nodes.
    func name(_ n: NodeID) -> String { "\"\(tree.id(of: n))\"" }

    /// The platform's word for an element's rect: frame (iOS) or bounds.
    var frameWord: String { isAndroid ? "bounds" : "frame" }

    /// A length in the tree's units, in the size unit: `30 dp`.
    func size(_ v: Double) -> String { "\(Auditor.text(v / scale)) \(unit)" }

    /// A rect in the tree's units, as `[x, y, w, h]` (Android: pixels, as
    /// the dump gives them).
    func rect(_ r: CGRect) -> String { Auditor.text(r) + (isAndroid ? " px" : "") }

    /// "at 2.625 pixels per dp (inferred ...)" where the density matters.
    var densityNote: String {
        guard isAndroid else { return "" }
        let inferred = scaleInferred ? ", inferred from the screen's width; --density sets it" : ""
        // %g: the density as written (2.625), not rounded to two decimals.
        return " (at \(String(format: "%g", scale)) px per dp\(inferred))"
    }
}
