import AXGeometry
import Foundation

/// One worker's audit of single exposed elements: `off-screen`,
/// `zero-size`, the activation rules, `covered` and `unreachable`,
/// `visibility-disagrees` and `not-visible` (tree-format.md, "Audits").
/// The size rules, which compare controls with each other, are
/// `TouchTargetAudit`'s; `duplicate-bounds` is `DuplicateBoundsCheck`'s.
struct ElementAudit {
    let context: AuditContext
    let builder: RegionBuilder

    var tree: ElementTree { context.tree }
    var rules: any PlatformRules { context.rules }

    func findings(_ k: Int) throws(GeometryError) -> [AuditFinding] {
        let a = context.analysis.elements[k]
        let e = a.element
        let frame = context.space.accessibilityFrame(of: e)
        let scrolls = context.scrolls[e.index]

        // zero-size: a frame with no area explains everything else about
        // the element, so it is reported alone (iOS: on Android such a node
        // is not visible, so not exposed). One at a point a scroll would
        // bring into view is judged there.
        guard frame.width > 0 && frame.height > 0 else {
            if context.awayAbove[e.index] { return [] }
            if scrolls && !context.scrollWindows[e.index].insetBy(dx: -1e-9, dy: -1e-9).contains(frame.origin) {
                return []
            }
            let what =
                frame == .zero
                ? "its accessibility frame is CGRectZero, the default of an accessibility element: the frame was never set"
                : "its \(context.frameWord) \(context.rect(frame)) has no area"
            return [
                AuditFinding(
                    .zeroSize, e,
                    "\(what); \(rules.screenReader) cannot draw its cursor or find it by touch. Give it the frame of what it describes (accessibilityFrame, or accessibilityFrameInContainerSpace)",
                    points: [frame.origin])
            ]
        }

        // Scrolled away, wholly: not judged. Off the screen with no scroll
        // container: off-screen, alone (it explains a lost tap and the rest).
        let part = context.judgedPart(of: e)
        if part.isNull {
            if scrolls || !context.screenKnown { return [] }
            let fix =
                context.isAndroid
                ? "Bring it on screen, or take it out of the accessibility tree while it is away (View.GONE, or importantForAccessibility=\"noHideDescendants\" on its container)"
                : "Bring it on screen, or hide it from accessibility while it is away (accessibilityElementsHidden on its container, or isAccessibilityElement = false)"
            return [
                AuditFinding(
                    .offScreen, e,
                    "its \(context.frameWord) \(context.rect(frame)) lies wholly outside the screen \(context.rect(context.screen)), and no scroll container holds it: \(rules.screenReader) users reach it by swiping and see nothing there. \(fix)",
                    region: Region.rect(of: frame))
            ]
        }
        let partlyAway = context.isPartlyScrolledAway(e)
        // A point of the part a scroll would bring into view tells nothing.
        func judged(_ p: CGPoint) -> Bool {
            !partlyAway || (p.x >= part.minX && p.x <= part.maxX && p.y >= part.minY && p.y <= part.maxY)
        }

        var out: [AuditFinding] = []
        if let over = a.pathOverBudget {
            // Once, whatever else is or is not judged without the fill.
            out.append(
                AuditFinding(
                    .pathOverBudget, e,
                    "its accessibilityPath is not judged exactly: \(over). It is judged by its \(context.frameWord), its activation and its path's winding test; its touch-target size and how much of it is drawn are not judged. Simplify the path"
                ))
        }
        if context.controls[k] && judged(a.activationPoint) { out += activation(a) }
        // Without the fill, the path's own winding test says where it is.
        let inShape =
            a.pathOverBudget == nil
            ? a.shape.contains(a.activationPoint)
            : context.analysis.tester.shapeRegionContains(e, a.activationPoint, cutByAncestors: false)
        if rules.viewsCoverWhatIsBehind && judged(a.activationPoint) && !inShape {
            out.append(
                AuditFinding(
                    .activationOutsideShape, e,
                    "its activation point \(Auditor.text(a.activationPoint)) lies outside its own shape (its accessibilityPath, or its bounds): VoiceOver's double-tap lands off the element. Set accessibilityActivationPoint inside it\(a.suggested.map { ", e.g. \(Auditor.text($0))" } ?? "")",
                    region: a.pathOverBudget == nil ? a.shape : nil,
                    points: [a.activationPoint] + (a.suggested.map { [$0] } ?? [])))
        }
        out += try coverage(k, part: part)

        if rules.checksVisibilityFlag, let flag = tree.visibleInSnapshot(e), a.visibleFraction.isFinite {
            let seen = a.visibleFraction > 0
            if !flag && seen {
                out.append(
                    AuditFinding(
                        .visibilityDisagrees, e,
                        "the dump marks it not visible (visible=\"false\"), but \(Auditor.text(100 * a.visibleFraction))% of it lies on the screen, unclipped: it is kept as visible (XCTest's flag is often wrong; --trust-visible would hide it)"
                    ))
            } else if flag && !seen {
                out.append(
                    AuditFinding(
                        .visibilityDisagrees, e,
                        "the dump marks it visible, but nothing of it lies on the screen unclipped"))
            }
        }
        if rules.viewsCoverWhatIsBehind && !partlyAway && a.visibleFraction.isFinite && a.visibleFraction < 0.5 {
            out.append(
                AuditFinding(
                    .notVisible, e,
                    "only \(Auditor.text(100 * a.visibleFraction))% of it is drawn: the rest is clipped (clipsToBounds, the screen) or under opaque views in front, so sighted VoiceOver users see the cursor around little or nothing. Show what it describes, or hide it from accessibility",
                    region: a.visible))
        }
        return out
    }

