import AXGeometry
import Foundation

/// `small-touch-target` under the audit's size profile (tree-format.md,
/// "Size profiles"), in points (iOS) or dp (Android):
///
/// - `platform`, iOS: Apple's 44 pt (Human Interface Guidelines), as the
///   width of the control's touch region (the largest circle inside where a
///   tap reaches it: its frame cut by its ancestors and by the views in
///   front that take the tap), to within the circle search's tolerance. A
///   control partly scrolled away is judged by its frame's shorter side,
///   the size it has once scrolled into view.
/// - `platform`, Android: ATF's `TouchTargetSizeCheck` (`androidATF`).
/// - `wcag22`: axe-core's `target-size` and `target-offset` (`wcag`).
struct TouchTargetAudit {
    let context: AuditContext

    var tree: ElementTree { context.tree }

    /// Whether the rule measures controls by the largest circle where a tap
    /// reaches them (Apple's `platform` profile), which the analysis must
    /// then search for every control (`Auditor.findings(_:options:screen:)`).
    static func measuresCircles(_ profile: AuditProfile, on platform: Platform) -> Bool {
        profile == .platform && platform != .android
    }

    func findings() throws(TreeError) -> [AuditFinding] {
        switch (context.options.profile, context.isAndroid) {
        case (.platform, false): return apple()
        case (.platform, true): return androidATF()
        case (.wcag22, _):
            do { return try wcag() } catch { throw TreeError(.geometry, "\(error)") }
        }
    }

    // MARK: Apple

    /// Every control narrower than 44 pt (or `--min-target`) where a tap
    /// reaches it.
    func apple() -> [AuditFinding] {
        let minimum = context.options.minimumTarget ?? 44
        var out: [AuditFinding] = []
        // A control whose path was not filled has no known touch region:
        // not judged (its `path-over-budget` finding says so).
        for (k, a) in context.analysis.elements.enumerated() where context.controls[k] && a.pathOverBudget == nil {
            guard !context.judgedPart(of: a.element).isNull else { continue }
            let frame = context.space.accessibilityFrame(of: a.element)
            let partly = context.isPartlyScrolledAway(a.element)
            let width = partly ? Double(min(frame.width, frame.height)) : 2 * a.touchTargetRadius
            // The circle search finds the radius to within its tolerance:
            // a target that close to the minimum is given the benefit.
            let box = a.deliverable.bounds
            let slack =
                partly || box.isNull
                ? 0
                : 2
                    * max(
                        ScreenAnalysis.circleTolerance,
                        Double(max(box.width, box.height)) * PolygonSet.inscribedCircleRelativeTolerance)
            guard (width + slack) / context.scale < minimum else { continue }
            let measured =
                a.deliverable.isEmpty
                ? "no tap reaches it at all"
                : "its touch region (where a tap reaches it) is \(context.size(width)) wide, the largest circle inside it"
            out.append(
                AuditFinding(
                    .smallTouchTarget, a.element,
                    "touch target too small: \(measured); Apple's minimum is \(Auditor.text(minimum)) × \(Auditor.text(minimum)) pt. Enlarge its frame (or its hit area, point(inside:with:)), or move what covers it",
                    region: a.deliverable.isEmpty ? nil : a.deliverable, points: a.suggested.map { [$0] } ?? []))
        }
        return out
    }

    // MARK: Android (ATF)

