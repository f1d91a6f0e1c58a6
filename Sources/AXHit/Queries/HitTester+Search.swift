import Foundation

/// Queries: which exposed element is under a point.
extension HitTester {
    // MARK: Queries

    /// The frontmost exposed element whose region under `policy` holds the
    /// screen point `p`, or nil.
    ///
    /// - Complexity: O(depth + log(children)) per level on typical layouts,
    ///   one cell's entries with a screen grid (`buildScreenGrid()`); no GEOS
    ///   call, no lock, and no allocation once `scratch` has grown.
    public func hit(_ p: CGPoint, policy: HitPolicy = .frame, scratch: inout HitScratch) -> NodeID? {
        // TalkBack's hover is the same under both policies (Android regions
        // are bounds), and so is its grid.
        if policy == .frame || !exposedHidesSubtree, let grid = screenGrid, Self.isModerate(p) {
            // The grid's answer, unless an update since it was built may
            // have changed it (`staleAreas`).
            switch grid.answer(p) {
            case .node(let n) where !staleAreas.holds(p): return n
            case .nothing where !staleAreas.holds(p): return nil
            default: break
            }
        }
        if !exposedHidesSubtree { return hover(p, scratch: &scratch) }
        return frontmost(p, policy: policy, scratch: &scratch)
    }

    /// The frontmost exposed elements at `points`, as `hit(_:policy:scratch:)`
    /// answers each, written to `answers` (at least as many). With a screen
    /// grid larger than the cache (`ScreenGrid.readsAhead`), the reads of a
    /// group of points (their tiles, their cells' entries, their edges) are
    /// begun together before any of them is answered, so that their misses
    /// overlap instead of following one another (`ScreenGrid.readAhead`);
    /// `readingAhead` overrides the grid's size (tests read small grids
    /// ahead). `package` for the fuzz checks (`Fuzz/Support`), built as
    /// modules of their own; the calls for many points use it within.
    ///
    /// - Complexity: as many single queries.
    @inline(never)  // called once a group: inlined, it only made its callers' loops larger
    package func hit(
        _ points: UnsafeBufferPointer<CGPoint>, policy: HitPolicy, scratch: inout HitScratch,
        into answers: UnsafeMutableBufferPointer<NodeID?>, readingAhead: Bool? = nil
    ) {
        precondition(answers.count >= points.count, "fewer answers than points")
        guard policy == .frame, let grid = screenGrid, readingAhead ?? grid.readsAhead else {
            for (i, p) in points.enumerated() { answers[i] = hit(p, policy: policy, scratch: &scratch) }
            return
        }
        var start = 0
        while start < points.count {
            let group = start ..< min(points.count, start + Self.prefetchGroup)
            grid.readAhead(UnsafeBufferPointer(rebasing: points[group]))
            for i in group { answers[i] = hit(points[i], policy: policy, scratch: &scratch) }
            start = group.upperBound
        }
    }

    /// Points whose reads `hit(_:policy:scratch:into:readingAhead:)`
    /// begins together: at 8 the misses overlapped less, 32 gained nothing
    /// more (`axhit hit`, 10M points on a 1M-element screen).
    static let prefetchGroup = 16

    /// The per-view search's frontmost answer at `p`: out of line, so that a
    /// query the screen's tiles answer runs a few dozen instructions, with
    /// none of the search's registers saved and restored.
    @inline(never)
    private func frontmost(_ p: CGPoint, policy: HitPolicy, scratch: inout HitScratch) -> NodeID? {
        var found: NodeID?
        search(p, policy: policy, firstOnly: true, scratch: &scratch) {
            found = $0
            return false
        }
        return found
    }

    /// The frontmost exposed element under `p` (see `hit(_:policy:scratch:)`);
    /// allocates its working memory.
    public func hit(_ p: CGPoint, policy: HitPolicy = .frame) -> NodeID? {
        var scratch = HitScratch()
        return hit(p, policy: policy, scratch: &scratch)
    }

