import Foundation

/// TalkBack's view of an Android tree (tree-format.md, "Android"): which
/// nodes it sees, which it focuses, and the order a swipe takes. The
/// Android rule set's one home for these rules; `AndroidRules` answers
/// exposure from it, and the engine's order asks it.
///
/// - **The tree TalkBack sees**: the nodes important for accessibility (the
///   dump's flag where given, else Android's automatic rule); a node left
///   out has its children take its place (Android's
///   `addChildrenForAccessibility`). `parents` holds each node's nearest
///   important proper ancestor.
/// - **Exposed**: TalkBack's `shouldFocusNode` (google/talkback,
///   `AccessibilityNodeInfoUtils`), read from the dump's facts: a visible,
///   important node that is not window-sized, and either focusable with no
///   children or with something to say (`speaks`), or not focusable, with
///   text or state and no focusable ancestor.
/// - **Order**: TalkBack's linear order (`OrderedTraversalStrategy`,
///   `ReorderedChildrenIterator`, `NodeCachedBoundsCalculator`,
///   `WindowTraversal`): see `orderAndChildren(of:)`.
///
/// Space: 2 bytes of facts and 4 of parent per slot. Cost: O(n) to build,
/// in three passes over the dump's pre-order (down: hidden, visible,
/// importance; up: what a node's children say; down: focusable
/// ancestors), without recursion, so any depth is fine.
struct TalkBackTree: Sendable {
    /// What the rules read of one node.
    struct Facts: OptionSet, Sendable {
        let rawValue: UInt32
        static let important = Facts(rawValue: 1 << 0)
        /// Not hidden (itself or an ancestor), bounds with area.
        static let visible = Facts(rawValue: 1 << 1)
        /// Visible, and declares click, long click, focus or
        /// screen-reader focus.
        static let actionable = Facts(rawValue: 1 << 2)
        /// A label, value or hint, and not a collection.
        static let hasText = Facts(rawValue: 1 << 3)
        /// Checkable, or a range control.
        static let hasState = Facts(rawValue: 1 << 4)
        static let scrollContainer = Facts(rawValue: 1 << 5)
        static let speaks = Facts(rawValue: 1 << 6)
        static let focusable = Facts(rawValue: 1 << 7)
        static let exposed = Facts(rawValue: 1 << 8)
        /// Has children in the tree TalkBack sees.
        static let hasChildren = Facts(rawValue: 1 << 9)
        /// Its bounds equal its window's.
        static let fillsWindow = Facts(rawValue: 1 << 10)
        /// Declares scroll and is a collection, scroll view or spinner.
        static let autoScrolls = Facts(rawValue: 1 << 11)
        /// Hidden, itself or by an ancestor (what its children inherit).
        static let hidden = Facts(rawValue: 1 << 12)
        /// It, or an ancestor, is a `WebView` (what its children inherit).
        static let inWebView = Facts(rawValue: 1 << 13)
        /// Declares click or long click.
        static let taps = Facts(rawValue: 1 << 14)
        /// Declares click, long click, focus or screen-reader focus,
        /// visible or not.
        static let declaresFocusAction = Facts(rawValue: 1 << 15)
        /// It or an important ancestor is visible, not window-sized and
        /// focusable: its descendants have a focusable ancestor.
        static let focusableHere = Facts(rawValue: 1 << 16)
        /// A control that handles its own touches, by class (`SeekBar`,
        /// `RatingBar`, `Slider`).
        static let adjustable = Facts(rawValue: 1 << 17)
    }

    /// Per slot.
    private(set) var facts: [Facts]
    /// Per slot: the nearest important proper ancestor, or `.none`.
    private(set) var parents: [NodeID]
    /// Per slot, what its children in the tree TalkBack sees give it (so
    /// that an update adjusts a wide list's counts instead of reading all
    /// its children): how many there are, how many speak for it, and how
    /// many are hidden texts that declare no focus action.
    private var children: [Int32]
    private var speakingChildren: [Int32]
    private var hiddenTextChildren: [Int32]

