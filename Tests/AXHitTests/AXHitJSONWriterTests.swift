import Foundation
import Testing

@testable import AXHit

/// One node as the tree holds it, with its parent's name: what a round trip
/// must keep.
private struct NodeRecord: Hashable {
    let node: Node
    let parent: String?
}

/// The tree in pre-order, with everything a round trip must keep.
private func records(_ tree: ElementTree) -> [NodeRecord] {
    tree.preOrder.map { id in
        let p = tree.parent(of: id)
        return NodeRecord(node: tree[id]!, parent: p.isNone ? nil : tree.id(of: p))
    }
}

private func expectRoundTrip(_ tree: ElementTree, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let data = tree.axhitJSON()
    let back = try ElementTree(axhitJSON: data, file: "round-trip.json")
    #expect(back.count == tree.count, sourceLocation: sourceLocation)
    #expect(back.screenBounds == tree.screenBounds, sourceLocation: sourceLocation)
    #expect(back.screenScale == tree.screenScale, sourceLocation: sourceLocation)
    #expect(back.platform == tree.platform && back.source == tree.source, sourceLocation: sourceLocation)
    #expect(back.idiom == tree.idiom && back.layoutDirection == tree.layoutDirection, sourceLocation: sourceLocation)
    #expect(back.preOrder.map(\.rawValue) == Array(0 ..< Int32(tree.count)), sourceLocation: sourceLocation)
    let a = records(tree), b = records(back)
    #expect(a.count == b.count, sourceLocation: sourceLocation)
    for (x, y) in zip(a, b) where x != y {
        Issue.record("\(x) != \(y)", sourceLocation: sourceLocation)
        break
    }
    // Deterministic: writing the tree read back gives the same bytes.
    #expect(back.axhitJSON() == data, sourceLocation: sourceLocation)
}