    // MARK: Activation

    /// `activation-obstructed` and `activation-lost`, in the platform's terms.
    func activation(_ a: ElementAnalysis) -> [AuditFinding] {
        let e = a.element
        let at = Auditor.text(a.activationPoint)
        let points = [a.activationPoint] + (a.suggested.map { [$0] } ?? [])
        let region = a.deliverable.isEmpty ? nil : a.deliverable
        // No suggestion because the path was not filled says nothing of
        // where a tap would reach it.
        let unknown = a.pathOverBudget != nil
        let why: String
        let fix: String
        switch (rules.touchModel, context.isAndroid) {
        case (_, true):
            let declares =
                tree.actions(of: e).contains(.click)
                ? "it is disabled" : "it declares no click action (only a long click, or none)"
            why =
                "TalkBack cannot send it the click action, since \(declares), so a double-tap is a tap at the centre of its bounds \(at)"
            fix =
                "Make it an enabled, clickable view (setOnClickListener) so that TalkBack sends the click action"
                + (a.suggested.map { ", or move what takes the tap; a tap at \(Auditor.text($0)) reaches it" } ?? "")
        case (.hittableElement, _):
            why = "XCUITest taps it at its activation point \(at)"
            fix =
                a.suggested.map { "Set accessibilityActivationPoint to a point it owns, such as \(Auditor.text($0))" }
                ?? (unknown
                    ? "Set accessibilityActivationPoint to a point it owns (its path is too complex to find one)"
                    : "Move the elements in front of it, or the element: no point of it takes a tap")
        default:
            why = "VoiceOver's double-tap is delivered at its activation point \(at)"
            fix =
                a.suggested.map { "Set accessibilityActivationPoint to \(Auditor.text($0)), where a tap reaches it" }
                ?? (unknown
                    ? "Set accessibilityActivationPoint to a point where a tap reaches it (its path is too complex to find one)"
                    : "Move the views in front of it, or the element: no point of it reaches it")
        }
        switch a.status {
        case .ok:
            return []
        case .obstructed:
            let receiver = a.receiver.map(context.name) ?? "another node"
            return [
                AuditFinding(
                    .activationObstructed, e, "\(why), where \(receiver) takes it instead. \(fix)", region: region,
                    points: points, related: a.receiver)
            ]
        case .lost:
            // A node that declares click is activated by the click action,
            // with no point involved: never lost (tree-format.md, "Audits").
            if context.isAndroid && tree.actions(of: e).contains(.click) { return [] }
            let nothing: String
            switch rules.touchModel {
            case .viewHitTest:
                nothing =
                    "no view takes it (the point is outside every touchable view, or its views are hidden or have isUserInteractionEnabled off)"
            case .hittableElement: nothing = "no element is there to take it"
            case .consumingNode: nothing = "no node consumes it"
            }
            return [
                AuditFinding(.activationLost, e, "\(why), where \(nothing). \(fix)", region: region, points: points)
            ]
        }
    }

    // MARK: Touch exploration

    /// `unreachable` and `covered` for element `k`, on `part` (its frame's
    /// judged part).
    func coverage(_ k: Int, part: CGRect) throws(GeometryError) -> [AuditFinding] {
        rules.exposedHidesSubtree ? try coverageByFrames(k, part: part) : try coverageByHover(k, part: part)
    }

