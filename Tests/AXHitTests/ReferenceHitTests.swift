import Foundation
import Testing

@testable import AXHit

/// A deterministic random source (SplitMix64), so every run sees the same trees.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0 ..< 1, using: &self) < p }
    mutating func number(_ r: ClosedRange<Double>) -> Double { Double.random(in: r, using: &self) }
}

/// The spec's hit-testing, written plainly from tree-format.md over `Node`
/// values, sharing nothing with the engine but the model's storage.
struct ReferenceHitTest {
    let nodes: [Node]  // pre-order
    let parents: [Int]  // index of the parent, -1 for the root
    let children: [[Int]]
    var toScreen: [CGAffineTransform] = []
    var exposed: [Bool] = []

    init(_ tree: ElementTree) {
        let order = tree.preOrder
        var index: [NodeID: Int] = [:]
        for (k, id) in order.enumerated() { index[id] = k }
        nodes = order.map { tree[$0]! }
        parents = order.map { index[tree.parent(of: $0)] ?? -1 }
        var kids = [[Int]](repeating: [], count: order.count)
        for (k, p) in parents.enumerated() where p >= 0 { kids[p].append(k) }
        children = kids
        // Full transforms: bounds space → parent bounds space is
        // center + T(p - boundsMid), composed up to the screen.
        for (k, n) in nodes.enumerated() {
            let p = parents[k]
            if n.kind == .element {
                toScreen.append(toScreen[p])
                continue
            }
            let b = n.effectiveBounds
            let t = n.transform
            let local = CGAffineTransform(translationX: -b.midX, y: -b.midY)
                .concatenating(t)
                .concatenating(CGAffineTransform(translationX: n.frame.midX, y: n.frame.midY))
            toScreen.append(p < 0 ? local : local.concatenating(toScreen[p]))
        }
        exposed = nodes.indices.map { isExposed($0) }
    }

    func hiddenItself(_ k: Int) -> Bool {
        let n = nodes[k]
        return n.isHidden || n.alpha < 0.01 || n.accessibilityElementsHidden
    }

    func suppressedByModalSibling(_ k: Int) -> Bool {
        let p = parents[k]
        guard p >= 0 else { return false }
        guard let modal = children[p].last(where: { nodes[$0].accessibilityViewIsModal && !hiddenItself($0) }) else {
            return false
        }
        return modal != k
    }

    func isExposed(_ k: Int) -> Bool {
        guard nodes[k].isAccessibilityElement else { return false }
        var a = k
        while a >= 0 {
            if hiddenItself(a) || suppressedByModalSibling(a) { return false }
            if a != k && nodes[a].isAccessibilityElement { return false }
            a = parents[a]
        }
        return true
    }

    /// p in the quad of `rect` (in the space of view `v`) converted to the
    /// screen: tested by mapping p back, closed-open.
    func inQuad(_ rect: CGRect, of v: Int, _ p: CGPoint) -> Bool {
        let t = toScreen[v]
        guard t.isInvertible else { return false }
        return rect.containsClosedOpen(p.applying(t.inverted()))
    }

    func accessibilityFrame(_ k: Int) -> CGRect {
        let n = nodes[k]
        if n.kind == .element {
            if let r = n.accessibilityFrameInContainerSpace { return r.applying(toScreen[k]) }
            return n.accessibilityFrame ?? .zero
        }
        return n.accessibilityFrame ?? n.effectiveBounds.applying(toScreen[k])
    }

    func hit(_ p: CGPoint, policy: HitPolicy, shapeContains: (Int, CGPoint) -> Bool?) -> String? {
        var best: Int?
        for k in nodes.indices where exposed[k] {
            // Cut by the bounds of every proper ancestor view.
            var a = parents[k], inside = true
            while a >= 0 {
                if nodes[a].kind == .view && !inQuad(nodes[a].effectiveBounds, of: a, p) {
                    inside = false
                    break
                }
                a = parents[a]
            }
            guard inside else { continue }
            let n = nodes[k]
            let hit: Bool
            switch policy {
            case .frame: hit = accessibilityFrame(k).containsClosedOpen(p)
            case .shape:
                if let s = shapeContains(k, p) {
                    hit = s
                } else if n.kind == .view {
                    hit = inQuad(n.effectiveBounds, of: k, p)
                } else if let r = n.accessibilityFrameInContainerSpace {
                    hit = inQuad(r, of: k, p)
                } else {
                    hit = accessibilityFrame(k).containsClosedOpen(p)
                }
            }
            if hit { best = k }
        }
        return best.map { nodes[$0].id }
    }
}