    /// ATF's `TouchTargetSizeCheck`, on bounds: every visible node that
    /// declares `click` or `longClick`, exposed or not. Its width and height
    /// in dp are each rounded (halves up) and held to their own minimum:
    /// 48 dp, or 32 dp along an axis where the node touches the screen's
    /// edge, and 32 dp both ways in an input-method window. Not judged when
    /// an ancestor that declares `scroll` reaches no further than the node
    /// on some side (ATF: the list may scroll it into a bigger place), nor
    /// when part of it is scrolled away. `info` instead of `warning` under a
    /// `WebView`, or under an ancestor that declares the same action, is not
    /// a `ListView` or `GridView`, and itself meets the minimums (ATF
    /// compares that ancestor's pixels with the dp minimum; taken here as a
    /// slip, and done in dp). What views in front cover is `covered`'s.
    func androidATF() -> [AuditFinding] {
        guard let talkBack = (context.rules as? AndroidRules)?.talkBack else { return [] }
        let minimum = context.options.minimumTarget ?? 48
        let edgeMinimum = context.options.minimumTarget.map { (32 * $0 / 48).rounded(.toNearestOrAwayFromZero) } ?? 32
        let screen = context.screen
        // Per node: its rounded size, and its minimums.
        func measure(_ n: NodeID) -> (w: Double, h: Double, minW: Double, minH: Double) {
            let b = context.space.accessibilityFrame(of: n)
            let w = (Double(b.width) / context.scale).rounded(.toNearestOrAwayFromZero)
            let h = (Double(b.height) / context.scale).rounded(.toNearestOrAwayFromZero)
            if Self.inInputMethodWindow(n, in: tree) { return (w, h, edgeMinimum, edgeMinimum) }
            let edgeX = b.minX == 0 || (context.screenKnown && b.maxX == screen.maxX)
            let edgeY = b.minY == 0 || (context.screenKnown && b.maxY == screen.maxY)
            return (w, h, edgeX ? edgeMinimum : minimum, edgeY ? edgeMinimum : minimum)
        }
        var out: [AuditFinding] = []
        for n in tree.preOrder where tree.isView(n) && talkBack.facts[n.index].contains(.visible) {
            let taps = tree.actions(of: n).intersection(NodeActions.tap)
            guard !taps.isEmpty else { continue }
            let m = measure(n)
            guard m.w < m.minW || m.h < m.minH else { continue }
            guard !context.judgedPart(of: n).isNull, !context.isPartlyScrolledAway(n) else { continue }
            let b = context.space.accessibilityFrame(of: n)
            var scrollsIt = false
            var lenient: NodeID?
            var a = tree.backLinks[n.index].parent
            while !a.isNone {
                let ab = context.space.accessibilityFrame(of: a)
                if tree.actions(of: a).contains(.scroll)
                    && (ab.minY >= b.minY || ab.minX >= b.minX || ab.maxY <= b.maxY || ab.maxX <= b.maxX)
                {
                    scrollsIt = true
                    break
                }
                let cls = AndroidClass(tree.className(of: a))
                if lenient == nil {
                    if cls.isWebView {
                        lenient = a
                    } else if !tree.actions(of: a).isDisjoint(with: taps) && !cls.isListOrGrid {
                        let am = measure(a)
                        if am.w >= am.minW && am.h >= am.minH { lenient = a }
                    }
                }
                a = tree.backLinks[a.index].parent
            }
            if scrollsIt { continue }
            var short: [String] = []
            if m.w < m.minW { short.append("width is \(Auditor.text(m.w)) dp (at least \(Auditor.text(m.minW)) dp)") }
            if m.h < m.minH { short.append("height is \(Auditor.text(m.h)) dp (at least \(Auditor.text(m.minH)) dp)") }
            let why = lenient.map {
                AndroidClass(tree.className(of: $0)).isWebView
                    ? "; it lies in a WebView (\(context.name($0))), whose page may size its targets otherwise"
                    : "; its clickable ancestor \(context.name($0)) is large enough and takes the taps around it"
            }
            out.append(
                AuditFinding(
                    .smallTouchTarget, n,
                    "touch target too small (as ATF's TouchTargetSizeCheck measures it): its \(short.joined(separator: " and its "))\(context.densityNote)\(why ?? ""). Enlarge it with padding or minWidth/minHeight, or extend its tap area with a TouchDelegate",
                    severity: lenient == nil ? .warning : .info, region: Region.rect(of: b)))
        }
        return out
    }

    /// Whether `n` lies in an input method's window: its window's package
    /// is a keyboard's (a dump names no window type; keyboards' packages
    /// say `inputmethod` or `keyboard`).
    static func inInputMethodWindow(_ n: NodeID, in tree: ElementTree) -> Bool {
        let w = TalkBackTree.windowTop(holding: n, in: tree)
        guard !w.isNone, let package = tree.packageName(of: w)?.lowercased() else { return false }
        return package.contains("inputmethod") || package.contains("keyboard")
    }

    // MARK: WCAG 2.2 (axe-core)

