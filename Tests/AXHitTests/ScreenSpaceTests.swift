import Foundation
import Testing

@testable import AXHit

/// Conversions through three nested views, computed by hand from the spec's
/// rule `p ↦ center + T(p - boundsMid)`:
/// - window: frame [0,0,400,800] (identity to the screen)
/// - A: frame [100,100,200,100], bounds [0,50,200,100] (scrolled by 50),
///   rotated 90° ([0,1,-1,0,0,0]): center (200,150), boundsMid (100,100)
/// - B in A: frame [10,60,40,20], transform [2,0,0,0.5,5,-3]: center (30,70),
///   boundsMid (20,10)
/// - C in B: frame [0,0,10,10], bounds [5,5,10,10], shear [1,0,0.5,1,0,0]:
///   center (5,5), boundsMid (10,10)
@Suite struct ScreenSpaceTests {
    struct Nested {
        var tree = ElementTree()
        var window = NodeID.none, a = NodeID.none, b = NodeID.none, c = NodeID.none
        init() throws {
            window = try tree.append(.view("window", frame: CGRect(x: 0, y: 0, width: 400, height: 800)), under: .none)
            var nodeA = Node.view("A", frame: CGRect(x: 100, y: 100, width: 200, height: 100))
            nodeA.bounds = CGRect(x: 0, y: 50, width: 200, height: 100)
            nodeA.transform = CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0)
            a = try tree.append(nodeA, under: window)
            var nodeB = Node.view("B", frame: CGRect(x: 10, y: 60, width: 40, height: 20))
            nodeB.transform = CGAffineTransform(a: 2, b: 0, c: 0, d: 0.5, tx: 5, ty: -3)
            b = try tree.append(nodeB, under: a)
            var nodeC = Node.view("C", frame: CGRect(x: 0, y: 0, width: 10, height: 10))
            nodeC.bounds = CGRect(x: 5, y: 5, width: 10, height: 10)
            nodeC.transform = CGAffineTransform(a: 1, b: 0, c: 0.5, d: 1, tx: 0, ty: 0)
            c = try tree.append(nodeC, under: b)
        }
    }

    static func close(_ p: CGPoint, _ x: Double, _ y: Double) -> Bool {
        abs(p.x - x) < 1e-9 && abs(p.y - y) < 1e-9
    }

    @Test func pointsThroughRotationAndScroll() throws {
        let n = try Nested()
        let space = ScreenSpace(n.tree)
        #expect(Self.close(space.convertToScreen(CGPoint(x: 0, y: 50), from: n.a), 250, 50))
        #expect(Self.close(space.convertToScreen(CGPoint(x: 200, y: 150), from: n.a), 150, 250))
        #expect(Self.close(space.convertToScreen(CGPoint(x: 0, y: 0), from: n.b), 238, 45))
        #expect(Self.close(space.convertToScreen(CGPoint(x: 10, y: 10), from: n.c), 235.5, 55))
        #expect(Self.close(space.convertToScreen(CGPoint(x: 15, y: 5), from: n.c), 238, 60))
    }

    @Test func rectIsBoundingBoxOfConvertedCorners() throws {
        let n = try Nested()
        let space = ScreenSpace(n.tree)
        // C's bounds corners land on (238,40) (238,60) (233,70) (233,50).
        let r = space.convertToScreen(CGRect(x: 5, y: 5, width: 10, height: 10), from: n.c)
        #expect(abs(r.minX - 233) < 1e-9 && abs(r.minY - 40) < 1e-9)
        #expect(abs(r.width - 5) < 1e-9 && abs(r.height - 30) < 1e-9)
        // A view's default accessibility frame is exactly that box.
        #expect(space.accessibilityFrame(of: n.c) == r)
        let mid = space.activationPoint(of: n.c)
        #expect(Self.close(mid, 235.5, 55))
    }

    @Test func inverseConversion() throws {
        let n = try Nested()
        let space = ScreenSpace(n.tree)
        let p = try #require(space.convertFromScreen(CGPoint(x: 235.5, y: 55), to: n.c))
        #expect(Self.close(p, 10, 10))
        let q = try #require(space.convertFromScreen(CGPoint(x: 238, y: 45), to: n.b))
        #expect(Self.close(q, 0, 0))
    }

    @Test func pathConvertsEveryControlPoint() throws {
        let n = try Nested()
        let space = ScreenSpace(n.tree)
        var path = BezierPath()
        path.move(to: CGPoint(x: 5, y: 5))
        path.addCurve(
            to: CGPoint(x: 15, y: 15), controlPoint1: CGPoint(x: 15, y: 5), controlPoint2: CGPoint(x: 10, y: 10))
        let converted = space.convertToScreen(path, from: n.c)
        #expect(converted.elements.count == 2)
        guard case let .move(start) = converted.elements[0],
            case let .curve(end, c1, c2) = converted.elements[1]
        else {
            Issue.record("unexpected elements \(converted.elements)")
            return
        }
        #expect(Self.close(start, 238, 40))
        #expect(Self.close(c1, 238, 60))
        #expect(Self.close(c2, 235.5, 55))
        #expect(Self.close(end, 233, 70))
    }

    @Test func elementFrameInContainerSpaceWins() throws {
        var n = try Nested()
        var e = Node.element("e")
        e.accessibilityFrame = CGRect(x: 1, y: 2, width: 3, height: 4)
        e.accessibilityFrameInContainerSpace = CGRect(x: 5, y: 5, width: 10, height: 10)
        let id = try n.tree.append(e, under: n.c)
        var plain = Node.element("plain")
        plain.accessibilityFrame = CGRect(x: 1, y: 2, width: 3, height: 4)
        let plainID = try n.tree.append(plain, under: n.c)
        let bare = try n.tree.append(.element("bare"), under: n.c)
        let space = ScreenSpace(n.tree)
        let f = space.accessibilityFrame(of: id)
        #expect(
            abs(f.minX - 233) < 1e-9 && abs(f.minY - 40) < 1e-9 && abs(f.width - 5) < 1e-9 && abs(f.height - 30) < 1e-9)
        #expect(space.accessibilityFrame(of: plainID) == CGRect(x: 1, y: 2, width: 3, height: 4))
        #expect(space.accessibilityFrame(of: bare) == .zero)
        #expect(space.activationPoint(of: bare) == .zero)
    }

    @Test func singularTransformHasNoInverse() throws {
        var tree = ElementTree()
        let w = try tree.append(.view("w", frame: CGRect(x: 0, y: 0, width: 100, height: 100)), under: .none)
        var flat = Node.view("flat", frame: CGRect(x: 10, y: 10, width: 20, height: 20))
        flat.transform = CGAffineTransform(scaleX: 0, y: 1)
        let id = try tree.append(flat, under: w)
        let space = ScreenSpace(tree)
        #expect(space.transformFromScreen(of: id) == nil)
        // Its bounds collapse onto the vertical line x = 20.
        #expect(space.accessibilityFrame(of: id) == CGRect(x: 20, y: 10, width: 0, height: 20))
    }
}

