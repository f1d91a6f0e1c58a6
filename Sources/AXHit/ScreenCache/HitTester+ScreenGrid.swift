import Foundation

/// The screen grid: frame queries on a screen that no longer changes,
/// answered from one cell in screen space (see `ScreenGrid`).
extension HitTester {
    /// Builds a screen grid of every answer a frame query can have, so that
    /// `hit(_:policy:scratch:)` reads one tile or one cell instead of a
    /// record per view wherever a point is not near an edge or over a
    /// subtree the grid does not flatten (below a view that turns or scales
    /// by more than 16×, or more than eight views deep from the first view
    /// that turns). Under TalkBack's rules, the hover's answers
    /// (`hoverEntries()`: the grid answers where no clickable view in front
    /// may take the hover from one behind, and files no view that turns).
    /// Returns whether it was built: with at least one element it answers
    /// for, and not when the boxes of a size class don't suit a uniform grid
    /// (too clustered, or too many too wide for their class's cells).
    ///
    /// Updates (scroll, update, insert, removal) keep the grid: each marks
    /// stale the screen area where it may change an answer, and queries
    /// there search per view (`beginScreenChange(_:)`); one whose area has
    /// no small bound, or that leaves half the grid stale, drops it. Build
    /// it again for the new screen. Answers are the same with it or without.
    /// The engine's own tiles (`buildOwnScreenGrid()`), while no update has
    /// marked any of them stale, are upgraded: the grid keeps them and adds
    /// its cells.
    ///
    /// - Complexity: O(n) time; about 44 bytes per element it files, and
    ///   132 per view that turns or lies below one (`memoryBytes` counts
    ///   them).
    @discardableResult
    public mutating func buildScreenGrid() -> Bool {
        // Tiles alone with nothing stale answer for the screen as it is
        // (as a new build's would), so they are not made again.
        let tiles = screenGrid.flatMap { !$0.hasCells && staleAreas.isEmpty ? $0.tiles : nil }
        dropScreenGrid()
        guard let entries = exposedHidesSubtree ? screenEntries() : hoverEntries() else { return false }
        screenGrid = ScreenGrid(boxes: entries.boxes, nodes: entries.nodes, edges: entries.edges, tiles: tiles)
        // Where the cells decline, the tiles alone may still serve.
        if screenGrid == nil { screenGrid = tiles.map(ScreenGrid.init(tiles:)) ?? Self.tilesAlone(entries) }
        return hasScreenGrid
    }

    /// Gives the engine its own screen answers, built with it, so that a
    /// frame query reads one tile or one cell even when nobody builds a
    /// grid: the whole grid when it costs little beside the engine (at most
    /// `IndexPolicy.ownGridBytesPerNode` a node of the tree, by the
    /// estimate of `buildScreenGrid()`: where views' bounds leave a small
    /// part of the tree on the screen, as scroll views do), else the tiles
    /// alone (`ScreenTiles`, no cells) where they decide. A point they
    /// leave undecided takes the per-view search. Kept through updates,
    /// like a grid built on request.
    ///
    /// - Complexity: O(n) time, transiently about 50 bytes per element
    ///   filed; kept, at most `IndexPolicy.ownGridBytesPerNode` a node with
    ///   the cells, else 8 bytes per tile (about one per element on a full
    ///   screen, none where the tiles would decide under half the screen).
    mutating func buildOwnScreenGrid() {
        dropScreenGrid()
        guard let entries = exposedHidesSubtree ? screenEntries() : hoverEntries() else { return }
        let estimate =
            entries.boxes.count * ScreenGrid.estimatedBytesPerEntry
            + entries.edges.parents.count * ScreenGrid.bytesPerGroup
        if estimate <= IndexPolicy.ownGridBytesPerNode * tree.count,
            let grid = ScreenGrid(boxes: entries.boxes, nodes: entries.nodes, edges: entries.edges)
        {
            screenGrid = grid
            return
        }
        screenGrid = Self.tilesAlone(entries)
    }