    /// Every exposed element whose region under `policy` holds `p`, front to
    /// back (the reverse of pre-order); on Android, every exposed node whose
    /// bounds hold it, deepest first, within the topmost window that holds
    /// it (TalkBack's `hit` is one of them: the hover's choice).
    public func hitAll(_ p: CGPoint, policy: HitPolicy = .frame) -> [NodeID] {
        var scratch = HitScratch()
        var all: [NodeID] = []
        search(p, policy: policy, firstOnly: false, scratch: &scratch) {
            all.append($0)
            return true
        }
        return all
    }

    /// The answers for many points, computed on all cores, or on at most
    /// `threads` threads (1: on the calling thread alone). At least half as
    /// many frame queries as nodes first build a screen grid for them (on a
    /// copy: the engine is unchanged); with a grid larger than the cache
    /// keeps, each group of points' reads are begun together
    /// (`hit(_:policy:scratch:into:readingAhead:)`).
    ///
    /// - Complexity: the points' queries divided among the threads; one
    ///   scratch per run of points; O(n) more for the grid.
    public func hit(_ points: [CGPoint], policy: HitPolicy = .frame, threads: Int? = nil) -> [NodeID?] {
        // Enough points repay a screen grid, on a copy (`prepare(forQueries:policy:)`).
        if let prepared = prepared(forQueries: points.count, policy: policy) {
            return prepared.hit(points, policy: policy, threads: threads)
        }
        let count = points.count
        // One contiguous run of points per thread; on all cores, eight runs
        // a core of at least 256 points, so that no core waits long on another.
        // (The count of cores is asked only when needed: on Linux, Foundation
        // reads it from files each time.)
        let parts = threads ?? min(max(1, ProcessInfo.processInfo.activeProcessorCount) * 8, (count + 255) / 256)
        let runs = consecutiveRuns(count, parts: parts)
        return points.withUnsafeBufferPointer { all in
            Array(filling: count) { buffer, initialized in
                // Each run writes only its own answers; the points are only read.
                nonisolated(unsafe) let (points, answers) = (all, buffer)
                @Sendable func answer(_ run: Range<Int>) {
                    var scratch = HitScratch()
                    hit(
                        UnsafeBufferPointer(rebasing: points[run]), policy: policy, scratch: &scratch,
                        into: UnsafeMutableBufferPointer(rebasing: answers[run]))
                }
                if runs.count == 1 {
                    answer(runs[0])
                } else {
                    DispatchQueue.concurrentPerform(iterations: runs.count) { answer(runs[$0]) }
                }
                initialized = count
            }
        }
    }

    /// Visits the exposed elements whose region holds `p`, front to back,
    /// until `visit` returns false; with `firstOnly`, `visit` must return
    /// false on its first call, and the search skips what lies behind the
    /// first answer it is sure of.
    ///
    /// Where an exposed element hides its subtree (VoiceOver), only its
    /// region counts. Where it does not (TalkBack), a view whose bounds hold
    /// the point answers itself once its children have answered nothing (its
    /// answer waits on the stack beneath theirs), and a final window that
    /// holds the point ends the search once everything in it has.
    @inline(__always)
    func search(
        _ p: CGPoint, policy: HitPolicy, firstOnly: Bool, scratch: inout HitScratch, _ visit: (NodeID) -> Bool
    ) {
        // One loop per shape of search, so that VoiceOver's (the hot path on
        // iOS trees) carries none of TalkBack's branches.
        if exposedHidesSubtree {
            search(VoiceOverSearch.self, p, policy: policy, firstOnly: firstOnly, scratch: &scratch, visit)
        } else {
            search(TalkBackSearch.self, p, policy: policy, firstOnly: firstOnly, scratch: &scratch, visit)
        }
    }

