import AXHit
import Foundation

/// Real screens tiled into a large canvas: every page source in the corpus
/// directory that imports, copied again and again (nodes renamed) side by
/// side, each copy under a tile view at its place in the canvas, until the
/// element count is reached.
struct CorpusWorkload: Workload {
    let name = "corpus"
    let summary = "real corpus screens (iOS and Android page sources) tiled into a canvas"

    struct Screen {
        var tree: ElementTree
        var order: [NodeID]
        var size: CGSize
    }

    func generate(elements: Int, seed: UInt64, options: WorkloadOptions) throws -> GeneratedScreen {
        var rng = SplitMix64(seed: seed)
        let screens = try Self.load(options.corpusDirectory)
        let pitchW = (screens.map(\.size.width).max() ?? 390) + 10
        let pitchH = (screens.map(\.size.height).max() ?? 844) + 10
        let meanCount = max(1, screens.map(\.order.count).reduce(0, +) / screens.count)
        let tiles = max(1, elements / (meanCount + 1))
        let columns = max(1, Int(Double(tiles).squareRoot().rounded(.up)))
        let width = Double(columns) * Double(pitchW)
        var b = TreeBuilder(capacity: elements + meanCount * 2)
        // Sized once the tiles are placed.
        let window = try b.view(CGRect(x: 0, y: 0, width: width, height: 0), under: .none)
        var t = 0
        // Stop at the requested count (the last tile may overshoot a little).
        while b.count < elements {
            let screen = screens[rng.below(screens.count)]
            let origin = CGPoint(x: Double(t % columns) * Double(pitchW), y: Double(t / columns) * Double(pitchH))
            let tile = try b.view(CGRect(origin: origin, size: screen.size), under: window)
            var mapped = [NodeID](repeating: .none, count: screen.tree.capacity)
            for id in screen.order {
                var node = try screen.tree.node(id)
                let parent = screen.tree.parent(of: id)
                if parent.isNone {
                    // The imported root's frame is in screen coordinates; the tile places it.
                    node.frame.origin = .zero
                }
                if node.accessibilityFrame != nil || node.accessibilityActivationPoint != nil
                    || node.accessibilityPath != nil
                {
                    // Screen-space values would not follow the tile: drop them
                    // (importers set none of them today).
                    node.accessibilityFrame = nil
                    node.accessibilityActivationPoint = nil
                    node.accessibilityPath = nil
                }
                mapped[id.index] = try b.copy(node, under: parent.isNone ? tile : mapped[parent.index])
            }
            t += 1
        }
        let height = Double((t + columns - 1) / columns) * Double(pitchH)
        try b.setFrame(of: window, to: CGRect(x: 0, y: 0, width: width, height: height))
        return GeneratedScreen(tree: b.tree, queryArea: CGRect(x: 0, y: 0, width: width, height: height))
    }

    /// The XML and JSON files in `directory`, recursively, sorted by path.
    static func files(_ directory: URL) throws -> [URL] {
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
            throw BenchError("cannot read corpus directory \(directory.path)")
        }
        var files: [URL] = []
        for case let url as URL in walker where ["xml", "json"].contains(url.pathExtension) { files.append(url) }
        return files.sorted { $0.path < $1.path }
    }

    /// Every file in `directory` (recursively, sorted by path so the order is
    /// stable) that imports as a tree.
    static func load(_ directory: URL) throws -> [Screen] {
        var screens: [Screen] = []
        for url in try files(directory) {
            guard let data = try? Data(contentsOf: url),
                let tree = try? ElementTree(contentsOf: data, file: url.lastPathComponent),
                !tree.root.isNone
            else { continue }
            guard let root = tree[tree.root]?.frame else { continue }
            screens.append(
                Screen(
                    tree: tree, order: tree.preOrder,
                    size: CGSize(width: max(root.width, 1), height: max(root.height, 1))))
        }
        if screens.isEmpty {
            throw BenchError("no importable screen in corpus directory \(directory.path) (--corpus DIR)")
        }
        return screens
    }
}
