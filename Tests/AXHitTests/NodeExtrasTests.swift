import Foundation
import Testing

@testable import AXHit

/// `NodeExtras.isDefault` lists the defaults field by field (the builder
/// asks it for every node): a default value is default, and each field
/// moved off its default, one at a time, is not.
@Suite struct NodeExtrasTests {
    @Test func everyFieldCounts() {
        #expect(NodeExtras().isDefault)
        let changes: [(String, (inout NodeExtras) -> Void)] = [
            ("alpha", { $0.alpha = 0.5 }),
            ("label", { $0.label = "" }),
            ("value", { $0.value = "v" }),
            ("hint", { $0.hint = "h" }),
            ("identifier", { $0.identifier = "i" }),
            ("language", { $0.language = "fr" }),
            ("traits", { $0.traits = .button }),
            ("accessibilityFrame", { $0.accessibilityFrame = .zero }),
            ("frameInContainerSpace", { $0.frameInContainerSpace = .zero }),
            ("activationPoint", { $0.activationPoint = .zero }),
            ("path", { $0.path = AccessibilityPath(BezierPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1))) }),
            ("navigationStyle", { $0.navigationStyle = .combined }),
            ("accessibilityElements", { $0.accessibilityElements = [] }),
            ("containerType", { $0.containerType = .list }),
            ("visibleInSnapshot", { $0.visibleInSnapshot = true }),
            ("actions", { $0.actions = .click }),
        ]
        for (name, change) in changes {
            var e = NodeExtras()
            change(&e)
            #expect(!e.isDefault, "\(name)")
            // The derived equality agrees: the field did move off its default.
            #expect(e != NodeExtras(), "\(name)")
        }
        // Every stored field is covered.
        #expect(changes.count == Mirror(reflecting: NodeExtras()).children.count)
    }
}