/// Random trees with every feature the spec names.
enum RandomTrees {
    /// A random tree of `count` nodes. With `wide`, most nodes go under a
    /// few views, so that those views get container indexes.
    static func make(seed: UInt64, nodes count: Int, wide: Bool = false, paths: Bool = false) throws -> ElementTree {
        var rng = SeededRandom(seed: seed)
        var tree = ElementTree()
        let root = try tree.append(.view("root", frame: CGRect(x: 0, y: 0, width: 200, height: 200)), under: .none)
        var views = [root]
        var elementNodes: [NodeID] = []
        for k in 1 ..< count {
            let makeElementNode = rng.chance(0.3)
            let parent: NodeID
            if makeElementNode && !elementNodes.isEmpty && rng.chance(0.3) {
                parent = elementNodes.randomElement(using: &rng)!
            } else if wide && rng.chance(0.9) {
                parent = views[Int.random(in: 0 ..< min(4, views.count), using: &rng)]
            } else {
                parent = views.randomElement(using: &rng)!
            }
            if makeElementNode {
                var e = Node.element("e\(k)")
                e.isAccessibilityElement = rng.chance(0.8)
                if rng.chance(0.5) {
                    e.accessibilityFrameInContainerSpace = rect(&rng, 120)
                } else if rng.chance(0.8) {
                    e.accessibilityFrame = rect(&rng, 200)
                }
                if rng.chance(0.05) { e.accessibilityElementsHidden = true }
                if rng.chance(0.03) { e.accessibilityViewIsModal = true }
                if paths && rng.chance(0.4) { e.accessibilityPath = randomPath(&rng) }
                elementNodes.append(try tree.append(e, under: parent))
            } else {
                var v = Node.view("v\(k)", frame: rect(&rng, 120))
                if rng.chance(0.3) {
                    v.bounds = CGRect(
                        x: rng.number(-40 ... 40), y: rng.number(-40 ... 40),
                        width: rng.chance(0.2) ? rng.number(5 ... 150) : v.frame.width,
                        height: rng.chance(0.2) ? rng.number(5 ... 150) : v.frame.height)
                }
                if rng.chance(0.5) {
                    let angle = rng.number(-3.2 ... 3.2)
                    v.transform = CGAffineTransform(rotationAngle: angle)
                        .concatenating(CGAffineTransform(scaleX: rng.number(0.3 ... 2), y: rng.number(0.3 ... 2)))
                    if rng.chance(0.3) {
                        v.transform.c += rng.number(-0.5 ... 0.5)
                        v.transform.tx = rng.number(-20 ... 20)
                    }
                }
                if rng.chance(0.02) { v.transform = CGAffineTransform(scaleX: 0, y: 1) }
                v.isAccessibilityElement = rng.chance(0.35)
                if rng.chance(0.05) { v.isHidden = true }
                if rng.chance(0.05) { v.alpha = rng.chance(0.5) ? 0.005 : 0.01 }
                if rng.chance(0.04) { v.accessibilityElementsHidden = true }
                if rng.chance(0.04) { v.accessibilityViewIsModal = true }
                if rng.chance(0.1) { v.accessibilityFrame = rect(&rng, 200) }
                if rng.chance(0.2) { v.clipsToBounds = true }
                if paths && v.isAccessibilityElement && rng.chance(0.5) { v.accessibilityPath = randomPath(&rng) }
                views.append(try tree.append(v, under: parent))
            }
        }
        return tree
    }

    /// A closed path of lines, quadratics and cubics (sometimes two
    /// subpaths, often self-intersecting), in screen or view space, under
    /// either fill rule.
    static func randomPath(_ rng: inout SeededRandom) -> AccessibilityPath {
        func point() -> CGPoint { CGPoint(x: rng.number(-20 ... 180), y: rng.number(-20 ... 180)) }
        var path = BezierPath()
        for _ in 0 ..< (rng.chance(0.3) ? 2 : 1) {
            path.move(to: point())
            for _ in 0 ..< Int.random(in: 2 ... 5, using: &rng) {
                switch Int.random(in: 0 ..< 3, using: &rng) {
                case 0: path.addLine(to: point())
                case 1: path.addQuadCurve(to: point(), controlPoint: point())
                default: path.addCurve(to: point(), controlPoint1: point(), controlPoint2: point())
                }
            }
            path.closeSubpath()
        }
        path.fillRule = rng.chance(0.5) ? .evenOdd : .nonZero
        return AccessibilityPath(path, coordinateSpace: rng.chance(0.5) ? .screen : .view)
    }

    static func rect(_ rng: inout SeededRandom, _ extent: Double) -> CGRect {
        CGRect(
            x: rng.number(-20 ... extent), y: rng.number(-20 ... extent),
            width: rng.chance(0.05) ? 0 : rng.number(1 ... extent), height: rng.number(1 ... extent))
    }
}