    /// One control's touch region for `wcag`, in size units.
    struct Target {
        let element: NodeID
        /// The touch region (screen units), cut to the judged part.
        let region: Region
        /// Its bounding box, in size units.
        let box: CGRect
        var judged: Bool
        var undersized = false
        var size = CGSize.zero
    }

    /// axe-core's `target-size` and `target-offset` (WCAG 2.2, 2.5.8): a
    /// control passes when both sides of its touch region's bounding box
    /// (or, where controls in front overlap it, of the largest rectangle of
    /// that box they do not overlap; one wholly under them is not judged)
    /// are at least 24 − 0.05; or when, from
    /// the centre of that bounding box, every other control's touch region
    /// is at least 12 away and every other undersized control's centre at
    /// least 24 away, each distance rounded to 0.1 with 0.05 tolerance (a
    /// tangent circle passes). Controls nested in each other are not each
    /// other's neighbours; links in a run of text (an iOS Link inside a
    /// StaticText or TextView) are not judged.
    func wcag() throws(GeometryError) -> [AuditFinding] {
        let minimum = context.options.minimumTarget ?? 24
        let scale = context.scale
        var targets: [Target] = []
        var builder: RegionBuilder?
        for (k, a) in context.analysis.elements.enumerated() where context.controls[k] {
            let part = context.judgedPart(of: a.element)
            guard !part.isNull, !a.deliverable.isEmpty else { continue }
            let region = try a.deliverable.cut(by: .rect(of: part), &builder)
            guard !region.isEmpty else { continue }
            let b = region.bounds
            let box = CGRect(x: b.minX / scale, y: b.minY / scale, width: b.width / scale, height: b.height / scale)
            let judged = !context.isPartlyScrolledAway(a.element) && !isLinkInText(a.element)
            targets.append(Target(element: a.element, region: region, box: box, judged: judged))
        }
        let index = PackedRTree(rects: targets.count) { targets[$0].box }
        func neighbours(_ k: Int, near box: CGRect) -> [Int] {
            var out: [Int] = []
            index.forEach(intersecting: box) { j in
                let j = Int(j)
                if j != k && !tree.isDescendant(targets[j].element, of: targets[k].element)
                    && !tree.isDescendant(targets[k].element, of: targets[j].element)
                {
                    out.append(j)
                }
                return true
            }
            return out
        }
        let tolerance = 0.05
        // Size: the box, or the largest part of it that no control in front
        // (later in pre-order) overlaps. One wholly under others is not
        // judged (axe-core leaves an obscured target for review).
        for k in targets.indices {
            let box = targets[k].box
            let overlapping = neighbours(k, near: box).filter { $0 > k }.map { targets[$0].box.intersection(box) }
                .filter { !$0.isNull && $0.width > 0 && $0.height > 0 }
            let size = overlapping.isEmpty ? box.size : Self.largestFreeRectangle(in: box, avoiding: overlapping).size
            targets[k].size = size
            targets[k].undersized =
                Double(size.width) < minimum - tolerance || Double(size.height) < minimum - tolerance
            if size.width <= 0 || size.height <= 0 { targets[k].judged = false }
        }
        func rounded(_ d: Double) -> Double { (d * 10).rounded() / 10 }
        var out: [AuditFinding] = []
        for k in targets.indices where targets[k].judged && targets[k].undersized {
            let t = targets[k]
            let centre = CGPoint(x: t.box.midX, y: t.box.midY)
            let reach = CGRect(x: centre.x - minimum, y: centre.y - minimum, width: 2 * minimum, height: 2 * minimum)
            var tooClose: NodeID?
            var closest = Double.infinity
            for j in neighbours(k, near: reach) {
                let o = targets[j]
                let toRegion = rounded(Self.distance(from: centre, to: o.region, scale: scale))
                var d = toRegion + tolerance >= minimum / 2 ? Double.infinity : toRegion
                if o.undersized {
                    let toCentre = rounded(Double(hypot(centre.x - o.box.midX, centre.y - o.box.midY)))
                    if toCentre + tolerance < minimum { d = min(d, toCentre) }
                }
                if d < closest {
                    closest = d
                    tooClose = o.element
                }
            }
            guard let neighbour = tooClose else { continue }
            let size = "\(Auditor.text(Double(t.size.width))) × \(Auditor.text(Double(t.size.height))) \(context.unit)"
            let fix =
                context.isAndroid
                ? "Make it at least \(Auditor.text(minimum)) × \(Auditor.text(minimum)) dp (padding, minWidth/minHeight), or space it from its neighbours"
                : "Make its frame at least \(Auditor.text(minimum)) × \(Auditor.text(minimum)) pt, or space it from its neighbours"
            out.append(
                AuditFinding(
                    .smallTouchTarget, t.element,
                    "touch target too small for WCAG 2.2 (2.5.8, as axe-core's target-size and target-offset measure it): \(size), under \(Auditor.text(minimum)) × \(Auditor.text(minimum)) \(context.unit), and a circle of \(Auditor.text(minimum / 2)) \(context.unit) around its centre meets \(context.name(neighbour)) or comes within \(Auditor.text(minimum)) \(context.unit) of its centre. \(fix)",
                    region: t.region, related: neighbour))
        }
        return out
    }

