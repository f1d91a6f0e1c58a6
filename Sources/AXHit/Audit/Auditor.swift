import Foundation

/// Runs every `AuditRule` over a `ScreenAnalysis`: one pass per element on
/// all cores, with the overlap and coverage rules answered through a packed
/// R-tree over the elements' frame regions (no all-pairs comparison).
///
/// Sizes are judged in the platform's unit (`PlatformRules`): touch targets
/// of 44 × 44 pt on iOS, 48 × 48 dp on Android, where the tree's pixels are
/// divided by the density (`screen.scale`, or inferred from the screen's
/// width and said so in the message).
public enum Auditor {
    /// At most this many overlaps per element are measured through GEOS
    /// (rects are measured exactly, all of them); the rest of a pile of
    /// rotated or path regions is left out of the count.
    public static let maximumOverlapsMeasured = 64
    /// Overlaps smaller than this (square points) are rounding, not ambiguity.
    public static let minimumOverlapArea = 1.0
    /// A frame region with less than this left uncovered (square points)
    /// counts as wholly covered.
    public static let coveredTolerance = 0.01
    /// Path area outside the frame below this (square points) is flattening noise.
    public static let pathStrayTolerance = 0.5

    /// Every finding, ordered by element (pre-order), then by rule.
    ///
    /// The screen is the tree's `screen.bounds`, or else the root's frame on
    /// screen.
    ///
    /// - Complexity: O(n log n) plus GEOS for the regions that are not
    ///   axis-aligned rects or that overlap.
    /// - Throws: `TreeError` naming the element when GEOS fails.
    public static func findings(_ analysis: ScreenAnalysis) throws(TreeError) -> [AuditFinding] {
        let elements = analysis.elements
        let index = PackedRTree(rects: elements.count) { elements[$0].frameRegion.bounds }
        let tree = analysis.tree
        let screen = tree.screenBounds ?? (tree.root.isNone ? .null : analysis.space.accessibilityFrame(of: tree.root))
        // One GEOS builder per chunk of elements.
        let results = parallelMap(
            elements.count, minimumChunk: 64,
            makeWorker: {
                Result { () throws(GeometryError) -> ElementAudit in
                    ElementAudit(analysis: analysis, index: index, screen: screen, builder: try RegionBuilder())
                }
            }
        ) { audit, k -> Result<[AuditFinding], TreeError> in
            audit.flatMap { audit in Result { try audit.findings(k) } }
                .mapError { TreeError(.geometry, "\($0)", node: tree.id(of: elements[k].element)) }
        }
        var all: [AuditFinding] = []
        for r in results { all += try r.get() }
        return all
    }

    /// A number for a message: at most two decimals, no trailing zeros.
    static func text(_ v: Double) -> String {
        let rounded = (v * 100).rounded() / 100
        // Huge values print as Swift does; Int64 would trap on them.
        guard rounded.isFinite, abs(rounded) < 1e15 else { return "\(v)" }
        if rounded == rounded.rounded() { return String(Int64(rounded)) }
        var s = String(format: "%.2f", rounded)
        while s.hasSuffix("0") { s.removeLast() }
        return s
    }

    static func text(_ p: CGPoint) -> String { "(\(text(Double(p.x))), \(text(Double(p.y))))" }

    static func text(_ r: CGRect) -> String {
        "[\(text(Double(r.minX))), \(text(Double(r.minY))), \(text(Double(r.width))), \(text(Double(r.height)))]"
    }
}

/// One worker's audit of single elements.
struct ElementAudit {
    let analysis: ScreenAnalysis
    let index: PackedRTree
    let screen: CGRect
    let builder: RegionBuilder

    var tree: ElementTree { analysis.tree }

    func name(_ id: NodeID) -> String { "\"\(tree.id(of: id))\"" }

