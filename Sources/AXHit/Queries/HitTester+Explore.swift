import Foundation

/// One stretch of a finger's path over which `hit` (frame policy) gives one
/// answer: `HitTester.explore(_:)`.
public struct ExploreStretch: Sendable, Hashable {
    /// What `hit` answers along the stretch, or nil where nothing is hit.
    public var element: NodeID?
    /// Where the stretch starts, in screen coordinates: a point on the
    /// polyline (a stretch may pass through its vertices).
    public var from: CGPoint
    /// Where the stretch ends, in screen coordinates.
    public var to: CGPoint

    /// A stretch from `from` to `to` answered by `element`.
    public init(element: NodeID?, from: CGPoint, to: CGPoint) {
        self.element = element
        self.from = from
        self.to = to
    }
}

/// Caller-owned working memory for `HitTester.explore(_:scratch:)`, so that
/// a query allocates only its answer once the arrays have grown. One per
/// thread.
public struct ExploreScratch: Sendable {
    /// A node to visit, with the segment in its container's bounds space
    /// and the part of it inside every ancestor's bounds.
    struct Entry: Sendable {
        var node: NodeID
        var a: CGPoint
        var b: CGPoint
        var lo: Double
        var hi: Double
        var toScreen: CGAffineTransform
    }

    /// Where a candidate holds the segment: parameters `lo ... hi`; `node`
    /// `.none` for a barrier (a final window, which answers none).
    struct Candidate: Sendable {
        var node: NodeID
        var lo: Double
        var hi: Double
    }

    var stack: [Entry] = []
    var candidates: [Candidate] = []
    var children: [NodeID] = []
    var breaks: [Double] = []
    var byStart: [Int32] = []
    var heap: [Int32] = []
    /// TalkBack's hover, asked once per stretch.
    var hover = HitScratch()

    /// Empty scratch space.
    public init() {}
}

/// Touch exploration: what a finger dragged along a path meets
/// (tree-format.md, "Touch exploration and maps").
extension HitTester {
    /// The maximal stretches of `polyline` (screen coordinates) over which
    /// `hit` under the frame policy gives the same answer, in order,
    /// consecutive ones different. Exact: each segment is walked down the
    /// engine's indexes like a point query, clipped to every view's bounds
    /// on the way, and each exposed element it meets gives the parameter
    /// interval where its region holds the segment; "last in pre-order
    /// wins" over those intervals decides (no sampling). A single point
    /// where the answer differs (a corner touched exactly) is no stretch;
    /// a polyline whose points are all equal gives one stretch.
    ///
    /// - Complexity: per segment, the levels of the index descent the
    ///   segment reaches, plus O(m log m) for the m elements it meets; no
    ///   GEOS call. Allocates the answer (and a wide view's grid lists
    ///   its matches); nothing else once `scratch` has grown.
    /// - Throws: `TreeError` (`.validation`) when the polyline has fewer
    ///   than two points or a coordinate that is not finite.
    public func explore(_ polyline: [CGPoint], scratch: inout ExploreScratch) throws(TreeError) -> [ExploreStretch] {
        guard polyline.count >= 2 else { throw TreeError(.validation, "a polyline needs at least two points") }
        guard polyline.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else {
            throw TreeError(.validation, "the polyline has a coordinate that is not finite")
        }
        var out: [ExploreStretch] = []
        for k in 0 ..< polyline.count - 1 {
            let a = polyline[k], b = polyline[k + 1]
            exploreSegment(a, b, scratch: &scratch) { element, t0, t1 in
                let from = t0 == 0 ? a : Self.point(a, b, t0), to = t1 == 1 ? b : Self.point(a, b, t1)
                if let last = out.last, last.element == element {
                    out[out.count - 1].to = to
                } else {
                    out.append(ExploreStretch(element: element, from: from, to: to))
                }
            }
        }
        return out
    }

    /// `explore(_:scratch:)` with scratch space of its own.
    public func explore(_ polyline: [CGPoint]) throws(TreeError) -> [ExploreStretch] {
        var scratch = ExploreScratch()
        return try explore(polyline, scratch: &scratch)
    }

    @inline(__always)
    static func point(_ a: CGPoint, _ b: CGPoint, _ t: Double) -> CGPoint {
        CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
    }