@Suite struct ReferenceHitTests {
    @Test func engineAgreesWithTheSpecPointByPoint() throws {
        var hits = 0, policiesDiffer = 0, mismatches = 0
        for seed in 1 ... 16 as ClosedRange<UInt64> {
            let tree = try RandomTrees.make(seed: seed, nodes: 300, wide: seed > 8)
            let tester = HitTester(tree)
            if seed > 8 {
                #expect(tester.hot.contains { $0.indexSlot >= 0 }, "wide trees must exercise container indexes")
            }
            // The per-view search alone too, where the engine's own grid or
            // tiles would answer first.
            var perView = tester
            perView.screenGrid = nil
            let reference = ReferenceHitTest(tree)
            var rng = SeededRandom(seed: seed &* 7919)
            for _ in 0 ..< 2000 {
                let p = CGPoint(x: rng.number(-30 ... 230), y: rng.number(-30 ... 230))
                var answers: [String?] = []
                for policy in HitPolicy.allCases {
                    let expected = reference.hit(p, policy: policy) { _, _ in nil }
                    let got = tester.hit(p, policy: policy).map { tree.id(of: $0) }
                    let searched = perView.hit(p, policy: policy).map { tree.id(of: $0) }
                    if got != expected || searched != expected {
                        mismatches += 1
                        if mismatches <= 5 {
                            Issue.record(
                                "seed \(seed), point \(p), policy \(policy): got \(got ?? "nil"), per view \(searched ?? "nil"), expected \(expected ?? "nil")"
                            )
                        }
                    }
                    if expected != nil { hits += 1 }
                    answers.append(expected)
                }
                if answers[0] != answers[1] { policiesDiffer += 1 }
            }
        }
        #expect(mismatches == 0)
        // The trees must be rich enough that the comparison means something.
        #expect(hits > 2000)
        #expect(policiesDiffer > 20)
    }

    /// Paths of both rules, in screen and view space, under the `shape`
    /// policy: the reference fills each path on the screen through GEOS
    /// (`PolygonSet`), the engine keeps winding regions in the path's own
    /// space; they must agree except within a flattening tolerance of a path.
    @Test func pathsAgreeWithGEOSFilledRegions() throws {
        var mismatches = 0, pathHits = 0, nearBoundary = 0
        for seed in 101 ... 110 as ClosedRange<UInt64> {
            let tree = try RandomTrees.make(seed: seed, nodes: 200, wide: seed % 2 == 0, paths: true)
            let tester = HitTester(tree)
            let reference = ReferenceHitTest(tree)
            var filled: [Int: (PolygonSet, [[CGPoint]])] = [:]
            func screenShape(_ k: Int) throws -> (PolygonSet, [[CGPoint]])? {
                if let cached = filled[k] { return cached }
                guard let p = reference.nodes[k].accessibilityPath else { return nil }
                let screen = p.coordinateSpace == .screen ? p.path : p.path.applying(reference.toScreen[k])
                let rings = screen.flattened(tolerance: 0.05)
                let shape = (try PolygonSet.filling(rings: rings, rule: screen.fillRule), rings)
                filled[k] = shape
                return shape
            }
            var rng = SeededRandom(seed: seed &* 104729)
            for _ in 0 ..< 1500 {
                let p = CGPoint(x: rng.number(-30 ... 230), y: rng.number(-30 ... 230))
                var nearPath = false
                let expected = reference.hit(p, policy: .shape) { k, p in
                    guard let (region, rings) = try? screenShape(k) else { return nil }
                    if rings.contains(where: { Self.distance(p, toRing: $0) < 0.25 }) { nearPath = true }
                    return region.contains(p)
                }
                let got = tester.hit(p, policy: .shape).map { tree.id(of: $0) }
                if let e = expected, let k = reference.nodes.firstIndex(where: { $0.id == e }),
                    reference.nodes[k].accessibilityPath != nil
                {
                    pathHits += 1
                }
                if got != expected {
                    if nearPath {
                        nearBoundary += 1
                        continue
                    }
                    mismatches += 1
                    if mismatches <= 3 {
                        Issue.record("seed \(seed), point \(p): got \(got ?? "nil"), expected \(expected ?? "nil")")
                    }
                }
            }
        }
        #expect(mismatches == 0)
        #expect(pathHits > 300)
        #expect(nearBoundary < 20)
    }

    static func distance(_ p: CGPoint, toRing ring: [CGPoint]) -> Double {
        var best = Double.infinity
        for i in ring.indices {
            let a = ring[i], b = ring[(i + 1) % ring.count]
            let dx = b.x - a.x, dy = b.y - a.y
            let len2 = dx * dx + dy * dy
            let t = len2 > 0 ? max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2)) : 0
            let qx = a.x + t * dx - p.x, qy = a.y + t * dy - p.y
            best = min(best, (qx * qx + qy * qy).squareRoot())
        }
        return best
    }
}