    /// VoiceOver: `hit` answers the last exposed element in pre-order whose
    /// frame region (cut by its ancestors' bounds) holds the point, and
    /// exposed elements never nest, so what covers an element is exactly
    /// the frame regions of the elements after it.
    func coverageByFrames(_ k: Int, part: CGRect) throws(GeometryError) -> [AuditFinding] {
        let elements = context.analysis.elements
        let mine = try elements[k].frameRegion.intersecting(.rect(of: part), builder)
        guard !mine.isEmpty else { return [] }
        var covers: [(element: NodeID, region: Region)] = []
        context.elementIndex.forEach(intersecting: mine.bounds) { j in
            if Int(j) > k && Region.boxesOverlap(elements[Int(j)].frameRegion.bounds, mine.bounds) {
                covers.append((elements[Int(j)].element, elements[Int(j)].frameRegion))
            }
            return true
        }
        guard !covers.isEmpty else { return [] }
        let e = elements[k].element
        let left = try mine.uncoveredArea(by: covers.map(\.region), builder)
        if left <= Auditor.coveredTolerance {
            return [unreachable(e, by: covers.map(\.element), region: mine)]
        }
        var parts: [(element: NodeID, region: Region)] = []
        for c in covers {
            let shared = try mine.intersecting(c.region, builder)
            if !shared.isEmpty { parts.append((c.element, shared)) }
        }
        return try covered(e, parts: parts)
    }

    /// TalkBack: `hit` is the hover dispatch, whose answer changes only
    /// across an edge of a node's bounds. The element's judged part is cut
    /// into the cells between the edges of the nodes that meet it, and the
    /// hover asked once per cell; a cell answered by the element or a
    /// descendant is its own, one answered by an ancestor or by nothing is
    /// no one's fault, and any other answer covers it. Only the cells
    /// inside a *stranger*'s box (a node neither the element's ancestor nor
    /// its descendant) are asked: elsewhere the hover reaches the element
    /// and only its own subtree can report, so the cell is its own; and
    /// cells held by the same set of boxes are asked once, since the
    /// hover's answer depends on nothing else. Exact where views do not
    /// turn (every dump).
    func coverageByHover(_ k: Int, part: CGRect) throws(GeometryError) -> [AuditFinding] {
        let a = context.analysis.elements[k]
        let e = a.element
        let box = a.frameRegion.bounds.intersection(part)
        guard !box.isNull, box.width > 0, box.height > 0 else { return [] }
        var xs: Set<CGFloat> = [box.minX, box.maxX], ys: Set<CGFloat> = [box.minY, box.maxY]
        var strangers: [CGRect] = []
        context.nodeIndex.forEach(intersecting: box) { j in
            let (n, b) = context.nodeBoxes[Int(j)]
            guard Region.boxesOverlap(b, box) else { return true }
            if n != e && !tree.isDescendant(n, of: e) && !tree.isDescendant(e, of: n) { strangers.append(b) }
            for x in [b.minX, b.maxX] where x > box.minX && x < box.maxX { xs.insert(x) }
            for y in [b.minY, b.maxY] where y > box.minY && y < box.maxY { ys.insert(y) }
            return true
        }
        guard !strangers.isEmpty else { return [] }
        let sx = xs.sorted(), sy = ys.sorted()
        let columns = sx.count - 1
        guard columns * (sy.count - 1) <= Auditor.coverageCellBudget else { return [] }
        // The cells inside some stranger's box: every box edge is a cell
        // edge, so each box covers whole cells, found by binary search.
        var inStranger = [Bool](repeating: false, count: columns * (sy.count - 1))
        for b in strangers {
            let i0 = sx.firstIndex(notBelow: max(b.minX, box.minX))
            let i1 = sx.firstIndex(notBelow: min(b.maxX, box.maxX))
            let j0 = sy.firstIndex(notBelow: max(b.minY, box.minY))
            let j1 = sy.firstIndex(notBelow: min(b.maxY, box.maxY))
            for j in j0 ..< max(j0, j1) {
                for i in i0 ..< max(i0, i1) { inStranger[j * columns + i] = true }
            }
        }
        var scratch = HitScratch()
        var holders: [Int32] = []
        var answers: [[Int32]: NodeID?] = [:]
        var own = 0
        var faces: [[[CGPoint]]] = []
        var takers: [NodeID] = []
        var area: [NodeID: Double] = [:]
        for j in 0 ..< sy.count - 1 {
            for i in 0 ..< sx.count - 1 {
                guard inStranger[j * columns + i] else {
                    own += 1
                    continue
                }
                let p = CGPoint(x: (sx[i] + sx[i + 1]) / 2, y: (sy[j] + sy[j + 1]) / 2)
                // The hover's answer depends only on which boxes hold the
                // point: cells held by the same boxes share one query.
                holders.removeAll(keepingCapacity: true)
                context.nodeIndex.forEach(intersecting: CGRect(x: p.x, y: p.y, width: 0, height: 0)) { n in
                    if context.nodeBoxes[Int(n)].box.containsClosedOpen(p) { holders.append(n) }
                    return true
                }
                let answer: NodeID?
                if let known = answers[holders] {
                    answer = known
                } else {
                    answer = context.analysis.tester.hit(p, scratch: &scratch)
                    answers[holders] = .some(answer)
                }
                guard let answer else { continue }
                if answer == e || tree.isDescendant(answer, of: e) {
                    own += 1
                    continue
                }
                if tree.isDescendant(e, of: answer) { continue }
                faces.append([
                    [
                        CGPoint(x: sx[i], y: sy[j]), CGPoint(x: sx[i + 1], y: sy[j]),
                        CGPoint(x: sx[i + 1], y: sy[j + 1]), CGPoint(x: sx[i], y: sy[j + 1]),
                        CGPoint(x: sx[i], y: sy[j]),
                    ]
                ])
                if area[answer] == nil { takers.append(answer) }
                area[answer, default: 0] += Double((sx[i + 1] - sx[i]) * (sy[j + 1] - sy[j]))
            }
        }
        guard !takers.isEmpty else { return [] }
        if own == 0 { return [unreachable(e, by: takers, region: .rect(of: box))] }
        // The cells are disjoint: dissolving them is their union, no GEOS;
        // the cells' corners along straight edges go (the finding's region
        // reads as its outline).
        let union = Region.polygons(Region.withoutStraightCorners(PolygonSet.dissolving(faces: faces)))
        return covered(e, union: union, by: takers.sorted { area[$0, default: 0] > area[$1, default: 0] })
    }