    /// The search, with `Shape` fixed at compile time.
    @inline(__always)
    func search<Shape: SearchShape>(
        _: Shape.Type, _ p: CGPoint, policy: HitPolicy, firstOnly: Bool, scratch: inout HitScratch,
        _ visit: (NodeID) -> Bool
    ) {
        let root = tree.root
        guard !root.isNone, hot[root.index].state.contains(.subtreeSearched) else { return }
        scratch.stack.reset()
        // Box hits serve the frame policy only, at a moderate point (checked
        // once here; each view on the way down checks its own values).
        scratch.stack.push(
            .init(node: root, moderatePath: policy == .frame && Self.isModerate(p), point: p, toScreen: .identity))
        while let entry = scratch.stack.pop() {
            let n = entry.node
            if entry.step != .visit {
                if entry.step == .answer {
                    if !visit(n) { return }
                    continue
                }
                // Only TalkBack's search pushes the other steps.
                if Shape.exposedHidesSubtree || entry.step == .stop { return }
                if elementRegionContains(
                    n, hot[n.index], policy, container: entry.point, screen: p,
                    containerToScreen: entry.toScreen), !visit(n)
                {
                    return
                }
                continue
            }
            let h = hot[n.index]
            guard h.state.contains(.subtreeSearched) else { continue }
            let exposed = h.state.contains(.exposed)
            if h.isView {
                let (b, toParent) = boundsAndMap(h)
                // Nil for a view scaled to nothing: its bounds have no area and
                // hold no point (though its screen-aligned frame may).
                let q = Self.inverseApply(toParent, entry.point)
                let toScreen = toParent.concatenating(entry.toScreen)
                if exposed && Shape.exposedHidesSubtree {
                    if viewRegionContains(n, h, policy, own: q, screen: p, toScreen: toScreen), !visit(n) { return }
                    continue
                }
                guard let q, b.containsClosedOpen(q) else { continue }
                if !Shape.exposedHidesSubtree {
                    if h.state.contains(.finalWindow) {
                        scratch.stack.push(
                            .init(node: n, step: .stop, moderatePath: false, point: q, toScreen: toScreen))
                    }
                    if exposed {
                        scratch.stack.push(
                            .init(node: n, step: .answer, moderatePath: false, point: q, toScreen: toScreen))
                    }
                }
                let moderatePath =
                    entry.moderatePath
                    && Self.keepsPathModerate(
                        frame: h.frame, bounds: b, toScreen: toScreen, hasTransform: h.transformSlot >= 0)
                // Children are pushed without reading their records (a cache
                // miss each): the search checks the exposed count when it pops
                // them, unless the child is a box hit with the point well
                // inside its box (on a moderate path only). With `firstOnly`,
                // such a frontmost child comes back instead, visited at once:
                // pushed, it would be popped straight back.
                let answer = forEachChild(
                    of: n, h, at: q, screen: p, BackToFront.self, boxHits: moderatePath, frontHitAlone: firstOnly,
                    buffer: &scratch.candidates, into: &scratch.stack
                ) { stack, c, isHit in
                    stack.push(
                        .init(
                            node: c, step: isHit ? .answer : .visit, moderatePath: moderatePath, point: q,
                            toScreen: toScreen))
                    return true
                }
                if let answer, !visit(answer) { return }
            } else {
                if exposed {
                    if Shape.exposedHidesSubtree {
                        if elementRegionContains(
                            n, h, policy, container: entry.point, screen: p, containerToScreen: entry.toScreen),
                            !visit(n)
                        {
                            return
                        }
                        continue
                    }
                    var itself = entry
                    itself.step = .testItself
                    scratch.stack.push(itself)
                }
                var c = tree.firstChildren[n.index]
                while !c.isNone {
                    scratch.stack.push(
                        .init(node: c, moderatePath: entry.moderatePath, point: entry.point, toScreen: entry.toScreen))
                    c = tree.nextSiblings[c.index]
                }
            }
        }
    }