    /// The actions that make a node actionable.
    static let focusActions: NodeActions = [.click, .longClick, .focus, .screenReaderFocus]

    init(_ tree: ElementTree, rules: AndroidRules) {
        let n = tree.capacity
        facts = Array(repeating: [], count: n)
        parents = Array(repeating: .none, count: n)
        children = Array(repeating: 0, count: n)
        speakingChildren = Array(repeating: 0, count: n)
        hiddenTextChildren = Array(repeating: 0, count: n)
        guard !tree.root.isNone else { return }
        rederive(tree.root, in: tree, rules: rules)
    }

    @inline(__always) func isExposed(_ n: NodeID) -> Bool {
        n.index < facts.count && facts[n.index].contains(.exposed)
    }

    /// Whether a scroll of view `v` (its bounds' origin moved) leaves these
    /// facts true: a scroll moves `v`'s descendants on the screen without
    /// changing their sizes, their visibility or what TalkBack sees, so
    /// only whether a descendant's bounds equal its window's can change.
    ///
    /// - Complexity: O(depth + subtree of `v`).
    func survivesScroll(of v: NodeID, in tree: ElementTree) -> Bool {
        let window = Self.windowTop(holding: v, in: tree)
        guard !window.isNone else { return false }
        let windowBox = tree.bounds(of: window).applying(tree.toScreen(of: window))
        var stack: [(NodeID, CGAffineTransform)] = []
        let inside = tree.toScreen(of: v)
        var c = tree.firstChildren[v.index]
        while !c.isNone {
            stack.append((c, inside))
            c = tree.nextSiblings[c.index]
        }
        while let (n, parentMap) = stack.popLast() {
            // A window below `v` has boxes of its own, which moved with it.
            if Self.isWindowTop(n, in: tree) { return false }
            let map = tree.isView(n) ? tree.boundsToParent(n).concatenating(parentMap) : parentMap
            let box =
                tree.isView(n)
                ? tree.bounds(of: n).applying(map)
                : (tree.frameInContainerSpace(of: n)?.applying(parentMap) ?? tree.explicitAccessibilityFrame(of: n)
                    ?? .zero)
            if (box == windowBox) != facts[n.index].contains(.fillsWindow) { return false }
            var k = tree.firstChildren[n.index]
            while !k.isNone {
                stack.append((k, map))
                k = tree.nextSiblings[k.index]
            }
        }
        return true
    }

    // MARK: The passes

    /// The live nodes in the dump's pre-order: children in the order the
    /// dump listed them (`accessibilityIndex` where drawing order moved
    /// them, else the tree's order).
    static func dumpPreOrder(_ tree: ElementTree, from start: NodeID? = nil) -> [NodeID] {
        var out: [NodeID] = []
        let start = start ?? tree.root
        guard !start.isNone else { return out }
        if start == tree.root { out.reserveCapacity(tree.count) }
        var stack = [start]
        var children: [NodeID] = []
        while let v = stack.popLast() {
            out.append(v)
            dumpChildren(of: v, in: tree, into: &children)
            stack.append(contentsOf: children.reversed())
        }
        return out
    }

    /// The children of `v` in the dump's order.
    static func dumpChildren(of v: NodeID, in tree: ElementTree, into children: inout [NodeID]) {
        children.removeAll(keepingCapacity: true)
        var moved = false
        var c = tree.firstChildren[v.index]
        while !c.isNone {
            children.append(c)
            if !moved && tree.accessibilityIndex(of: c) != nil { moved = true }
            c = tree.nextSiblings[c.index]
        }
        if moved {
            // Stable: a child without an index keeps its place among equals.
            let keyed = children.enumerated().map { (tree.accessibilityIndex(of: $0.element) ?? $0.offset, $0.offset) }
            let order = keyed.indices.sorted { keyed[$0] < keyed[$1] }
            children = order.map { children[$0] }
        }
    }