    /// Whether `e` is a link in a run of text: an iOS Link inside a
    /// StaticText or TextView.
    func isLinkInText(_ e: NodeID) -> Bool {
        guard !context.isAndroid else { return false }
        let isLink = tree.traits(of: e).contains(.link) || IOSSnapshotRules.type(of: e, in: tree) == "Link"
        guard isLink else { return false }
        var a = tree.backLinks[e.index].parent
        while !a.isNone {
            let type = IOSSnapshotRules.type(of: a, in: tree)
            if type == "StaticText" || type == "TextView" { return true }
            a = tree.backLinks[a.index].parent
        }
        return false
    }

    /// The distance, in size units, from `p` (size units) to `region`
    /// (screen units): 0 inside it, else to its nearest edge.
    static func distance(from p: CGPoint, to region: Region, scale: Double) -> Double {
        let q = CGPoint(x: p.x * scale, y: p.y * scale)
        if let r = region.asRect {
            let dx = max(r.minX - q.x, 0, q.x - r.maxX), dy = max(r.minY - q.y, 0, q.y - r.maxY)
            return Double(hypot(dx, dy)) / scale
        }
        if region.contains(q) { return 0 }
        var best = Double.infinity
        for polygon in region.polygonSet.polygons {
            for ring in polygon {
                for (a, b) in zip(ring, ring.dropFirst()) {
                    let ab = CGPoint(x: b.x - a.x, y: b.y - a.y)
                    let len2 = Double(ab.x * ab.x + ab.y * ab.y)
                    let t = len2 == 0 ? 0 : max(0, min(1, Double((q.x - a.x) * ab.x + (q.y - a.y) * ab.y) / len2))
                    let c = CGPoint(x: a.x + CGFloat(t) * ab.x, y: a.y + CGFloat(t) * ab.y)
                    best = min(best, Double(hypot(q.x - c.x, q.y - c.y)))
                }
            }
        }
        return best / scale
    }

    /// The largest-area rectangle inside `box` that overlaps none of
    /// `obstacles` (axe-core's largest unobscured area), over the grid
    /// their edges make. O(k⁵) for k obstacles; at most 16 are taken.
    static func largestFreeRectangle(in box: CGRect, avoiding obstacles: [CGRect]) -> CGRect {
        let rects = Array(obstacles.prefix(16))
        var xs = Set([box.minX, box.maxX]), ys = Set([box.minY, box.maxY])
        for r in rects {
            xs.formUnion([r.minX, r.maxX].filter { $0 > box.minX && $0 < box.maxX })
            ys.formUnion([r.minY, r.maxY].filter { $0 > box.minY && $0 < box.maxY })
        }
        let sx = xs.sorted(), sy = ys.sorted()
        var best = CGRect.zero
        for i in 0 ..< sx.count {
            for i2 in (i + 1) ..< sx.count {
                for j in 0 ..< sy.count {
                    for j2 in (j + 1) ..< sy.count {
                        let c = CGRect(x: sx[i], y: sy[j], width: sx[i2] - sx[i], height: sy[j2] - sy[j])
                        guard c.width * c.height > best.width * best.height else { continue }
                        if !rects.contains(where: { Region.boxesOverlap($0, c) }) { best = c }
                    }
                }
            }
        }
        return best
    }
}
