@_spi(Benchmarks) import AXGeometry
import AXHit
import CUniformGrid
import Foundation

/// A rect as its four edges, for closed-open tests without `standardized`.
struct Box {
    var minX, minY, maxX, maxY: Double

    init(_ r: CGRect) {
        minX = Double(r.minX)
        minY = Double(r.minY)
        maxX = Double(r.maxX)
        maxY = Double(r.maxY)
    }

    /// CGRectContainsPoint's rule: `minX <= x < maxX`, `minY <= y < maxY`.
    @inline(__always)
    func containsClosedOpen(_ x: Double, _ y: Double) -> Bool {
        x >= minX && x < maxX && y >= minY && y < maxY
    }
}

/// The naive baseline: UIKit's accessibility hit-test as a plain recursive
/// function over the same `ScreenSpace`, front to back with bounds pruning,
/// and nothing else (no index, no "subtree has no element" skip). An Android
/// tree is answered by `NaiveHover` instead (TalkBack's hover dispatch).
///
/// What a UIView keeps in its own fields (bounds, subviews, its map from the
/// window: `convert(_:from: nil)`) is copied out of the public API once, into
/// arrays, so the walk is as fast as plain Swift makes it: a strong baseline.
/// Recursion depth is the tree's depth (the bench runs on a thread with a
/// large stack so that the 100k-level chain fits).
struct NaiveWalk: Sendable {
    private struct Flags: OptionSet {
        let rawValue: UInt8
        static let exposed = Flags(rawValue: 1)
        static let view = Flags(rawValue: 2)
        static let invertible = Flags(rawValue: 4)
    }
    private let root: Int32
    private let lastChild: [Int32]
    private let previousSibling: [Int32]
    private let flags: [UInt8]
    private let bounds: [Box]
    private let fromScreen: [CGAffineTransform]
    private let frames: [Box]
    /// Android's walk, which shares nothing with VoiceOver's: nil on iOS.
    private let hover: NaiveHover?

    init(_ space: ScreenSpace) {
        let tree = space.tree
        if tree.platform == .android {
            // Only the hover's arrays: VoiceOver's would sit unused beside them.
            hover = NaiveHover(space)
            root = -1
            lastChild = []
            previousSibling = []
            flags = []
            bounds = []
            fromScreen = []
            frames = []
            return
        }
        hover = nil
        let n = tree.capacity
        var lastChild = [Int32](repeating: -1, count: n), previousSibling = [Int32](repeating: -1, count: n)
        var flags = [UInt8](repeating: 0, count: n)
        var bounds = [Box](repeating: Box(.zero), count: n), frames = [Box](repeating: Box(.zero), count: n)
        var fromScreen = [CGAffineTransform](repeating: .identity, count: n)
        tree.forEachInPreOrder(from: tree.root) { id in
            let i = id.index
            lastChild[i] = tree.lastChild(of: id).rawValue
            previousSibling[i] = tree.previousSibling(of: id).rawValue
            var f: Flags = []
            if space.isExposed(id) { f.insert(.exposed) }
            guard let node = tree[id] else { return }
            if node.kind == .view {
                f.insert(.view)
                bounds[i] = Box(node.effectiveBounds)
            }
            if let t = space.transformFromScreen(of: id) {
                f.insert(.invertible)
                fromScreen[i] = t
            }
            frames[i] = Box(space.accessibilityFrame(of: id))
            flags[i] = f.rawValue
        }
        self.root = tree.root.rawValue
        self.lastChild = lastChild
        self.previousSibling = previousSibling
        self.flags = flags
        self.bounds = bounds
        self.fromScreen = fromScreen
        self.frames = frames
    }

    /// The frontmost exposed element whose accessibility frame holds `p`,
    /// within the bounds of all its ancestor views (on Android, TalkBack's
    /// answer to a hover at `p`). The same contract as
    /// `HitTester.hit(p, policy: .frame)`.
    func hit(_ p: CGPoint) -> NodeID? {
        if let hover { return hover.hit(p) }
        guard root >= 0 else { return nil }
        let h = hitTest(root, Double(p.x), Double(p.y))
        return h >= 0 ? NodeID(h) : nil
    }

