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
            ("checked", { $0.checked = false }),
            ("importantForAccessibility", { $0.importantForAccessibility = false }),
            ("className", { $0.className = "android.widget.TextView" }),
            ("packageName", { $0.packageName = "com.example" }),
            ("accessibilityIndex", { $0.accessibilityIndex = 0 }),
            ("labelIsText", { $0.labelIsText = true }),
            ("isPassword", { $0.isPassword = true }),
        ]
        for (name, change) in changes {
            var node = Node.view("v", frame: .zero)
            change(&node)
            #expect(!NodeExtras.areDefault(in: node), "\(name)")
            // The extras made of it agree: the field did move off its default.
            #expect(NodeExtras(of: node) != NodeExtras(), "\(name)")
        }
        // Every stored field is covered: the inline ones and the boxes'.
        let stored = Mirror(reflecting: NodeExtras()).children.map(\.label)
        #expect(stored.contains("texts") && stored.contains("geometry"))
        let inline = stored.count - 2
        let boxed =
            Mirror(reflecting: NodeExtras.Texts.defaults).children.count
            + Mirror(reflecting: NodeExtras.Geometry.defaults).children.count
        #expect(changes.count == inline + boxed)
    }

    /// The inline part is 40 bytes: a node with a trait alone stores no
    /// more (the flat record of every field took 232).
    @Test func theInlinePartIsFortyBytes() {
        #expect(MemoryLayout<NodeExtras>.stride == 40)
    }

    /// Copies share boxes and a write copies the box it changes: the copy
    /// keeps its values.
    @Test func copiesAreIndependent() {
        var a = NodeExtras()
        a.label = "A"
        a.frameInContainerSpace = CGRect(x: 1, y: 2, width: 3, height: 4)
        var b = a
        b.label = "B"
        b.hint = "h"
        b.frameInContainerSpace = nil
        b.activationPoint = CGPoint(x: 5, y: 6)
        #expect(a.label == "A" && a.hint == nil)
        #expect(a.frameInContainerSpace == CGRect(x: 1, y: 2, width: 3, height: 4) && a.activationPoint == nil)
        #expect(b.label == "B" && b.hint == "h")
        #expect(b.frameInContainerSpace == nil && b.activationPoint == CGPoint(x: 5, y: 6))
        // Writing a value back makes the two equal again, field by field.
        b.label = "A"
        b.hint = nil
        b.frameInContainerSpace = CGRect(x: 1, y: 2, width: 3, height: 4)
        b.activationPoint = nil
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
    }

    /// Values set and cleared again leave extras equal to the defaults, with
    /// the same hash, whether or not a box was made on the way.
    @Test func clearedValuesEqualTheDefaults() {
        var e = NodeExtras()
        e.identifier = "id"
        e.path = AccessibilityPath(BezierPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1)))
        #expect(e != NodeExtras())
        e.identifier = nil
        e.path = nil
        #expect(e == NodeExtras())
        #expect(e.hashValue == NodeExtras().hashValue)
        // Clearing an unset value makes no box, and changes nothing.
        var f = NodeExtras()
        f.label = nil
        f.accessibilityFrame = nil
        #expect(f == NodeExtras())
        #expect(f.label == nil && f.accessibilityFrame == nil)
    }
}
