import AXGeometry
import Foundation

/// Who answers where, for every question whose answer at a point is the
/// candidate that comes last in pre-order among those whose region holds the
/// point: `hit` (VoiceOver's frontmost element, TalkBack's deepest node),
/// UIKit's `hitTest` (the deepest touchable view), XCUITest's hittable
/// element, Android's touch dispatch (the frontmost, deepest consuming node).
/// Each platform differs only in its candidates and their regions; the
/// geometry of "last wins" lives here once.
///
/// A candidate owns its region minus the regions of every candidate after
/// it; a *barrier* (a final window in front) owns nothing but shadows the
/// candidates before it. Regions are in screen points, already cut by the
/// bounds of their ancestors.
///
/// Memory: the regions and an R-tree over their boxes. Building is
/// O(n log n); `ownedRegion(_:)` is O(log n + k) index work for the k later
/// regions that meet the candidate's box, plus GEOS where they cut into a
/// region that is not a rect they cover.
struct Ownership: Sendable {
    /// One candidate or barrier.
    struct Entry: Sendable {
        /// The candidate, or `.none` for a barrier.
        var node: NodeID
        /// Its region, cut by its ancestors' bounds.
        var region: Region
        /// Its pre-order position: later positions are in front.
        var position: Int32
        /// Its region holds the region of every candidate of its subtree (a
        /// view's bounds cut by its ancestors', as touch candidates are), so
        /// that those need not be subtracted again behind it.
        var holdsSubtree = false
    }

    /// Every entry, by position.
    let entries: [Entry]
    /// Entry index by candidate node, or -1.
    private let slots: [Int32]
    private let index: PackedRTree

    /// The ownership among `entries` (candidates and barriers in any
    /// order), for a tree of `capacity` slots.
    init(_ entries: [Entry], capacity: Int) {
        let sorted = entries.sorted { $0.position < $1.position }
        var slots = [Int32](repeating: -1, count: capacity)
        for (k, e) in sorted.enumerated() where !e.node.isNone { slots[e.node.index] = Int32(k) }
        self.entries = sorted
        self.slots = slots
        index = PackedRTree(rects: sorted.count) { sorted[$0].region.bounds }
    }

    /// The index in `entries` of candidate `node`, or nil. O(1).
    func entryIndex(of node: NodeID) -> Int? {
        node.rawValue >= 0 && node.index < slots.count && slots[node.index] >= 0 ? Int(slots[node.index]) : nil
    }

    /// The indexes in `entries` of the entries whose regions' boxes meet `box`.
    func entries(near box: CGRect) -> [Int] {
        guard !box.isNull else { return [] }
        var out: [Int] = []
        index.forEach(intersecting: box) { j in
            out.append(Int(j))
            return true
        }
        return out
    }

    /// The regions in front of entry `k` (later in pre-order) that meet `box`.
    func regions(inFrontOf k: Int, near box: CGRect) -> [Region] {
        guard !box.isNull else { return [] }
        var out: [Region] = []
        index.forEach(intersecting: box) { j in
            if Int(j) > k { out.append(entries[Int(j)].region) }
            return true
        }
        return out
    }

    /// Where candidate `node` answers: its region minus everything in front.
    /// Empty for a node that is not a candidate.
    ///
    /// - Throws: `GeometryError` when GEOS fails.
    func ownedRegion(of node: NodeID, _ builder: RegionBuilder) throws(GeometryError) -> Region {
        guard let k = entryIndex(of: node) else { return .empty }
        let region = entries[k].region
        return try region.subtracting(regions(inFrontOf: k, near: region.bounds), builder)
    }
}

extension Ownership {
    /// `ownedRegion(of:_:)` for a whole-screen map, as polygons (each its
    /// exterior ring then its holes, rings closed): rect arithmetic when the
    /// region and everything in front that meets it are rects (the common
    /// layout: no GEOS context is made), else GEOS, through `builder`,
    /// which makes its context on first use.
    ///
    /// - Complexity: O(log n + k × depth) for the k regions in front that
    ///   meet the candidate's box, then O(cells) for the grid their edges
    ///   make (at most `Region.rectilinearCellLimit`), or one GEOS union and
    ///   difference.
    /// - Throws: `GeometryError` when GEOS fails.
    func exactOwnedPolygons(
        of node: NodeID, in tree: ElementTree, _ builder: inout RegionBuilder?
    ) throws(GeometryError)
        -> [[[CGPoint]]]
    {
        guard let k = entryIndex(of: node) else { return [] }
        let region = entries[k].region
        var front = entries(near: region.bounds).filter { $0 > k && !entries[$0].region.isEmpty }
        // A cover inside a cover that holds its subtree adds nothing.
        let holders = Set(front.lazy.filter { self.entries[$0].holdsSubtree }.map { self.entries[$0].node })
        if !holders.isEmpty {
            front.removeAll { j in
                var a = entries[j].node.isNone ? .none : tree.parent(of: entries[j].node)
                while !a.isNone && a != node {
                    if holders.contains(a) { return true }
                    a = tree.backLinks[a.index].parent
                }
                return false
            }
        }
        let covers = front.map { entries[$0].region }
        // Without GEOS where it can be, before a builder is made for it.
        if let exact = region.rectilinearDifference(covers) { return exact.polygons }
        if builder == nil { builder = try RegionBuilder() }
        guard let builder else { return [] }
        return try region.subtracting(covers, builder).polygons
    }
}