    private func hitTest(_ n: Int32, _ x: Double, _ y: Double) -> Int32 {
        let i = Int(n)
        let f = Flags(rawValue: flags[i])
        // An exposed element answers for its whole subtree (VoiceOver).
        if f.contains(.exposed) { return frames[i].containsClosedOpen(x, y) ? n : -1 }
        if f.contains(.view) && !holds(i, x, y) { return -1 }  // skips the subtree
        // Subviews front to back.
        var c = lastChild[i]
        while c >= 0 {
            let h = hitTest(c, x, y)
            if h >= 0 { return h }
            c = previousSibling[Int(c)]
        }
        return -1
    }

    /// Whether view `i`'s bounds (in its own space, closed-open) hold the
    /// screen point.
    private func holds(_ i: Int, _ x: Double, _ y: Double) -> Bool {
        guard Flags(rawValue: flags[i]).contains(.invertible) else { return false }
        let t = fromScreen[i]
        let lx = t.a * x + t.c * y + t.tx, ly = t.b * x + t.d * y + t.ty
        return bounds[i].containsClosedOpen(Double(lx), Double(ly))
    }
}

/// The naive baseline on Android: touch exploration as tree-format.md
/// states it (Android `hit(p)`), written from those words and not from the
/// engine, as one plain recursive function. The hover goes to the topmost
/// window holding `p`; a node offered it offers it to its visible children
/// holding `p`, front to back, until one takes it (an enabled node that
/// declares `click` or `longClick` in the part of its subtree that was
/// offered it); each offered node with no visible child holding `p`
/// reports, and the last report that finds an exposed node among the
/// reporter and its ancestors answers.
///
/// Per node it keeps what the walk reads, copied out once: its bounds on the
/// screen, whether it is visible, takes the hover or is exposed (by
/// `ScreenSpace.isExposed`, TalkBack's `shouldFocusNode`), and its children
/// front to back. The windows' bounds sit in one array of their own, so
/// that finding the topmost is a scan of contiguous memory, O(windows) a
/// query: a plain implementation keeps no index.
struct NaiveHover: Sendable {
    private struct Flags: OptionSet {
        let rawValue: UInt8
        /// Not hidden, itself or an ancestor, and its bounds have area.
        static let visible = Flags(rawValue: 1)
        /// Enabled (no `notEnabled` trait) and declares `click` or `longClick`.
        static let takes = Flags(rawValue: 2)
        static let exposed = Flags(rawValue: 4)
    }
    private let lastChild: [Int32]
    private let previousSibling: [Int32]
    private let flags: [UInt8]
    /// Android's bounds: a view's bounds converted to the screen (their
    /// bounding box), an element node's accessibility frame.
    private let boxes: [Box]
    /// The windows' top-level nodes in pre-order, so the last that holds a
    /// point is the topmost there.
    private let windows: [Int32]
    private let windowBoxes: [Box]
    /// Per window, its nearest exposed proper ancestor, or -1: a report
    /// looks past the window too.
    private let exposedAboveWindow: [Int32]

    init(_ space: ScreenSpace) {
        let tree = space.tree
        let n = tree.capacity
        var lastChild = [Int32](repeating: -1, count: n), previousSibling = [Int32](repeating: -1, count: n)
        var flags = [UInt8](repeating: 0, count: n)
        var boxes = [Box](repeating: Box(.zero), count: n)
        var hidden = [Bool](repeating: false, count: n)
        var windows: [Int32] = [], windowBoxes: [Box] = [], exposedAboveWindow: [Int32] = []
        // Parents come before children: hiding and exposure above are known.
        tree.forEachInPreOrder(from: tree.root) { id in
            let i = id.index
            lastChild[i] = tree.lastChild(of: id).rawValue
            previousSibling[i] = tree.previousSibling(of: id).rawValue
            guard let node = tree[id] else { return }
            let parent = tree.parent(of: id)
            let box =
                node.kind == .view
                ? space.convertToScreen(node.effectiveBounds, from: id) : space.accessibilityFrame(of: id)
            boxes[i] = Box(box)
            // Hidden: the dump's visible-to-user, or UIKit's flags on a tree
            // written by hand; a hidden node hides its subtree.
            hidden[i] =
                (!parent.isNone && hidden[parent.index]) || node.visibleInSnapshot == false || node.isHidden
                || node.alpha < 0.01
            var f: Flags = []
            if !hidden[i] && box.width > 0 && box.height > 0 { f.insert(.visible) }
            if !node.accessibilityTraits.contains(.notEnabled) && !node.actions.isDisjoint(with: NodeActions.tap) {
                f.insert(.takes)
            }
            if space.isExposed(id) { f.insert(.exposed) }
            flags[i] = f.rawValue
            // A window is a dump's top-level node: one marked `isWindow`, or
            // the root unless its children are the windows (a synthetic
            // root over several, which is none itself). A hidden one is not
            // on the screen to take the hover.
            let isWindow =
                node.isWindow || (parent.isNone && !tree.children(of: id).contains { tree[$0]?.isWindow == true })
            if isWindow && f.contains(.visible) {
                var above = parent
                while !above.isNone && !space.isExposed(above) { above = tree.parent(of: above) }
                windows.append(id.rawValue)
                windowBoxes.append(boxes[i])
                exposedAboveWindow.append(above.rawValue)
            }
        }
        self.lastChild = lastChild
        self.previousSibling = previousSibling
        self.flags = flags
        self.boxes = boxes
        self.windows = windows
        self.windowBoxes = windowBoxes
        self.exposedAboveWindow = exposedAboveWindow
    }

