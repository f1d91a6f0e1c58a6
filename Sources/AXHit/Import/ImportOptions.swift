import Foundation

/// What a reader cannot learn from the input itself: the user's say on the
/// platform, the density and the snapshot's visibility flags
/// (`--platform`, `--density`, `--trust-visible` on the command line).
///
/// Every reader honours it, `axhit/1` included, through
/// `ElementTree(contentsOf:file:options:)` and the per-format initializers.
public struct ImportOptions: Sendable, Hashable {
    /// Whose rules answer for the tree, overriding what the input says
    /// (`axhit/1` `platform`) or implies (an Appium or idb source is iOS, a
    /// uiautomator dump or DroidBot state Android). nil keeps the input's.
    /// Forcing `.ios` on an Android dump judges it by the iOS snapshot rules
    /// (coordinates stay in pixels).
    public var platform: Platform?
    /// Android pixels per dp, when the caller knows it; nil when unknown.
    /// It becomes the tree's `screenScale` when the tree is Android's and
    /// the input gives no scale of its own: an `axhit/1` file's
    /// `screen.scale` wins (tree-format.md: "from `screen.scale` when known,
    /// else given by the user"). Coordinates are never divided by it: an
    /// Android tree stays in the dump's pixels. Ignored for iOS trees. Must
    /// be finite and > 0 when given.
    public var density: CGFloat?
    /// Whether a snapshot's visibility flag hides what it calls invisible
    /// (`visibleInSnapshot == false` becomes `isHidden` on a view,
    /// `accessibilityElementsHidden` on an element node). Default false:
    /// XCTest's `visible` is often wrong, so on iOS geometry decides; on
    /// Android the platform's rules already hide such nodes.
    public var trustsVisibilityFlags: Bool

    /// Options with the given values; the defaults take everything from the
    /// input.
    public init(platform: Platform? = nil, density: CGFloat? = nil, trustsVisibilityFlags: Bool = false) {
        self.platform = platform
        self.density = density
        self.trustsVisibilityFlags = trustsVisibilityFlags
    }

    /// Checks the options' own values.
    ///
    /// - Throws: `TreeError` (`.validation`, key `density`) when `density`
    ///   is given but not a finite number > 0.
    func validate() throws(TreeError) {
        if let density, let problem = ValueRules.scaleProblem(Double(density)) {
            throw TreeError(.validation, "the density \(problem)", key: "density")
        }
    }

    /// Whether a node with this visibility flag is hidden.
    @inline(__always)
    func hides(visibleInSnapshot: Bool?) -> Bool {
        trustsVisibilityFlags && visibleInSnapshot == false
    }

    /// Applies the options to a tree as read: the platform, the density, and
    /// for an `axhit/1` tree (`flagsApplied` false) the visibility flags
    /// (importers apply them as they build).
    ///
    /// - Complexity: O(1), or O(n) for `axhit/1` with `trustsVisibilityFlags`.
    func apply(to tree: inout ElementTree, flagsApplied: Bool) throws(TreeError) {
        if let platform { tree.platform = platform }
        if let density, tree.platform == .android, tree.screenScale == nil { tree.screenScale = density }
        guard trustsVisibilityFlags, !flagsApplied else { return }
        for id in tree.preOrder where tree.visibleInSnapshot(id) == false {
            var node = tree.nodeValue(id)
            if node.kind == .view { node.isHidden = true } else { node.accessibilityElementsHidden = true }
            try tree.update(id, to: node)
        }
    }
}
