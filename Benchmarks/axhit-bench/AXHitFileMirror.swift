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
    /// `accessibilityTraits`: an array of trait names (what the library
    /// writes) or an integer bit mask; tree-format.md allows both.
    enum TraitsMirror: Decodable {
        case names([String])
        case mask(UInt64)

        init(from decoder: Decoder) throws {
            let value = try decoder.singleValueContainer()
            if let mask = try? value.decode(UInt64.self) {
                self = .mask(mask)
            } else {
                self = .names(try value.decode([String].self))
            }
        }
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
        var accessibilityTraits: TraitsMirror?
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