    /// The node TalkBack focuses when the finger is at `p`, or nil.
    func hit(_ p: CGPoint) -> NodeID? {
        let x = Double(p.x), y = Double(p.y)
        // Windows do not pass the hover on: the topmost holding `p` has it.
        var k = windowBoxes.count - 1
        while k >= 0 && !windowBoxes[k].containsClosedOpen(x, y) { k -= 1 }
        guard k >= 0 else { return nil }
        var answer: Int32 = -1
        _ = offer(windows[k], x, y, exposedAboveWindow[k], &answer)
        return answer >= 0 ? NodeID(answer) : nil
    }

    /// Offers the hover to `v`, whose nearest exposed proper ancestor is
    /// `above`; a report with an answer overwrites `answer`, since reports
    /// come in the order nodes are offered and the last one wins. Returns
    /// whether `v` takes the hover (so its siblings behind are not offered).
    private func offer(_ v: Int32, _ x: Double, _ y: Double, _ above: Int32, _ answer: inout Int32) -> Bool {
        let i = Int(v)
        let f = Flags(rawValue: flags[i])
        let nearest = f.contains(.exposed) ? v : above
        var reached = false
        var c = lastChild[i]
        while c >= 0 {
            let ci = Int(c)
            if Flags(rawValue: flags[ci]).contains(.visible) && boxes[ci].containsClosedOpen(x, y) {
                reached = true
                // A child that takes it: so does `v`, and no child behind is offered.
                if offer(c, x, y, nearest, &answer) { return true }
            }
            c = previousSibling[ci]
        }
        // No visible child holds `p`: `v` reports.
        if !reached && nearest >= 0 { answer = nearest }
        return f.contains(.takes)
    }
}

/// The touch baseline: UIKit's `hitTest(_:with:)` as a plain recursive
/// function over the same `ScreenSpace`, written from UIKit's documented
/// rule and not from the engine: a view that is hidden, has alpha below 0.01
/// or has user interaction off takes nothing, nor does its subtree; a point
/// outside a view's bounds (in its own space, closed-open) skips it and its
/// subtree; subviews are tried frontmost first; the deepest view that takes
/// the point wins. Element nodes never receive touches. No index: a wide
/// view's subviews are tried one by one, as UIKit does. Per-view data is
/// copied into arrays first, as for `NaiveWalk`.
///
/// An Android tree is dispatched as Android does (tree-format.md, Android
/// `touch(p)`): a view the dump marks not visible takes nothing either, and
/// a view whose subviews all pass the tap takes it only when it declares
/// `click` or `longClick` (enabled or not), is an adjustable control (the
/// `adjustable` trait, or a SeekBar, RatingBar or Slider by class), or is a
/// scroll container with a child (lists and scroll views take every touch
/// that reaches them, to scroll); otherwise the tap goes on to the next
/// subview behind, then up.
struct NaiveTouch: Sendable {
    private let root: Int32
    /// Per node: the frontmost child view, and the next view behind it
    /// among its siblings (element nodes skipped), or -1.
    private let lastChildView: [Int32]
    private let previousSiblingView: [Int32]
    /// A view that can take touches itself (and has an invertible map).
    private let touchable: [Bool]
    private let bounds: [Box]
    private let fromScreen: [CGAffineTransform]
    /// Android: whether each view consumes a tap its subviews pass; nil
    /// under UIKit, where every view that takes the point keeps it.
    private let consumes: [Bool]?