    /// A grid of `entries`' tiles alone, when at least half of them decide
    /// (`IndexPolicy.tilesAloneDecide`).
    private static func tilesAlone(_ entries: ScreenEntries) -> ScreenGrid? {
        let answerable = ScreenGrid.answerable(nodes: entries.nodes, edges: entries.edges)
        guard let tiles = ScreenTiles(boxes: entries.boxes, nodes: entries.nodes, answerable: answerable),
            IndexPolicy.tilesAloneDecide(tiles.decidedCount, of: tiles.tiles.count)
        else { return nil }
        return ScreenGrid(tiles: tiles)
    }

    /// The screen grid's entries for this screen, or nil when there is no
    /// element to answer for.
    private func screenEntries() -> ScreenEntries? {
        guard !tree.root.isNone else { return nil }
        var entries = ScreenEntries()
        // An entry per exposed node, and a few opaque ones: made once, not
        // grown by doubling (each growth a copy into fresh pages).
        entries.reserve(Int(exposedCounts[tree.root.index]))
        let everywhere = CGRect(x: -0x1p40, y: -0x1p40, width: 0x1p41, height: 0x1p41)
        collectScreenEntries(
            tree.root, Reach(toScreen: .identity, cut: everywhere, group: -1, turns: 0, depth: 0), &entries)
        guard entries.nodes.contains(where: { !$0.isNone }) else { return nil }
        if entries.edges.lines.isEmpty { entries.edges.groups = [] }
        return entries
    }

    /// Prepares the engine for `count` queries under `policy` before its
    /// next update: builds a screen grid (`buildScreenGrid()`) when they
    /// will repay it and there is no whole, current one (none, the engine's
    /// own tiles alone, which the grid keeps and adds its cells to, or one
    /// with stale areas), that is for frame queries at least half as many
    /// as nodes.
    /// Returns whether the engine has a grid.
    ///
    /// - Complexity: O(n) when it builds, else O(1).
    @discardableResult
    public mutating func prepare(forQueries count: Int, policy: HitPolicy) -> Bool {
        if lacksCurrentScreenGrid && policy == .frame && IndexPolicy.queriesRepayScreenGrid(count, nodes: tree.count) {
            buildScreenGrid()
        }
        return hasScreenGrid
    }

    /// Whether frame queries lack a whole, current screen grid: none, the
    /// tiles alone, or one with stale areas.
    var lacksCurrentScreenGrid: Bool { !hasScreenGrid || !staleAreas.isEmpty }

    // MARK: Keeping the grid through updates

    /// A change about to be made to a node's subtree while there is a
    /// screen grid: where the node sits on the screen, and its reach there
    /// before the change (`screenReach(_:)`).
    struct ScreenChange {
        let place: ScreenPlace?
        let before: CGRect?
    }

    /// Where a node sits, for its reach: the item of its view's index that
    /// holds it (itself, or the topmost element node above it; `ItemBoxes`
    /// covers the item's whole subtree), that view's map to the screen as
    /// the search composes it, and the sum of the values each level adds
    /// on the way (the scale of their rounding). A change below the item
    /// leaves all three as they are.
    struct ScreenPlace {
        let item: NodeID
        let toScreen: CGAffineTransform
        let magnitude: Double
    }

    /// Starts a change to `x`'s subtree (its geometry, its exposure, its
    /// children): its place and its reach before the change, or nil without
    /// a grid (a load and a branch). `endScreenChange(_:)` marks both
    /// reaches stale once the change is made.
    ///
    /// - Complexity: O(depth), plus the element subtree of the item that
    ///   holds `x` (`ItemBoxes`).
    @inline(__always)
    func beginScreenChange(_ x: NodeID) -> ScreenChange? {
        guard screenGrid != nil else { return nil }
        let place = screenPlace(of: x)
        return ScreenChange(place: place, before: screenReach(place))
    }

    /// Marks stale the screen area where the change may have changed a frame
    /// answer: the node's reach before it and after it.
    ///
    /// - Complexity: the item's boxes again, plus `StaleAreas.insert`.
    @inline(__always)
    mutating func endScreenChange(_ change: ScreenChange?) {
        guard let change, screenGrid != nil else { return }
        markStale(change.before)
        markStale(screenReach(change.place))
    }

    /// Marks stale the reach of `x`'s subtree as it is now: for a subtree
    /// just inserted, or about to be removed. Without a grid, a load and a
    /// branch.
    @inline(__always)
    mutating func markScreenChange(_ x: NodeID) {
        if screenGrid != nil { markStale(screenReach(screenPlace(of: x))) }
    }

