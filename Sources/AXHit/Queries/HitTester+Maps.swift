import AXGeometry
import Foundation

/// Where on the screen one node answers a question (`HitTester.focusMap()`,
/// `touchMap()`): exact polygons in screen coordinates.
public struct MapRegion: Sendable, Hashable {
    /// The element `hit` answers, or the node `touch` delivers to, there.
    public let node: NodeID
    /// The region: each polygon its exterior ring, then its holes; every
    /// ring closed (its first point repeated last). Polygons do not overlap.
    public let polygons: [[[CGPoint]]]

    /// The region as well-known text (`POLYGON ((x y, ...))`, or a
    /// `MULTIPOLYGON`), numbers in their shortest exact form. O(vertices).
    public var wkt: String {
        func ring(_ r: [CGPoint]) -> String {
            "(" + r.map { "\(Self.number(Double($0.x))) \(Self.number(Double($0.y)))" }.joined(separator: ", ") + ")"
        }
        func polygon(_ p: [[CGPoint]]) -> String { "(" + p.map(ring).joined(separator: ", ") + ")" }
        switch polygons.count {
        case 0: return "POLYGON EMPTY"
        case 1: return "POLYGON " + polygon(polygons[0])
        default: return "MULTIPOLYGON (" + polygons.map(polygon).joined(separator: ", ") + ")"
        }
    }

    /// Integral values as integers, others as Swift's shortest round-trip form.
    static func number(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e18 { return String(Int64(v)) }
        return v.description
    }

    /// Whether `p` lies inside (even-odd over every ring; a point on an
    /// edge may go either way). O(vertices).
    public func contains(_ p: CGPoint) -> Bool {
        var inside = false
        for polygon in polygons { for ring in polygon where Region.ring(ring, holds: p) { inside.toggle() } }
        return inside
    }

    /// The enclosed area: exteriors less holes. O(vertices).
    public var area: Double {
        func ringArea(_ ring: [CGPoint]) -> Double {
            abs(zip(ring, ring.dropFirst()).reduce(0.0) { $0 + Double($1.0.x * $1.1.y - $1.1.x * $1.0.y) }) / 2
        }
        return polygons.reduce(0.0) { total, polygon in
            total + ringArea(polygon[0]) - polygon.dropFirst().reduce(0.0) { $0 + ringArea($1) }
        }
    }
}

/// Whole-screen maps: for each element, where a finger focuses it; for each
/// view, where a tap reaches it (tree-format.md, "Touch exploration and
/// maps"). Both are "last in pre-order wins" (`Ownership`) over the
/// platform's candidates, each owning its region minus everything in front.
extension HitTester {
    /// For each exposed element that owns some of the screen, the region
    /// where `hit` (frame policy) answers it, in pre-order: VoiceOver's
    /// frames cut by every ancestor's bounds; TalkBack's nodes by their
    /// bounds, each final window shadowing what is behind it.
    ///
    /// - Complexity: O(n) to place the candidates, then per candidate the
    ///   regions in front that meet it (an R-tree query): rect arithmetic
    ///   when all are rects, else GEOS; on all cores.
    /// - Throws: `TreeError` (`.geometry`) naming the node when GEOS fails.
    public func focusMap() throws(TreeError) -> [MapRegion] {
        try map(touch: false)
    }

    /// For each node a tap can reach, the region where `touch` answers it,
    /// in pre-order: UIKit's touchable views by their bounds cut by their
    /// ancestors' (an iOS snapshot: the focus map, as XCUITest taps the
    /// element `hit` answers; Android: the nodes that consume a tap). These
    /// are the exact polygons AccessibilitySnapshot draws by hit-testing
    /// every pixel.
    ///
    /// - Complexity, throws: as `focusMap()`.
    public func touchMap() throws(TreeError) -> [MapRegion] {
        try map(touch: true)
    }

    private func map(touch: Bool) throws(TreeError) -> [MapRegion] {
        if !touch && !exposedHidesSubtree { return try hoverFocusMap() }
        let space = ScreenSpace(tree)
        let ownership = try mapOwnership(touch: touch && rules.touchModel != .hittableElement, space: space)
        let entries = ownership.entries.filter { !$0.node.isNone }
        let results = parallelMap(entries.count, minimumChunk: 32, makeWorker: { RegionBuilder?.none }) { builder, k in
            Result { () throws(GeometryError) -> [[[CGPoint]]] in
                try ownership.exactOwnedPolygons(of: entries[k].node, in: tree, &builder)
            }
        }
        var out: [MapRegion] = []
        for (entry, result) in zip(entries, results) {
            switch result {
            case let .success(polygons):
                if !polygons.isEmpty { out.append(MapRegion(node: entry.node, polygons: polygons)) }
            case let .failure(error): throw TreeError(.geometry, "\(error)", node: tree.id(of: entry.node))
            }
        }
        return out
    }

