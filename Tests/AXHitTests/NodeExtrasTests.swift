import Foundation
import Testing

@testable import AXHit

/// `NodeExtras.areDefault(in:)` lists the defaults field by field (the
/// builder asks it for every node, so that a node without rare properties
/// never has its extras made): a default node has none, and each of the
/// node's rare properties moved off its default, one at a time, makes one.
@Suite struct NodeExtrasTests {
    @Test func everyFieldCounts() {
        #expect(NodeExtras.areDefault(in: Node.view("v", frame: .zero)))
        #expect(NodeExtras.areDefault(in: Node.element("e")))
        let square = AccessibilityPath(BezierPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1)))
        let changes: [(String, (inout Node) -> Void)] = [
            ("alpha", { $0.alpha = 0.5 }),
            ("label", { $0.accessibilityLabel = "" }),
            ("value", { $0.accessibilityValue = "v" }),
            ("hint", { $0.accessibilityHint = "h" }),
            ("identifier", { $0.accessibilityIdentifier = "i" }),
            ("language", { $0.accessibilityLanguage = "fr" }),
            ("traits", { $0.accessibilityTraits = .button }),
            ("accessibilityFrame", { $0.accessibilityFrame = .zero }),
            ("frameInContainerSpace", { $0.accessibilityFrameInContainerSpace = .zero }),
            ("activationPoint", { $0.accessibilityActivationPoint = .zero }),
            ("path", { $0.accessibilityPath = square }),
            ("navigationStyle", { $0.accessibilityNavigationStyle = .combined }),
            ("accessibilityElements", { $0.accessibilityElements = [] }),
            ("containerType", { $0.accessibilityContainerType = .list }),
            ("visibleInSnapshot", { $0.visibleInSnapshot = true }),
            ("actions", { $0.actions = .click }),
        ]
        for (name, change) in changes {
            var node = Node.view("v", frame: .zero)
            change(&node)
            #expect(!NodeExtras.areDefault(in: node), "\(name)")
            // The extras made of it agree: the field did move off its default.
            #expect(NodeExtras(of: node) != NodeExtras(), "\(name)")
        }
        // Every stored field is covered.
        #expect(changes.count == Mirror(reflecting: NodeExtras()).children.count)
    }
}
