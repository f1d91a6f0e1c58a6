import Foundation
import Testing

@testable import AXHit

/// Activation statuses, `outside`, deliverable regions and suggested points,
/// by hand and against the spec written plainly over random trees.
@Suite struct ActivationTests {
    /// window [0,0,200,200] { button [0,0,100,100] (exposed), cover [50,0,100,100] (touchable, not exposed) }
    static func halfCovered(coverTouchable: Bool = true) throws -> ScreenAnalysis {
        var tree = ElementTree()
        let w = try tree.append(.view("window", frame: CGRect(x: 0, y: 0, width: 200, height: 200)), under: .none)
        var button = Node.view("button", frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        button.isAccessibilityElement = true
        try tree.append(button, under: w)
        var cover = Node.view("cover", frame: CGRect(x: 50, y: 0, width: 100, height: 100))
        cover.isUserInteractionEnabled = coverTouchable
        try tree.append(cover, under: w)
        return try ScreenAnalysis(tree)
    }

    @Test func halfCoveredButton() throws {
        let analysis = try Self.halfCovered()
        let a = try #require(analysis.elements.first)
        #expect(analysis.elements.count == 1)
        #expect(a.activationPoint == CGPoint(x: 50, y: 50))
        #expect(a.status == .obstructed)  // x = 50 is the cover's closed minX
        #expect(analysis.tree.id(of: try #require(a.receiver)) == "cover")
        #expect(a.outside == false)
        #expect(abs(a.deliverableArea - 5000) < 1e-9)
        #expect(abs(a.touchTargetRadius - 25) < 0.02)
        let s = try #require(a.suggested)
        #expect(abs(s.x - 25) < 0.02 && abs(s.y - 50) < 0.02)
        #expect(analysis.tester.touch(s) == a.element)
        // "cover" is a drawn, opaque leaf: it hides half the button.
        #expect(abs(a.visibleFraction - 0.5) < 1e-9)
    }

    @Test func inertCoverLetsTapsThrough() throws {
        let analysis = try Self.halfCovered(coverTouchable: false)
        let a = try #require(analysis.elements.first)
        #expect(a.status == .ok)
        #expect(abs(a.deliverableArea - 10000) < 1e-9)
        #expect(abs(a.touchTargetRadius - 50) < 1e-9)
        #expect(a.suggested == CGPoint(x: 50, y: 50))
    }

    @Test func lostWhenNothingTakesTheTap() throws {
        var tree = ElementTree()
        var w = Node.view("window", frame: CGRect(x: 0, y: 0, width: 200, height: 200))
        w.isUserInteractionEnabled = false
        let root = try tree.append(w, under: .none)
        var e = Node.element("e")
        e.accessibilityFrame = CGRect(x: 10, y: 10, width: 50, height: 50)
        try tree.append(e, under: root)
        let a = try #require(try ScreenAnalysis(tree).elements.first)
        #expect(a.status == .lost && a.receiver == nil)
        #expect(a.suggested == nil && a.touchTargetRadius == 0 && a.deliverableArea == 0)
    }

    @Test func elementNodeIsOkWhenItsContainerOrADescendantReceives() throws {
        var tree = ElementTree()
        let w = try tree.append(.view("window", frame: CGRect(x: 0, y: 0, width: 200, height: 200)), under: .none)
        let c = try tree.append(.view("container", frame: CGRect(x: 0, y: 0, width: 100, height: 100)), under: w)
        try tree.append(.view("inner", frame: CGRect(x: 0, y: 0, width: 40, height: 40)), under: c)
        var e1 = Node.element("e1")
        e1.accessibilityFrameInContainerSpace = CGRect(x: 0, y: 0, width: 40, height: 40)  // on "inner": ok
        try tree.append(e1, under: c)
        var e2 = Node.element("e2")
        e2.accessibilityFrame = CGRect(x: 120, y: 120, width: 40, height: 40)  // outside the container: window receives
        try tree.append(e2, under: c)
        var e3 = Node.element("e3")
        e3.accessibilityFrame = CGRect(x: 10, y: 10, width: 20, height: 20)
        e3.accessibilityActivationPoint = CGPoint(x: 90, y: 90)  // ok, but outside its frame
        try tree.append(e3, under: c)
        let analysis = try ScreenAnalysis(tree)
        let byName = Dictionary(uniqueKeysWithValues: analysis.elements.map { (tree.id(of: $0.element), $0) })
        let a1 = try #require(byName["e1"]), a2 = try #require(byName["e2"]), a3 = try #require(byName["e3"])
        let r1 = try #require(a1.receiver), r2 = try #require(a2.receiver)
        #expect(a1.status == .ok && tree.id(of: r1) == "inner" && !a1.outside)
        #expect(a2.status == .obstructed && tree.id(of: r2) == "window")
        // e2's region is cut away by the container's bounds: nothing deliverable, and its point is outside.
        #expect(a2.outside && a2.suggested == nil && a2.deliverableArea == 0)
        #expect(a3.status == .ok && a3.outside)
        #expect(a3.suggested == CGPoint(x: 20, y: 20))
    }

    @Test func rotatedCoverGivesAnExactRegion() throws {
        var tree = ElementTree()
        let w = try tree.append(.view("window", frame: CGRect(x: 0, y: 0, width: 300, height: 300)), under: .none)
        var button = Node.view("button", frame: CGRect(x: 100, y: 100, width: 100, height: 100))
        button.isAccessibilityElement = true
        try tree.append(button, under: w)
        // A square of side 100·√2 rotated 45° about its centre (200, 200) is
        // the diamond |x-200| + |y-200| <= 100: it covers the button's half
        // beyond x + y = 300, a right triangle of area 5000.
        var cover = Node.view(
            "cover",
            frame: CGRect(
                x: 200 - 50 * 2.0.squareRoot(), y: 200 - 50 * 2.0.squareRoot(),
                width: 100 * 2.0.squareRoot(), height: 100 * 2.0.squareRoot()))
        cover.transform = CGAffineTransform(rotationAngle: .pi / 4)
        try tree.append(cover, under: w)
        let a = try #require(try ScreenAnalysis(tree).elements.first)
        #expect(abs(a.deliverableArea - 5000) < 1e-6)
        let s = try #require(a.suggested)
        #expect(a.deliverableRegion.contains(s))
        // The inscribed circle of the right triangle with legs 100: r = 100 - 50√2.
        #expect(abs(a.touchTargetRadius - (100 - 50 * 2.0.squareRoot())) < 0.02)
    }

    @Test func engineAgreesWithTheSpecOnRandomTrees() throws {
        var compared = 0, statuses: [ActivationStatus: Int] = [:], outside = 0, suggested = 0
        var mismatches = 0, badSuggestions = 0, missedSuggestions = 0
        for seed in 1 ... 100 as ClosedRange<UInt64> {
            let tree = try TouchTrees.make(seed: seed, nodes: 500, wide: seed > 50)
            let analysis = try ScreenAnalysis(tree)
            let ref = ReferenceTouch(tree)
            var rng = SeededRandom(seed: seed &* 31337)
            for (k, node) in ref.base.nodes.enumerated() where ref.base.exposed[k] {
                guard let a = analysis.elements.first(where: { tree.id(of: $0.element) == node.id }) else {
                    Issue.record("seed \(seed): \(node.id) not analysed")
                    continue
                }
                compared += 1
                let f = ref.base.accessibilityFrame(k)
                let point = node.accessibilityActivationPoint ?? CGPoint(x: f.midX, y: f.midY)
                let v = ref.view(of: k)
                let receiver = ref.touch(point)
                let status: ActivationStatus = receiver.map { ref.isDescendant($0, of: v) ? .ok : .obstructed } ?? .lost
                let isOutside = !ref.inShapeRegion(k, point)
                let gotReceiver = a.receiver.map { tree.id(of: $0) }
                // The engine and the reference compose transforms in different
                // orders: default points may differ in the last bits.
                let dx = abs(a.activationPoint.x - point.x), dy = abs(a.activationPoint.y - point.y)
                if dx > 1e-9 * max(1, abs(point.x)) || dy > 1e-9 * max(1, abs(point.y))
                    || gotReceiver != receiver.map({ ref.base.nodes[$0].id })
                    || a.status != status || a.outside != isOutside
                {
                    mismatches += 1
                    if mismatches <= 5 {
                        Issue.record(
                            "seed \(seed) \(node.id): got \(a.status) \(gotReceiver ?? "nil") \(a.outside), expected \(status) \(isOutside)"
                        )
                    }
                }
                statuses[status, default: 0] += 1
                if isOutside { outside += 1 }
                if let s = a.suggested {
                    suggested += 1
                    let delivered = ref.touch(s).map { ref.isDescendant($0, of: v) } ?? false
                    if !(ref.inShapeRegion(k, s) && delivered) {
                        badSuggestions += 1
                        Issue.record("seed \(seed) \(node.id): suggested \(s) is not delivered inside the element")
                    }
                } else {
                    // No suggestion: no sampled point of the element may be delivered to it.
                    let box = a.shapeRegion.bounds
                    guard !box.isNull else { continue }
                    for _ in 0 ..< 200 {
                        let p = CGPoint(
                            x: rng.number(Double(box.minX) ... Double(box.maxX)),
                            y: rng.number(Double(box.minY) ... Double(box.maxY)))
                        if ref.inShapeRegion(k, p), let r = ref.touch(p), ref.isDescendant(r, of: v) {
                            missedSuggestions += 1
                            Issue.record("seed \(seed) \(node.id): no suggestion, but \(p) is delivered")
                            break
                        }
                    }
                }
            }
        }
        #expect(mismatches == 0 && badSuggestions == 0 && missedSuggestions == 0)
        print("activation reference: \(compared) elements, \(statuses), \(outside) outside, \(suggested) suggested")
        #expect(compared > 500)
        #expect(
            statuses[.ok, default: 0] > 50 && statuses[.obstructed, default: 0] > 50 && statuses[.lost, default: 0] > 20
        )
        #expect(outside > 50 && suggested > 100)
    }
}
