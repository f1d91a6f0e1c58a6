import Foundation
import Testing

@testable import AXHit

/// The screen grid's tiles (`ScreenTiles`): on the layout's pitch, each
/// decides only what its one candidate makes certain, and what they decide
/// is the spec's frame answer.
@Suite struct ScreenTilesTests {
    /// Rows of `columns` cells on a pitch of `pitch`, each cell `size` with
    /// its origin `inset` into its place (a gap of `pitch − size − inset`
    /// after it), the rows scrolled by `scroll`; heights shrink by up to
    /// `jitter` as self-sizing cells do.
    static func cellsTree(
        rows: Int, columns: Int, pitch: CGSize, size: CGSize, inset: Double, scroll: Double = 0, jitter: Double = 0,
        windowHeight: Double? = nil
    ) throws -> ElementTree {
        var tree = ElementTree()
        let width = Double(columns) * pitch.width, height = windowHeight ?? Double(rows) * pitch.height
        let window = try tree.append(
            .view("window", frame: CGRect(x: 0, y: 0, width: width, height: height)), under: .none)
        var canvasNode = Node.view("canvas", frame: CGRect(x: 0, y: 0, width: width, height: height))
        canvasNode.bounds = CGRect(x: 0, y: scroll, width: width, height: height)
        let canvas = try tree.append(canvasNode, under: window)
        var rng = SeededRandom(seed: 7)
        for r in 0 ..< rows {
            let row = try tree.append(
                .view("row\(r)", frame: CGRect(x: 0, y: Double(r) * pitch.height, width: width, height: pitch.height)),
                under: canvas)
            for c in 0 ..< columns {
                let h = size.height - (jitter > 0 ? rng.number(0 ... jitter) : 0)
                var cell = Node.view(
                    "c\(r).\(c)",
                    frame: CGRect(x: Double(c) * pitch.width + inset, y: inset, width: size.width, height: h))
                cell.isAccessibilityElement = true
                try tree.append(cell, under: row)
            }
        }
        return tree
    }

    static func tiles(_ engine: HitTester) throws -> ScreenTiles {
        let grid = try #require(engine.screenGrid)
        return try #require(grid.tiles)
    }

    /// What `tiles` say at (`x`, `y`): the element's id, "nothing", or nil
    /// when they leave the point undecided.
    static func said(_ tiles: ScreenTiles, _ tree: ElementTree, _ x: Double, _ y: Double) -> String? {
        switch tiles.answer(CGPoint(x: x, y: y)) {
        case .node(let n): return tree.id(of: n)
        case .nothing: return "nothing"
        case .undecided: return nil
        }
    }

    /// Cells edge to edge, 40 points square (the harness's `square`): one
    /// tile per cell, on the cells' edges, deciding every point more than
    /// about two quantization steps (40 / 255 pt each) inside its cell.
    @Test func edgeToEdgeCellsGetATileEach() throws {
        var engine = HitTester(
            try Self.cellsTree(
                rows: 30, columns: 30, pitch: CGSize(width: 40, height: 40), size: CGSize(width: 40, height: 40),
                inset: 0))
        let built = engine.buildScreenGrid()
        #expect(built)
        let tiles = try Self.tiles(engine)
        #expect(tiles.sideX == 40 && tiles.sideY == 40)
        #expect(tiles.originX == 0 && tiles.originY == 0)
        #expect(tiles.columns == 30 && tiles.rows == 30)
        func tile(_ x: Double, _ y: Double) -> String? { Self.said(tiles, engine.tree, x, y) }
        #expect(tile(20, 20) == "c0.0")
        #expect(tile(41, 79) == "c1.1")
        #expect(tile(1199.5, 1199.5) == "c29.29")
        #expect(tile(39.5, 20) == "c0.0")  // 3.2 steps from the edge
        #expect(tile(39.8, 20) == nil)  // 1.3 steps: in the border
        #expect(tile(40, 20) == nil)  // on an edge: the search decides
        #expect(tile(40 + 0x1p-20, 20) == nil)
        #expect(tile(40.01, 20) == nil)
        #expect(tile(40.5, 20) == "c0.1")
        #expect(tile(-1, 20) == nil)  // outside every tile
        var tally = ScreenGridTests.Tally()
        var rng = SeededRandom(seed: 3)
        let points = (0 ..< 4000).map { _ in CGPoint(x: rng.number(-5 ... 1205), y: rng.number(-5 ... 1205)) }
        ScreenGridTests.compare(engine, points, &tally)
        #expect(tally.mismatches == 0)
        var decided = 0
        for p in points { if case .node = tiles.answer(p) { decided += 1 } }
        #expect(decided > 3_650, "all but the points outside the canvas and the 4% in the borders")
    }

