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
    /// A top-level window of a dump (an AXHit key). On Android the topmost
    /// window holding a point decides `hit` there; the root always counts as
    /// one. Importers set it on each top-level node of a dump.
    public var isWindow: Bool

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
    /// Views only: the explicit navigation order of this container, as the
    /// `id`s of nodes of its subtree; nil when it has none.
    public var accessibilityElements: [String]?
    /// Navigation grouping; no effect on hit-testing.
    public var accessibilityContainerType: AccessibilityContainerType

    // MARK: Snapshot facts

    /// A snapshot's own visibility flag (Appium's `visible`, uiautomator's
    /// `visible-to-user`), carried as evidence; nil when the source has none.
    /// Android hides a node the flag calls invisible; iOS snapshots do not
    /// (XCTest's flag is often wrong).
    public var visibleInSnapshot: Bool?
    /// Android: what the node declares it handles.
    public var actions: NodeActions
    /// Android: the dump's `checked` on a checkable node (spoken as its
    /// state); nil when the source does not say.
    public var checked: Bool?
    /// Android: whether the view is important for accessibility, as the dump
    /// says (`a11y-important`, `important-for-accessibility`); nil when it
    /// does not, and Android's automatic rule decides (`TalkBackTree`).
    public var importantForAccessibility: Bool?
    /// Android: the label is the view's text, not a content description
    /// (the dump gave text and no content description); TalkBack's speech
    /// reads a node's children only when it has no content description.
    public var labelIsText: Bool
    /// Android: a password field (the dump's `password`), whose name
    /// TalkBack speaks as its content description or "password".
    public var isPassword: Bool
    /// Android: the view's class (`android.widget.TextView`), as the dump
    /// names it; TalkBack's rules read it (collections, range controls,
    /// scroll views, roles).
    public var className: String?
    /// Android: the package of the app that drew the node
    /// (`com.android.systemui`); window order reads it.
    public var packageName: String?
    /// Android: the node's place among its siblings in the order the dump
    /// lists them (the framework's accessibility order, uiautomator's
    /// `index`), where it differs from the drawing order `children` keep;
    /// nil where the two agree. TalkBack's order reads it.
    public var accessibilityIndex: Int?

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
        self.isWindow = false
        self.isAccessibilityElement = kind == .element
        self.accessibilityTraits = []
        self.accessibilityElementsHidden = false
        self.accessibilityViewIsModal = false
        self.shouldGroupAccessibilityChildren = false
        self.accessibilityNavigationStyle = .automatic
        self.accessibilityContainerType = .none
        self.actions = []
        self.labelIsText = false
        self.isPassword = false
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

    /// Checks what tree-format.md constrains of one node: a non-empty id,
    /// finite numbers, sizes >= 0, alpha in 0...1, no view property on an
    /// element node and no element property on a view. (The checks live in
    /// `ValueRules`, shared with every reader.)
    ///
    /// - Throws: `TreeError` (`.validation`) naming this node and the key at fault.
    public func validate() throws(TreeError) {
        func fail(_ key: String, _ message: String) -> TreeError {
            TreeError(.validation, message, node: id, key: key)
        }
        if id.isEmpty { throw fail("id", "must not be empty") }
        if kind == .element {
            // The format has no view geometry for element nodes: a value set
            // here would be honoured by nothing and lost on writing.
            if let key = firstViewPropertySet {
                throw fail(key, "element nodes have no \(key) (a view property)")
            }
        } else {
            if let problem = ValueRules.rectProblem(frame) { throw fail("frame", problem) }
            if let bounds, let problem = ValueRules.rectProblem(bounds) { throw fail("bounds", problem) }
            if let problem = ValueRules.transformProblem(transform) { throw fail("transform", problem) }
            if let problem = ValueRules.alphaProblem(Double(alpha)) { throw fail("alpha", problem) }
            if accessibilityFrameInContainerSpace != nil {
                throw fail(
                    "accessibilityFrameInContainerSpace",
                    "view nodes have no accessibilityFrameInContainerSpace (an element property)")
            }
        }
        if let r = accessibilityFrame, let problem = ValueRules.rectProblem(r) {
            throw fail("accessibilityFrame", problem)
        }
        if let r = accessibilityFrameInContainerSpace, let problem = ValueRules.rectProblem(r) {
            throw fail("accessibilityFrameInContainerSpace", problem)
        }
        if let p = accessibilityActivationPoint, let problem = ValueRules.pointProblem(p) {
            throw fail("accessibilityActivationPoint", problem)
        }
        if let p = accessibilityPath, let problem = ValueRules.pathProblem(p.path) {
            throw fail("accessibilityPath.d", problem)
        }
        if let list = accessibilityElements, list.contains(where: \.isEmpty) {
            throw fail("accessibilityElements", "an id in the list is empty")
        }
    }

    /// The first view property set away from `init(id:kind:)`'s default, in
    /// the format's key order, or nil. Straight comparisons: the builder
    /// checks every element node, so nothing here allocates.
    private var firstViewPropertySet: String? {
        if frame != .zero { return "frame" }
        if bounds != nil { return "bounds" }
        if transform != .identity { return "transform" }
        if clipsToBounds { return "clipsToBounds" }
        if isHidden { return "isHidden" }
        if alpha != 1 { return "alpha" }
        if !isUserInteractionEnabled { return "isUserInteractionEnabled" }
        if isWindow { return "isWindow" }
        if accessibilityElements != nil { return "accessibilityElements" }
        return nil
    }
}
