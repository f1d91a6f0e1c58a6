import Foundation
import Testing

@testable import AXHit

/// The engine's element reads (`element`, lookups, `exposedElements`), checked
/// against geometry worked out by hand, through scrolls and updates.
@Suite struct ElementReadingTests {
    /// A window, a list scrolled by 120 holding two rows, a labelled button
    /// in the first row, and a hidden element.
    static func screen() throws -> (HitTester, list: NodeID, row: NodeID, button: NodeID) {
        var tree = ElementTree()
        let window = try tree.append(.view("window", frame: CGRect(x: 0, y: 0, width: 390, height: 844)), under: .none)
        var list = Node.view("list", frame: CGRect(x: 0, y: 100, width: 390, height: 500))
        list.bounds = CGRect(x: 0, y: 120, width: 390, height: 500)
        let listID = try tree.append(list, under: window)
        let row = try tree.append(.view("row", frame: CGRect(x: 0, y: 176, width: 390, height: 88)), under: listID)
        var button = Node.view("play", frame: CGRect(x: 300, y: 20, width: 80, height: 48))
        button.isAccessibilityElement = true
        button.accessibilityLabel = "Play"
        button.accessibilityIdentifier = "playButton"
        button.accessibilityTraits = .button
        let buttonID = try tree.append(button, under: row)
        var second = Node.view("row2", frame: CGRect(x: 0, y: 264, width: 390, height: 88))
        second.isAccessibilityElement = true
        second.accessibilityIdentifier = "row"
        try tree.append(second, under: listID)
        var hidden = Node.element("ghost")
        hidden.accessibilityElementsHidden = true
        hidden.accessibilityIdentifier = "row"
        try tree.append(hidden, under: window)
        return (HitTester(tree), listID, row, buttonID)
    }

    @Test func readsAnElementsScreenGeometryAndProperties() throws {
        let (engine, _, _, button) = try Self.screen()
        let e = try #require(engine.element(button))
        // 100 (list) + 176 (row) - 120 (scroll) + 20 = 176.
        #expect(e.frame == CGRect(x: 300, y: 176, width: 80, height: 48))
        #expect(e.activationPoint == CGPoint(x: 340, y: 200))
        #expect(e.id == "play" && e.description == "play")
        #expect(e.label == "Play" && e.identifier == "playButton" && e.traits == .button && e.isExposed)
        #expect(engine.element(withID: "play") == e)
        #expect(engine.hit(CGPoint(x: 340, y: 200)).flatMap(engine.element)?.id == "play")
    }

    @Test func followsAScrollWithoutARebuild() throws {
        var (engine, list, _, button) = try Self.screen()
        try engine.scroll(list, to: CGPoint(x: 0, y: 0))
        #expect(engine.accessibilityFrame(of: button) == CGRect(x: 300, y: 296, width: 80, height: 48))
        #expect(engine.element(button)?.activationPoint == CGPoint(x: 340, y: 320))
    }

    @Test func findsNodesByAccessibilityIdentifierAcrossUpdates() throws {
        var (engine, _, _, button) = try Self.screen()
        #expect(engine.elements(withAccessibilityIdentifier: "row").map(\.id) == ["row2", "ghost"])
        #expect(engine.elements(withAccessibilityIdentifier: "playButton").map(\.id) == ["play"])
        let snapshot = engine  // a copy keeps answering for the tree it saw
        var renamed = engine.tree[button]!
        renamed.accessibilityIdentifier = "row"
        try engine.update(button, to: renamed)
        #expect(engine.elements(withAccessibilityIdentifier: "row").map(\.id) == ["play", "row2", "ghost"])
        #expect(engine.elements(withAccessibilityIdentifier: "playButton").isEmpty)
        #expect(snapshot.elements(withAccessibilityIdentifier: "playButton").map(\.id) == ["play"])
        try engine.removeSubtree(button)
        #expect(engine.elements(withAccessibilityIdentifier: "row").map(\.id) == ["row2", "ghost"])
        #expect(engine.element(button) == nil && engine.accessibilityFrame(of: button) == nil)
    }

    @Test func listsTheExposedElementsInPreOrder() throws {
        var (engine, _, row, _) = try Self.screen()
        #expect(Array(engine.exposedElements).map(engine.tree.id(of:)) == ["play", "row2"])
        #expect(engine.exposedElements.count == 2)
        var hidden = engine.tree[row]!
        hidden.isHidden = true
        try engine.update(row, to: hidden)
        #expect(Array(engine.exposedElements).map(engine.tree.id(of:)) == ["row2"])
        #expect(engine.exposedElements.count == 1)
    }

    @Test func batchesAnswerAlikeOnAnyNumberOfThreads() throws {
        let (engine, _, _, _) = try Self.screen()
        let points = (0 ..< 2000).map { CGPoint(x: Double($0 % 400), y: Double($0 % 700) + 50) }
        let serial = points.map { engine.hit($0) }
        #expect(serial.contains { $0 != nil })
        #expect(engine.hit(points) == serial)
        #expect(engine.hit(points, threads: 1) == serial)
        #expect(engine.hit(points, threads: 3) == serial)
    }

    /// Each of the nine view properties, set alone on an element node, is
    /// refused under its own key; set with every one after it, the first
    /// in the format's key order is named; at their defaults the node is
    /// taken.
    @Test func anElementNodeRefusesViewProperties() throws {
        let setters: [(String, (inout Node) -> Void)] = [
            ("frame", { $0.frame = CGRect(x: 0, y: 0, width: 1, height: 0) }),
            ("bounds", { $0.bounds = .zero }),
            ("transform", { $0.transform = CGAffineTransform(translationX: 1, y: 0) }),
            ("clipsToBounds", { $0.clipsToBounds = true }),
            ("isHidden", { $0.isHidden = true }),
            ("alpha", { $0.alpha = 0.5 }),
            ("isUserInteractionEnabled", { $0.isUserInteractionEnabled = false }),
            ("isWindow", { $0.isWindow = true }),
            ("accessibilityElements", { $0.accessibilityElements = [] }),
        ]
        var tree = ElementTree()
        let root = try tree.append(.view("w", frame: CGRect(x: 0, y: 0, width: 10, height: 10)), under: .none)
        for (key, set) in setters {
            var e = Node.element("e")
            set(&e)
            #expect(
                throws: TreeError(.validation, "element nodes have no \(key) (a view property)", node: "e", key: key)
            ) { try tree.append(e, under: root) }
        }
        for first in setters.indices {
            var e = Node.element("e")
            for (_, set) in setters[first...] { set(&e) }
            let key = setters[first].0
            let error = TreeError(.validation, "element nodes have no \(key) (a view property)", node: "e", key: key)
            #expect(throws: error) { try tree.append(e, under: root) }
        }
        #expect(tree.count == 1)
        try tree.append(.element("e"), under: root)
        #expect(tree.count == 2)
    }
}