    /// `t⁻¹(p)`, or nil when `t` is singular.
    @inline(__always)
    static func inverseApply(_ t: CGAffineTransform, _ p: CGPoint) -> CGPoint? {
        let x = p.x - t.tx, y = p.y - t.ty
        if t.b == 0 && t.c == 0 {
            guard t.a != 0 && t.d != 0 else { return nil }
            return CGPoint(x: x / t.a, y: y / t.d)
        }
        let det = t.a * t.d - t.b * t.c
        guard det != 0 && det.isFinite else { return nil }
        return CGPoint(x: (t.d * x - t.c * y) / det, y: (t.a * y - t.b * x) / det)
    }

    /// The screen rect an exposed view answers in under the frame policy:
    /// its explicit accessibility frame as given, else its bounds mapped by
    /// its own map to the screen (their bounding box when it rotates).
    @inline(__always)
    func viewFrameRegion(_ n: NodeID, _ h: HotNode, toScreen: CGAffineTransform) -> CGRect {
        if h.flags.contains(.hasAccessibilityFrame), let f = tree.explicitAccessibilityFrame(of: n) { return f }
        return bounds(h).applying(toScreen)
    }

    /// The screen rect an exposed element node answers in under the frame
    /// policy: its frame in container space mapped by its container's map,
    /// which wins over an explicit frame; else its explicit frame; else
    /// nowhere (a zero rect).
    @inline(__always)
    func elementFrameRegion(_ n: NodeID, _ h: HotNode, containerToScreen: CGAffineTransform) -> CGRect {
        if h.flags.contains(.hasFrameInContainerSpace) { return h.frame.applying(containerToScreen) }
        return tree.explicitAccessibilityFrame(of: n) ?? .zero
    }

    /// Whether the region of view `n` holds the point, given as `q` in the
    /// view's own bounds space (nil when that space is singular) and `p` on
    /// the screen.
    @inline(__always)
    func viewRegionContains(
        _ n: NodeID, _ h: HotNode, _ policy: HitPolicy, own q: CGPoint?, screen p: CGPoint,
        toScreen: CGAffineTransform
    ) -> Bool {
        switch policy {
        case .frame:
            return viewFrameRegion(n, h, toScreen: toScreen).containsClosedOpen(p)
        case .shape:
            if h.flags.contains(.hasPath), let shape = shapes.shape(of: n) {
                if shape.inScreenSpace { return shape.region.contains(p) }
                return q.map { shape.region.contains($0) } ?? false
            }
            return q.map { bounds(h).containsClosedOpen($0) } ?? false
        }
    }

    /// Whether the region of element node `n` holds the point, given as `pc`
    /// in its container's bounds space and `p` on the screen.
    @inline(__always)
    func elementRegionContains(
        _ n: NodeID, _ h: HotNode, _ policy: HitPolicy, container pc: CGPoint, screen p: CGPoint,
        containerToScreen: CGAffineTransform
    ) -> Bool {
        switch policy {
        case .frame:
            return elementFrameRegion(n, h, containerToScreen: containerToScreen).containsClosedOpen(p)
        case .shape:
            if h.flags.contains(.hasPath), let shape = shapes.shape(of: n) {
                return shape.region.contains(shape.inScreenSpace ? p : pc)
            }
            if h.flags.contains(.hasFrameInContainerSpace) { return h.frame.containsClosedOpen(pc) }
            return (tree.explicitAccessibilityFrame(of: n) ?? .zero).containsClosedOpen(p)
        }
    }
}

/// The shape of a search, fixed per tree by its rules: whether an exposed
/// node hides its subtree (VoiceOver) or answers only when its children do
/// not (TalkBack, whose final windows also end a search).
protocol SearchShape {
    static var exposedHidesSubtree: Bool { get }
}

/// VoiceOver's: the first exposed element whose region holds the point.
enum VoiceOverSearch: SearchShape {
    static var exposedHidesSubtree: Bool { true }
}

/// TalkBack's (`hitAll`: every exposed node whose bounds hold the point,
/// deepest first, within the topmost final window; `hit` is the hover,
/// `HitTester+Hover.swift`).
enum TalkBackSearch: SearchShape {
    static var exposedHidesSubtree: Bool { false }
}