    /// The candidates of a map (and barriers), each with its region cut by
    /// its ancestors' bounds: `touch` for UIKit's or Android's touch, else
    /// `hit`'s (frame policy).
    private func mapOwnership(touch: Bool, space: ScreenSpace) throws(TreeError) -> Ownership {
        var entries: [Ownership.Entry] = []
        // Per view: its bounds quad cut by its ancestors' (an element node: its container's).
        var reach = [Region](repeating: .empty, count: tree.capacity)
        var refused = [Bool](repeating: false, count: tree.capacity)
        var builder: RegionBuilder?
        var position: Int32 = 0
        for n in tree.preOrder {
            defer { position += 1 }
            let i = n.index, parent = tree.backLinks[n.index].parent
            let above = parent.isNone ? nil : reach[parent.index]
            do {
                if tree.isView(n) {
                    let quad =
                        space.resolved[i].contains(.invertible)
                        ? Region.quad(tree.bounds(of: n), space.toScreen[i]) : .empty
                    reach[i] = try quad.cut(by: above, &builder)
                    refused[i] = rules.refusesTouch(n, in: tree) || (!parent.isNone && refused[parent.index])
                } else {
                    reach[i] = above ?? .empty
                }
                let region: Region?
                if touch {
                    let takes = rules.touchModel == .viewHitTest || rules.consumesTap(n, in: tree)
                    region = tree.isView(n) && !refused[i] && takes ? reach[i] : nil
                } else if space.isExposed(n) {
                    if tree.isView(n) && !exposedHidesSubtree {
                        region = reach[i]
                    } else {
                        // A frame, cut by the ancestors' bounds only.
                        let frame = Region.rect(of: space.frames[i])
                        region = try frame.cut(by: above, &builder)
                    }
                } else {
                    region = nil
                }
                // A final window shadows what is behind it, but not itself
                // (it answers before the search stops): it sorts just before
                // the window. A window accessibility blocks is no barrier.
                if !touch && hot[i].state.contains(.finalWindow) && !hot[i].state.contains(.blocked)
                    && !reach[i].isEmpty
                {
                    entries.append(.init(node: .none, region: reach[i], position: 2 * position))
                }
                if let region, !region.isEmpty {
                    // A view's reach holds its subtree's; an element's frame need not.
                    let holds = tree.isView(n) && (touch || !exposedHidesSubtree)
                    entries.append(.init(node: n, region: region, position: 2 * position + 1, holdsSubtree: holds))
                }
            } catch {
                throw TreeError(.geometry, "\(error)", node: tree.id(of: n))
            }
        }
        return Ownership(entries, capacity: tree.capacity)
    }

    /// TalkBack's focus map: its answer changes only across the edge of a
    /// visible node's bounds (every such node may be offered the hover,
    /// take it or report), so the screen is cut into the cells between
    /// every such edge, the hover asked once per cell (`hover`), and each
    /// element's cells dissolved into polygons. Exact where views do not
    /// turn (every dump); under a turn, cells follow bounding boxes.
    ///
    /// - Complexity: O(X · Y) hover queries for X and Y distinct edges.
    /// - Throws: `TreeError` (`.geometry`) when the cells would exceed
    ///   `IndexPolicy.hoverMapCellBudget`.
    private func hoverFocusMap() throws(TreeError) -> [MapRegion] {
        guard !tree.root.isNone else { return [] }
        let space = ScreenSpace(tree)
        var xs = Set<Double>(), ys = Set<Double>()
        for n in tree.preOrder where !hot[n.index].state.contains(.blocked) {
            let box =
                tree.isView(n)
                ? (space.resolved[n.index].contains(.invertible)
                    ? tree.bounds(of: n).applying(space.toScreen[n.index]) : .null)
                : space.frames[n.index]
            guard !box.isNull, box.width > 0, box.height > 0, box.minX.isFinite, box.maxY.isFinite else { continue }
            xs.insert(Double(box.minX))
            xs.insert(Double(box.maxX))
            ys.insert(Double(box.minY))
            ys.insert(Double(box.maxY))
        }
        let sx = xs.sorted(), sy = ys.sorted()
        guard sx.count > 1, sy.count > 1 else { return [] }
        let cells = (sx.count - 1).multipliedReportingOverflow(by: sy.count - 1)
        guard !cells.overflow, cells.partialValue <= IndexPolicy.hoverMapCellBudget else {
            throw TreeError(
                .geometry,
                "the focus map would ask the hover about \(cells.overflow ? "over \(Int.max)" : "\(cells.partialValue)") "
                    + "cells, over the budget of \(IndexPolicy.hoverMapCellBudget)")
        }
        var faces: [NodeID: [[[CGPoint]]]] = [:]
        var scratch = HitScratch()
        for j in 0 ..< sy.count - 1 {
            let y0 = sy[j], y1 = sy[j + 1]
            for i in 0 ..< sx.count - 1 {
                let x0 = sx[i], x1 = sx[i + 1]
                guard let e = hover(CGPoint(x: (x0 + x1) / 2, y: (y0 + y1) / 2), scratch: &scratch) else { continue }
                let ring = [
                    CGPoint(x: x0, y: y0), CGPoint(x: x1, y: y0), CGPoint(x: x1, y: y1), CGPoint(x: x0, y: y1),
                    CGPoint(x: x0, y: y0),
                ]
                faces[e, default: []].append([ring])
            }
        }
        var out: [MapRegion] = []
        for n in tree.preOrder {
            guard let f = faces[n] else { continue }
            out.append(MapRegion(node: n, polygons: PolygonSet.dissolving(faces: f).polygons))
        }
        return out
    }
}