    /// The window's top-level node among `n` and its ancestors (`.none`).
    static func windowTop(holding n: NodeID, in tree: ElementTree) -> NodeID {
        var w = n
        while !w.isNone && !isWindowTop(w, in: tree) { w = tree.backLinks[w.index].parent }
        return w
    }

    /// Whether `n` is a window's top-level node: a node marked as a window,
    /// or the root of a tree that marks none below it.
    static func isWindowTop(_ n: NodeID, in tree: ElementTree) -> Bool {
        if tree.has(.window, n) { return true }
        guard tree.backLinks[n.index].parent.isNone else { return false }
        var c = tree.firstChildren[n.index]
        while !c.isNone {
            if tree.has(.window, c) { return false }
            c = tree.nextSiblings[c.index]
        }
        return true
    }

    // MARK: Deriving

    /// Derives the facts of the subtree at `x` from its ancestors' (current
    /// here) and adds what its top nodes give their parent in the tree
    /// TalkBack sees: down (hidden and visible, importance, the nearest
    /// important ancestor, each node's own facts), up (children first:
    /// counts and whether each node speaks), down again (focusable,
    /// exposed). The caller has taken away what the subtree gave before
    /// (`detach`), and walks up from its parent after (`reattach`).
    ///
    /// - Complexity: O(subtree + depth).
    private mutating func rederive(_ x: NodeID, in tree: ElementTree, rules: AndroidRules) {
        let preOrder = Self.dumpPreOrder(tree, from: x)
        let p = tree.backLinks[x.index].parent
        let boxes = Self.screenBoxes(tree, preOrder, parentMap: p.isNone ? .identity : tree.toScreen(of: p))
        // Per slot, written before its children are reached: its frontmost
        // visible modal child, which hides the others from accessibility
        // (UIKit's flag, which a tree written by hand may set), and the box
        // of the window that holds it.
        let dense = x == tree.root
        var modal = SlotValues<NodeID>(dense: dense, capacity: tree.capacity)
        var windowBox = SlotValues<CGRect>(dense: dense, capacity: tree.capacity)
        if !p.isNone {
            if ViewRules.hasModalChild(p, in: tree) {
                modal[p.index] = ViewRules.frontmostModalChild(of: p, in: tree, rules: rules)
            }
            let w = Self.windowTop(holding: p, in: tree)
            if !w.isNone { windowBox[p.index] = tree.bounds(of: w).applying(tree.toScreen(of: w)) }
        }
        let above = nearestImportant(atOrAbove: p)
        var classes = ClassCache()
        // Down.
        var importantAbove = SlotValues<NodeID>(dense: dense, capacity: tree.capacity)
        if !p.isNone { importantAbove[p.index] = above }
        for n in preOrder {
            let i = n.index
            let q = tree.backLinks[i].parent
            let box = boxes[i]
            let inherited = q.isNone ? Facts() : facts[q.index].intersection([.hidden, .inWebView])
            let suppressed = !q.isNone && modal[q.index].map { !$0.isNone && $0 != n } == true
            let isHidden = inherited.contains(.hidden) || suppressed || rules.hidesFromAccessibility(n, in: tree)
            if ViewRules.hasModalChild(n, in: tree) {
                modal[i] = ViewRules.frontmostModalChild(of: n, in: tree, rules: rules)
            }
            let isWindow = Self.isWindowTop(n, in: tree)
            let window = isWindow ? box : (q.isNone ? .null : windowBox[q.index] ?? .null)
            windowBox[i] = window
            let cls = classes.facts(of: tree.className(of: n))
            let webAbove = inherited.contains(.inWebView)
            let actions = tree.actions(of: n)
            let hasText = tree.hasLabelOrValue(n) || !(tree.extrasOf(n)?.hint ?? "").isEmpty
            var f: Facts = []
            if isHidden { f.insert(.hidden) }
            if webAbove || cls.isWebView { f.insert(.inWebView) }
            let important =
                tree.importantForAccessibility(n)
                ?? (isWindow || !actions.isDisjoint(with: [.click, .longClick, .focus, .check, .scroll]) || hasText
                    || cls.makesItselfImportant || webAbove)
            if important { f.insert(.important) }
            let visible = !isHidden && box.width > 0 && box.height > 0
            if visible { f.insert(.visible) }
            if !actions.isDisjoint(with: Self.focusActions) { f.insert(.declaresFocusAction) }
            if visible && !actions.isDisjoint(with: Self.focusActions) { f.insert(.actionable) }
            if !actions.isDisjoint(with: NodeActions.tap) { f.insert(.taps) }
            if hasText && !cls.isCollection { f.insert(.hasText) }
            if actions.contains(.check) || cls.isRangeControl { f.insert(.hasState) }
            if !cls.isSpinner && (actions.contains(.scroll) || cls.isCollection || cls.isScrollView) {
                f.insert(.scrollContainer)
            }
            if actions.contains(.scroll) && (cls.isCollection || cls.isScrollView || cls.isSpinner) {
                f.insert(.autoScrolls)
            }
            if !window.isNull && box == window { f.insert(.fillsWindow) }
            if cls.isAdjustable { f.insert(.adjustable) }
            facts[i] = f
            let nearest = q.isNone ? NodeID.none : importantAbove[q.index] ?? .none
            parents[i] = nearest
            importantAbove[i] = important ? n : nearest
            children[i] = 0
            speakingChildren[i] = 0
            hiddenTextChildren[i] = 0
        }
        // Up: each node's counts are final once its children are done.
        for c in preOrder.reversed() where facts[c.index].contains(.important) {
            updateSpeaks(c)
            let parent = parents[c.index]
            if !parent.isNone { add(c, to: parent, sign: 1) }
        }
        // Down again.
        for n in preOrder where facts[n.index].contains(.important) { updateFocus(n) }
    }