    /// Marks `reach` stale (`.null`: nowhere) where the grid decides
    /// anything (`ScreenGrid.answerArea`: a row moved off the screen marks
    /// nothing); drops the grid when `reach` is nil (no small bound) or the
    /// stale boxes add up to half the area where the grid may name an
    /// element (`elementArea`, `IndexPolicy.staleAreaDropsGrid`): it would
    /// then name few, every query would still read it first, and every
    /// update would still mark it.
    private mutating func markStale(_ reach: CGRect?) {
        guard let grid = screenGrid else { return }
        guard let reach else { return dropScreenGrid() }
        guard !reach.isNull else { return }
        let answers = grid.answerArea
        let minX = max(Double(reach.minX), Double(answers.minX)), maxX = min(Double(reach.maxX), Double(answers.maxX))
        let minY = max(Double(reach.minY), Double(answers.minY)), maxY = min(Double(reach.maxY), Double(answers.maxY))
        guard minX <= maxX, minY <= maxY else { return }
        staleAreas.insert(minX: minX, minY: minY, maxX: maxX, maxY: maxY)
        let elements = grid.elementArea
        let elementArea = Double(elements.width) * Double(elements.height)
        if IndexPolicy.staleAreaDropsGrid(staleAreas.area, elementArea: elementArea) { dropScreenGrid() }
    }

    /// Drops the screen grid and its stale areas.
    mutating func dropScreenGrid() {
        screenGrid = nil
        staleAreas = StaleAreas()
    }

    /// `x`'s place (`ScreenPlace`), or nil where no bound on its reach is at
    /// hand: for the root (or a node above no view), or below a map that
    /// turns or scales too much (`isWellConditioned`).
    ///
    /// - Complexity: O(depth).
    func screenPlace(of x: NodeID) -> ScreenPlace? {
        var item = x, container = tree.backLinks[x.index].parent
        while !container.isNone && !tree.isView(container) {
            item = container
            container = tree.backLinks[container.index].parent
        }
        guard !container.isNone else { return nil }
        var t = CGAffineTransform.identity, magnitude = 0.0
        for v in tree.ancestorViews(of: item) {
            let h = hot[v.index]
            t = boundsToParent(h).concatenating(t)
            guard Self.isWellConditioned(t) else { return nil }
            magnitude += Self.magnitude(bounds(h)) + Self.magnitude(h.frame) + abs(Double(t.tx)) + abs(Double(t.ty))
        }
        return ScreenPlace(item: item, toScreen: t, magnitude: magnitude)
    }

    /// Every screen point at which a frame query can reach the item at
    /// `place` or anything in its subtree, whatever their exposure: the
    /// item's boxes (`ItemBoxes`) on the screen, widened by far more than
    /// the rounding of mapping a point down to them. `.null` for nowhere;
    /// nil for no bound (no place, or values that are not finite).
    ///
    /// - Complexity: O(1) for a view; O(element subtree) for an element node.
    func screenReach(_ place: ScreenPlace?) -> CGRect? {
        guard let place else { return nil }
        let t = place.toScreen
        let boxes = itemBoxes(place.item, containerToScreen: t)
        let reach = ItemBoxes.union(boxes.local.isNull ? .null : boxes.local.applying(t), boxes.screen)
        if reach.isNull { return .null }
        guard Self.isFinite(reach), place.magnitude.isFinite else { return nil }
        // A point maps down with a rounding of a few ulps of those values
        // times the map's condition (at most 2^10) a level: 2^-30 of them,
        // and a point more, is far above it.
        let margin = 1 + (place.magnitude + Self.magnitude(reach)) * 0x1p-30
        return reach.insetBy(dx: -margin, dy: -margin)
    }

    /// Whether frame queries read a screen grid (`buildScreenGrid()`), its
    /// cells and not only the engine's own tiles.
    public var hasScreenGrid: Bool { screenGrid?.hasCells ?? false }

    /// The screen grid's entries as the walk files them.
    struct ScreenEntries {
        var boxes: [CGRect] = []
        var nodes: [NodeID] = []
        var edges = ScreenGrid.Edges()

