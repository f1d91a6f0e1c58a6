import Foundation

/// The tree-level rule on `accessibilityElements` (tree-format.md: "each id
/// names a node of its subtree"), which a node alone cannot check: every id
/// names a node of the tree that is a proper descendant of the view, and no
/// id comes twice in one list. A view that lists itself would make its group
/// contain itself (a cycle); since every other id must be deeper in the tree,
/// nested explicit groups cannot form a cycle once this holds.
extension ElementTree {
    /// Checks the `accessibilityElements` of every view (see above). The
    /// readers call it once a tree is built; `HitTester.navigationOrder()`
    /// calls it too, whatever the tree was built by.
    ///
    /// - Complexity: O(n) to find the lists, plus O(depth) per listed id.
    /// - Throws: `TreeError` (`.validation`) naming the first view at fault
    ///   (in slot order: pre-order for a tree read from a file) and the key
    ///   `accessibilityElements`.
    public func validateAccessibilityElements() throws(TreeError) {
        for (slot, s) in sideSlots.lazy.map(\.extra).enumerated() where s >= 0 && flags[slot].contains(.alive) {
            guard extras[s].accessibilityElements != nil else { continue }
            if let problem = accessibilityElementsProblem(of: nodeID(slot)) { throw problem }
        }
    }

    /// What is wrong with the `accessibilityElements` of `view`, or nil when
    /// it has none or they are valid. O(list × depth).
    func accessibilityElementsProblem(of view: NodeID) -> TreeError? {
        guard let list = extrasOf(view)?.accessibilityElements else { return nil }
        func problem(_ message: String) -> TreeError {
            TreeError(.validation, message, node: id(of: view), key: "accessibilityElements")
        }
        var seen = Set<String>()
        seen.reserveCapacity(list.count)
        for name in list {
            guard seen.insert(name).inserted else { return problem("lists \"\(name)\" twice") }
            guard let n = node(withID: name) else { return problem("lists \"\(name)\", which no node has") }
            if n == view { return problem("lists the view itself: its group would contain itself (a cycle)") }
            guard isDescendant(n, of: view) else {
                return problem("lists \"\(name)\", which is not in this view's subtree")
            }
        }
        return nil
    }
}