    /// Calls `emit(answer, t0, t1)` for the stretches of segment `a → b`, in
    /// order, covering `0 ... 1` (consecutive ones may repeat an answer).
    func exploreSegment(
        _ a: CGPoint, _ b: CGPoint, scratch: inout ExploreScratch,
        _ emit: (NodeID?, Double, Double) -> Void
    ) {
        if !exposedHidesSubtree { return exploreByHover(a, b, scratch: &scratch, emit) }
        collectCandidates(a, b, scratch: &scratch)
        // Breakpoints, and the candidates by where they start (a candidate
        // of no length holds a single point: no stretch).
        scratch.breaks.removeAll(keepingCapacity: true)
        scratch.byStart.removeAll(keepingCapacity: true)
        scratch.breaks.append(0)
        scratch.breaks.append(1)
        for (i, c) in scratch.candidates.enumerated() where c.lo < c.hi {
            scratch.byStart.append(Int32(i))
            if c.lo > 0 { scratch.breaks.append(c.lo) }
            if c.hi < 1 { scratch.breaks.append(c.hi) }
        }
        if scratch.byStart.count <= 1 {
            // The common case on a finger's short step: one region or none.
            guard let only = scratch.byStart.first.map({ scratch.candidates[Int($0)] }) else { return emit(nil, 0, 1) }
            let node: NodeID? = only.node.isNone ? nil : only.node
            if only.lo > 0 { emit(nil, 0, only.lo) }
            emit(node, max(0, only.lo), min(1, only.hi))
            if only.hi < 1 { emit(nil, only.hi, 1) }
            return
        }
        scratch.breaks.sort()
        let candidates = scratch.candidates
        scratch.byStart.sort { candidates[Int($0)].lo < candidates[Int($1)].lo }
        // Sweep: of the candidates holding a piece, the latest in pre-order
        // (the largest index) answers.
        scratch.heap.removeAll(keepingCapacity: true)
        var next = 0
        var t0 = scratch.breaks[0]
        for t1 in scratch.breaks.dropFirst() where t1 > t0 {
            while next < scratch.byStart.count && candidates[Int(scratch.byStart[next])].lo <= t0 {
                Self.heapPush(&scratch.heap, scratch.byStart[next])
                next += 1
            }
            while let top = scratch.heap.first, candidates[Int(top)].hi < t1 { Self.heapPop(&scratch.heap) }
            let answer = scratch.heap.first.map { candidates[Int($0)].node }
            emit(answer.flatMap { $0.isNone ? nil : $0 }, t0, t1)
            t0 = t1
        }
    }

    /// TalkBack's stretches of segment `a → b`: the hover's answer changes
    /// only where the segment crosses the bounds of a visible node that the
    /// hover can reach (every such node may be offered it, take it or
    /// report), so it is asked once inside each piece between those
    /// crossings (`hover`), and holds over the whole piece.
    private func exploreByHover(
        _ a: CGPoint, _ b: CGPoint, scratch: inout ExploreScratch, _ emit: (NodeID?, Double, Double) -> Void
    ) {
        collectCandidates(a, b, everyVisibleNode: true, scratch: &scratch)
        scratch.breaks.removeAll(keepingCapacity: true)
        scratch.breaks.append(0)
        scratch.breaks.append(1)
        for c in scratch.candidates where c.lo < c.hi {
            if c.lo > 0 { scratch.breaks.append(c.lo) }
            if c.hi < 1 { scratch.breaks.append(c.hi) }
        }
        scratch.breaks.sort()
        var t0 = scratch.breaks[0]
        for t1 in scratch.breaks.dropFirst() where t1 > t0 {
            emit(hover(Self.point(a, b, (t0 + t1) / 2), scratch: &scratch.hover), t0, t1)
            t0 = t1
        }
    }

