import Synchronization

/// The table from `accessibilityIdentifier` to nodes, built on the first
/// lookup and kept until the tree changes. A reference shared by copies of
/// a tree: a change of the tree that holds a shared one replaces it
/// (`ElementTree.identifiersChanged`), so that a table always describes
/// every tree that shares it (same generation, same nodes).
final class IdentifierIndex: Sendable {
    private let table = Mutex<(generation: UInt64, nodes: [String: [NodeID]])?>(nil)

    /// The nodes with `identifier` in the tree at `generation`, building the
    /// table with `build` when it describes another generation.
    func nodes(
        withIdentifier identifier: String, generation: UInt64,
        build: () -> [String: [NodeID]]
    ) -> [NodeID] {
        table.withLock { cached in
            if let cached, cached.generation == generation { return cached.nodes[identifier] ?? [] }
            let nodes = build()
            cached = (generation, nodes)
            return nodes[identifier] ?? []
        }
    }
}