    init(_ space: ScreenSpace) {
        let tree = space.tree
        let n = tree.capacity
        var lastChildView = [Int32](repeating: -1, count: n), previousSiblingView = [Int32](repeating: -1, count: n)
        var touchable = [Bool](repeating: false, count: n)
        var bounds = [Box](repeating: Box(.zero), count: n)
        var fromScreen = [CGAffineTransform](repeating: .identity, count: n)
        let android = tree.platform == .android
        var consumes = [Bool](repeating: false, count: android ? n : 0)
        tree.forEachInPreOrder(from: tree.root) { id in
            let i = id.index
            guard let node = tree[id], node.kind == .view else { return }
            // Children are back to front: the last view seen is the frontmost.
            var behind: Int32 = -1
            for c in tree.children(of: id) where tree.kind(of: c) == .view {
                previousSiblingView[c.index] = behind
                behind = c.rawValue
            }
            lastChildView[i] = behind
            if let t = space.transformFromScreen(of: id), !node.isHidden, node.alpha >= 0.01,
                node.isUserInteractionEnabled, !android || node.visibleInSnapshot != false
            {
                touchable[i] = true
                fromScreen[i] = t
                bounds[i] = Box(node.effectiveBounds)
            }
            if android {
                consumes[i] =
                    !node.actions.isDisjoint(with: NodeActions.tap) || node.accessibilityTraits.contains(.adjustable)
                    || Self.isAdjustable(node.className)
                    || (Self.isScrollContainer(node) && !tree.firstChild(of: id).isNone)
            }
        }
        self.consumes = android ? consumes : nil
        self.root = tree.root.rawValue
        self.lastChildView = lastChildView
        self.previousSiblingView = previousSiblingView
        self.touchable = touchable
        self.bounds = bounds
        self.fromScreen = fromScreen
    }

    /// A dump names a class, not its superclasses: a subclass is known by
    /// its simple name (after the last `.`) ending with the framework's.
    private static func simpleName(_ className: String?, endsWith suffixes: [String]) -> Bool {
        guard let className else { return false }
        let simple = className.lastIndex(of: ".").map { className[className.index(after: $0)...] } ?? className[...]
        return suffixes.contains { simple.hasSuffix($0) }
    }

    /// SeekBar, RatingBar and Slider handle their own touches.
    private static func isAdjustable(_ className: String?) -> Bool {
        simpleName(className, endsWith: ["SeekBar", "RatingBar", "Slider"])
    }

    /// A list or scroll view (not a Spinner, which declares `scroll` to
    /// open its list): it scrolls, by the dump's `scrollable` or its class.
    private static func isScrollContainer(_ node: Node) -> Bool {
        !simpleName(node.className, endsWith: ["Spinner"])
            && (node.actions.contains(.scroll)
                || simpleName(node.className, endsWith: ["ListView", "GridView", "RecyclerView", "ScrollView"]))
    }

    /// The view that receives a tap at `p`. The same contract as
    /// `HitTester.touch(_:)`.
    func touch(_ p: CGPoint) -> NodeID? {
        guard root >= 0 else { return nil }
        let h = hitTest(root, Double(p.x), Double(p.y))
        return h >= 0 ? NodeID(h) : nil
    }

    private func hitTest(_ v: Int32, _ x: Double, _ y: Double) -> Int32 {
        let i = Int(v)
        guard touchable[i] else { return -1 }
        let t = fromScreen[i]
        let lx = t.a * x + t.c * y + t.tx, ly = t.b * x + t.d * y + t.ty
        guard bounds[i].containsClosedOpen(Double(lx), Double(ly)) else { return -1 }
        var c = lastChildView[i]
        while c >= 0 {
            let h = hitTest(c, x, y)
            if h >= 0 { return h }
            c = previousSiblingView[Int(c)]
        }
        return consumes.map { $0[i] ? v : -1 } ?? v
    }
}