@Suite struct AXHitJSONWriterTests {
    @Test func output() throws {
        var tree = ElementTree()
        tree.screenBounds = CGRect(x: 0, y: 0, width: 390, height: 844)
        tree.screenScale = 3
        let w = try tree.append(.view("window", frame: CGRect(x: 0, y: 0, width: 390, height: 844)), under: .none)
        var b = Node.view("b", frame: CGRect(x: 10.5, y: 20, width: 100, height: 44))
        b.isAccessibilityElement = true
        b.accessibilityLabel = "Say \"hi\"\n\\ é\u{1}"
        b.accessibilityTraits = [.button]
        let bid = try tree.append(b, under: w)
        var e = Node.element("e")
        e.accessibilityTraits = AccessibilityTraits(rawValue: 1 << 40 | 1)
        try tree.append(e, under: bid)
        try tree.append(.view("c", frame: CGRect(x: -0.0, y: 0, width: 1e20, height: 0.1)), under: w)
        let text = String(decoding: tree.axhitJSON(), as: UTF8.self)
        #expect(
            text == #"""
                {
                  "format": "axhit/1",
                  "screen": {"bounds": [0, 0, 390, 844], "scale": 3},
                  "root": {"id": "window", "frame": [0, 0, 390, 844], "children": [
                    {"id": "b", "frame": [10.5, 20, 100, 44], "isAccessibilityElement": true, "accessibilityLabel": "Say \"hi\"\n\\ é\u0001", "accessibilityTraits": ["button"], "children": [
                      {"id": "e", "kind": "element", "accessibilityTraits": 1099511627777}
                    ]},
                    {"id": "c", "frame": [-0, 0, 1e+20, 0.1]}
                  ]}
                }

                """#)
        try expectRoundTrip(tree)
    }

    @Test func everyPropertyRoundTrips() throws {
        var tree = ElementTree()
        tree.screenBounds = CGRect(x: 0, y: 0, width: 390.5, height: 844)
        tree.screenScale = 2.625
        var v = Node.view("v \"quoted\" ☃", frame: CGRect(x: 0.1, y: 0.2, width: 0.30000000000000004, height: 1e-7))
        v.bounds = CGRect(x: -5, y: 1e300, width: 3, height: 4)
        v.transform = CGAffineTransform(
            a: 0.7071067811865476, b: 0.7071067811865475, c: -0.7071067811865475,
            d: 0.7071067811865476, tx: 1e-300, ty: -123456789012345.67)
        v.clipsToBounds = true
        v.isHidden = true
        v.alpha = 0.009999999999999998
        v.isUserInteractionEnabled = false
        v.isAccessibilityElement = true
        v.accessibilityLabel = "label\t\u{0}\u{1F}\u{7F}\u{2028}"
        v.accessibilityValue = ""
        v.accessibilityHint = "😀"
        v.accessibilityIdentifier = "id/1"
        v.accessibilityLanguage = "fr-CA"
        v.accessibilityTraits = [.button, .header, .supportsZoom, .toggleButton]
        v.accessibilityFrame = CGRect(x: 1, y: 2, width: 0, height: 0)
        v.accessibilityActivationPoint = CGPoint(x: -1.5, y: 1.7976931348623157e308)
        var path = try BezierPath(svgPathData: "M 0.1 0.2 C 1 2 3 4 5 6 Q 1 1 2 2 L 10 -3.5 Z")
        path.fillRule = .evenOdd
        v.accessibilityPath = AccessibilityPath(path, coordinateSpace: .view)
        v.accessibilityElementsHidden = true
        v.accessibilityViewIsModal = true
        v.shouldGroupAccessibilityChildren = true
        v.accessibilityNavigationStyle = .separate
        let root = try tree.append(v, under: .none)
        var e = Node.element("e")
        e.isAccessibilityElement = false
        e.accessibilityTraits = AccessibilityTraits(rawValue: 1 << 40 | 1 << 63 | 1)
        e.accessibilityFrame = CGRect(x: 5, y: 5, width: 5, height: 5)
        e.accessibilityFrameInContainerSpace = CGRect(x: 1, y: 1, width: 2, height: 2)
        e.accessibilityPath = AccessibilityPath(try BezierPath(svgPathData: "M 1 1 L 2 2 L 1 2 Z"))
        e.accessibilityNavigationStyle = .combined
        let eid = try tree.append(e, under: root)
        try tree.append(.element("e.child"), under: eid)
        var plain = Node.view("plain", frame: .zero)
        plain.accessibilityTraits = AccessibilityTraits(rawValue: UInt64.max)
        try tree.append(plain, under: root)
        try expectRoundTrip(tree)
    }

    /// Seeded random trees, built in random insertion order (so their node
    /// ids are not in pre-order), with random properties.
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func randomTreesRoundTrip(seed: UInt64) throws {
        var rng = SplitMix(seed: seed)
        var tree = ElementTree()
        if rng.next() % 2 == 0 {
            tree.screenBounds = CGRect(x: 0, y: 0, width: randomSize(&rng), height: randomSize(&rng))
            tree.screenScale = 3
        }
        tree.platform = Platform.allCases[Int(rng.next() % 2)]
        tree.source = TreeSource.allCases[Int(rng.next() % 2)]
        if rng.next() % 2 == 0 { tree.idiom = .pad }
        if rng.next() % 2 == 0 { tree.layoutDirection = .rightToLeft }
        var ids = [try tree.append(randomNode("root", kind: .view, &rng), under: .none)]
        for i in 1 ..< 1500 {
            let parent = ids[Int(rng.next() % UInt64(ids.count))]
            let kind: NodeKind = tree.kind(of: parent) == .element || rng.next() % 3 == 0 ? .element : .view
            var sibling = NodeID.none
            let children = tree.children(of: parent)
            if !children.isEmpty && rng.next() % 2 == 0 { sibling = children[Int(rng.next() % UInt64(children.count))] }
            ids.append(try tree.insert(randomNode("n\(i)", kind: kind, &rng), under: parent, before: sibling))
        }
        try expectRoundTrip(tree)
    }

    /// A save and reload gives the same answers: every hit (both policies)
    /// and touch at many points, and the same exposed elements, on random
    /// trees of each platform and source with moderate geometry (views and
    /// element nodes, hidden and translucent views, modal flags, snapshot
    /// facts, windows).
    @Test(arguments: [11, 12, 13, 14, 15, 16] as [UInt64])
    func reloadedTreesGiveTheSameAnswers(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        var facts = SeededRandom(seed: seed &+ 77)
        var tree = ElementTree()
        tree.platform = seed % 2 == 0 ? .ios : .android
        tree.source = seed % 3 == 0 ? .views : .snapshot
        var ids = [try tree.append(.view("root", frame: CGRect(x: 0, y: 0, width: 400, height: 800)), under: .none)]
        for i in 1 ..< 600 {
            let parent = ids[Int(rng.next() % UInt64(ids.count))]
            let kind: NodeKind = tree.kind(of: parent) == .element || rng.chance(0.2) ? .element : .view
            var n = Node(id: "n\(i)", kind: kind)
            if kind == .view {
                // Mostly inside the parent, so that deep nodes stay reachable.
                n.frame = CGRect(
                    x: rng.number(-10 ... 150), y: rng.number(-10 ... 300), width: rng.number(0 ... 250),
                    height: rng.number(0 ... 400))
                if rng.chance(0.1) {
                    n.bounds = CGRect(
                        x: rng.number(-40 ... 40), y: rng.number(-40 ... 40), width: n.frame.width,
                        height: n.frame.height)
                }
                if rng.chance(0.05) { n.transform = CGAffineTransform(rotationAngle: rng.number(-1 ... 1)) }
                n.isHidden = rng.chance(0.05)
                if rng.chance(0.05) { n.alpha = rng.chance(0.5) ? 0 : 0.5 }
                n.isUserInteractionEnabled = !rng.chance(0.1)
                // (Android: the root is the one window, so that the hover
                // reaches the whole tree; a window decides where it holds the point.)
                let window = rng.chance(0.05)
                n.isWindow = window && tree.platform == .ios
            } else if rng.chance(0.7) {
                n.accessibilityFrameInContainerSpace = CGRect(
                    x: rng.number(0 ... 200), y: rng.number(0 ... 200), width: rng.number(0 ... 100),
                    height: rng.number(0 ... 100))
            }
            // The first nodes are the containers most others sit in: an
            // element or a modal flag there would hide most of the tree.
            let container = i < 150
            n.isAccessibilityElement = !container && rng.chance(0.5)
            n.accessibilityElementsHidden = rng.chance(0.02)
            // (UIKit's modal flag, which no Android dump has: on a child of
            // the root it would hide most of an Android tree from the hover.)
            let modal = rng.chance(0.02)
            n.accessibilityViewIsModal = !container && modal && tree.platform == .ios
            if rng.chance(0.3) { n.accessibilityLabel = "label \(i)" }
            if rng.chance(0.1) { n.accessibilityValue = "value" }
            if rng.chance(0.2) { n.visibleInSnapshot = !rng.chance(0.3) }
            if !container && rng.chance(0.3) { n.actions = NodeActions(rawValue: UInt8(rng.next() % 32)) }
            if rng.chance(0.05) { n.accessibilityTraits = .adjustable }
            // The Android facts, from their own generator.
            if facts.chance(0.3) {
                n.className =
                    [
                        "android.widget.TextView", "androidx.recyclerview.widget.RecyclerView",
                        "android.widget.CheckBox",
                    ][Int(facts.next() % 3)]
            }
            if facts.chance(0.1) { n.packageName = "com.example" }
            if facts.chance(0.1) { n.checked = facts.chance(0.5) }
            if facts.chance(0.1) { n.importantForAccessibility = facts.chance(0.5) }
            if facts.chance(0.1) { n.accessibilityIndex = Int(facts.next() % 10) }
            if facts.chance(0.05) { n.actions.insert(.scroll) }
            ids.append(try tree.append(n, under: parent))
        }
        let back = try ElementTree(axhitJSON: tree.axhitJSON(), file: "reloaded.json")
        // Every node's every property, TalkBack's facts included.
        for id in tree.preOrder {
            #expect(tree[id] == back.node(withID: tree.id(of: id)).flatMap { back[$0] }, "\(tree.id(of: id))")
        }
        let before = HitTester(tree), after = HitTester(back)
        #expect(Array(before.exposedElements).map(tree.id(of:)) == Array(after.exposedElements).map(back.id(of:)))
        #expect(before.exposedElements.count > 20)
        var answered = 0
        for _ in 0 ..< 3000 {
            let p = CGPoint(x: rng.number(-20 ... 420), y: rng.number(-20 ... 820))
            for policy in HitPolicy.allCases {
                let a = before.hit(p, policy: policy).map(tree.id(of:)),
                    b = after.hit(p, policy: policy).map(back.id(of:))
                #expect(a == b, "hit \(policy) at \(p)")
                if a != nil { answered += 1 }
            }
            #expect(before.touch(p).map(tree.id(of:)) == after.touch(p).map(back.id(of:)), "touch at \(p)")
        }
        #expect(answered > 100)  // not vacuous: points answer something
    }

    @Test func deepChainRoundTrips() throws {
        var tree = ElementTree()
        var parent = NodeID.none
        for i in 0 ..< 100_000 {
            parent = try tree.append(.view("n\(i)", frame: CGRect(x: 0, y: 0, width: 1, height: 1)), under: parent)
        }
        let data = tree.axhitJSON()
        #expect(data.count < 100_000 * 200)  // indentation is capped: linear size
        try expectRoundTrip(tree)
    }

    @Test func emptyTreeIsWrittenWithoutRoot() {
        let data = ElementTree().axhitJSON()
        #expect(String(decoding: data, as: UTF8.self) == "{\n  \"format\": \"axhit/1\"\n}\n")
        #expect(readError(data)?.key == "root")
    }
}

private func randomSize(_ rng: inout SplitMix) -> CGFloat {
    CGFloat(abs(randomNumber(&rng)))
}

/// Integers, short decimals, and arbitrary finite doubles.
private func randomNumber(_ rng: inout SplitMix) -> Double {
    switch rng.next() % 4 {
    case 0: return Double(Int(rng.next() % 2000) - 1000)
    case 1: return Double(Int(rng.next() % 200_000) - 100_000) / 100
    case 2:
        let v = Double(bitPattern: rng.next())
        return v.isFinite ? v : 0
    default: return Double(rng.next() % 1000) * 1e-7
    }
}

private func randomString(_ rng: inout SplitMix) -> String {
    let pieces = [
        "a", "Z", " ", "\"", "\\", "/", "\n", "\u{0}", "\u{1F}", "é", "€", "😀", "\u{FFFF}", "\u{10FFFF}", "{", "]",
    ]
    return String((0 ..< Int(rng.next() % 6)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined())
}

private func randomRect(_ rng: inout SplitMix) -> CGRect {
    CGRect(x: randomNumber(&rng), y: randomNumber(&rng), width: randomSize(&rng), height: randomSize(&rng))
}

private func randomNode(_ id: String, kind: NodeKind, _ rng: inout SplitMix) -> Node {
    var n = Node(id: id + "#" + randomString(&rng), kind: kind)
    func chance(_ rng: inout SplitMix) -> Bool { rng.next() % 4 == 0 }
    if kind == .view {
        n.frame = randomRect(&rng)
        if chance(&rng) { n.bounds = randomRect(&rng) }
        if chance(&rng) {
            n.transform = CGAffineTransform(
                a: randomNumber(&rng), b: randomNumber(&rng), c: randomNumber(&rng),
                d: randomNumber(&rng), tx: randomNumber(&rng), ty: randomNumber(&rng))
        }
        n.clipsToBounds = chance(&rng)
        n.isHidden = chance(&rng)
        if chance(&rng) { n.alpha = CGFloat(Double(rng.next() % 1_000_001) / 1_000_000) }
        n.isUserInteractionEnabled = !chance(&rng)
    } else if chance(&rng) {
        n.accessibilityFrameInContainerSpace = randomRect(&rng)
    }
    if chance(&rng) { n.isAccessibilityElement.toggle() }
    if chance(&rng) { n.accessibilityLabel = randomString(&rng) }
    if chance(&rng) { n.accessibilityValue = randomString(&rng) }
    if chance(&rng) { n.accessibilityHint = randomString(&rng) }
    if chance(&rng) { n.accessibilityIdentifier = randomString(&rng) }
    if chance(&rng) { n.accessibilityLanguage = randomString(&rng) }
    if chance(&rng) {
        n.accessibilityTraits = AccessibilityTraits(rawValue: rng.next() % 2 == 0 ? rng.next() : rng.next() & 0x1_FFFF)
    }
    if chance(&rng) { n.accessibilityFrame = randomRect(&rng) }
    if chance(&rng) { n.accessibilityActivationPoint = CGPoint(x: randomNumber(&rng), y: randomNumber(&rng)) }
    if chance(&rng), var path = try? BezierPath(svgPathData: "M 0 0 L 1 0 L 0.5 0.25 Z") {
        if chance(&rng) { path.fillRule = .evenOdd }
        n.accessibilityPath = AccessibilityPath(path, coordinateSpace: chance(&rng) ? .view : .screen)
    }
    n.accessibilityElementsHidden = chance(&rng)
    n.accessibilityViewIsModal = chance(&rng)
    n.shouldGroupAccessibilityChildren = chance(&rng)
    if chance(&rng) { n.accessibilityNavigationStyle = chance(&rng) ? .separate : .combined }
    if chance(&rng) {
        n.accessibilityContainerType = AccessibilityContainerType.allCases[Int(rng.next() % 5)]
    }
    if chance(&rng) { n.visibleInSnapshot = chance(&rng) }
    if chance(&rng) { n.actions = NodeActions(rawValue: UInt8(rng.next() % 32)) }
    if kind == .view && chance(&rng) { n.isWindow = true }
    return n
}
