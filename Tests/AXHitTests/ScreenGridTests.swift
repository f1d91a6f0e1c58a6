import Foundation
import Testing

@testable import AXHit

/// The screen grid (`HitTester.buildScreenGrid()`) must give exactly the
/// spec's frame answers: where it decides, and where it hands the point back
/// to the per-view search (near an edge, over a subtree it does not flatten).
@Suite struct ScreenGridTests {
    /// A point uniformly in the canvas, or (every other one) on a quarter
    /// point, so that many lie exactly on edges of the trees' boxes.
    static func point(_ rng: inout SeededRandom, _ k: Int) -> CGPoint {
        let x = rng.number(-10 ... 210), y = rng.number(-10 ... 210)
        if k % 2 == 0 { return CGPoint(x: x, y: y) }
        return CGPoint(x: (x * 4).rounded() / 4, y: (y * 4).rounded() / 4)
    }

    /// What the grid said, counted, so that the comparison can't pass with
    /// the grid deciding nothing.
    struct Tally {
        var decided = 0, nothing = 0, undecided = 0, mismatches = 0
    }

    static func compare(_ engine: HitTester, points: Int, _ rng: inout SeededRandom, _ tally: inout Tally) {
        let reference = ReferenceHitTest(engine.tree)
        for k in 0 ..< points {
            let p = point(&rng, k)
            switch engine.screenGrid?.answer(p) {
            case .node: tally.decided += 1
            case .nothing: tally.nothing += 1
            case .undecided, nil: tally.undecided += 1
            }
            let expected = reference.hit(p, policy: .frame) { _, _ in nil }
            let got = engine.hit(p).map { engine.tree.id(of: $0) }
            if got != expected {
                tally.mismatches += 1
                if tally.mismatches <= 5 {
                    Issue.record("point \(p): got \(got ?? "nil"), expected \(expected ?? "nil")")
                }
            }
        }
    }

    /// `BoxHitTests`' trees, wider (600 children in the scrolled wide view)
    /// and with a scrolled list of rows, a level deeper: enough boxes for a
    /// grid, with transforms, paths and explicit frames among them.
    static func tree(seed: UInt64) throws -> ElementTree {
        var tree = try BoxHitTests.tree(seed: seed)
        var rng = SeededRandom(seed: seed &+ 1000)
        let wide = try #require(tree.node(withID: "wide"))
        for k in 300 ..< 600 { try BoxHitTests.appendChild(k, under: wide, &tree, &rng) }
        var listNode = Node.view("list", frame: CGRect(x: 20, y: 30, width: 160, height: 150))
        listNode.bounds = CGRect(x: 0, y: 35, width: 160, height: 150)
        let list = try tree.append(listNode, under: tree.root)
        for r in 0 ..< 20 {
            let row = try tree.append(
                .view("row\(r)", frame: CGRect(x: 0, y: Double(r) * 15, width: 160, height: 15)), under: list)
            for c in 0 ..< 8 {
                var cell = Node.view("r\(r)c\(c)", frame: CGRect(x: Double(c) * 20, y: 0, width: 20, height: 15))
                cell.isAccessibilityElement = rng.chance(0.8)
                if rng.chance(0.05) { cell.transform = CGAffineTransform(rotationAngle: 0.3) }
                if rng.chance(0.05) { cell.accessibilityFrame = BoxHitTests.box(&rng) }
                if rng.chance(0.1) { cell.frame.origin.y -= 5 }  // cut by its row
                try tree.append(cell, under: row)
            }
        }
        // A banner across the screen, in a size class of its own.
        var banner = Node.view("banner", frame: CGRect(x: 0, y: 90, width: 200, height: 12))
        banner.isAccessibilityElement = true
        try tree.append(banner, under: tree.root)
        return tree
    }

