import AXHit
import CommandLineSupport
import Foundation

/// Writes a tree as `axhit/1` JSON text for the load benchmark.
///
/// The library's own writer (`ElementTree.axhitJSON()`) is on another branch;
/// once merged, `data(for:)` can call it instead. This one writes the keys the
/// generators use (and the common ones importers set), iteratively, so any
/// depth is fine.
enum AXHitJSONText {
    static func data(for tree: ElementTree) -> Data {
        var out = "{\"format\":\"axhit/1\""
        if let b = tree.screenBounds { out += ",\"screen\":{\"bounds\":\(rect(b))}" }
        out += ",\"root\":"
        // Open nodes, innermost last, and whether each has begun `children`.
        var open: [(id: NodeID, hasChildren: Bool)] = []
        func close() {
            guard let last = open.popLast() else { return }
            out += last.hasChildren ? "]}" : "}"
        }
        tree.forEachInPreOrder(from: tree.root) { id in
            let parent = tree.parent(of: id)
            while let last = open.last, last.id != parent { close() }
            if !open.isEmpty {
                out += open[open.count - 1].hasChildren ? "," : ",\"children\":["
                open[open.count - 1].hasChildren = true
            }
            out += object(tree[id])
            open.append((id, false))
        }
        while !open.isEmpty { close() }
        out += "}"
        return Data(out.utf8)
    }

    /// The node's keys, without the closing brace (children may follow).
    private static func object(_ n: Node) -> String {
        var s = "{\"id\":\(JSONText.string(n.id))"
        if n.kind == .element {
            s += ",\"kind\":\"element\""
        } else {
            s += ",\"frame\":\(rect(n.frame))"
            if let b = n.bounds { s += ",\"bounds\":\(rect(b))" }
            if n.transform != .identity {
                let t = n.transform
                s += ",\"transform\":" + JSONText.numbers([t.a, t.b, t.c, t.d, t.tx, t.ty].map { Double($0) })
            }
            if n.clipsToBounds { s += ",\"clipsToBounds\":true" }
            if n.isHidden { s += ",\"isHidden\":true" }
            if n.alpha != 1 { s += ",\"alpha\":\(JSONText.number(Double(n.alpha)))" }
            if !n.isUserInteractionEnabled { s += ",\"isUserInteractionEnabled\":false" }
            if n.isAccessibilityElement { s += ",\"isAccessibilityElement\":true" }
        }
        if n.kind == .element && !n.isAccessibilityElement { s += ",\"isAccessibilityElement\":false" }
        if let v = n.accessibilityLabel { s += ",\"accessibilityLabel\":\(JSONText.string(v))" }
        if let v = n.accessibilityValue { s += ",\"accessibilityValue\":\(JSONText.string(v))" }
        if let v = n.accessibilityIdentifier { s += ",\"accessibilityIdentifier\":\(JSONText.string(v))" }
        if !n.accessibilityTraits.isEmpty { s += ",\"accessibilityTraits\":\(n.accessibilityTraits.rawValue)" }
        if let r = n.accessibilityFrame { s += ",\"accessibilityFrame\":\(rect(r))" }
        if let r = n.accessibilityFrameInContainerSpace { s += ",\"accessibilityFrameInContainerSpace\":\(rect(r))" }
        if let p = n.accessibilityPath {
            s += ",\"accessibilityPath\":{\"d\":\(JSONText.string(p.path.svgPathData))"
            if p.path.fillRule == .evenOdd { s += ",\"usesEvenOddFillRule\":true" }
            if p.coordinateSpace == .view { s += ",\"coordinateSpace\":\"view\"" }
            s += "}"
        }
        if n.accessibilityElementsHidden { s += ",\"accessibilityElementsHidden\":true" }
        if n.accessibilityViewIsModal { s += ",\"accessibilityViewIsModal\":true" }
        return s
    }

    private static func rect(_ r: CGRect) -> String {
        JSONText.numbers([Double(r.minX), Double(r.minY), Double(r.width), Double(r.height)])
    }
}

/// A Codable mirror of `axhit/1` for Foundation's JSONDecoder: the load
/// benchmark's baseline decodes the same file into it (plain values, no
/// validation, no tree building: a lower bound for a Codable reader).
struct AXHitFileMirror: Decodable {
    struct Screen: Decodable {
        var bounds: [Double]?
        var scale: Double?
    }
    struct PathMirror: Decodable {
        var d: String
        var usesEvenOddFillRule: Bool?
        var coordinateSpace: String?
    }
    struct NodeMirror: Decodable {
        var id: String
        var kind: String?
        var frame: [Double]?
        var bounds: [Double]?
        var transform: [Double]?
        var clipsToBounds: Bool?
        var isHidden: Bool?
        var alpha: Double?
        var isUserInteractionEnabled: Bool?
        var isAccessibilityElement: Bool?
        var accessibilityLabel: String?
        var accessibilityValue: String?
        var accessibilityIdentifier: String?
        var accessibilityTraits: UInt64?
        var accessibilityFrame: [Double]?
        var accessibilityFrameInContainerSpace: [Double]?
        var accessibilityPath: PathMirror?
        var accessibilityElementsHidden: Bool?
        var accessibilityViewIsModal: Bool?
        var children: [NodeMirror]?
    }
    var format: String
    var screen: Screen?
    var root: NodeMirror

    /// The number of nodes (iterative: the mirror may be deep).
    var nodeCount: Int {
        var count = 0
        var stack: [NodeMirror] = [root]
        while let n = stack.popLast() {
            count += 1
            stack.append(contentsOf: n.children ?? [])
        }
        return count
    }
}