/// The flat-scan baseline: every exposed element's accessibility frame in
/// pre-order; the answer is the last one holding the point. It ignores the
/// cut by ancestor bounds, so it answers a simpler question than the
/// hit-test (equal where no ancestor cuts an element): a lower bound on what
/// any scan costs, not a correct engine.
struct FlatScan: Sendable {
    /// Exposed elements' frames in pre-order, and their nodes.
    let boxes: [Box]
    let nodes: [NodeID]
    /// The same frames as CGRects (for the STRtree, over the same boxes).
    let rects: [CGRect]

    init(_ space: ScreenSpace) {
        var boxes: [Box] = [], nodes: [NodeID] = [], rects: [CGRect] = []
        space.tree.forEachInPreOrder(from: space.tree.root) { id in
            guard space.isExposed(id) else { return }
            let r = space.accessibilityFrame(of: id)
            boxes.append(Box(r))
            nodes.append(id)
            rects.append(r)
        }
        self.boxes = boxes
        self.nodes = nodes
        self.rects = rects
    }

    /// The last exposed element in pre-order whose frame holds `p`. O(n).
    func hit(_ p: CGPoint) -> NodeID? {
        let x = Double(p.x), y = Double(p.y)
        return boxes.withUnsafeBufferPointer { b -> NodeID? in
            var k = b.count - 1
            while k >= 0 {
                if b[k].containsClosedOpen(x, y) { return nodes[k] }
                k -= 1
            }
            return nil
        }
    }
}

/// GEOS's STRtree (through its C API) over the flat scan's boxes, answering
/// with nodes: the "off-the-shelf spatial index" baseline. Same answers as
/// the flat scan (ancestor cuts ignored). One GEOS context: one thread only.
final class GEOSBaseline {
    let index: GEOSSTRtreeBaseline
    let nodes: [NodeID]

    init(_ flat: FlatScan) throws {
        index = try GEOSSTRtreeBaseline(boxes: flat.rects)
        nodes = flat.nodes
    }

    func hit(_ p: CGPoint) -> NodeID? { index.frontmost(containing: p).map { nodes[$0] } }
}

/// A uniform grid over the flat scan's boxes: the fastest plain structure
/// for boxes of similar size, and the speed goal's yardstick. Cells are the
/// size of the median box (the geometric mean of its sides), with no cap on
/// their number but a memory budget (`maximumCells`; the cells grow only when
/// it binds, and `memoryBytes` reports what it holds). A box is listed in the
/// cells it covers, closed-open as the boxes are (a box ending on a cell edge
/// is not listed in the next cell), in pre-order; the query point's cell is
/// scanned back to front and the first box holding the point answers. Boxes
/// spanning more than `wideCells` (1,024) cells go to one list every query scans, so
/// a few huge boxes (containers) cannot blow up memory. Same answers as the
/// flat scan: it ignores ancestors' bounds and exposure, which the engine
/// must honour.
struct UniformGridBaseline: Sendable {
    private let boxes: [Box]
    private let nodes: [NodeID]
    private let minX, minY, cellSize: Double
    private let columns, rows: Int
    /// Cell `c` lists `items[cellStarts[c] ..< cellStarts[c + 1]]` (box
    /// numbers, ascending: pre-order).
    private let cellStarts: [Int32]
    private let items: [Int32]
    /// Boxes too wide for the cells, ascending.
    private let wide: [Int32]
    static let wideCells = 1024
    /// The most cells the grid makes: 64M, 256 MiB of cell starts.
    static let maximumCells = 1 << 26

    /// Bytes the grid holds beyond the boxes it shares with the flat scan.
    var memoryBytes: Int { (cellStarts.count + items.count + wide.count) * MemoryLayout<Int32>.stride }
    /// The grid's cells across and down, their side, and the first cell's corner.
    var shape: (columns: Int, rows: Int, cellSize: Double, origin: CGPoint) {
        (columns, rows, cellSize, CGPoint(x: minX, y: minY))
    }