    /// Whether `n` speaks, from its own facts and its counts.
    private mutating func updateSpeaks(_ n: NodeID) {
        let i = n.index
        let f = facts[i]
        // Text or state, or a child that speaks for it; failing that,
        // unless it scrolls by itself, a hidden child with text that
        // declares no focus action.
        let speaks =
            f.contains(.hasText) || f.contains(.hasState) || speakingChildren[i] > 0
            || (!f.contains(.autoScrolls) && hiddenTextChildren[i] > 0)
        if speaks { facts[i].insert(.speaks) } else { facts[i].remove(.speaks) }
    }

    /// Adds (`sign` 1) or takes away (-1) what child `c` gives `parent` in
    /// the tree TalkBack sees.
    private mutating func add(_ c: NodeID, to parent: NodeID, sign: Int32) {
        let f = facts[c.index], pf = facts[parent.index]
        children[parent.index] += sign
        if f.contains(.visible) {
            // A scroll item that speaks is focused by itself, unless its
            // list takes taps for it.
            let ownItem = pf.contains(.scrollContainer) && !pf.contains(.taps)
            if !f.contains(.actionable) && f.contains(.speaks) && !ownItem { speakingChildren[parent.index] += sign }
        } else if f.contains(.hasText) && !f.contains(.declaresFocusAction) {
            hiddenTextChildren[parent.index] += sign
        }
    }

