import Foundation

extension ElementTree {
    /// Reads an `axhit/1` JSON document (tree-format.md): `format`, the
    /// optional `screen` (stored in `screenBounds` and `screenScale`) and the
    /// `root` view with every node under it.
    ///
    /// Nodes get `NodeID`s in pre-order: the root is `NodeID(0)`, and every
    /// node comes after its parent and its earlier siblings' subtrees. Keys
    /// the format does not define are ignored (but must be valid JSON).
    /// Nesting depth is bounded only by memory.
    ///
    /// - Parameters:
    ///   - data: the document, UTF-8 (a leading byte order mark is skipped).
    ///   - file: the name to put in errors (as the user named the file).
    /// - Complexity: O(n) in the size of `data`, in one streaming pass (no
    ///   intermediate JSON object graph); memory is the tree plus O(depth).
    /// - Throws: `TreeError` with `file` and the line of the offending value,
    ///   plus the node's `id` (or its position, e.g. `(child 3 of "list")`,
    ///   when it has none) and the key where they apply: for input that is
    ///   not JSON (empty, truncated, trailing data, invalid UTF-8, bad
    ///   escapes or lone surrogates), a wrong or missing `format`, a missing
    ///   `root`, `id` or view `frame`, a duplicate `id` or key, a value of
    ///   the wrong type, a non-finite number, a negative size, a malformed
    ///   rect, point or transform, `alpha` outside 0...1, an unknown kind,
    ///   trait name, navigation style or coordinate space, an
    ///   `accessibilityElements` list naming a node that is not in its view's
    ///   subtree (or the view itself) or an id twice, a trait mask that
    ///   is not an integer in 0..<2^64, path data that does not parse (key
    ///   `accessibilityPath.d`), a view property on an element node, or a
    ///   view under an element node.
    public init(axhitJSON data: Data, file: String? = nil) throws(TreeError) {
        let result: Result<ElementTree, TreeError> = data.withUnsafeBytes { raw in
            do throws(TreeError) {
                return .success(try AXHitJSONReader.read(raw.bindMemory(to: UInt8.self)))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case let .success(tree):
            // Explicit orders name other nodes: checked once the whole tree is read.
            do { try tree.validateAccessibilityElements() } catch { throw error.located(file: file) }
            self = tree
        case let .failure(error): throw error.located(file: file)
        }
    }

    /// This tree as an `axhit/1` JSON document, UTF-8.
    ///
    /// Deterministic: one node per line in pre-order, indented by depth,
    /// keys in a fixed order, and only properties that differ from their
    /// defaults (`bounds` only when given explicitly; traits as names, or as
    /// the integer mask when bits without a name are set). Numbers are
    /// written in their shortest form that reads back exactly, so
    /// `ElementTree(axhitJSON:)` restores an equal tree: every node equal,
    /// same structure, same pre-order ids.
    ///
    /// Element nodes are written without view properties (`frame`, `bounds`,
    /// `transform`, `clipsToBounds`, `isHidden`, `alpha`,
    /// `isUserInteractionEnabled`), which the format does not have for them.
    /// An empty tree is written without a `root`, which reading rejects.
    ///
    /// - Complexity: O(n) in the nodes, their strings and their paths.
    public func axhitJSON() -> Data {
        Data(AXHitJSONWriter.write(self))
    }
}
