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
    /// Where a point can hit `item` (a child of a view whose map to the
    /// screen is `containerToScreen`) or anything in its subtree, under
    /// either policy, whatever its exposure, given the item's query record
    /// `h` (current: it is written before any index that holds the item is
    /// built or refitted). See `init(item:containerToScreen:in:)`.
    @inline(__always)
    init(item: NodeID, record h: HotNode, containerToScreen t: CGAffineTransform, in tree: ElementTree) {
        // The common cases from the record.
        if h.transformSlot < 0 && h.flags.isDisjoint(with: [.hasAccessibilityFrame, .hasPath]) && t.b == 0 && t.c == 0 {
            if h.isView {
                // Its bounds' quad in the parent: its frame resized about the
                // centre to the bounds' size.
                let f = h.frame
                let b = h.boundsSlot >= 0 ? tree.boundsTable[h.boundsSlot] : ViewGeometry.defaultBounds(of: f)
                self.init(local: CGRect(x: f.midX - b.width / 2, y: f.midY - b.height / 2, width: b.width, height: b.height))
                return
            }
            if tree.firstChild(of: item).isNone {
                // An element leaf: its frame in container space, if any.
                self.init(local: h.flags.contains(.hasFrameInContainerSpace) ? h.frame : .null)
                return
            }
        }
        self.init(item: item, containerToScreen: t, in: tree)
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
    init(item: NodeID, containerToScreen t: CGAffineTransform, in tree: ElementTree) {
        var boxes = ItemBoxes()
        let linear = CGAffineTransform(a: t.a, b: t.b, c: t.c, d: t.d, tx: 0, ty: 0)
        let aligned = t.b == 0 && t.c == 0
        let inverse = linear.isInvertible ? linear.inverted() : nil
        /// The screen box of `r` (in container space), as a box in container space.
        func addFrameRegion(_ r: CGRect) {
            boxes.addLocal(r)
            if !aligned, let inverse { boxes.addLocal(r.applying(linear).applying(inverse)) }
        }
        func addPath(_ n: NodeID, toContainer: CGAffineTransform) {
            guard let path = tree.accessibilityPath(of: n) else { return }
            let bounds = path.path.controlPointBounds  // holds the filled region
            guard !bounds.isNull else { return }
            switch path.coordinateSpace {
            case .screen: boxes.screen = ItemBoxes.union(boxes.screen, bounds)
            case .view: boxes.addLocal(bounds.applying(toContainer))
            }
        }
        if tree.isView(item) {
            let toContainer = tree.boundsToParent(item)
            let quad = tree.bounds(of: item).applying(toContainer)
            if let f = tree.explicitAccessibilityFrame(of: item) {
                boxes.addLocal(quad)
                boxes.addScreen(f)
            } else {
                addFrameRegion(quad)
            }
            addPath(item, toContainer: toContainer)
        } else {
            tree.forEachInPreOrder(from: item) { e in
                if let fic = tree.frameInContainerSpace(of: e) {
                    addFrameRegion(fic)
                } else if let f = tree.explicitAccessibilityFrame(of: e) {
                    boxes.addScreen(f)
                }
                addPath(e, toContainer: .identity)
            }
        }
        self = boxes
    }
}

extension PackedRTree {
    /// A tree over `count` rects given by `rect(k)` (a null rect is an empty
    /// box that matches nothing).
    init(rects count: Int, _ rect: (Int) -> CGRect) {
        self.init(count: count) { k in
            let r = rect(k)
            return r.isNull ? (.nan, .nan, .nan, .nan) : (Double(r.minX), Double(r.minY), Double(r.maxX), Double(r.maxY))
        }
    }
}