    /// Cells with 2-point gaps on an 80 × 60 pitch, heights varying, the
    /// rows scrolled by 13 points (the harness's `grid`): tiles on the pitch
    /// with their edges in the gaps, so a tile holds one cell and says
    /// nothing in the gap around it.
    @Test func gappedCellsGetTilesOnTheirPitch() throws {
        var engine = HitTester(
            try Self.cellsTree(
                rows: 100, columns: 10, pitch: CGSize(width: 80, height: 60), size: CGSize(width: 76, height: 56),
                inset: 2, scroll: 13, jitter: 7))
        let built = engine.buildScreenGrid()
        #expect(built)
        let tiles = try Self.tiles(engine)
        #expect(tiles.sideX == 80 && tiles.sideY == 60)
        // Cells start 2 points into their place; half the gap before them.
        #expect(abs(tiles.originX - 0) < 1e-9)
        let phaseY = (tiles.originY + 13).truncatingRemainder(dividingBy: 60)
        #expect(phaseY > -2 && phaseY < 2, "tile edges in the gaps between rows, not through the cells")
        func tile(_ x: Double, _ y: Double) -> String? { Self.said(tiles, engine.tree, x, y) }
        // Screen y = row space y − 13: row r's cells from 60r − 11.
        #expect(tile(40, 60 * 5 - 11 + 20) == "c5.0")
        #expect(tile(81, 60 * 5 - 11 + 20) == "nothing")  // the gap between c5.0 and c5.1
        #expect(tile(85, 60 * 5 - 11 + 20) == "c5.1")
        var tally = ScreenGridTests.Tally()
        var rng = SeededRandom(seed: 5)
        let points = (0 ..< 6000).map { _ in CGPoint(x: rng.number(-5 ... 805), y: rng.number(-20 ... 6000)) }
        ScreenGridTests.compare(engine, points, &tally)
        #expect(tally.mismatches == 0)
        var decided = 0, nothing = 0
        for p in points {
            switch tiles.answer(p) {
            case .node: decided += 1
            case .nothing: nothing += 1
            case .undecided: break
            }
        }
        #expect(decided > 4_300, "a cell covers about 80% of its tile with room")
        #expect(nothing > 300, "the gaps")
    }

    /// More entries than the sample that estimates the pitch (10,000 cells,
    /// every other one sampled): the pitch is still the cells'.
    @Test func aSampledPitchIsTheCellsPitch() throws {
        var engine = HitTester(
            try Self.cellsTree(
                rows: 100, columns: 100, pitch: CGSize(width: 30, height: 20), size: CGSize(width: 28, height: 18),
                inset: 1))
        let built = engine.buildScreenGrid()
        #expect(built)
        let tiles = try Self.tiles(engine)
        #expect(tiles.sideX == 30 && tiles.sideY == 20)
        #expect(tiles.originX == 0 && tiles.originY == 0)
    }

