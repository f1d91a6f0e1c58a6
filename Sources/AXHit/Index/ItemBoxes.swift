import AXGeometry
import Foundation

/// Where a point can hit an item of a `ContainerIndex`: a box in the
/// container's bounds space and one in screen space, each `.null` when none.
struct ItemBoxes: Sendable {
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

    /// Whether `q` (the container's space) or `p` (the screen) lies in a
    /// box, edges included: the conservative filter a query applies.
    @inline(__always)
    func mayHold(local q: CGPoint, screen p: CGPoint) -> Bool {
        (!local.isNull && q.x >= local.minX && q.x <= local.maxX && q.y >= local.minY && q.y <= local.maxY)
            || (!screen.isNull && p.x >= screen.minX && p.x <= screen.maxX && p.y >= screen.minY && p.y <= screen.maxY)
    }

    /// A rect that holds points only under the closed-open rule: an empty
    /// one holds none and adds nothing.
    mutating func addScreen(_ r: CGRect) {
        if r.width > 0 && r.height > 0 { screen = Self.union(screen, r) }
    }
}

extension ItemBoxes {
    /// The item's boxes in the common cases, from its query record alone (no
    /// tree: the build calls this for every child, and passing the tree
    /// would copy it): a view with no transform, explicit frame or path
    /// under an axis-aligned container is its bounds' quad in the
    /// container; an element leaf without them is its frame in container
    /// space. Nil otherwise (see `init(item:containerToScreen:in:)`).
    ///
    /// - Parameters:
    ///   - h: the item's record (current: written before any index that
    ///     holds the item is built or refitted).
    ///   - bounds: the item's bounds in effect (views only).
    ///   - isLeaf: whether the item has no children.
    @inline(__always)
    static func common(
        record h: HotNode, bounds b: CGRect, isLeaf: Bool, containerToScreen t: CGAffineTransform
    ) -> ItemBoxes? {
        guard
            h.transformSlot < 0 && h.flags.isDisjoint(with: [.hasAccessibilityFrame, .hasPath]) && t.b == 0 && t.c == 0
        else {
            return nil
        }
        if h.isView {
            // Its bounds' quad in the parent: its frame resized about the
            // centre to the bounds' size.
            let f = h.frame
            return ItemBoxes(
                local: CGRect(x: f.midX - b.width / 2, y: f.midY - b.height / 2, width: b.width, height: b.height))
        }
        // An element leaf: its frame in container space, if any.
        return isLeaf ? ItemBoxes(local: h.flags.contains(.hasFrameInContainerSpace) ? h.frame : .null) : nil
    }

    /// Where a point can hit `item` (a child of a view whose map to the
    /// screen is `containerToScreen`) or anything in its subtree, under
    /// either policy, whatever its exposure: a box in the view's bounds space
    /// and one in screen space.
    ///
    /// A view's subtree is cut by its bounds, so the converted bounds hold
    /// it; its own frame-policy region is the screen box of those bounds,
    /// which under a rotation of the container is larger: its preimage is
    /// added. An element node adds its frame in container space (with the
    /// same preimage), its explicit screen frame and its path, and those of
    /// its element descendants.
    ///
    /// - Complexity: O(1) for a view; O(element subtree) for an element node.
    ///
    /// The tree is borrowed and no closure captures it: the build calls this
    /// for every transformed child, and a copy of the tree (its dozens of
    /// arrays retained) would cost more than the boxes.
    init(item: NodeID, containerToScreen t: CGAffineTransform, in tree: borrowing ElementTree) {
        self.init()
        let linear = CGAffineTransform(a: t.a, b: t.b, c: t.c, d: t.d, tx: 0, ty: 0)
        let inverse = t.b == 0 && t.c == 0 ? nil : (linear.isInvertible ? linear.inverted() : nil)
        if tree.isView(item) {
            let toContainer = tree.boundsToParent(item)
            let quad = tree.bounds(of: item).applying(toContainer)
            if let f = tree.explicitAccessibilityFrame(of: item) {
                addLocal(quad)
                addScreen(f)
            } else {
                addFrameRegion(quad, linear: linear, inverse: inverse)
            }
            addPath(tree.accessibilityPath(of: item), toContainer: toContainer)
            return
        }
        // The element node and its element descendants, in pre-order.
        var e = item
        while true {
            if let fic = tree.frameInContainerSpace(of: e) {
                addFrameRegion(fic, linear: linear, inverse: inverse)
            } else if let f = tree.explicitAccessibilityFrame(of: e) {
                addScreen(f)
            }
            addPath(tree.accessibilityPath(of: e), toContainer: .identity)
            let child = tree.firstChildren[e.index]
            if !child.isNone {
                e = child
                continue
            }
            while e != item && tree.nextSiblings[e.index].isNone { e = tree.backLinks[e.index].parent }
            if e == item { return }
            e = tree.nextSiblings[e.index]
        }
    }

    /// Adds the screen box of `r` (in container space) as a box in container
    /// space: `r` itself, and under a rotation (`inverse` of the container's
    /// linear map) the preimage of its screen box, which is larger.
    private mutating func addFrameRegion(_ r: CGRect, linear: CGAffineTransform, inverse: CGAffineTransform?) {
        addLocal(r)
        if let inverse { addLocal(r.applying(linear).applying(inverse)) }
    }

    /// Adds where a path can be hit: its control points' box (which holds
    /// the filled region), in screen space or in the container's.
    private mutating func addPath(_ path: AccessibilityPath?, toContainer: CGAffineTransform) {
        guard let path else { return }
        let bounds = path.path.controlPointBounds
        guard !bounds.isNull else { return }
        switch path.coordinateSpace {
        case .screen: screen = ItemBoxes.union(screen, bounds)
        case .view: addLocal(bounds.applying(toContainer))
        }
    }
}

extension PackedRTree {
    /// A tree over `count` rects given by `rect(k)` (a null rect is an empty
    /// box that matches nothing).
    init(rects count: Int, _ rect: (Int) -> CGRect) {
        self.init(count: count) { k in
            let r = rect(k)
            return r.isNull
                ? (.nan, .nan, .nan, .nan) : (Double(r.minX), Double(r.minY), Double(r.maxX), Double(r.maxY))
        }
    }
}
