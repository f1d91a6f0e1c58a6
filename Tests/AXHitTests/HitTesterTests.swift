import Foundation
import Testing

@testable import AXHit

/// Hits computed by hand from the spec's rules.
@Suite struct HitTesterTests {
    /// window [0,0,100,100] { overlay element (whole window),
    ///   list [0,0,100,50] scrolled by 20 { row1 [0,0,100,30], row2 [0,30,100,30], row3 [0,60,100,30] } }
    /// On screen the rows span y -20..10, 10..40 and 40..70; the list's bounds 0..50.
    static func list() throws -> (HitTester, [String: NodeID]) {
        var tree = ElementTree()
        var ids: [String: NodeID] = [:]
        let w = try tree.append(.view("window", frame: CGRect(x: 0, y: 0, width: 100, height: 100)), under: .none)
        var overlay = Node.element("overlay")
        overlay.accessibilityFrame = CGRect(x: 0, y: 0, width: 100, height: 100)
        ids["overlay"] = try tree.append(overlay, under: w)
        var list = Node.view("list", frame: CGRect(x: 0, y: 0, width: 100, height: 50))
        list.bounds = CGRect(x: 0, y: 20, width: 100, height: 50)
        list.clipsToBounds = true
        let l = try tree.append(list, under: w)
        for (k, y) in [(1, 0.0), (2, 30.0), (3, 60.0)] {
            var row = Node.view("row\(k)", frame: CGRect(x: 0, y: y, width: 100, height: 30))
            row.isAccessibilityElement = true
            ids["row\(k)"] = try tree.append(row, under: l)
        }
        return (HitTester(tree), ids)
    }

    @Test func scrolledRowsAreCutByTheListBounds() throws {
        let (tester, ids) = try Self.list()
        #expect(tester.hit(CGPoint(x: 50, y: 5)) == ids["row1"])
        #expect(tester.hit(CGPoint(x: 50, y: 10)) == ids["row2"])  // row1's maxY is open
        #expect(tester.hit(CGPoint(x: 50, y: 45)) == ids["row3"])
        // Row 3 spans 40..70 but the list's bounds end at 50: the overlay behind is hit.
        #expect(tester.hit(CGPoint(x: 50, y: 55)) == ids["overlay"])
        #expect(tester.hit(CGPoint(x: 50, y: 100)) == nil)
        #expect(tester.hit(CGPoint(x: -1, y: 5)) == nil)
    }

    @Test func shapePolicyUsesTheRotatedQuad() throws {
        // A 20x20 view rotated 45° about its center (50,50): a diamond with
        // vertices 14.14 from the center; its frame is the box 35.86...64.14.
        var tree = ElementTree()
        let w = try tree.append(.view("window", frame: CGRect(x: 0, y: 0, width: 100, height: 100)), under: .none)
        var d = Node.view("diamond", frame: CGRect(x: 40, y: 40, width: 20, height: 20))
        d.transform = CGAffineTransform(rotationAngle: .pi / 4)
        d.isAccessibilityElement = true
        let id = try tree.append(d, under: w)
        let tester = HitTester(tree)
        let corner = CGPoint(x: 37, y: 37)  // in the box, outside the diamond
        #expect(tester.hit(corner, policy: .frame) == id)
        #expect(tester.hit(corner, policy: .shape) == nil)
        #expect(tester.hit(CGPoint(x: 50, y: 37), policy: .shape) == id)
        #expect(tester.hit(CGPoint(x: 63, y: 50), policy: .shape) == id)
    }

    @Test func elementFrameInContainerSpaceIsAQuadUnderShapePolicy() throws {
        var tree = ElementTree()
        let w = try tree.append(.view("window", frame: CGRect(x: 0, y: 0, width: 100, height: 100)), under: .none)
        var v = Node.view("v", frame: CGRect(x: 40, y: 40, width: 20, height: 20))
        v.transform = CGAffineTransform(rotationAngle: .pi / 4)
        let vid = try tree.append(v, under: w)
        var e = Node.element("e")
        e.accessibilityFrameInContainerSpace = CGRect(x: 0, y: 0, width: 20, height: 20)
        let eid = try tree.append(e, under: vid)
        let tester = HitTester(tree)
        #expect(tester.hit(CGPoint(x: 37, y: 37), policy: .frame) == nil)  // outside v's bounds: cut
        #expect(tester.hit(CGPoint(x: 50, y: 37), policy: .frame) == eid)
        #expect(tester.hit(CGPoint(x: 50, y: 37), policy: .shape) == eid)
    }

    /// The fuzz run's input (`Fuzz/Regressions/uiautomator-xml`): a
    /// scrollable node with no text over a clickable TextView. The hover is
    /// offered the overlay first; it takes no click, so the TextView behind
    /// is offered it too and reports last: TalkBack focuses the TextView.
    /// `hitAll` lists every exposed node whose bounds hold the point,
    /// deepest first: the overlay (later in pre-order), then the TextView.
    @Test func anEmptyOverlayPassesTheHoverAndHitAllStillListsIt() throws {
        let xml = """
            <hierarchy rotation="0">
              <node index="0" text="" class="android.widget.FrameLayout" package="p" content-desc="" clickable="false" enabled="true" focusable="false" scrollable="false" bounds="[0,0][1080,2400]">
                <node index="0" text="Settings" resource-id="p:id/settings" class="android.widget.TextView" package="p" content-desc="Open settings" clickable="true" enabled="true" focusable="true" scrollable="false" bounds="[40,100][440,220]" />
                <node index="1" text="Settings" scrollable="true" bounds="[00,07][1080,2200]" />
              </node>
            </hierarchy>
            """
        let tree = try ElementTree(contentsOf: Data(xml.utf8), file: "overlay.xml")
        let tester = HitTester(tree)
        let label = try #require(tree.node(withID: "TextView#1"))
        let overlay = try #require(tree.node(withID: "node#2"))
        for policy in [HitPolicy.frame, .shape] {
            #expect(tester.hit(CGPoint(x: 102, y: 111), policy: policy) == label)
            #expect(tester.hitAll(CGPoint(x: 102, y: 111), policy: policy) == [overlay, label])
            // Beside the TextView, the overlay alone is under the finger.
            #expect(tester.hit(CGPoint(x: 600, y: 111), policy: policy) == overlay)
        }
    }
}
