import Foundation

/// The index of one wide view's children: where in the view a point can hit
/// each child or its subtree, so that a query visits only the children under
/// the point instead of all of them.
///
/// Boxes live in the view's own bounds space (`local`), so scrolling the view
/// or moving any ancestor changes nothing here: a scroll changes one number.
/// Regions fixed in screen space (an explicit `accessibilityFrame`, a path in
/// screen coordinates) don't move with the view, so they have their own tree
/// of screen boxes (`screen`). Both trees hold the same items, numbered by the
/// children's order at build time; a child with no box in one space has an
/// empty box there.
struct ContainerIndex: Sendable {
    /// Item number → child, in z-order at build time.
    var items: [NodeID]
    /// Boxes in the view's bounds space.
    var local: PackedRTree
    /// Boxes in screen space; an empty tree when no child has one.
    var screen: PackedRTree
    /// Children added since the build. They are not in the trees and are
    /// tried one by one; past `overflowLimit` the index is rebuilt.
    var overflow: [NodeID] = []
    /// Items emptied (removed children) since the build.
    var removed = 0
    /// The linear part of the view's map to the screen that the local boxes
    /// assume. Frame-policy regions are screen-aligned boxes: under a rotated
    /// ancestor their extent in local space depends on this, so a change of
    /// it (a new ancestor transform) rebuilds the index.
    var linear: CGAffineTransform

    /// Children added after a build that a query tries one by one before
    /// the index is rebuilt: bounds the per-query cost of recent inserts.
    static let overflowLimit = 256

    /// Whether the index should be rebuilt: too many unindexed or removed children.
    var isStale: Bool { overflow.count > Self.overflowLimit || removed > max(64, items.count / 2) }

    /// Memory held, in bytes.
    var memoryBytes: Int {
        local.memoryBytes + screen.memoryBytes
            + (items.count + overflow.count) * MemoryLayout<NodeID>.stride
    }
}

/// Where a point can hit an item of a `ContainerIndex`: a box in the
/// container's bounds space and one in screen space, each `.null` when none.
struct ItemBoxes {
    var local = CGRect.null
    var screen = CGRect.null

    static func union(_ a: CGRect, _ b: CGRect) -> CGRect {
        if a.isNull { return b }
        if b.isNull { return a }
        let minX = Swift.min(a.minX, b.minX), minY = Swift.min(a.minY, b.minY)
        let maxX = Swift.max(a.maxX, b.maxX), maxY = Swift.max(a.maxY, b.maxY)
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    mutating func addLocal(_ r: CGRect) { local = Self.union(local, r) }

    /// A rect that holds points only under the closed-open rule: an empty
    /// one holds none and adds nothing.
    mutating func addScreen(_ r: CGRect) {
        if r.width > 0 && r.height > 0 { screen = Self.union(screen, r) }
    }
}