/// Exposure as tree-format.md defines it.
@Suite struct ExposureTests {
    static func window(_ tree: inout ElementTree) throws -> NodeID {
        try tree.append(.view("window", frame: CGRect(x: 0, y: 0, width: 100, height: 100)), under: .none)
    }
    static func element(_ id: String) -> Node {
        var n = Node.element(id)
        n.accessibilityFrame = CGRect(x: 0, y: 0, width: 10, height: 10)
        return n
    }

    @Test func modalSiblingHidesTheOthersButNotItsParentsSiblings() throws {
        // window { A { a1 }, B (modal) { C (modal) { c1 }, b1 } }
        var tree = ElementTree()
        let w = try Self.window(&tree)
        let a = try tree.append(.view("A", frame: CGRect(x: 0, y: 0, width: 50, height: 50)), under: w)
        let a1 = try tree.append(Self.element("a1"), under: a)
        var bNode = Node.view("B", frame: CGRect(x: 50, y: 0, width: 50, height: 50))
        bNode.accessibilityViewIsModal = true
        let b = try tree.append(bNode, under: w)
        var cNode = Node.view("C", frame: CGRect(x: 0, y: 0, width: 20, height: 20))
        cNode.accessibilityViewIsModal = true
        let c = try tree.append(cNode, under: b)
        let c1 = try tree.append(Self.element("c1"), under: c)
        let b1 = try tree.append(Self.element("b1"), under: b)
        let space = ScreenSpace(tree)
        #expect(!space.isExposed(a1))  // B is modal: A's subtree is ignored
        #expect(space.isExposed(c1))
        #expect(!space.isExposed(b1))  // C is modal among B's children
    }

