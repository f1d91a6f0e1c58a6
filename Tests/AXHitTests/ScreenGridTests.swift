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

    /// `points` random points, scaled by `TestScale` (so are the callers' guards).
    static func compare(_ engine: HitTester, points: Int, _ rng: inout SeededRandom, _ tally: inout Tally) {
        compare(engine, (0 ..< TestScale.rounds(points)).map { point(&rng, $0) }, &tally)
    }

    /// Checks `engine`'s frame answer at each point, one query at a time
    /// and in a batch, against the spec's (`ReferenceHitTest`, unless
    /// `bySpec` is false) and against the same engine without its grid.
    static func compare(_ engine: HitTester, _ points: [CGPoint], _ tally: inout Tally, bySpec: Bool = true) {
        let reference = ReferenceHitTest(engine.tree)
        var plain = engine
        plain.screenGrid = nil
        let batch = Self.batch(engine, points).map { $0.map { engine.tree.id(of: $0) } }
        for (p, inBatch) in zip(points, batch) {
            // What the grid says where it is still asked (not in a stale area).
            switch engine.staleAreas.holds(p) ? .undecided : engine.screenGrid?.answer(p) {
            case .node: tally.decided += 1
            case .nothing: tally.nothing += 1
            case .undecided, nil: tally.undecided += 1
            }
            let got = engine.hit(p).map { engine.tree.id(of: $0) }
            let without = plain.hit(p).map { engine.tree.id(of: $0) }
            let expected = bySpec ? reference.hit(p, policy: .frame) { _, _ in nil } : without
            if got != expected || got != without || inBatch != got {
                tally.mismatches += 1
                if tally.mismatches <= 5 {
                    Issue.record(
                        "point \(p): got \(got ?? "nil"), expected \(expected ?? "nil"), without the grid \(without ?? "nil"), in a batch \(inBatch ?? "nil")"
                    )
                }
            }
        }
    }

    /// `engine`'s answers at `points` from the batch that reads each group's
    /// tiles and cells ahead (`hit(_:policy:scratch:into:readingAhead:)`,
    /// made to read ahead however small the grid), on the engine as it is
    /// (stale areas and all: the public `hit(_:policy:threads:)` would
    /// answer from a fresh grid on a copy).
    static func batch(_ engine: HitTester, _ points: [CGPoint]) -> [NodeID?] {
        var answers = [NodeID?](repeating: nil, count: points.count)
        var scratch = HitScratch()
        points.withUnsafeBufferPointer { points in
            answers.withUnsafeMutableBufferPointer {
                engine.hit(points, policy: .frame, scratch: &scratch, into: $0, readingAhead: true)
            }
        }
        return answers
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
        #expect(tally.decided > TestScale.rounds(5_000))
        #expect(tally.nothing > TestScale.rounds(100))
        #expect(tally.undecided > TestScale.rounds(100))
    }

    /// A batch reads a group's tiles and cells before answering any point
    /// of it: whatever the batch's length (around the group of 16), and
    /// with points the grid must not read (NaN, infinite, beyond moderate
    /// coordinates) among them, it answers as the spec does, in order.
    @Test func batchesOfEveryLengthAnswerAsTheSpecDoes() throws {
        var engine = HitTester(try Self.tree(seed: 3))
        let built = engine.buildScreenGrid()
        #expect(built)
        var rng = SeededRandom(seed: 77)
        let hostile = [
            CGPoint(x: Double.nan, y: 50), CGPoint(x: 50, y: -Double.infinity), CGPoint(x: 0x1p24, y: 50),
            CGPoint(x: 1e300, y: -1e300), CGPoint(x: -0x1p24, y: 0x1p24), CGPoint(x: 0, y: 0),
        ]
        var tally = Tally()
        for length in [0, 1, 15, 16, 17, 33, 1037] {
            var points = (0 ..< length).map { Self.point(&rng, $0) }
            // Hostile points at a group's first, last and middle places.
            for (k, at) in [0, 15, 16, 31, 7, 40].enumerated() where at < length { points[at] = hostile[k] }
            Self.compare(engine, points, &tally)
            let reference = ReferenceHitTest(engine.tree)
            let expected = points.map { reference.hit($0, policy: .frame) { _, _ in nil } }
            for threads in [nil, 1, 3] as [Int?] {
                let got = engine.hit(points, threads: threads).map { $0.map { engine.tree.id(of: $0) } }
                #expect(got == expected, "\(length) points on \(threads.map(String.init) ?? "every") thread(s)")
            }
        }
        #expect(tally.mismatches == 0)
        #expect(tally.decided > 500)
        #expect(tally.nothing > 10)
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
            for k in 0 ..< TestScale.rounds(2000) {
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
        #expect(tally.decided > TestScale.rounds(3_000))
        #expect(tally.nothing > TestScale.rounds(100))
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
        #expect(tally.decided > TestScale.rounds(2_000))
        #expect(tally.nothing > TestScale.rounds(1_000))
    }

    /// Random updates (every kind: exposure, modal flags, frames, paths,
    /// transforms, inserts, removals, scrolls) one after another on one grid,
    /// never rebuilt: after each, the answers are still the spec's, and the
    /// grid still decides points away from what the updates reached.
    @Test func updatesKeepTheGridAwayFromWhatTheyReach() throws {
        var tally = Tally()
        var kept = 0, dropped = 0, decidedAfterUpdates = 0
        for seed in 21 ... 26 as ClosedRange<UInt64> {
            var engine = HitTester(try Self.tree(seed: seed))
            var rng = SeededRandom(seed: seed)
            var serial = 0
            engine.buildScreenGrid()
            for _ in 0 ..< 40 {
                let before = engine.screenGrid != nil
                let updated = try BoxHitTests.randomUpdate(&engine, &rng, serial: &serial)
                if before && updated {
                    if engine.screenGrid != nil { kept += 1 } else { dropped += 1 }
                }
                let decided = tally.decided + tally.nothing
                Self.compare(engine, points: 100, &rng, &tally)
                if engine.screenGrid != nil && !engine.staleAreas.isEmpty {
                    decidedAfterUpdates += tally.decided + tally.nothing - decided
                }
                // Once dropped, a build brings it back for the next updates.
                if engine.screenGrid == nil { engine.buildScreenGrid() }
            }
        }
        #expect(tally.mismatches == 0)
        #expect(kept > 100, "most updates keep the grid (\(kept) kept, \(dropped) dropped)")
        #expect(decidedAfterUpdates > TestScale.rounds(2_000), "the grid still answers after updates")
    }

    /// Rows of 40-point cells in a scrolled column (screen = column space −
    /// (10, 100)), a rotated badge in front of some, and a cell reaching past
    /// its row's bounds; and the column's id.
    static func columnTree() throws -> (ElementTree, NodeID) {
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
        return (tree, column)
    }

    /// A 400-point-wide window `height` tall over a canvas of 1,000 rows of
    /// ten 40-point cells, scrolled down 12,000 points (to row 300).
    static func longListTree(height: Double) throws -> ElementTree {
        try ScreenTilesTests.cellsTree(
            rows: 1000, columns: 10, pitch: CGSize(width: 40, height: 40), size: CGSize(width: 40, height: 40),
            inset: 0, scroll: 12_000, windowHeight: height)
    }

    /// The engine builds its own whole grid, cells and all, where that costs
    /// little: a list showing 15 of its 1,000 rows files 150 entries for
    /// 11,002 nodes. A frame query then reads a tile or a cell with nobody
    /// building a grid, with the spec's answers. Where every row is on the
    /// screen, a grid would cost about 40 bytes a node, and the engine keeps
    /// its tiles alone.
    @Test func theEngineBuildsItsOwnGridWhereLittleIsOnTheScreen() throws {
        let tree = try Self.longListTree(height: 600)
        let engine = HitTester(tree)
        #expect(engine.hasScreenGrid, "the engine's own grid, with cells")
        let grid = try #require(engine.screenGrid)
        #expect(grid.memoryBytes <= IndexPolicy.ownGridBytesPerNode * tree.count)
        // Rows of plain cells in pre-order: the keys are the cells' slots.
        #expect(grid.keysAreSlots && grid.nodes.isEmpty)
        // Row 305 is at y 12,200 in the list, 200 on the screen; cell 3 at x 120.
        #expect(grid.answer(CGPoint(x: 130, y: 210)) == .node(try #require(tree.node(withID: "c305.3"))))
        // Below the window, whose bounds cut every row: outside every entry,
        // the grid leaves it to the search, which finds nothing.
        #expect(grid.answer(CGPoint(x: 130, y: 610)) == .undecided)
        #expect(engine.hit(CGPoint(x: 130, y: 610)) == nil)
        var tally = Tally()
        var rng = SeededRandom(seed: 29)
        let points = (0 ..< TestScale.rounds(3000)).map { _ in
            CGPoint(x: rng.number(-5 ... 405), y: rng.number(-5 ... 605))
        }
        Self.compare(engine, points, &tally)
        #expect(tally.mismatches == 0)
        #expect(tally.decided > points.count * 5 / 6, "the grid decides all but the points near edges")

        let tall = try Self.longListTree(height: 40_000)
        let full = HitTester(tall)
        #expect(!full.hasScreenGrid, "every row on the screen: no cells")
        #expect(full.screenGrid?.tiles != nil, "the tiles alone")
    }

    /// By hand, on `columnTree()`.
    @Test func answersKnownPoints() throws {
        let (tree, column) = try Self.columnTree()
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
        // A scroll of the column reaches every entry: it drops the grid; the
        // answers follow the new offset.
        try engine.scroll(column, to: CGPoint(x: 0, y: 0))
        #expect(!engine.hasScreenGrid)
        #expect(hit(5, 5) == "c0.0")
    }

    /// Points just off every edge of the cells, by 2^-20 ... 2^-4 (around
    /// the slack, 2^-16, and the room an answer needs: a cell's quantization
    /// step, 80 / 65,535 here, about 2^-9.7), and on them.
    @Test func pointsNearEdgesAgreeWithTheSpec() throws {
        var engine = HitTester(try Self.columnTree().0)
        let built = engine.buildScreenGrid()
        #expect(built)
        let offsets = [0.0] + (4 ... 20).flatMap { [-pow(2, -Double($0)), pow(2, -Double($0))] }
        var points: [CGPoint] = []
        for c in 0 ... 10 {
            for r in 0 ... 5 {
                // Cell edges on the screen: x = 40c − 10, y = 40r − 100 (rows 2...).
                let x = Double(40 * c - 10), y = Double(40 * (r + 2) - 100)
                for d in offsets {
                    points.append(CGPoint(x: x + d, y: y + 20))
                    points.append(CGPoint(x: x + 20, y: y + d))
                    points.append(CGPoint(x: x + d, y: y + d))
                }
            }
        }
        var tally = Tally()
        Self.compare(engine, points, &tally)
        #expect(tally.mismatches == 0)
        #expect(tally.decided > 500, "points 2^-12 and more inside a cell are the grid's to answer")
        #expect(tally.undecided > 300, "points 2^-14 and less from an edge are not")
    }

    /// A view scrolled 2^55 points (its bounds origin): a point's place in
    /// its bounds is known to 8 pt, and the spec's oracle and the per-view
    /// search round it differently 1.5 pt outside them. The grid must not
    /// decide there by the bounds' place on the screen.
    @Test func hugeBoundsDoNotPruneByTheirPlaceOnTheScreen() throws {
        var tree = ElementTree()
        let root = try tree.append(.view("root", frame: CGRect(x: 0, y: 0, width: 400, height: 400)), under: .none)
        var viewNode = Node.view("V", frame: CGRect(x: 100, y: 100, width: 16, height: 16))
        viewNode.bounds = CGRect(x: 0x1p55, y: 0, width: 16, height: 16)
        let v = try tree.append(viewNode, under: root)
        var element = Node.element("C")
        element.isAccessibilityElement = true
        element.accessibilityFrame = CGRect(x: 90, y: 100, width: 20, height: 10)
        try tree.append(element, under: v)
        // In front of the view, so that its opaque entry hides none of them.
        for k in 0 ..< 8 {
            var v = Node.view("v\(k)", frame: CGRect(x: 200 + Double(k) * 20, y: 300, width: 20, height: 20))
            v.isAccessibilityElement = true
            try tree.append(v, under: root)
        }
        var engine = HitTester(tree)
        let built = engine.buildScreenGrid()
        #expect(built)
        var points: [CGPoint] = []
        for x in stride(from: 85.0, through: 120, by: 0.5) {
            for y in stride(from: 95.0, through: 120, by: 2.5) { points.append(CGPoint(x: x, y: y)) }
        }
        // At 2^55 the answer is the rounding's (the spec's oracle rounds
        // its own way): the grid must give the per-view search's, whichever
        // it is, and leave every point near the view to it.
        var tally = Tally()
        Self.compare(engine, points, &tally, bySpec: false)
        #expect(tally.mismatches == 0)
        #expect(tally.decided == 0 && tally.nothing == 0, "the cut (the root's bounds) is all opaque")
        var far = Tally()
        Self.compare(engine, [CGPoint(x: 305, y: 310), CGPoint(x: 345, y: 310)], &far)
        #expect(far.decided == 2, "elements in front of the view keep their answers")
    }

    /// Mostly zero-size exposed views (a size class under 8 pt) beside
    /// 40-point cells: the grid is built, with cells wide enough for the
    /// room an answer needs.
    @Test func zeroSizeViewsDoNotMakeTheGridDecline() throws {
        var tree = ElementTree()
        let root = try tree.append(.view("root", frame: CGRect(x: 0, y: 0, width: 400, height: 600)), under: .none)
        var rng = SeededRandom(seed: 7)
        for k in 0 ..< 2000 {
            let x = rng.number(0 ... 400), y = rng.number(0 ... 600)
            var v = Node.view("z\(k)", frame: CGRect(x: x.rounded(), y: y.rounded(), width: 0, height: 0))
            v.isAccessibilityElement = true
            try tree.append(v, under: root)
        }
        for k in 0 ..< 150 {
            var v = Node.view(
                "c\(k)", frame: CGRect(x: Double(k % 10) * 40, y: Double(k / 10) * 40, width: 40, height: 40))
            v.isAccessibilityElement = true
            try tree.append(v, under: root)
        }
        var engine = HitTester(tree)
        let built = engine.buildScreenGrid()
        #expect(built)
        #expect((engine.screenGrid?.first.cells.quantizationStep ?? 0) >= IndexPolicy.minimumGridStep)
        var rng2 = SeededRandom(seed: 8)
        let points = (0 ..< TestScale.rounds(3000)).map { k in
            let p = CGPoint(x: rng2.number(0 ... 400), y: rng2.number(0 ... 600))
            return k % 3 == 0 ? CGPoint(x: p.x.rounded(), y: p.y.rounded()) : p  // on a zero-size view, often
        }
        var tally = Tally()
        Self.compare(engine, points, &tally)
        #expect(tally.mismatches == 0)
        #expect(tally.decided > points.count / 3)
    }

    /// Full-width banners over 10-point cells: too wide for the cells, they
    /// are the grid's loose entries, scanned by every query, in z-order with
    /// the cells.
    @Test func looseEntriesKeepTheirPlaceInZOrder() throws {
        var tree = ElementTree()
        let root = try tree.append(
            .view("root", frame: CGRect(x: 0, y: 0, width: 1000, height: 1000)), under: .none)
        for k in 0 ..< 2000 {
            if k % 400 == 200 {
                var banner = Node.view("b\(k)", frame: CGRect(x: 0, y: Double(k / 2), width: 1000, height: 12))
                banner.isAccessibilityElement = true
                try tree.append(banner, under: root)
            }
            var v = Node.view(
                "v\(k)", frame: CGRect(x: Double(k % 100) * 10, y: Double(k / 100) * 50, width: 10, height: 10))
            v.isAccessibilityElement = true
            try tree.append(v, under: root)
        }
        var engine = HitTester(tree)
        let built = engine.buildScreenGrid()
        #expect(built)
        let grid = try #require(engine.screenGrid)
        #expect(grid.first.cells.outsideCells > 0 || grid.others.contains { $0.cells.outsideCells > 0 })
        var rng = SeededRandom(seed: 9)
        let points = (0 ..< TestScale.rounds(4000)).map { _ in
            CGPoint(x: rng.number(0 ... 1000), y: rng.number(0 ... 1000))
        }
        var tally = Tally()
        Self.compare(engine, points, &tally)
        #expect(tally.mismatches == 0)
        #expect(tally.decided > points.count / 8)
        // By hand: banner b200 (y 100 ..< 112) is in front of cells 0...199
        // (rows y 0 ..< 10 and 50 ..< 60) and behind 200... (rows from y 100).
        let ids = { (x: Double, y: Double) in engine.hit(CGPoint(x: x, y: y)).map { tree.id(of: $0) } }
        #expect(ids(5, 111) == "b200")
        #expect(ids(5, 105) == "v200")
    }

    /// A chain of 80 views, each 1 pt in from its parent: below `maxDepth`
    /// the grid files the rest of the chain as opaque, and the search answers.
    @Test func deepChainsAreOpaqueBelowTheMaximumDepth() throws {
        var tree = ElementTree()
        var parent = try tree.append(
            .view("root", frame: CGRect(x: 0, y: 0, width: 400, height: 400)), under: .none)
        for k in 0 ..< 5 {
            var v = Node.view("top\(k)", frame: CGRect(x: 300, y: Double(k) * 40, width: 40, height: 40))
            v.isAccessibilityElement = true
            try tree.append(v, under: parent)
        }
        for k in 0 ..< 80 {
            parent = try tree.append(.view("d\(k)", frame: CGRect(x: 1, y: 1, width: 200, height: 200)), under: parent)
        }
        var leaf = Node.view("leaf", frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        leaf.isAccessibilityElement = true
        try tree.append(leaf, under: parent)
        var engine = HitTester(tree)
        let built = engine.buildScreenGrid()
        #expect(built)
        // The leaf is at (80, 80) ..< (180, 180) on the screen.
        #expect(engine.screenGrid?.answer(CGPoint(x: 120, y: 120)) == .undecided)
        #expect(engine.hit(CGPoint(x: 120, y: 120)).map { tree.id(of: $0) } == "leaf")
        #expect(engine.hit(CGPoint(x: 79.5, y: 120)) == nil)
        #expect(engine.screenGrid?.answer(CGPoint(x: 320, y: 20)) == .node(try #require(tree.node(withID: "top0"))))
        var rng = SeededRandom(seed: 10)
        var tally = Tally()
        Self.compare(
            engine, (0 ..< 2000).map { _ in CGPoint(x: rng.number(0 ... 400), y: rng.number(0 ... 400)) }, &tally)
        #expect(tally.mismatches == 0)
    }

    /// TalkBack's hover, filed in the order it offers the point
    /// (`hoverEntries`), answers from the grid as the per-view hover does:
    /// on the title (not exposed: its clickable row speaks for it), the
    /// row, which takes the hover; on the button in front of its row, the
    /// button; where the overlay window holds the point, nothing (its stop
    /// entry), though the app window behind holds it too.
    @Test func talkBackTreesGetTheHoversGrid() throws {
        let tree = try PlatformReferenceTests.androidScreen(
            """
            {"id": "app", "isWindow": true, "frame": [0, 0, 100, 100], "children": [
               {"id": "row", "frame": [0, 50, 100, 40], "actions": ["click"], "children": [
                  {"id": "title", "frame": [10, 5, 50, 30], "accessibilityLabel": "Title"},
                  {"id": "more", "frame": [70, 5, 20, 30], "actions": ["click"], "accessibilityLabel": "More"}]}]},
            {"id": "overlay", "isWindow": true, "frame": [0, 0, 100, 30], "children": [
               {"id": "empty", "frame": [0, 0, 80, 20]}]}
            """)
        var engine = HitTester(tree)
        let built = engine.buildScreenGrid(), prepared = engine.prepare(forQueries: 1_000, policy: .frame)
        #expect(built && prepared)
        let row = try #require(tree.node(withID: "row")), more = try #require(tree.node(withID: "more"))
        #expect(engine.screenGrid?.answer(CGPoint(x: 30, y: 70)) == .node(row))
        #expect(engine.screenGrid?.answer(CGPoint(x: 80, y: 70)) == .node(more))
        #expect(engine.screenGrid?.answer(CGPoint(x: 50, y: 10)) == .nothing)
        #expect(engine.screenGrid?.answer(CGPoint(x: 50, y: 40)) == .nothing)
        #expect(engine.hit(CGPoint(x: 30, y: 70)) == row)
        #expect(engine.hit(CGPoint(x: 80, y: 70)) == more)
        #expect(engine.hit(CGPoint(x: 50, y: 10)) == nil)
        // (50, 40): the app window alone, which is window-sized, not exposed.
        #expect(engine.hit(CGPoint(x: 50, y: 40)) == nil)
        #expect(engine.hit(CGPoint(x: 70, y: 70)) == more)
        #expect(engine.hit(CGPoint(x: 69.99, y: 70)) == row)
    }

    /// A clickable view in front takes the hover from what lies behind it:
    /// the text behind the button, which the grid's order would let win,
    /// is left to the per-view hover where the button overlaps it, and the
    /// grid answers elsewhere. A label over a card it does not belong to
    /// gives way to the card (it takes no hover: the card reports last),
    /// from the grid.
    @Test func aTakerInFrontLeavesItsOverlapToTheHover() throws {
        let tree = try PlatformReferenceTests.androidScreen(
            """
            {"id": "app", "isWindow": true, "frame": [0, 0, 100, 100], "children": [
               {"id": "text", "frame": [0, 0, 60, 40], "accessibilityLabel": "Behind"},
               {"id": "button", "frame": [40, 0, 50, 40], "actions": ["click"], "accessibilityLabel": "OK"},
               {"id": "card", "frame": [0, 50, 100, 40], "actions": ["click"], "accessibilityLabel": "Card"},
               {"id": "label", "frame": [10, 55, 40, 20], "accessibilityLabel": "Over"}]}
            """)
        var engine = HitTester(tree)
        let built = engine.buildScreenGrid()
        #expect(built)
        let text = try #require(tree.node(withID: "text")), button = try #require(tree.node(withID: "button"))
        let card = try #require(tree.node(withID: "card"))
        let overlap = CGPoint(x: 50, y: 20)
        #expect(engine.screenGrid?.answer(overlap) == .undecided)
        #expect(engine.hit(overlap) == button)
        #expect(engine.screenGrid?.answer(CGPoint(x: 20, y: 20)) == .node(text))
        #expect(engine.screenGrid?.answer(CGPoint(x: 80, y: 20)) == .node(button))
        #expect(engine.screenGrid?.answer(CGPoint(x: 20, y: 60)) == .node(card))
        #expect(engine.hit(CGPoint(x: 20, y: 60)) == card)
        var rng = SeededRandom(seed: 44)
        let reference = PlatformReference(tree)
        for _ in 0 ..< 2000 {
            let p = CGPoint(x: rng.number(-5 ... 105), y: rng.number(-5 ... 105))
            #expect(engine.hit(p) == reference.androidHit(p).flatMap { tree.node(withID: reference.nodes[$0].id) })
        }
    }

    /// The shape policy never reads the grid.
    @Test func theShapePolicyIgnoresTheGrid() throws {
        var (tree, _) = try Self.columnTree()
        // A triangle over cell 3.0's lower-left half, in the view's space.
        let cell = try #require(tree.node(withID: "c3.0"))
        var node = try #require(tree[cell])
        node.accessibilityPath = AccessibilityPath(
            try BezierPath(svgPathData: "M 0 0 L 0 40 L 40 40 Z"), coordinateSpace: .view)
        try tree.update(cell, to: node)
        var engine = HitTester(tree)
        let built = engine.buildScreenGrid()
        #expect(built)
        // Cell 3.0 is (−10, 20) ..< (30, 60) on the screen; (25, 25) is in
        // its frame, outside its triangle (in the view's space (35, 5)), and
        // (5, 55) inside it ((15, 35)).
        let p = CGPoint(x: 25, y: 25)
        #expect(engine.hit(p).map { tree.id(of: $0) } == "c3.0")
        #expect(engine.hit(p, policy: .shape) == nil)
        #expect(engine.hit(CGPoint(x: 5, y: 55), policy: .shape).map { tree.id(of: $0) } == "c3.0")
    }

    /// The edges of a square turned 45° about its corner (a diamond
    /// centered at (0, 50√2)), as distances inside each side, by hand.
    @Test func theEdgesOfATurnedSquare() {
        let r = CGRect(x: 0, y: 0, width: 100, height: 100)
        let lines = HitTester.edgeLines(r, CGAffineTransform(rotationAngle: .pi / 4), margin: 1)
        #expect(lines.count == 4 && lines.allSatisfy { $0.w == 1 })
        func distances(_ x: Double, _ y: Double) -> [Double] { lines.map { $0.x * x + $0.y * y + $0.z } }
        let root2 = 2.0.squareRoot()
        for (got, expected) in zip(distances(0, 50 * root2), [50.0, 50, 50, 50]) {
            #expect(abs(got - expected) < 1e-9)
        }
        // The corner at the origin lies on two sides, 100 from the others;
        // a point 10 left of it, 10/√2 outside both.
        for (got, expected) in zip(distances(0, 0), [0.0, 100, 0, 100]) { #expect(abs(got - expected) < 1e-9) }
        for (got, expected) in zip(distances(-10, 0), [-10 / root2, 100 + 10 / root2, 10 / root2, 100 - 10 / root2]) {
            #expect(abs(got - expected) < 1e-9)
        }
        // Mirrored (a negative determinant): still distances inside.
        let mirrored = HitTester.edgeLines(r, CGAffineTransform(scaleX: -2, y: 1), margin: 1)
        let m = mirrored.map { $0.x * -50 + $0.y * 50 + $0.z }
        for (got, expected) in zip(m, [50.0, 150, 50, 50]) { #expect(abs(got - expected) < 1e-9) }
    }

    /// Below views that turn and scale (the harness's `rotated` panels):
    /// elements answer from the grid where every view above surely holds
    /// the point, by more than the margin inside each edge of its bounds,
    /// and are left to the search within the margin of an edge.
    @Test func turnedPanelsAgreeWithTheSpec() throws {
        var tally = Tally()
        for seed in 1 ... 4 as ClosedRange<UInt64> {
            var rng = SeededRandom(seed: seed)
            var tree = ElementTree()
            let window = try tree.append(
                .view("window", frame: CGRect(x: 0, y: 0, width: 1200, height: 1200)), under: .none)
            func turn(_ degrees: Double) -> CGAffineTransform {
                CGAffineTransform(rotationAngle: rng.number(-degrees ... degrees) * .pi / 180)
                    .scaledBy(x: rng.number(0.7 ... 1.3), y: rng.number(0.7 ... 1.3))
            }
            for p in 0 ..< 9 {
                var panelNode = Node.view(
                    "p\(p)",
                    frame: CGRect(x: Double(p % 3) * 400 + 50, y: Double(p / 3) * 400 + 50, width: 300, height: 300))
                panelNode.transform = turn(30)
                let panel = try tree.append(panelNode, under: window)
                for q in 0 ..< 4 {
                    var subNode = Node.view(
                        "p\(p)s\(q)",
                        frame: CGRect(x: Double(q % 2) * 150 + 5, y: Double(q / 2) * 150 + 5, width: 140, height: 140))
                    subNode.transform = turn(45)
                    let sub = try tree.append(subNode, under: panel)
                    for c in 0 ..< 6 {
                        var cell = Node.view(
                            "p\(p)s\(q)c\(c)",
                            frame: CGRect(x: Double(c % 2) * 70 + 4, y: Double(c / 2) * 46 + 4, width: 62, height: 40))
                        cell.isAccessibilityElement = true
                        try tree.append(cell, under: sub)
                    }
                }
            }
            var engine = HitTester(tree)
            let built = engine.buildScreenGrid()
            #expect(built)
            // Entries below turns carry edges: keyed by entry number.
            #expect(engine.screenGrid?.keysAreSlots == false)
            let points = (0 ..< 3000).map { _ in CGPoint(x: rng.number(0 ... 1200), y: rng.number(0 ... 1200)) }
            Self.compare(engine, points, &tally)
        }
        // Of 12,000 points (400,000 once by hand: none differed): 5,191
        // decided, 6,624 nothing, 185 within the margin of an edge.
        #expect(tally.mismatches == 0)
        #expect(tally.decided > 4_000)
        #expect(tally.nothing > 5_000)
        #expect(tally.undecided > 50)
    }

    /// Views turned inside views turned, ten deep, with elements at every
    /// level: the grid follows eight views from the first that turns and
    /// leaves the rest to the search (opaque), and every answer is the
    /// spec's.
    @Test func deepTurnsAgreeWithTheSpec() throws {
        var tally = Tally()
        for seed in 1 ... 3 as ClosedRange<UInt64> {
            var rng = SeededRandom(seed: seed)
            var tree = ElementTree()
            let window = try tree.append(
                .view("window", frame: CGRect(x: 0, y: 0, width: 900, height: 300)), under: .none)
            for t in 0 ..< 3 {
                var parent = window
                var side = 280.0
                for level in 0 ..< 10 {
                    var view = Node.view(
                        "t\(t)v\(level)",
                        frame: CGRect(
                            x: level == 0 ? Double(t) * 300 + 10 : 6, y: level == 0 ? 10 : 6, width: side, height: side)
                    )
                    view.transform = CGAffineTransform(rotationAngle: rng.number(-12 ... 12) * .pi / 180)
                        .scaledBy(x: rng.number(0.95 ... 1.05), y: rng.number(0.95 ... 1.05))
                    let v = try tree.append(view, under: parent)
                    // Two elements along the view's far edge, outside the next view.
                    for e in 0 ..< 2 {
                        var cell = Node.view(
                            "t\(t)v\(level)e\(e)",
                            frame: CGRect(x: Double(e) * side / 2, y: side - 14, width: side / 2 - 1, height: 12))
                        cell.isAccessibilityElement = true
                        try tree.append(cell, under: v)
                    }
                    parent = v
                    side -= 24
                }
            }
            var engine = HitTester(tree)
            let built = engine.buildScreenGrid()
            #expect(built)
            let grid = try #require(engine.screenGrid)
            // The longest chain of edge groups an entry reads.
            func views(_ g: Int32) -> Int { g < 0 ? 0 : 1 + views(grid.edges.parents[Int(g)]) }
            #expect(grid.edges.groups.map(views).max() == ScreenGrid.maxTurns)
            // The ninth and tenth views' subtrees are opaque: no element entry there.
            #expect(grid.nodes.contains(.none))
            let points = (0 ..< 3000).map { _ in CGPoint(x: rng.number(0 ... 900), y: rng.number(0 ... 300)) }
            Self.compare(engine, points, &tally)
        }
        #expect(tally.mismatches == 0)
        #expect(tally.decided > 1_000)
        #expect(tally.nothing > 1_000)
        #expect(tally.undecided > 50)
    }
}