    func findings(_ k: Int) throws(GeometryError) -> [AuditFinding] {
        let a = analysis.elements[k]
        let e = a.element
        var out: [AuditFinding] = []
        func add(
            _ rule: AuditRule, _ message: String, region: Region? = nil, points: [CGPoint] = [], related: NodeID? = nil
        ) {
            out.append(
                AuditFinding(
                    rule: rule, element: e, message: message, wkt: region?.wkt, points: points,
                    related: related, geometry: region))
        }
        let frame = analysis.space.accessibilityFrame(of: e)
        let rules = analysis.tester.rules

        // Empty bounds in a dump are a node the screen clipped away.
        if !(frame.width > 0 && frame.height > 0) && rules.emptyFrameMeansOffScreen {
            add(
                .offScreen,
                "its bounds \(Auditor.text(frame)) are empty: the dump clipped it away at the screen's edge, so it lies off the screen. Scroll it into view, or hide it from accessibility while it is off screen",
                points: [frame.origin])
            return out
        }
        // A forgotten frame explains everything else about the element: report it alone.
        if !(frame.width > 0 && frame.height > 0) {
            let what =
                frame == .zero
                ? "its accessibility frame is CGRectZero, the default for an accessibility element: the frame was never set"
                : "its accessibility frame \(Auditor.text(frame)) has no area"
            add(
                .zeroFrame,
                "\(what); \(rules.screenReader) cannot show or reach it. Set accessibilityFrame (or accessibilityFrameInContainerSpace) to the area it describes",
                points: [frame.origin])
            return out
        }

        // Screen.
        var whollyOff = false
        if !screen.isNull && screen.width > 0 && screen.height > 0 {
            let on = frame.intersection(screen)
            let onArea = on.isNull ? 0 : Double(on.width * on.height)
            let area = Double(frame.width * frame.height)
            if onArea <= 0 {
                whollyOff = true
                add(
                    .offScreen,
                    "its frame \(Auditor.text(frame)) lies wholly outside the screen \(Auditor.text(screen)): \(rules.screenReader) users can reach it only by swiping, and see nothing there. Remove it from the accessibility tree or bring it on screen",
                    region: Region.rect(of: frame))
            } else if onArea < area - 1e-9 * area {
                let off = try Region.rect(of: frame).subtracting([Region.rect(of: screen)], builder)
                add(
                    .partlyOffScreen,
                    "\(Auditor.text(100 * (1 - onArea / area)))% of its frame \(Auditor.text(frame)) lies outside the screen \(Auditor.text(screen)): \(rules.screenReader)'s cursor is drawn off screen. Clip the frame to the visible part",
                    region: off)
            }
        }

        // Activation.
        let suggestion =
            a.suggested.map { "; a point that works is \(Auditor.text($0)), set accessibilityActivationPoint there" }
            ?? "; no point of the element reaches it: move the views in front or the element"
        let suggestedPoints = a.suggested.map { [a.activationPoint, $0] } ?? [a.activationPoint]
        switch a.status {
        case .ok: break
        case .obstructed:
            let receiver = a.receiver.map(name) ?? "another view"
            add(
                .activationObstructed,
                "a double-tap at its activation point \(Auditor.text(a.activationPoint)) goes to \(receiver), not to the element\(suggestion)",
                region: a.deliverable.isEmpty ? nil : a.deliverable, points: suggestedPoints, related: a.receiver)
        case .lost:
            add(
                .activationLost,
                "a double-tap at its activation point \(Auditor.text(a.activationPoint)) reaches no view (outside every touchable view, or its views are hidden or have isUserInteractionEnabled off)\(suggestion)",
                region: a.deliverable.isEmpty ? nil : a.deliverable, points: suggestedPoints)
        }
        if a.outside {
            add(
                .activationOutsideShape,
                "its activation point \(Auditor.text(a.activationPoint)) lies outside its shape (cut by its ancestors' bounds); set accessibilityActivationPoint inside it\(a.suggested.map { ", e.g. \(Auditor.text($0))" } ?? "")",
                region: a.region, points: suggestedPoints)
        }

        // Touch target, on what a tap really reaches, in the platform's unit.
        let (scale, inferred) = rules.unitScale(of: tree)
        let unit = rules.sizeUnit, minimum = rules.minimumTouchTarget
        if rules.isInteractive(e, in: tree) && 2 * a.touchTargetRadius / scale < minimum {
            let size =
                a.deliverable.isEmpty
                ? "no tap reaches it at all"
                : "the largest circle a tap reaches it through is \(Auditor.text(2 * a.touchTargetRadius / scale)) \(unit) across"
            let density =
                scale == 1 && !inferred
                ? ""
                : " at \(Auditor.text(scale)) pixels per \(unit)\(inferred ? " (inferred from the screen's width; --density sets it)" : "")"
            add(
                .smallTouchTarget,
                "touch target too small: \(size) (\(Auditor.text(minimum)) \(unit) needed\(density), measured on the part of its shape that views in front leave reachable, not on its frame). Enlarge it or move what covers it",
                region: a.deliverable.isEmpty ? nil : a.deliverable, points: a.suggested.map { [$0] } ?? [])
        }

        // Touch exploration: coverage by later elements, and overlaps.
        let mine = a.frameRegion
        if mine.isEmpty {
            if !whollyOff {
                add(
                    .unreachable,
                    "its frame \(Auditor.text(frame)) lies wholly outside the bounds of an ancestor view, so touch exploration never lands on it. Move it inside its superview's bounds",
                    region: Region.rect(of: frame))
            }
        } else {
            var covers: [Region] = []
            var coverNames: [NodeID] = []
            index.forEach(intersecting: mine.bounds) { j in
                if Int(j) > k {
                    let other = analysis.elements[Int(j)]
                    if Region.boxesOverlap(other.frameRegion.bounds, mine.bounds) {
                        covers.append(other.frameRegion)
                        coverNames.append(other.element)
                    }
                }
                return true
            }
            if !covers.isEmpty {
                let left = try mine.uncoveredArea(by: covers, builder)
                if left <= Auditor.coveredTolerance {
                    let names =
                        coverNames.prefix(3).map(name).joined(separator: ", ") + (coverNames.count > 3 ? ", …" : "")
                    add(
                        .unreachable,
                        "it is wholly covered by elements in front (\(names)): touch exploration always finds those instead. Shrink or move them, or merge the elements",
                        region: mine, related: coverNames.first)
                }
                // One finding per element, naming its overlaps (a few, and
                // how many): 3,000 elements on one frame give 3,000 findings,
                // not 4.5 million pairs.
                var overlaps: [(element: NodeID, region: Region, area: Double)] = []
                var examined = 0
                for (other, region) in zip(coverNames, covers) {
                    // Exact overlaps of rects are cheap; polygons go through
                    // GEOS, so at most `maximumOverlapsMeasured` of them.
                    if region.asRect == nil || mine.asRect == nil {
                        if examined >= Auditor.maximumOverlapsMeasured { continue }
                        examined += 1
                    }
                    let shared = try mine.intersecting(region, builder)
                    if shared.area > Auditor.minimumOverlapArea { overlaps.append((other, shared, shared.area)) }
                }
                if let largest = overlaps.max(by: { $0.area < $1.area }) {
                    let area = "\(Auditor.text(largest.area)) \(rules.coordinateUnit)²"
                    let names = overlaps.prefix(3).map { name($0.element) }.joined(separator: ", ")
                    let more = overlaps.count > 3 ? " and \(overlaps.count - 3) more" : ""
                    let what =
                        overlaps.count == 1
                        ? "its frame overlaps \(names)'s by \(area): touch exploration there finds only \(names)"
                        : "its frame overlaps \(overlaps.count) elements in front (\(names)\(more)), by up to \(area): touch exploration there finds only them"
                    add(
                        .overlappingElements, "\(what). Make the frames disjoint", region: largest.region,
                        related: largest.element)
                }
            }
        }

        // Paths.
        if tree.has(.hasPath, e) {
            let stray = try a.shape.subtracting([Region.rect(of: frame)], builder)
            if stray.area > Auditor.pathStrayTolerance {
                add(
                    .pathOutsideFrame,
                    "its accessibilityPath reaches \(Auditor.text(stray.area)) \(rules.coordinateUnit)² outside its frame \(Auditor.text(frame)): \(rules.screenReader) draws and hit-tests the two differently. Make the frame hold the path",
                    region: stray)
            }
        }

        // Visibility.
        if !whollyOff && a.visibleFraction == 0 && !mine.isEmpty {
            add(
                .notVisible,
                "nothing of it is visible: it is clipped by an ancestor that clips, or lies under opaque views in front. Sighted \(rules.screenReader) users see the cursor around nothing",
                region: a.shape)
        }
        if rules.checksVisibilityFlag, let flag = tree.visibleInSnapshot(e), a.visibleFraction.isFinite {
            let seen = !whollyOff && a.visibleFraction > 0
            if !flag && seen {
                add(
                    .visibilityDisagrees,
                    "the dump marks it not visible (visible=\"false\"), but \(Auditor.text(100 * a.visibleFraction))% of it lies on the screen, unclipped: it is kept as visible (XCTest's flag is often wrong; --trust-visible would hide it)"
                )
            } else if flag && !seen && !whollyOff {
                add(
                    .visibilityDisagrees,
                    "the dump marks it visible, but nothing of it can be seen: it is clipped away or covered by views in front"
                )
            }
        }
        return out
    }
}