    @Test func nestedModalDoesNotReachItsParentsSiblings() throws {
        // window { A { a1 }, B { C (modal) { c1 } } }
        var tree = ElementTree()
        let w = try Self.window(&tree)
        let a = try tree.append(.view("A", frame: CGRect(x: 0, y: 0, width: 50, height: 50)), under: w)
        let a1 = try tree.append(Self.element("a1"), under: a)
        let b = try tree.append(.view("B", frame: CGRect(x: 50, y: 0, width: 50, height: 50)), under: w)
        var cNode = Node.view("C", frame: CGRect(x: 0, y: 0, width: 20, height: 20))
        cNode.accessibilityViewIsModal = true
        let c = try tree.append(cNode, under: b)
        let c1 = try tree.append(Self.element("c1"), under: c)
        let space = ScreenSpace(tree)
        #expect(space.isExposed(a1))
        #expect(space.isExposed(c1))
    }

    @Test func hiddenModalSuppressesNothingAndFrontmostModalWins() throws {
        // window { M1 (modal) { m1 }, M2 (modal, hidden) { m2 }, e }
        var tree = ElementTree()
        let w = try Self.window(&tree)
        var m1Node = Node.view("M1", frame: CGRect(x: 0, y: 0, width: 50, height: 50))
        m1Node.accessibilityViewIsModal = true
        let m1v = try tree.append(m1Node, under: w)
        let m1 = try tree.append(Self.element("m1"), under: m1v)
        var m2Node = Node.view("M2", frame: CGRect(x: 0, y: 0, width: 50, height: 50))
        m2Node.accessibilityViewIsModal = true
        m2Node.alpha = 0.005
        let m2v = try tree.append(m2Node, under: w)
        let m2 = try tree.append(Self.element("m2"), under: m2v)
        let e = try tree.append(Self.element("e"), under: w)
        let space = ScreenSpace(tree)
        #expect(space.isExposed(m1))  // M2 is hidden by alpha, so M1 is the frontmost modal
        #expect(!space.isExposed(m2))
        #expect(!space.isExposed(e))
    }

    @Test func hiddenAlphaElementsHiddenAndElementAncestors() throws {
        var tree = ElementTree()
        let w = try Self.window(&tree)
        var hidden = Node.view("hidden", frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        hidden.isHidden = true
        let h = try tree.append(hidden, under: w)
        let inHidden = try tree.append(Self.element("inHidden"), under: h)
        var faint = Node.view("faint", frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        faint.alpha = 0.0099
        let f = try tree.append(faint, under: w)
        let inFaint = try tree.append(Self.element("inFaint"), under: f)
        var dim = Node.view("dim", frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        dim.alpha = 0.01
        let d = try tree.append(dim, under: w)
        let inDim = try tree.append(Self.element("inDim"), under: d)
        var veiled = Node.view("veiled", frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        veiled.accessibilityElementsHidden = true
        let v = try tree.append(veiled, under: w)
        let inVeiled = try tree.append(Self.element("inVeiled"), under: v)
        var button = Node.view("button", frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        button.isAccessibilityElement = true
        let bt = try tree.append(button, under: w)
        let inButton = try tree.append(Self.element("inButton"), under: bt)
        // A non-element element node groups exposed children.
        var group = Node.element("group")
        group.isAccessibilityElement = false
        let g = try tree.append(group, under: w)
        let inGroup = try tree.append(Self.element("inGroup"), under: g)
        let space = ScreenSpace(tree)
        #expect(!space.isExposed(inHidden))
        #expect(!space.isExposed(inFaint))
        #expect(space.isExposed(inDim))
        #expect(!space.isExposed(inVeiled))
        #expect(space.isExposed(bt))
        #expect(!space.isExposed(inButton))
        #expect(!space.isExposed(g))
        #expect(space.isExposed(inGroup))
        #expect(!space.isExposed(w))
    }
}