    /// Focusable and exposed for `n`, from its facts and its parent's.
    private mutating func updateFocus(_ n: NodeID) {
        let i = n.index
        var f = facts[i]
        f.subtract([.focusable, .exposed, .focusableHere, .hasChildren])
        if children[i] > 0 { f.insert(.hasChildren) }
        let p = parents[i]
        let scrollItem = f.contains(.visible) && !p.isNone && facts[p.index].contains(.scrollContainer)
        let focusable = f.contains(.actionable) || (scrollItem && f.contains(.speaks))
        if focusable { f.insert(.focusable) }
        let windowSized = f.contains(.fillsWindow) && f.contains(.hasChildren) && !f.contains(.actionable)
        let focusableAbove = !p.isNone && facts[p.index].contains(.focusableHere)
        if f.contains(.visible) && !windowSized {
            let exposed =
                focusable
                ? (!f.contains(.hasChildren) || f.contains(.speaks))
                : ((f.contains(.hasText) || f.contains(.hasState)) && !focusableAbove)
            if exposed { f.insert(.exposed) }
        }
        if focusableAbove || (f.contains(.visible) && !windowSized && focusable) { f.insert(.focusableHere) }
        facts[i] = f
    }

    // MARK: Updates

    /// Before a change to the subtree at `x` (an update of `x`, or its
    /// removal): takes away what the subtree's top nodes gave their parent
    /// in the tree TalkBack sees, and returns that parent.
    ///
    /// - Complexity: O(subtree of `x` down to its important nodes).
    mutating func detach(_ x: NodeID, in tree: ElementTree) -> NodeID {
        var parent = NodeID.none
        var stack = [x]
        while let n = stack.popLast() {
            if facts[n.index].contains(.important) {
                parent = parents[n.index]
                if !parent.isNone { add(n, to: parent, sign: -1) }
                continue
            }
            var c = tree.firstChildren[n.index]
            while !c.isNone {
                stack.append(c)
                c = tree.nextSiblings[c.index]
            }
        }
        if parent.isNone {
            // No important node in the subtree: its parent in the tree
            // TalkBack sees is the one it would have.
            var a = tree.backLinks[x.index].parent
            while !a.isNone && !facts[a.index].contains(.important) { a = tree.backLinks[a.index].parent }
            parent = a
        }
        return parent
    }

    /// After a change: derives the subtree at `x` again (when it is still
    /// in the tree: `nil` after a removal), then walks up from `parent`
    /// (what `detach` returned) while a node's speaking changes, with its
    /// focusable and exposed facts; where a node's focusable ancestry
    /// changed, its subtree's exposure is derived again. Returns the top of
    /// the region whose exposure may have changed (`.none`: none).
    ///
    /// - Complexity: O(subtree of `x`) plus the walk up, plus the subtree of
    ///   an ancestor whose focusability changed.
    mutating func reattach(_ x: NodeID?, below parent: NodeID, in tree: ElementTree, rules: AndroidRules) -> NodeID {
        grow(to: tree.capacity)
        var top = NodeID.none
        if let x {
            rederive(x, in: tree, rules: rules)
            top = x
        }
        var a = parent
        var refocus = NodeID.none
        while !a.isNone {
            let old = facts[a.index]
            let grandparent = parents[a.index]
            if !grandparent.isNone { add(a, to: grandparent, sign: -1) }
            updateSpeaks(a)
            updateFocus(a)
            if !grandparent.isNone { add(a, to: grandparent, sign: 1) }
            let new = facts[a.index]
            if old.symmetricDifference(new).contains(.focusableHere) { refocus = a }
            if !old.symmetricDifference(new).isDisjoint(with: [.exposed, .focusableHere]) { top = a }
            // Only a change of speaking changes what it gives its parent.
            guard old.contains(.speaks) != new.contains(.speaks) else { break }
            a = grandparent
        }
        if !refocus.isNone {
            for n in Self.dumpPreOrder(tree, from: refocus) where n != refocus && facts[n.index].contains(.important) {
                updateFocus(n)
            }
        }
        return top
    }

    /// Whether `n` consumes a tap its children pass by its class or its
    /// scrolling (`AndroidRules.consumesTap`), as derived.
    @inline(__always) func consumesTapByItself(_ n: NodeID, hasChildren: Bool) -> Bool {
        guard n.index < facts.count else { return false }
        let f = facts[n.index]
        return f.contains(.adjustable) || (hasChildren && f.contains(.scrollContainer))
    }