    init(_ flat: FlatScan) {
        boxes = flat.boxes
        nodes = flat.nodes
        var lo = (x: Double.infinity, y: Double.infinity), hi = (x: -Double.infinity, y: -Double.infinity)
        var sizes: [Double] = []
        sizes.reserveCapacity(flat.boxes.count)
        for b in flat.boxes where b.minX.isFinite && b.maxX.isFinite && b.minY.isFinite && b.maxY.isFinite {
            lo = (min(lo.x, b.minX), min(lo.y, b.minY))
            hi = (max(hi.x, b.maxX), max(hi.y, b.maxY))
            let size = ((b.maxX - b.minX) * (b.maxY - b.minY)).squareRoot()
            if size > 0 { sizes.append(size) }
        }
        guard !sizes.isEmpty, hi.x > lo.x, hi.y > lo.y else {
            minX = 0
            minY = 0
            cellSize = 1
            columns = 1
            rows = 1
            cellStarts = [0, 0]
            items = []
            wide = (0 ..< flat.boxes.count).map { Int32($0) }
            return
        }
        let k = sizes.count / 2
        sizes.withUnsafeMutableBufferPointer { buffer in buffer.partitionMedian(k) }
        var size = sizes[k]
        // Only the budget grows the cells.
        let cellsAtSize = ((hi.x - lo.x) / size + 1) * ((hi.y - lo.y) / size + 1)
        if cellsAtSize > Double(Self.maximumCells) { size *= (cellsAtSize / Double(Self.maximumCells)).squareRoot() }
        let columns = max(1, Int(((hi.x - lo.x) / size).rounded(.up)))
        let rows = max(1, Int(((hi.y - lo.y) / size).rounded(.up)))
        let cellSize = size
        func span(_ b: Box) -> (Int, Int, Int, Int) {
            func first(_ v: Double, _ n: Int) -> Int { v.isFinite ? min(max(Int(v), 0), n - 1) : (v < 0 ? 0 : n - 1) }
            // The last cell a closed-open box reaches: one before an exact edge.
            func last(_ v: Double, _ n: Int) -> Int {
                guard v.isFinite else { return v < 0 ? 0 : n - 1 }
                let c = Int(v)
                return min(max(Double(c) == v ? c - 1 : c, 0), n - 1)
            }
            let x0 = first((b.minX - lo.x) / cellSize, columns), y0 = first((b.minY - lo.y) / cellSize, rows)
            return (
                x0, max(x0, last((b.maxX - lo.x) / cellSize, columns)),
                y0, max(y0, last((b.maxY - lo.y) / cellSize, rows))
            )
        }
        var counts = [Int32](repeating: 0, count: columns * rows + 1)
        var wide: [Int32] = []
        for (k, b) in flat.boxes.enumerated() {
            let (x0, x1, y0, y1) = span(b)
            if (x1 - x0 + 1) * (y1 - y0 + 1) > Self.wideCells {
                wide.append(Int32(k))
                continue
            }
            for y in y0 ... y1 { for x in x0 ... x1 { counts[y * columns + x + 1] += 1 } }
        }
        for c in 0 ..< columns * rows { counts[c + 1] += counts[c] }
        var cursor = counts
        var items = [Int32](repeating: 0, count: Int(counts[columns * rows]))
        for (k, b) in flat.boxes.enumerated() {
            let (x0, x1, y0, y1) = span(b)
            if (x1 - x0 + 1) * (y1 - y0 + 1) > Self.wideCells { continue }
            for y in y0 ... y1 {
                for x in x0 ... x1 {
                    items[Int(cursor[y * columns + x])] = Int32(k)
                    cursor[y * columns + x] += 1
                }
            }
        }
        self.minX = lo.x
        self.minY = lo.y
        self.cellSize = cellSize
        self.columns = columns
        self.rows = rows
        self.cellStarts = counts
        self.items = items
        self.wide = wide
    }

    /// The last exposed element in pre-order whose frame holds `p`.
    /// O(boxes in the point's cell + wide boxes).
    func hit(_ p: CGPoint) -> NodeID? {
        let x = Double(p.x), y = Double(p.y)
        var best: Int32 = -1
        let cx = (x - minX) / cellSize, cy = (y - minY) / cellSize
        if cx >= 0, cy >= 0, cx < Double(columns), cy < Double(rows) {
            let c = Int(cy) * columns + Int(cx)
            var k = Int(cellStarts[c + 1]) - 1
            let start = Int(cellStarts[c])
            while k >= start {
                let b = items[k]
                if boxes[Int(b)].containsClosedOpen(x, y) {
                    best = b
                    break
                }
                k -= 1
            }
        }
        var w = wide.count - 1
        while w >= 0 && wide[w] > best {
            if boxes[Int(wide[w])].containsClosedOpen(x, y) {
                best = wide[w]
                break
            }
            w -= 1
        }
        return best >= 0 ? nodes[Int(best)] : nil
    }
}

