import Foundation

/// One node's values laid out as `ElementTree` stores them.
///
/// The stored properties have no default values and each init sets every
/// one once: with defaults, an init builds each default, destroys it on
/// assignment and copies the whole record out, about 700 instructions a
/// node of the builder's 3,600 (Callgrind).
struct NodeRecord {
    /// The `id` (empty until read).
    var name: String
    /// `.element` for element nodes, and the boolean properties. The flags
    /// derived from other values (`translucent`, `has…`) are the tree's to
    /// set.
    var flags: NodeFlags
    /// Views only.
    var frame: CGRect
    var bounds: CGRect?
    /// nil for the identity.
    var transform: CGAffineTransform?
    /// Meaningful only when `hasExtras`.
    var extras: NodeExtras
    /// Whether `extras` differs from `NodeExtras()` (a reader knows as it
    /// sets each value, each at most once: no comparison per node).
    var hasExtras: Bool

    var isElement: Bool { flags.contains(.element) }

    /// A view's flags with every property at its default.
    static let defaultFlags: NodeFlags = [.alive, .userInteractionEnabled]

    /// An empty record (a view with every property at its default).
    init() {
        name = ""
        flags = Self.defaultFlags
        frame = .zero
        bounds = nil
        transform = nil
        extras = NodeExtras()
        hasExtras = false
    }

    /// A record of the values given (a node a `NodeBatch` laid out).
    init(
        name: String, flags: NodeFlags, frame: CGRect, bounds: CGRect?, transform: CGAffineTransform?,
        extras: NodeExtras?
    ) {
        self.name = name
        self.flags = flags
        self.frame = frame
        self.bounds = bounds
        self.transform = transform
        self.extras = extras ?? NodeExtras()
        hasExtras = extras != nil
    }

    /// Moves the extras out, leaving defaults (and `hasExtras` false).
    mutating func takeExtras() -> NodeExtras {
        var e = NodeExtras()
        swap(&e, &extras)
        hasExtras = false
        return e
    }

    /// The record of `node` (which `Node.validate()` has checked).
    init(_ node: borrowing Node) {
        name = node.id
        flags = Self.flags(of: node)
        (frame, bounds, transform) = Self.geometry(of: node)
        hasExtras = !NodeExtras.areDefault(in: node)
        extras = hasExtras ? NodeExtras(of: node) : NodeExtras()
    }

    /// `node`'s kind and boolean properties as flags.
    @inline(__always)
    static func flags(of node: borrowing Node) -> NodeFlags {
        var f: NodeFlags = [.alive]
        if node.kind == .element { f.insert(.element) }
        if node.isAccessibilityElement { f.insert(.accessibilityElement) }
        if node.isHidden { f.insert(.hidden) }
        if node.clipsToBounds { f.insert(.clipsToBounds) }
        if node.isUserInteractionEnabled { f.insert(.userInteractionEnabled) }
        if node.isWindow { f.insert(.window) }
        if node.accessibilityElementsHidden { f.insert(.elementsHidden) }
        if node.accessibilityViewIsModal { f.insert(.modal) }
        if node.shouldGroupAccessibilityChildren { f.insert(.groupsChildren) }
        return f
    }

    /// A view's frame, explicit bounds and transform (nil for the
    /// identity); an element node has none.
    @inline(__always)
    static func geometry(of node: borrowing Node) -> (CGRect, CGRect?, CGAffineTransform?) {
        guard node.kind == .view else { return (.zero, nil, nil) }
        return (node.frame, node.bounds, node.transform == .identity ? nil : node.transform)
    }
}