    /// The nearest important node among `n` and its ancestors (`.none`).
    func nearestImportant(atOrAbove n: NodeID) -> NodeID {
        n.isNone || facts[n.index].contains(.important) ? n : parents[n.index]
    }

    /// Room for `capacity` slots.
    mutating func grow(to capacity: Int) {
        guard facts.count < capacity else { return }
        let extra = capacity - facts.count
        facts.append(contentsOf: repeatElement([], count: extra))
        parents.append(contentsOf: repeatElement(.none, count: extra))
        children.append(contentsOf: repeatElement(0, count: extra))
        speakingChildren.append(contentsOf: repeatElement(0, count: extra))
        hiddenTextChildren.append(contentsOf: repeatElement(0, count: extra))
    }

    /// Each node's box on the screen, per slot: a view's bounds through its
    /// map (their bounding box), an element node's accessibility frame.
    static func screenBoxes(
        _ tree: ElementTree, _ preOrder: [NodeID], parentMap top: CGAffineTransform = .identity
    ) -> [CGRect] {
        var boxes = [CGRect](repeating: .null, count: tree.capacity)
        // The maps of the current node's ancestors in the walk, outermost
        // first (a pre-order visits a node's parent before it, and leaves
        // the parent's subtree only after it): a stack, of which only as
        // many entries as the tree is deep are ever written (so touched),
        // rather than a map per slot.
        let above = UnsafeMutablePointer<(node: NodeID, map: CGAffineTransform)>.allocate(capacity: preOrder.count)
        defer { above.deallocate() }
        var depth = 0
        for n in preOrder {
            let i = n.index
            let p = tree.backLinks[i].parent
            while depth > 0 && above[depth - 1].node != p { depth -= 1 }
            let parentMap = depth > 0 ? above[depth - 1].map : top
            if tree.isView(n) {
                let map = tree.boundsToParent(n).concatenating(parentMap)
                (above + depth).initialize(to: (n, map))
                boxes[i] = tree.bounds(of: n).applying(map)
            } else {
                (above + depth).initialize(to: (n, parentMap))
                boxes[i] =
                    tree.frameInContainerSpace(of: n)?.applying(parentMap) ?? tree.explicitAccessibilityFrame(of: n)
                    ?? .zero
            }
            depth += 1
        }
        return boxes
    }
}

/// Values for some slots, written by a walk before they are read: an array
/// for a walk of the whole tree, a dictionary for a subtree's (so that an
/// update costs its subtree, not the tree's capacity).
private struct SlotValues<Value> {
    private var array: [Value?]
    private var dictionary: [Int: Value] = [:]
    private let dense: Bool

    init(dense: Bool, capacity: Int) {
        self.dense = dense
        array = dense ? Array(repeating: nil, count: capacity) : []
    }

    subscript(slot: Int) -> Value? {
        get { dense ? array[slot] : dictionary[slot] }
        set {
            if dense { array[slot] = newValue } else { dictionary[slot] = newValue }
        }
    }
}

/// What each distinct class name says (`AndroidClass`), worked out once per
/// name: a dump repeats a few dozen classes, and each test reads suffixes.
private struct ClassCache {
    struct Facts {
        var isCollection, isRangeControl, isScrollView, isSpinner, isWebView, makesItselfImportant, isAdjustable: Bool
    }
    private var known: [String: Facts] = [:]

    mutating func facts(of className: String?) -> Facts {
        let name = className ?? ""
        if let f = known[name] { return f }
        let c = AndroidClass(className)
        let f = Facts(
            isCollection: c.isCollection, isRangeControl: c.isRangeControl, isScrollView: c.isScrollView,
            isSpinner: c.isSpinner, isWebView: c.isWebView, makesItselfImportant: c.makesItselfImportant,
            isAdjustable: c.isAdjustable)
        known[name] = f
        return f
    }
}