    /// Buttons on cards, a badge half over two cards: where the front entry
    /// covers its tile it decides; where it covers only part and others lie
    /// behind, the tile leaves the point to the cells, which decide the same.
    @Test func overlappingEntriesDecideOnlyWhereCertain() throws {
        var tree = ElementTree()
        let window = try tree.append(
            .view("window", frame: CGRect(x: 0, y: 0, width: 1000, height: 1000)), under: .none)
        var rng = SeededRandom(seed: 11)
        for r in 0 ..< 10 {
            for c in 0 ..< 10 {
                var card = Node.view(
                    "card\(r).\(c)", frame: CGRect(x: Double(c) * 100, y: Double(r) * 100, width: 100, height: 100))
                card.isAccessibilityElement = true
                try tree.append(card, under: window)
                var button = Node.view(
                    "button\(r).\(c)",
                    frame: CGRect(
                        x: Double(c) * 100 + rng.number(0 ... 60), y: Double(r) * 100 + rng.number(0 ... 60), width: 30,
                        height: 30))
                button.isAccessibilityElement = true
                try tree.append(button, under: window)
            }
        }
        var badge = Node.view("badge", frame: CGRect(x: 180, y: 180, width: 40, height: 40))
        badge.isAccessibilityElement = true
        try tree.append(badge, under: window)
        var engine = HitTester(tree)
        let built = engine.buildScreenGrid()
        #expect(built)
        let tiles = try Self.tiles(engine)
        var tally = ScreenGridTests.Tally()
        let points = (0 ..< 5000).map { _ in CGPoint(x: rng.number(-5 ... 1005), y: rng.number(-5 ... 1005)) }
        ScreenGridTests.compare(engine, points, &tally)
        #expect(tally.mismatches == 0)
        var decided = 0, undecided = 0
        for p in points {
            switch tiles.answer(p) {
            case .node: decided += 1
            case .nothing: break
            case .undecided: undecided += 1
            }
        }
        #expect(decided > 500 && undecided > 500, "both kinds of tile occur")
        #expect(engine.hit(CGPoint(x: 200, y: 200)).map { tree.id(of: $0) } == "badge")
    }

    /// Sixty boxes each over the whole screen, after 4,000 small cells:
    /// marking them would take 60 × 10,000 tiles, past the bound of 4 ×
    /// (tiles + entries), so there are no tiles, and the cells still answer
    /// exactly.
    @Test func tooManyMarksMeanNoTiles() throws {
        var tree = ElementTree()
        let window = try tree.append(
            .view("window", frame: CGRect(x: 0, y: 0, width: 2000, height: 2000)), under: .none)
        for k in 0 ..< 4000 {
            var cell = Node.view(
                "cell\(k)", frame: CGRect(x: Double(k % 100) * 20, y: Double(k / 100) * 20, width: 20, height: 20))
            cell.isAccessibilityElement = true
            try tree.append(cell, under: window)
        }
        for k in 0 ..< 60 {
            var cover = Node.view("cover\(k)", frame: CGRect(x: 0, y: 0, width: 2000, height: 2000))
            cover.isAccessibilityElement = true
            try tree.append(cover, under: window)
        }
        var engine = HitTester(tree)
        let built = engine.buildScreenGrid()
        #expect(built)
        #expect(engine.screenGrid != nil && engine.screenGrid?.tiles == nil)
        #expect(engine.hit(CGPoint(x: 10, y: 10)).map { tree.id(of: $0) } == "cover59")
    }

    /// A cell removed and another inserted in its slot (a later generation):
    /// its tile does not decide (a tile holds the slot alone), and the
    /// answer there is the new cell's handle, not the old one's.
    @Test func aReusedSlotIsLeftToTheCells() throws {
        var engine = HitTester(
            try Self.cellsTree(
                rows: 20, columns: 20, pitch: CGSize(width: 40, height: 40), size: CGSize(width: 40, height: 40),
                inset: 0))
        let old = try #require(engine.tree.node(withID: "c3.4"))
        let row = engine.tree.parent(of: old)
        try engine.removeSubtree(old)
        var cell = Node.view("new", frame: CGRect(x: 160, y: 0, width: 40, height: 40))
        cell.isAccessibilityElement = true
        let new = try engine.insert(cell, under: row)
        #expect(new.index == old.index && new.generation > 0, "the slot is reused")
        let built = engine.buildScreenGrid()
        #expect(built)
        let tiles = try Self.tiles(engine)
        let p = CGPoint(x: 180, y: 140)
        #expect(tiles.answer(p) == .undecided)
        #expect(tiles.answer(CGPoint(x: 220, y: 140)) == .node(try #require(engine.tree.node(withID: "c3.5"))))
        #expect(engine.hit(p) == new)
    }