    @Test func agreesWithTheSpecOnBuiltTrees() throws {
        var tally = Tally()
        var built = 0
        for seed in 1 ... 12 as ClosedRange<UInt64> {
            var engine = HitTester(try Self.tree(seed: seed))
            if engine.buildScreenGrid() { built += 1 }
            var rng = SeededRandom(seed: seed &* 31)
            Self.compare(engine, points: 3000, &rng, &tally)
        }
        #expect(tally.mismatches == 0)
        // The grid must be built for most (a seed may be too clustered for
        // one), and each kind of answer must occur often enough to count.
        #expect(built >= 10)
        #expect(tally.decided > 5_000)
        #expect(tally.nothing > 100)
        #expect(tally.undecided > 1_000)
    }

    /// Small cells under a hundred large panels, interleaved in z-order: too
    /// many panels too wide for cells sized to the cells, so one grid per
    /// size class.
    @Test func sizeClassesAgreeWithTheSpec() throws {
        var tally = Tally()
        for seed in 1 ... 3 as ClosedRange<UInt64> {
            var rng = SeededRandom(seed: seed)
            var tree = ElementTree()
            let root = try tree.append(
                .view("root", frame: CGRect(x: 0, y: 0, width: 1000, height: 1000)), under: .none)
            var canvasNode = Node.view("canvas", frame: CGRect(x: 0, y: 0, width: 1000, height: 1000))
            canvasNode.bounds = CGRect(x: 3, y: 7, width: 1000, height: 1000)
            let canvas = try tree.append(canvasNode, under: root)
            for k in 0 ..< 1100 {
                let side = k % 11 == 10 ? 300.0 : 10.0
                var v = Node.view(
                    "v\(k)",
                    frame: CGRect(
                        x: rng.number(0 ... 1000 - side), y: rng.number(0 ... 1000 - side), width: side, height: side))
                v.isAccessibilityElement = true
                try tree.append(v, under: canvas)
            }
            var engine = HitTester(tree)
            let built = engine.buildScreenGrid()
            #expect(built)
            #expect(engine.screenGrid?.others.count == 1, "cells and panels each in a grid of their own")
            let reference = ReferenceHitTest(tree)
            for k in 0 ..< 2000 {
                let p = CGPoint(
                    x: rng.number(0 ... 1000), y: rng.number(0 ... 1000))
                let q = k % 2 == 0 ? p : CGPoint(x: p.x.rounded(), y: p.y.rounded())
                switch engine.screenGrid?.answer(q) {
                case .node: tally.decided += 1
                case .nothing: tally.nothing += 1
                case .undecided, nil: tally.undecided += 1
                }
                let expected = reference.hit(q, policy: .frame) { _, _ in nil }
                let got = engine.hit(q).map { tree.id(of: $0) }
                if got != expected {
                    tally.mismatches += 1
                    if tally.mismatches <= 5 {
                        Issue.record("point \(q): got \(got ?? "nil"), expected \(expected ?? "nil")")
                    }
                }
            }
        }
        #expect(tally.mismatches == 0)
        #expect(tally.decided > 3_000)
        #expect(tally.nothing > 100)
    }

    /// `RandomTrees`: rotations, scales, paths, explicit frames, modal and
    /// hidden views, element nodes in element nodes, everywhere.
    @Test func agreesOnTreesWithEveryFeature() throws {
        var tally = Tally()
        var built = 0
        for seed in 1 ... 16 as ClosedRange<UInt64> {
            var engine = HitTester(try RandomTrees.make(seed: seed, nodes: 800, wide: seed > 8, paths: seed % 2 == 0))
            if engine.buildScreenGrid() { built += 1 }
            var rng = SeededRandom(seed: seed &* 131)
            Self.compare(engine, points: 1500, &rng, &tally)
        }
        #expect(tally.mismatches == 0)
        #expect(built >= 8)
        #expect(tally.decided > 2_000)
        #expect(tally.nothing > 1_000)
    }