    func unreachable(_ e: NodeID, by covers: [NodeID], region: Region) -> AuditFinding {
        let names = covers.prefix(3).map(context.name).joined(separator: ", ") + (covers.count > 3 ? ", …" : "")
        let fix =
            context.isAndroid
            ? "Move or shrink them, or make the element their descendant (one focusable node per area)"
            : "Move or shrink them, or merge the elements"
        return AuditFinding(
            .unreachable, e,
            "touch exploration never finds it: elements that are not its descendants (\(names)) cover all of it, so \(rules.screenReader) focuses them wherever a finger lands. \(fix)",
            region: region, related: covers.first)
    }

    /// `covered` when the parts of the element that others answer are, put
    /// together, at least `Auditor.minimumCoveredWidth` wide (iOS: `parts`,
    /// each another element's share).
    func covered(_ e: NodeID, parts: [(element: NodeID, region: Region)]) throws(GeometryError) -> [AuditFinding] {
        guard !parts.isEmpty else { return [] }
        let union = try Region.union(parts.map(\.region), builder)
        let sorted = parts.sorted { $0.region.area > $1.region.area }.map(\.element)
        return covered(e, union: union, by: sorted)
    }

    /// `covered` for the part `union` of the element that `takers` (largest
    /// share first) answer, when it is at least `Auditor.minimumCoveredWidth` wide.
    func covered(_ e: NodeID, union: Region, by takers: [NodeID]) -> [AuditFinding] {
        // Most covered parts are plainly wide or plainly hairlines: ask
        // first, and measure (for the message) only what is reported.
        let needed = Auditor.minimumCoveredWidth * context.scale - 1e-9
        guard union.holdsCircle(radius: needed / 2, tolerance: ScreenAnalysis.circleTolerance) else { return [] }
        let width = max(
            needed, 2 * (union.largestInscribedCircle(tolerance: ScreenAnalysis.circleTolerance)?.radius ?? 0))
        let names = takers.prefix(3).map(context.name).joined(separator: ", ")
        let more = takers.count > 3 ? " and \(takers.count - 3) more" : ""
        let fix =
            context.isAndroid
            ? "Make their bounds disjoint, or nest the one in the other"
            : "Make their frames disjoint, or nest the one in the other"
        return [
            AuditFinding(
                .covered, e,
                "over a part of it \(context.size(width)) wide (\(Auditor.text(union.area / (context.scale * context.scale))) \(context.unit)² in all), touch exploration finds \(names)\(more) instead, which \(takers.count == 1 ? "is" : "are") neither its ancestor nor its descendant. \(fix)",
                region: union, related: takers.first)
        ]
    }
}
