import AXHit
import CommandLineSupport
import Foundation


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
