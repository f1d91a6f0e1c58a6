import AXHit
import Foundation

/// A family of generated screens: given an element count and a seed, always
/// the same tree (SplitMix64, no other randomness), so that a baseline run and
/// a later run measure the same data.
protocol Workload: Sendable {
    /// The `<workload>` half of a benchmark name.
    var name: String { get }
    /// One line for `--help`.
    var summary: String { get }
    /// The largest element count it builds (structure or memory caps); larger
    /// requests are skipped with a note.
    var maxElements: Int { get }
    /// Whether `load/<name>` applies: Foundation's JSONDecoder refuses deep
    /// nesting, so the chain cannot be compared.
    var supportsLoad: Bool { get }
    /// The points `cli-hit/<name>` answers when the run asks for `requested`
    /// at `elements`: all of them, unless one point's work grows with the
    /// tree (the chain's).
    func cliPoints(_ requested: Int, elements: Int) -> Int
    /// A tree of about `elements` nodes (exactly the same for the same
    /// arguments), and the screen rect query points are drawn from.
    func generate(elements: Int, seed: UInt64, options: WorkloadOptions) throws -> GeneratedScreen
}

extension Workload {
    var maxElements: Int { Int.max }
    var supportsLoad: Bool { true }
    func cliPoints(_ requested: Int, elements: Int) -> Int { requested }
}

/// What a workload may need beyond count and seed.
struct WorkloadOptions: Sendable {
    /// The directory of real screens for `corpus`.
    var corpusDirectory: URL
}

/// A generated tree and where to query it.
struct GeneratedScreen {
    var tree: ElementTree
    /// Screen coordinates; query points are uniform in it.
    var queryArea: CGRect
    /// The scroll views `scroll/<workload>` scrolls (none: not measured).
    var scrollViews: [ScrollView] = []
}

/// A scrolling view and how far it scrolls.
struct ScrollView {
    var id: NodeID
    /// The largest bounds origin (content size minus the view's size).
    var maxOffset: CGPoint
}

/// Every workload, in report order. A new one is one more entry.
let allWorkloads: [any Workload] = [
    GridWorkload(), SquareWorkload(), FlatWorkload(), NestedWorkload(), ListWorkload(),
    PathsWorkload(), RotatedWorkload(), ChainWorkload(), CorpusWorkload(), AndroidWorkload(),
]

/// Appends nodes with short sequential ids (`n0`, `n1`, ...: at most 15 UTF-8
/// bytes, so Swift stores them inline and a 10M-node tree stays small).
struct TreeBuilder {
    private(set) var tree = ElementTree()
    private var counter = 0

    init(capacity: Int) { tree.reserveCapacity(capacity) }

    /// Makes the tree one of `platform`'s (before any node is appended).
    mutating func platform(_ platform: Platform) {
        tree.platform = platform
        tree.source = .snapshot
    }

    /// The number of nodes appended so far.
    var count: Int { counter }

    /// A fresh id.
    mutating func nextID() -> String {
        defer { counter += 1 }
        return "n\(counter)"
    }

    /// Appends a view with `frame` under `parent` (`.none`: the root), after
    /// `configure` has set its other properties.
    @discardableResult
    mutating func view(
        _ frame: CGRect, under parent: NodeID, accessible: Bool = false,
        _ configure: (inout Node) -> Void = { _ in }
    ) throws(TreeError) -> NodeID {
        var node = Node.view(nextID(), frame: frame)
        node.isAccessibilityElement = accessible
        configure(&node)
        return try tree.append(node, under: parent)
    }

    /// Appends an accessibility element whose frame is `frame` in its
    /// container's bounds space.
    @discardableResult
    mutating func element(
        inContainer frame: CGRect, under parent: NodeID,
        _ configure: (inout Node) -> Void = { _ in }
    ) throws(TreeError) -> NodeID {
        var node = Node.element(nextID())
        node.accessibilityFrameInContainerSpace = frame
        configure(&node)
        return try tree.append(node, under: parent)
    }

    /// Changes the frame of a view already appended (in place: no copy of the tree).
    mutating func setFrame(of id: NodeID, to frame: CGRect) throws(TreeError) {
        var node = try tree.node(id)
        node.frame = frame
        try tree.update(id, to: node)
    }

    /// Appends a node as it is, with a fresh id.
    @discardableResult
    mutating func copy(_ original: Node, under parent: NodeID) throws(TreeError) -> NodeID {
        var node = original
        node.id = nextID()
        return try tree.append(node, under: parent)
    }
}
