import Foundation

/// The spec's per-node screen answers (tree-format.md, "Converting to the
/// screen" and the node keys), given the node's map to the screen: one
/// home for `ScreenSpace`, which resolves every node at once, and the
/// engine's element reads, which compose one node's map on demand.
enum ElementGeometry {
    /// The accessibility frame on the screen: an element node's frame in
    /// container space converted, else its explicit frame, else CGRectZero;
    /// a view's explicit frame, else its bounds converted (the bounding box
    /// of the converted corners).
    ///
    /// - Parameter toScreen: the map from the node's view (an element
    ///   node's container) to the screen.
    static func accessibilityFrame(of id: NodeID, in tree: ElementTree, toScreen: CGAffineTransform) -> CGRect {
        let extras = tree.extrasOf(id)
        if tree.has(.element, id) {
            if let r = extras?.frameInContainerSpace { return r.applying(toScreen) }
            return extras?.accessibilityFrame ?? .zero
        }
        if let r = extras?.accessibilityFrame { return r }
        return tree.bounds(of: id).applying(toScreen)
    }

    /// The activation point on the screen: explicit, or the midpoint of the
    /// accessibility frame `frame`.
    static func activationPoint(of id: NodeID, in tree: ElementTree, frame: CGRect) -> CGPoint {
        if let p = tree.extrasOf(id)?.activationPoint { return p }
        return CGPoint(x: frame.midX, y: frame.midY)
    }

    /// The `accessibilityPath` on the screen (a view-space path converted
    /// exactly, every control point through `toScreen`), or nil.
    static func screenPath(of id: NodeID, in tree: ElementTree, toScreen: CGAffineTransform) -> BezierPath? {
        guard let p = tree.accessibilityPath(of: id) else { return nil }
        switch p.coordinateSpace {
        case .screen: return p.path
        case .view: return p.path.applying(toScreen)
        }
    }
}