    /// The engine builds its own tiles (no cells) with itself: a frame
    /// query on cells reads a tile with nobody building a grid, the answers
    /// stay the spec's, and a scroll of the whole canvas drops them. On a screen of boxes piled
    /// over each other, where the tiles would decide under half of it, it
    /// keeps none.
    @Test func theEngineBuildsItsOwnTiles() throws {
        let tree = try Self.cellsTree(
            rows: 40, columns: 10, pitch: CGSize(width: 80, height: 60), size: CGSize(width: 76, height: 56),
            inset: 2)
        var engine = HitTester(tree)
        let grid = try #require(engine.screenGrid)
        #expect(!grid.hasCells && !engine.hasScreenGrid)
        let tiles = try #require(grid.tiles)
        #expect(tiles.sideX == 80 && tiles.sideY == 60)
        #expect(tiles.answer(CGPoint(x: 40, y: 30)) == .node(try #require(tree.node(withID: "c0.0"))))
        var tally = ScreenGridTests.Tally()
        var rng = SeededRandom(seed: 13)
        let points = (0 ..< 3000).map { _ in CGPoint(x: rng.number(-5 ... 805), y: rng.number(-5 ... 2405)) }
        ScreenGridTests.compare(engine, points, &tally)
        #expect(tally.mismatches == 0)
        #expect(tally.decided > 2_000 && tally.undecided > 20, "the tiles decide most points, the search the rest")
        try engine.scroll(try #require(tree.node(withID: "canvas")), to: CGPoint(x: 0, y: 30))
        #expect(engine.screenGrid == nil)
        #expect(engine.hit(CGPoint(x: 40, y: 10)).map { tree.id(of: $0) } == "c0.0")  // cell 0.0 now at y −28 ..< 28

        var piled = ElementTree()
        let window = try piled.append(.view("window", frame: CGRect(x: 0, y: 0, width: 400, height: 400)), under: .none)
        for k in 0 ..< 300 {
            var box = Node.view(
                "b\(k)", frame: CGRect(x: rng.number(0 ... 200), y: rng.number(0 ... 200), width: 200, height: 200))
            box.isAccessibilityElement = true
            try piled.append(box, under: window)
        }
        #expect(HitTester(piled).screenGrid == nil)
    }

    /// A grid built over the engine's own tiles keeps them as they are and
    /// adds its cells (the tiles are not made again), with the same answers;
    /// once an update has marked some of them stale, a build makes new ones
    /// (the old place of a moved cell is no longer its).
    @Test func aBuildUpgradesTheEnginesTiles() throws {
        let tree = try Self.cellsTree(
            rows: 40, columns: 10, pitch: CGSize(width: 80, height: 60), size: CGSize(width: 76, height: 56),
            inset: 2)
        var engine = HitTester(tree)
        func storage(_ engine: HitTester) throws -> UnsafeRawPointer? {
            try Self.tiles(engine).tiles.withUnsafeBytes { $0.baseAddress }
        }
        let own = try storage(engine)
        #expect(!engine.hasScreenGrid)
        let prepared = engine.prepare(forQueries: tree.count, policy: .frame)
        #expect(prepared)
        #expect(engine.screenGrid?.hasCells == true && engine.staleAreas.isEmpty)
        #expect(try storage(engine) == own, "the engine's own tiles, kept")
        var tally = ScreenGridTests.Tally()
        var rng = SeededRandom(seed: 17)
        let points = (0 ..< 3000).map { _ in CGPoint(x: rng.number(-5 ... 805), y: rng.number(-5 ... 2405)) }
        ScreenGridTests.compare(engine, points, &tally)
        #expect(tally.mismatches == 0 && tally.decided > 2_000)

        // Tiles alone again, then c5.5 (x 402 ..< 478, y 302 ..< 358) moved
        // 20 pt right: its old tile is stale, and a build makes new tiles.
        var moved = HitTester(tree)
        let cell = try #require(tree.node(withID: "c5.5"))
        var node = try #require(moved.tree[cell])
        node.frame.origin.x += 20
        try moved.update(cell, to: node)
        #expect(Self.said(try Self.tiles(moved), moved.tree, 410, 330) == "c5.5" && !moved.staleAreas.isEmpty)
        // The stale tiles held, so that the new ones can't be allocated where
        // they were freed (which made the addresses equal in a full run).
        let staleTiles = try Self.tiles(moved)
        let stale = try storage(moved)
        let built = moved.buildScreenGrid()
        #expect(built)
        #expect(try storage(moved) != stale)
        withExtendedLifetime(staleTiles) {}
        #expect(Self.said(try Self.tiles(moved), moved.tree, 410, 330) != "c5.5")
        #expect(moved.hit(CGPoint(x: 410, y: 330)) == nil && moved.hit(CGPoint(x: 480, y: 330)) == cell)
    }

    /// An update keeps the engine's tiles: only where it may change an
    /// answer (the moved cell's old and new place, the reach of what is
    /// inserted or removed, a row whose child turns modal) do queries search
    /// per view. The stale tile under the moved cell's old place still names
    /// it, so answering from it would be wrong: the test can't pass with the
    /// stale areas ignored.
    @Test func updatesKeepTheTilesAwayFromWhatTheyReach() throws {
        // Cells 76 × 56 at x = 80c + 2, y = 60r + 2.
        let tree = try Self.cellsTree(
            rows: 40, columns: 10, pitch: CGSize(width: 80, height: 60), size: CGSize(width: 76, height: 56),
            inset: 2)
        var engine = HitTester(tree)
        func id(_ x: Double, _ y: Double) -> String? { engine.hit(CGPoint(x: x, y: y)).map { engine.tree.id(of: $0) } }
        func asksTiles(_ x: Double, _ y: Double) -> Bool {
            engine.screenGrid != nil && !engine.staleAreas.holds(CGPoint(x: x, y: y))
        }

        // c5.5 (x 402 ..< 478, y 302 ..< 358) moves 20 pt right: 422 ..< 498,
        // under c5.6 (482 ..< 558, in front of it) from 482 on.
        let cell = try #require(tree.node(withID: "c5.5"))
        var moved = try #require(engine.tree[cell])
        moved.frame.origin.x += 20
        try engine.update(cell, to: moved)
        let tiles = try Self.tiles(engine)
        #expect(Self.said(tiles, engine.tree, 410, 330) == "c5.5", "the stale tile still names the old place")
        #expect(!asksTiles(410, 330) && id(410, 330) == nil, "the old place is a gap now")
        #expect(!asksTiles(480, 330) && id(480, 330) == "c5.5")
        #expect(id(490, 330) == "c5.6")
        // Away from it, the tiles answer: the cells next to it, and far off.
        #expect(asksTiles(360, 330) && Self.said(tiles, engine.tree, 360, 330) == "c5.4")
        #expect(asksTiles(440, 270) && id(440, 270) == "c4.5")
        #expect(asksTiles(40, 30) && id(40, 30) == "c0.0")

        // An insert and a removal: their own places alone.
        let row7 = engine.tree.parent(of: try #require(tree.node(withID: "c7.0")))
        var badge = Node.view("badge", frame: CGRect(x: 100, y: 10, width: 40, height: 20))
        badge.isAccessibilityElement = true
        try engine.insert(badge, under: row7)
        #expect(!asksTiles(120, 440) && id(120, 440) == "badge")
        try engine.removeSubtree(try #require(tree.node(withID: "c9.9")))
        #expect(!asksTiles(760, 570) && id(760, 570) == nil)
        #expect(asksTiles(680, 570) && id(680, 570) == "c9.8")

        // A modal cell suppresses its siblings: its row is stale, the next is not.
        let modalCell = try #require(tree.node(withID: "c12.3"))
        var modal = try #require(engine.tree[modalCell])
        modal.accessibilityViewIsModal = true
        try engine.update(modalCell, to: modal)
        #expect(!asksTiles(40, 750) && id(40, 750) == nil, "c12.0 is hidden by its modal sibling")
        #expect(id(280, 750) == "c12.3")
        #expect(asksTiles(40, 810) && id(40, 810) == "c13.0")

        // Every answer is still the spec's.
        var tally = ScreenGridTests.Tally()
        var rng = SeededRandom(seed: 17)
        let points = (0 ..< 3000).map { _ in CGPoint(x: rng.number(-5 ... 805), y: rng.number(-5 ... 2405)) }
        ScreenGridTests.compare(engine, points, &tally)
        #expect(tally.mismatches == 0)
        #expect(tally.decided > 2_000, "the tiles still decide most points")

        // Scrolling the canvas moves every cell: the grid is dropped.
        try engine.scroll(try #require(tree.node(withID: "canvas")), to: CGPoint(x: 0, y: 30))
        #expect(engine.screenGrid == nil && engine.staleAreas.isEmpty)
    }
}