        /// Room for `n` entries.
        mutating func reserve(_ n: Int) {
            boxes.reserveCapacity(n)
            nodes.reserveCapacity(n)
            edges.groups.reserveCapacity(n)
        }

        /// Files an entry for `node` (`.none`: opaque) in `box`, reached
        /// through the views of edge group `group`.
        mutating func append(_ box: CGRect, _ node: NodeID, group: Int32) {
            boxes.append(box)
            nodes.append(node)
            edges.groups.append(group)
        }
    }

    /// Where the per-view search can reach a node, as the walk descends.
    private struct Reach {
        /// Maps the space the node's region is given in to the screen, as
        /// the search composes it.
        var toScreen: CGAffineTransform
        /// Every point at which the search may reach the node: the bounds
        /// of the views above it on the screen (their bounding boxes, for
        /// views that turn), each widened by the rounding of mapping a point
        /// down (by `ScreenGrid.slack` on a path that only translates).
        var cut: CGRect
        /// The edge group of the views that turn or scale above the node
        /// (and of every view below the first), or -1 on a path that only
        /// translates, where the cut is exact to the slack.
        var group: Int32
        /// Groups in that chain.
        var turns: Int
        var depth: Int
    }

    /// Appends the screen grid's entries for `n`'s subtree in pre-order.
    private func collectScreenEntries(_ n: NodeID, _ reach: Reach, _ entries: inout ScreenEntries) {
        let h = hot[n.index]
        guard h.state.contains(.subtreeSearched) else { return }
        let slack = ScreenGrid.slack, t = reach.toScreen, cut = reach.cut
        func opaque(_ box: CGRect) { entries.append(box, .none, group: reach.group) }
        // Whatever the subtree answers lies inside the cut.
        guard reach.depth < ScreenGrid.maxDepth else { return opaque(cut) }
        let exposed = h.state.contains(.exposed)
        // VoiceOver's search alone: TalkBack's hover files its own
        // entries (`hoverEntries()`).
        if exposed {
            // The region as the per-view search's exact test computes it
            // (and a view's own map as the search composes it).
            let region =
                h.isView
                ? viewFrameRegion(n, h, toScreen: boundsToParent(h).concatenating(t))
                : elementFrameRegion(n, h, containerToScreen: t)
            guard Self.isFinite(region) else { return opaque(cut) }
            let box = region.insetBy(dx: -slack, dy: -slack).intersection(cut)
            if !box.isNull {
                entries.append(box, Self.isModerate(box) ? n : .none, group: reach.group)
            }
            // VoiceOver never visits an element's subtree.
            return
        }
        var next = reach
        next.depth += 1
        if h.isView {
            // The search enters the subtree only where the view's bounds hold
            // the point it maps down: its answers lie inside the bounds' quad
            // on the screen, up to the rounding of that mapping, a few ulps
            // of the largest value it adds (frame, bounds, translation; under
            // a bounds origin of 2^55 a point's place in them is known to 8
            // pt) times the map's condition (at most 2^10, else only the cut
            // bounds the answers). The margin allows 2^4 times that.
            let b = bounds(h)
            let own = boundsToParent(h).concatenating(t)
            let onScreen = b.applying(own)
            guard Self.isFinite(onScreen), Self.isWellConditioned(own) else { return opaque(cut) }
            let magnitude =
                Self.magnitude(onScreen) + Self.magnitude(b) + Self.magnitude(h.frame) + abs(Double(own.tx))
                + abs(Double(own.ty))
            guard magnitude.isFinite else { return opaque(cut) }
            let margin = 1 + magnitude * 0x1p-36
            let reachable = onScreen.insetBy(dx: -margin, dy: -margin).intersection(cut)
            if reachable.isNull { return }  // no point reaches the subtree
            next.toScreen = own
            guard Self.isModerate(frame: h.frame, bounds: b, under: own, hasTransform: h.transformSlot >= 0) else {
                return opaque(reachable)
            }
            if h.transformSlot < 0 && Self.isModerate(own) && reach.group < 0 {
                // Only a moderate translation keeps the rounding under the slack.
                next.cut = cut.intersection(onScreen.insetBy(dx: -slack, dy: -slack))
            } else if reach.turns < ScreenGrid.maxTurns && Self.isGentle(own) {
                // A turn or a scale (or a view below one): its bounds on the
                // screen are a quad, filed by its bounding box and decided
                // by its edges, each moved by the margin.
                next.cut = reachable
                next.group = entries.edges.addGroup(Self.edgeLines(b, own, margin: margin), parent: reach.group)
                next.turns += 1
            } else {
                return opaque(reachable)
            }
            if next.cut.isNull { return }
        }
        var c = tree.firstChildren[n.index]
        while !c.isNone {
            collectScreenEntries(c, next, &entries)
            c = tree.nextSiblings[c.index]
        }
    }

