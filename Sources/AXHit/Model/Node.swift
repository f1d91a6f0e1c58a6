import Foundation

/// Every property of one node, with UIKit's names and defaults.
///
/// The interchange form: importers and the builder API fill one in and hand
/// it to `ElementTree.append(_:under:)`; `ElementTree[id]` gives one back.
/// The tree itself stores nodes column by column, not as `Node` values.
public struct Node: Sendable, Hashable {
    /// Unique in the tree.
    public var id: String
    /// A view (own coordinate space) or an accessibility element.
    public var kind: NodeKind

    // MARK: View geometry (ignored for element nodes)

    /// The untransformed frame in the parent's bounds space: its midpoint is
    /// the view's `center`. The root's frame is in screen coordinates.
    public var frame: CGRect
    /// The bounds, if given; nil means `[0, 0, frame.width, frame.height]`.
    /// Its origin is the scroll offset; its size replaces the frame's size
    /// around the same center.
    public var bounds: CGRect?
    /// Applied about the center (anchor point 0.5, 0.5).
    public var transform: CGAffineTransform
    /// Whether descendants are drawn only inside the bounds (not hit-testing).
    public var clipsToBounds: Bool
    /// UIView.isHidden.
    public var isHidden: Bool
    /// 0...1; below 0.01 the view counts as hidden.
    public var alpha: CGFloat
    /// Touch delivery only.
    public var isUserInteractionEnabled: Bool

    // MARK: UIAccessibility

    /// Defaults to false for views, true for elements.
    public var isAccessibilityElement: Bool
    /// Carried and reported; never used for geometry.
    public var accessibilityLabel: String?
    /// Carried and reported; never used for geometry.
    public var accessibilityValue: String?
    /// Carried and reported; never used for geometry.
    public var accessibilityHint: String?
    /// Carried and reported; never used for geometry.
    public var accessibilityIdentifier: String?
    /// Carried and reported; never used for geometry.
    public var accessibilityLanguage: String?
    /// UIKit's trait bits, unknown ones kept; no effect on geometry.
    public var accessibilityTraits: AccessibilityTraits
    /// An explicit accessibility frame in screen coordinates; nil means the
    /// default (a view's bounds on the screen, an element's CGRectZero).
    public var accessibilityFrame: CGRect?
    /// Element nodes only: a frame in the container's bounds space that wins
    /// over `accessibilityFrame`.
    public var accessibilityFrameInContainerSpace: CGRect?
    /// An explicit activation point in screen coordinates; nil means the
    /// midpoint of the accessibility frame.
    public var accessibilityActivationPoint: CGPoint?
    /// The element's exact shape, if it has one.
    public var accessibilityPath: AccessibilityPath?
    /// Hides this node and its whole subtree from accessibility.
    public var accessibilityElementsHidden: Bool
    /// Accessibility ignores this node's siblings and their subtrees.
    public var accessibilityViewIsModal: Bool
    /// Navigation grouping; no effect on hit-testing.
    public var shouldGroupAccessibilityChildren: Bool
    /// Carried; no effect on hit-testing.
    public var accessibilityNavigationStyle: NavigationStyle

    /// A node of `kind` with every property at UIKit's default.
    public init(id: String, kind: NodeKind, frame: CGRect = .zero) {
        self.id = id
        self.kind = kind
        self.frame = frame
        self.bounds = nil
        self.transform = .identity
        self.clipsToBounds = false
        self.isHidden = false
        self.alpha = 1
        self.isUserInteractionEnabled = true
        self.isAccessibilityElement = kind == .element
        self.accessibilityTraits = []
        self.accessibilityElementsHidden = false
        self.accessibilityViewIsModal = false
        self.shouldGroupAccessibilityChildren = false
        self.accessibilityNavigationStyle = .automatic
    }

    /// A view with `frame` in its parent's bounds space, other properties at
    /// their defaults.
    public static func view(_ id: String, frame: CGRect) -> Node {
        Node(id: id, kind: .view, frame: frame)
    }

    /// An accessibility element, other properties at their defaults.
    public static func element(_ id: String) -> Node {
        Node(id: id, kind: .element)
    }

    /// The bounds in effect: the given bounds, or `[0, 0, frame.size]`.
    public var effectiveBounds: CGRect {
        bounds ?? CGRect(origin: .zero, size: frame.size)
    }

    /// Checks the values the spec constrains: finite numbers, sizes >= 0,
    /// alpha in 0...1, no view geometry on element nodes.
    ///
    /// - Throws: `TreeError` naming this node and the key at fault.
    public func validate() throws(TreeError) {
        func fail(_ key: String, _ message: String) -> TreeError {
            TreeError(message, node: id, key: key)
        }
        if id.isEmpty { throw fail("id", "must not be empty") }
        try checkRect(frame, key: "frame")
        if let bounds { try checkRect(bounds, key: "bounds") }
        let t = transform
        // Test first, name the culprit only on failure: no allocation per node.
        if !(t.a.isFinite && t.b.isFinite && t.c.isFinite && t.d.isFinite && t.tx.isFinite && t.ty.isFinite) {
            for (name, v) in [("a", t.a), ("b", t.b), ("c", t.c), ("d", t.d), ("tx", t.tx), ("ty", t.ty)] where !v.isFinite {
                throw fail("transform", "\(name) is not a finite number")
            }
        }
        if !(alpha >= 0 && alpha <= 1) { throw fail("alpha", "must be between 0 and 1, got \(alpha)") }
        if let r = accessibilityFrame { try checkRect(r, key: "accessibilityFrame") }
        if let r = accessibilityFrameInContainerSpace {
            if kind != .element { throw fail("accessibilityFrameInContainerSpace", "is for element nodes only") }
            try checkRect(r, key: "accessibilityFrameInContainerSpace")
        }
        if let p = accessibilityActivationPoint, !(p.x.isFinite && p.y.isFinite) {
            throw fail("accessibilityActivationPoint", "is not a finite point")
        }
    }

    private func checkRect(_ r: CGRect, key: String) throws(TreeError) {
        if !(r.origin.x.isFinite && r.origin.y.isFinite && r.size.width.isFinite && r.size.height.isFinite) {
            let names = ["x", "y", "width", "height"]
            for (i, v) in [r.origin.x, r.origin.y, r.size.width, r.size.height].enumerated() where !v.isFinite {
                throw TreeError("\(names[i]) is not a finite number", node: id, key: key)
            }
        }
        if r.size.width < 0 { throw TreeError("width is negative", node: id, key: key) }
        if r.size.height < 0 { throw TreeError("height is negative", node: id, key: key) }
    }
}
