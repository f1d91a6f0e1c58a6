import Foundation

/// What the UIKit view properties of the format mean (`isHidden`, `alpha`,
/// `accessibilityViewIsModal`), in one place for every layer and every
/// platform that reads them. A platform adds its own facts on top
/// (`PlatformRules.isHiddenItself`); it does not restate these. (What
/// `accessibilityElementsHidden` and `isUserInteractionEnabled` add is
/// `PlatformRules.hidesFromAccessibility` and `refusesTouch`.)
enum ViewRules {
    /// Below this alpha a view counts as hidden (UIKit's hit-testing
    /// threshold, which accessibility follows).
    static let minimumVisibleAlpha: CGFloat = 0.01

    /// Whether a view's own properties hide it and its subtree from sight
    /// and touch: `isHidden`, or alpha below 0.01.
    @inline(__always)
    static func isHiddenItself(_ n: NodeID, in tree: ElementTree) -> Bool {
        tree.has(.hidden, n) || tree.alpha(of: n) < minimumVisibleAlpha
    }

    /// Whether some child of `node` has `accessibilityViewIsModal`, visible
    /// or not. O(children).
    static func hasModalChild(_ node: NodeID, in tree: ElementTree) -> Bool {
        var c = tree.firstChildren[node.index]
        while !c.isNone && !tree.has(.modal, c) { c = tree.nextSiblings[c.index] }
        return !c.isNone
    }

    /// The frontmost child of `node` that has `accessibilityViewIsModal` and
    /// that `rules` does not hide from accessibility: it suppresses all its
    /// siblings (and their subtrees). `.none` when there is none.
    /// O(children).
    static func frontmostModalChild<Rules: PlatformRules>(
        of node: NodeID, in tree: ElementTree, rules: Rules
    ) -> NodeID {
        var s = tree.backLinks[node.index].lastChild
        while !s.isNone {
            if tree.has(.modal, s) && !rules.hidesFromAccessibility(s, in: tree) { return s }
            s = tree.backLinks[s.index].previousSibling
        }
        return .none
    }
}