    /// Whether `t` turns or scales gently enough for the grid to follow: a
    /// scale within 2^±4, a condition of at most about 2^4, a translation
    /// under 2^24 (with moderate bounds, every coordinate on the way down
    /// stays under about 2^29 and its rounding far under the margin's 1 pt).
    private static func isGentle(_ t: CGAffineTransform) -> Bool {
        isConditioned(t, within: 0x1p4) && abs(Double(t.tx)) < 0x1p24 && abs(Double(t.ty)) < 0x1p24
    }

    /// The four edges of the quad `t` maps `r` to, as lines of
    /// `ScreenGrid.Edges` with margin `margin`: for each side of `r`, the
    /// distance on the screen of a point inside it (the inverse of `t` maps
    /// `(x, y)` to `((d(x − tx) − c(y − ty)) / det, (a(y − ty) − b(x − tx)) / det)`,
    /// each coordinate's gradient scaled to unit length).
    static func edgeLines(_ r: CGRect, _ t: CGAffineTransform, margin: Double) -> [SIMD4<Double>] {
        let a = Double(t.a), b = Double(t.b), c = Double(t.c), d = Double(t.d)
        let tx = Double(t.tx), ty = Double(t.ty)
        let det = a * d - b * c
        let sign: Double = det < 0 ? -1 : 1
        let lengthU = (c * c + d * d).squareRoot(), lengthV = (a * a + b * b).squareRoot()
        // u(x, y) · |det| / lengthU, the distance along u's gradient.
        let u = SIMD3(sign * d, -sign * c, sign * (c * ty - d * tx)) / lengthU
        let v = SIMD3(-sign * b, sign * a, sign * (b * tx - a * ty)) / lengthV
        let su = abs(det) / lengthU, sv = abs(det) / lengthV
        return [
            SIMD4(u.x, u.y, u.z - Double(r.minX) * su, margin),
            SIMD4(-u.x, -u.y, -u.z + Double(r.maxX) * su, margin),
            SIMD4(v.x, v.y, v.z - Double(r.minY) * sv, margin),
            SIMD4(-v.x, -v.y, -v.z + Double(r.maxY) * sv, margin),
        ]
    }

    /// Whether the linear part of `t` has a scale within 2^±10 and an
    /// inverse whose rounding stays as small (|det| at least 2^-10 scale²,
    /// a condition of at most about 2^10).
    static func isWellConditioned(_ t: CGAffineTransform) -> Bool { isConditioned(t, within: 0x1p10) }

    /// Whether the linear part of `t` has a scale within `bound`^±1 and
    /// |det| at least scale² / `bound` (a condition of at most about `bound`).
    private static func isConditioned(_ t: CGAffineTransform, within bound: Double) -> Bool {
        let scale = max(abs(Double(t.a)), abs(Double(t.b)), abs(Double(t.c)), abs(Double(t.d)))
        let det = abs(Double(t.a) * Double(t.d) - Double(t.b) * Double(t.c))
        return scale >= 1 / bound && scale <= bound && det * bound >= scale * scale
    }

    /// The sum of the magnitudes of `r`'s edges.
    static func magnitude(_ r: CGRect) -> Double {
        abs(Double(r.minX)) + abs(Double(r.maxX)) + abs(Double(r.minY)) + abs(Double(r.maxY))
    }

    /// Whether every edge of `r` is finite (false for `CGRect.null`).
    static func isFinite(_ r: CGRect) -> Bool {
        r.origin.x.isFinite && r.origin.y.isFinite && r.size.width.isFinite && r.size.height.isFinite
    }
}