/// The same grid written in plain C (`Benchmarks/CUniformGrid`): the same
/// cells, the same rules, each cell entry carrying its box and number so a
/// query reads no box from elsewhere. The yardstick is the faster of the
/// two, so that the goal is not measured against Swift's overheads. Answers
/// box numbers; `node(_:)` maps them to nodes outside the timed loop.
final class CUniformGridBaseline: @unchecked Sendable {
    // Unchecked: the C grid is never written after `init`.
    private let grid: OpaquePointer
    private let nodes: [NodeID]

    /// Same cells as `UniformGridBaseline(flat)`; nil when C runs out of memory.
    init?(_ flat: FlatScan, cellsOf swift: UniformGridBaseline) {
        let shape = swift.shape
        var quads: [Double] = []
        quads.reserveCapacity(4 * flat.boxes.count)
        for b in flat.boxes { quads += [b.minX, b.minY, b.maxX, b.maxY] }
        guard flat.boxes.count <= Int(Int32.max), shape.columns <= Int(Int32.max), shape.rows <= Int(Int32.max),
            let grid = ax_uniform_grid_create(
                quads, Int32(flat.boxes.count), Double(shape.origin.x), Double(shape.origin.y), shape.cellSize,
                Int32(shape.columns), Int32(shape.rows), Int32(UniformGridBaseline.wideCells))
        else { return nil }
        self.grid = grid
        nodes = flat.nodes
    }

    deinit { ax_uniform_grid_destroy(grid) }

    /// The number of the last box in pre-order holding `p`, or -1.
    @inline(__always)
    func hitIndex(_ p: CGPoint) -> Int32 { ax_uniform_grid_hit(grid, Double(p.x), Double(p.y)) }

    /// The node of box `index` (`hitIndex`), or nil for -1.
    func node(_ index: Int32) -> NodeID? { index >= 0 ? nodes[Int(index)] : nil }

    /// Bytes the C grid holds (its entries carry their boxes).
    var memoryBytes: Int { ax_uniform_grid_bytes(grid) }
}

/// flatbush's algorithm (`PackedRTree`, a packed Hilbert R-tree of node size
/// 16) over the flat scan's boxes: every box holding the point, the last in
/// pre-order answers. Same answers as the flat scan.
struct PackedRTreeBaseline: Sendable {
    private let tree: PackedRTree
    private let boxes: [Box]
    private let nodes: [NodeID]

    init(_ flat: FlatScan) {
        tree = PackedRTree(boxes: flat.rects)
        boxes = flat.boxes
        nodes = flat.nodes
    }

    /// The last exposed element in pre-order whose frame holds `p` (the
    /// tree's `Float` boxes are rounded outward: each candidate is checked
    /// exactly).
    func hit(_ p: CGPoint) -> NodeID? {
        let x = Double(p.x), y = Double(p.y)
        var best: Int32 = -1
        boxes.withUnsafeBufferPointer { boxes in
            tree.forEach(containing: p) { k in
                if k > best && boxes[Int(k)].containsClosedOpen(x, y) { best = k }
                return true
            }
        }
        return best >= 0 ? nodes[Int(best)] : nil
    }
}

extension UnsafeMutableBufferPointer where Element == Double {
    /// Moves the `k`-th smallest element to position `k` (Hoare's selection,
    /// median-of-three pivots). O(n) expected.
    func partitionMedian(_ k: Int) {
        var lo = 0, hi = count - 1
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            let pivot = Swift.max(Swift.min(self[lo], self[hi]), Swift.min(Swift.max(self[lo], self[hi]), self[mid]))
            var i = lo, j = hi
            while i <= j {
                while self[i] < pivot { i += 1 }
                while self[j] > pivot { j -= 1 }
                if i <= j {
                    self.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if k <= j { hi = j } else if k >= i { lo = i } else { return }
        }
    }
}