    /// The candidates whose regions meet segment `a → b`, in pre-order,
    /// each with the parameter interval where its region (cut by its
    /// ancestors' bounds) holds the segment; with `everyVisibleNode`, every
    /// node that is not hidden, by its bounds (TalkBack's hover reaches
    /// them all).
    private func collectCandidates(
        _ a: CGPoint, _ b: CGPoint, everyVisibleNode: Bool = false, scratch: inout ExploreScratch
    ) {
        scratch.candidates.removeAll(keepingCapacity: true)
        scratch.stack.removeAll(keepingCapacity: true)
        let root = tree.root
        guard !root.isNone else { return }
        scratch.stack.append(.init(node: root, a: a, b: b, lo: 0, hi: 1, toScreen: .identity))
        while let e = scratch.stack.popLast() {
            let n = e.node
            let h = hot[n.index]
            // As `hit`: a subtree with nothing exposed and no final window is
            // skipped; the hover passes everything but hidden nodes.
            if everyVisibleNode {
                guard !h.state.contains(.blocked) else { continue }
            } else {
                guard h.state.contains(.subtreeSearched) else { continue }
            }
            let exposed = everyVisibleNode || h.state.contains(.exposed)
            if !h.isView {
                if exposed {
                    let frame =
                        h.flags.contains(.hasFrameInContainerSpace)
                        ? h.frame.applying(e.toScreen) : (tree.explicitAccessibilityFrame(of: n) ?? .zero)
                    if let (lo, hi) = Self.clip(a, b, frame, e.lo, e.hi) {
                        scratch.candidates.append(.init(node: n, lo: lo, hi: hi))
                    }
                    if exposedHidesSubtree { continue }
                }
                pushChildren(of: n, e, scratch: &scratch)
                continue
            }
            let (bounds, toParent) = boundsAndMap(h)
            let toScreen = toParent.concatenating(e.toScreen)
            if exposed && exposedHidesSubtree {
                // Its frame on the screen, cut by its ancestors only.
                let frame = tree.explicitAccessibilityFrame(of: n) ?? bounds.applying(toScreen)
                if let (lo, hi) = Self.clip(a, b, frame, e.lo, e.hi) {
                    scratch.candidates.append(.init(node: n, lo: lo, hi: hi))
                }
                continue
            }
            // A view scaled to nothing holds no point.
            guard let qa = Self.inverseApply(toParent, e.a), let qb = Self.inverseApply(toParent, e.b) else { continue }
            // TalkBack's hover reaches a window below a root that is none by
            // the window's own bounds, not the root's.
            let windowsBelow = everyVisibleNode && n == root && !TalkBackTree.isWindowTop(n, in: tree)
            guard let (lo, hi) = windowsBelow ? (e.lo, e.hi) : Self.clip(qa, qb, bounds, e.lo, e.hi) else {
                continue
            }
            if h.state.contains(.finalWindow) && !everyVisibleNode {
                scratch.candidates.append(.init(node: .none, lo: lo, hi: hi))
            }
            if exposed { scratch.candidates.append(.init(node: n, lo: lo, hi: hi)) }
            let inner = ExploreScratch.Entry(node: n, a: qa, b: qb, lo: lo, hi: hi, toScreen: toScreen)
            pushChildren(of: n, inner, scratch: &scratch)
        }
    }

    /// Pushes the children of `e.node` that the part `e.lo ... e.hi` of the
    /// segment may meet, frontmost first (so the backmost is visited
    /// first: pre-order), each with `e`'s segment, interval and map.
    private func pushChildren(of n: NodeID, _ e: ExploreScratch.Entry, scratch: inout ExploreScratch) {
        let pa = Self.point(e.a, e.b, e.lo), pb = Self.point(e.a, e.b, e.hi)
        let sa = pa.applying(e.toScreen), sb = pb.applying(e.toScreen)
        forEachChild(
            of: n, hot[n.index], meeting: Self.box(pa, pb), screen: Self.box(sa, sb), FrontToBack.self,
            buffer: &scratch.children, into: &scratch.stack
        ) { stack, c in
            stack.append(.init(node: c, a: e.a, b: e.b, lo: e.lo, hi: e.hi, toScreen: e.toScreen))
            return true
        }
    }

    /// The box of the segment `a → b`.
    @inline(__always)
    static func box(_ a: CGPoint, _ b: CGPoint) -> CGRect {
        CGRect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(b.x - a.x), height: abs(b.y - a.y))
    }

    /// The parameters `t` in `lo ... hi` where `a + t (b - a)` lies in
    /// `rect` (closed-open on an axis the segment runs along; its ends are
    /// measure zero otherwise), or nil when none.
    @inline(__always)
    static func clip(_ a: CGPoint, _ b: CGPoint, _ rect: CGRect, _ lo: Double, _ hi: Double) -> (Double, Double)? {
        guard !rect.isNull, rect.width > 0, rect.height > 0 else { return nil }
        var lo = lo, hi = hi
        /// Narrows `lo ... hi` to where `start + t delta` is in `low ..< high`.
        @inline(__always) func axis(_ start: Double, _ delta: Double, _ low: Double, _ high: Double) -> Bool {
            if delta == 0 { return low <= start && start < high }
            let t1 = (low - start) / delta, t2 = (high - start) / delta
            lo = max(lo, min(t1, t2))
            hi = min(hi, max(t1, t2))
            return true
        }
        guard axis(Double(a.x), Double(b.x - a.x), Double(rect.minX), Double(rect.maxX)),
            axis(Double(a.y), Double(b.y - a.y), Double(rect.minY), Double(rect.maxY)), lo <= hi
        else { return nil }
        return (lo, hi)
    }

    /// A max-heap of candidate indexes (later in pre-order on top).
    @inline(__always)
    static func heapPush(_ heap: inout [Int32], _ v: Int32) {
        heap.append(v)
        var i = heap.count - 1
        while i > 0 {
            let p = (i - 1) / 2
            guard heap[p] < heap[i] else { break }
            heap.swapAt(p, i)
            i = p
        }
    }

    @inline(__always)
    static func heapPop(_ heap: inout [Int32]) {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < heap.count && heap[l] > heap[m] { m = l }
            if r < heap.count && heap[r] > heap[m] { m = r }
            if m == i { return }
            heap.swapAt(i, m)
            i = m
        }
    }
}