    @Test func anUpdateDropsTheGridAndABuildBringsItBack() throws {
        var tally = Tally()
        var drops = 0
        for seed in 21 ... 24 as ClosedRange<UInt64> {
            var engine = HitTester(try Self.tree(seed: seed))
            var rng = SeededRandom(seed: seed)
            var serial = 0
            for _ in 0 ..< 40 {
                engine.buildScreenGrid()
                let before = engine.hasScreenGrid
                try BoxHitTests.randomUpdate(&engine, &rng, serial: &serial)
                if before && !engine.hasScreenGrid { drops += 1 }
                // Without the grid, then with one for the new screen.
                Self.compare(engine, points: 100, &rng, &tally)
                if engine.buildScreenGrid() { Self.compare(engine, points: 100, &rng, &tally) }
            }
        }
        #expect(tally.mismatches == 0)
        #expect(drops > 60)
        #expect(tally.decided > 2_000)
    }

    /// By hand: rows of 40-point cells in a scrolled column, a rotated view
    /// in front of some, and a cell reaching past its row's bounds.
    @Test func answersKnownPoints() throws {
        var tree = ElementTree()
        let window = try tree.append(
            .view("window", frame: CGRect(x: 0, y: 0, width: 400, height: 1600)), under: .none)
        var columnNode = Node.view("column", frame: CGRect(x: 0, y: 0, width: 400, height: 1600))
        columnNode.bounds = CGRect(x: 10, y: 100, width: 400, height: 1600)  // scrolled
        let column = try tree.append(columnNode, under: window)
        for r in 0 ..< 50 {
            let row = try tree.append(
                .view("row\(r)", frame: CGRect(x: 0, y: Double(r) * 40, width: 400, height: 40)), under: column)
            for c in 0 ..< 10 {
                var cell = Node.view("c\(r).\(c)", frame: CGRect(x: Double(c) * 40, y: 0, width: 40, height: 40))
                cell.isAccessibilityElement = true
                // Past its row's bounds.
                if r == 6 && c == 9 { cell.frame = CGRect(x: 360, y: -40, width: 40, height: 80) }
                try tree.append(cell, under: row)
            }
        }
        var badge = Node.view("badge", frame: CGRect(x: 100, y: 100, width: 40, height: 40))
        badge.transform = CGAffineTransform(rotationAngle: .pi / 4)
        badge.isAccessibilityElement = true
        try tree.append(badge, under: window)

        var engine = HitTester(tree)
        let built = engine.buildScreenGrid()
        #expect(built)
        func hit(_ x: Double, _ y: Double) -> String? { engine.hit(CGPoint(x: x, y: y)).map { tree.id(of: $0) } }
        // Screen = column space − (10, 100): row r spans y 40r − 100 ..< 40r − 60,
        // cell c spans x 40c − 10 ..< 40c + 30.
        #expect(hit(5, 5) == "c2.0")
        #expect(hit(35, 5) == "c2.1")
        #expect(hit(389, 1599) == "c42.9")
        #expect(hit(5, 1600) == nil)  // below the window
        #expect(hit(395, 5) == nil)  // right of the last cell
        // Cell 6.9 reaches 40 points above row 6 (y 140 ..< 180), into row 5's
        // place (y 100 ..< 140), in front of it, but row 6's bounds cut it.
        #expect(hit(355, 125) == "c5.9")
        #expect(hit(355, 145) == "c6.9")
        // The rotated badge (a diamond around (120, 120), half-diagonal 28.3)
        // is in front: its frame policy region is its screen box.
        #expect(hit(120, 120) == "badge")
        #expect(hit(93, 93) == "badge")
        #expect(hit(90, 90) == "c4.2")
        // On an edge: closed-open, as without the grid.
        #expect(hit(30, 5) == "c2.1")
        #expect(hit(29.999999, 5) == "c2.0")
        // A scroll drops the grid; the answers follow the new offset.
        try engine.scroll(column, to: CGPoint(x: 0, y: 0))
        #expect(!engine.hasScreenGrid)
        #expect(hit(5, 5) == "c0.0")
    }
}
