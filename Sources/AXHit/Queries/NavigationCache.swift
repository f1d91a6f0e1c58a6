import Foundation

/// The navigation order of a screen (tree-format.md, "Navigation order"),
/// kept by `HitTester` as a tree of **units**, each one sorted list of the
/// spec's step 1: the screen's own list (unit 0), and one per group (a view
/// with `accessibilityElements`, an explicit unit; a grouping view, a sorted
/// unit). A unit's items are exposed elements and the owners of the units
/// nested in it, in step 1's order; `sorted` is step 4's order (an explicit
/// unit keeps step 1's). The whole order is the units emitted depth first.
///
/// Kept current through updates by marking what they touch and redoing it
/// at the next query (`HitTester.refreshNavigationOrder`): a unit whose
/// region changed is collected again (its nested units are kept), a unit
/// whose items' keys moved relative to each other is sorted again, and a
/// unit whose key changed has its parent sorted again. A scroll moves every
/// key below the scrolled view by one vector, which changes no comparison
/// among them (`before` depends on differences only), so a unit whose items
/// all moved keeps its order. Empty until the first query asks for it:
/// updates cost nothing until then.
///
/// Memory: 12 bytes per node slot, plus 8 bytes per item and a few words
/// per unit.
struct NavigationCache: Sendable {
    struct Unit: Sendable {
        enum Kind: Sendable { case sorted, explicit }
        /// The group's view; `.none` for the screen's own list (unit 0).
        var owner: NodeID
        var kind: Kind
        /// The unit holding this one as an item (-1 for unit 0).
        var parent: Int32
        /// Step 1's items: exposed elements and nested units' owners.
        var items: [NodeID] = []
        /// Emission order.
        var sorted: [NodeID] = []
        /// The key its parent last sorted it by.
        var key = OrderKey.none
        var alive = true
        var needsCollect = true
        var needsSort = true
        /// Some item's key is fixed on the screen (an explicit
        /// `accessibilityFrame`, or an element node's CGRectZero): a scroll
        /// of an ancestor moves the others but not it.
        var hasFixedItem = false
    }

    var units: [Unit] = []
    var freeUnits: [Int32] = []
    /// Per node: the unit it owns, or -1.
    var unitOwned: [Int32] = []
    /// Per node: the unit whose collection last visited it (an item of that
    /// unit, or a node its walk passed through or stopped at), or -1. Stale
    /// for a node no longer visited; then it names a unit whose collection
    /// again is harmless.
    var region: [Int32] = []
    /// Per item: its index in its unit's `sorted`.
    var place: [Int32] = []
    /// Live units with `hasFixedItem`.
    var fixedUnits = Set<Int32>()
    /// Units to collect or sort at the next refresh.
    var dirty: [Int32] = []
    /// Some node is placed twice (an explicit list names a node and one of
    /// its ancestors): positions are not unique, so `next`/`previous` use
    /// the whole sequence and any update rebuilds.
    var irregular = false
    /// Pre-order of exposed nodes, rebuilt whole after any change (Android).
    var documentOrder = false
    /// (Android) TalkBack's children of each node in traversal order, made
    /// with the order and dropped with it: what its speech of a node's
    /// children reads (`HitTester.transcript()`).
    var talkBackChildren: TalkBackTree.SeenChildren?

    /// Whether the order has been built (and is then kept current).
    var isBuilt: Bool { !units.isEmpty }

    /// Forgets everything: the next query builds from scratch.
    mutating func drop() { self = NavigationCache() }

    /// Whether `u` names a live unit.
    func isLive(_ u: Int32) -> Bool { u >= 0 && Int(u) < units.count && units[Int(u)].alive }

    /// Marks unit `u` for collection (which implies sorting).
    mutating func needsCollect(_ u: Int32) {
        guard isLive(u) else { return }
        if !units[Int(u)].needsCollect && !units[Int(u)].needsSort { dirty.append(u) }
        units[Int(u)].needsCollect = true
    }

    /// Marks unit `u` for sorting.
    mutating func needsSort(_ u: Int32) {
        guard isLive(u) else { return }
        if !units[Int(u)].needsCollect && !units[Int(u)].needsSort { dirty.append(u) }
        units[Int(u)].needsSort = true
    }

    /// Sizes the per-node columns for `capacity` slots (new slots: -1).
    mutating func grow(to capacity: Int) {
        guard unitOwned.count < capacity else { return }
        let extra = capacity - unitOwned.count
        unitOwned.append(contentsOf: repeatElement(-1, count: extra))
        region.append(contentsOf: repeatElement(-1, count: extra))
        place.append(contentsOf: repeatElement(-1, count: extra))
    }

    /// A new unit for `owner` (reusing a freed slot), needing collection.
    mutating func makeUnit(owner: NodeID, kind: Unit.Kind, parent: Int32) -> Int32 {
        let unit = Unit(owner: owner, kind: kind, parent: parent)
        let u: Int32
        if let free = freeUnits.popLast() {
            u = free
            units[Int(u)] = unit
        } else {
            u = Int32(units.count)
            units.append(unit)
        }
        if !owner.isNone { unitOwned[owner.index] = u }
        dirty.append(u)
        return u
    }

    /// Unit `u`, its arrays moved out (so that changing them copies
    /// nothing); store it back when done.
    mutating func takeUnit(_ u: Int32) -> Unit {
        let unit = units[Int(u)]
        units[Int(u)].items = []
        units[Int(u)].sorted = []
        return unit
    }

    /// Frees unit `u` and every unit nested in it.
    mutating func free(_ u: Int32) {
        var pending = [u]
        while let v = pending.popLast() {
            guard isLive(v) else { continue }
            let unit = units[Int(v)]
            for item in unit.items where unitOwned[item.index] >= 0 && units[Int(unitOwned[item.index])].parent == v {
                pending.append(unitOwned[item.index])
            }
            if !unit.owner.isNone && unitOwned[unit.owner.index] == v { unitOwned[unit.owner.index] = -1 }
            fixedUnits.remove(v)
            units[Int(v)] = Unit(
                owner: .none, kind: .sorted, parent: -1, alive: false, needsCollect: false, needsSort: false)
            freeUnits.append(v)
        }
    }

    /// The unit whose list holds `n`'s contribution: the unit `n` owns when
    /// `inner` and it owns one, else the unit whose walk visited `n`; nil
    /// when none is live.
    func unit(containing n: NodeID, inner: Bool) -> Int32? {
        if inner, unitOwned[n.index] >= 0 { return unitOwned[n.index] }
        let u = region[n.index]
        return isLive(u) ? u : nil
    }
}

/// A key of step 2: the origin of an element's accessibility frame on the
/// screen, or none (an empty group, which sorts last).
struct OrderKey: Sendable, Equatable {
    var x: Double
    var y: Double
    var isNone: Bool

    static let none = OrderKey(x: 0, y: 0, isNone: true)

    init(x: Double, y: Double, isNone: Bool = false) {
        self.x = x
        self.y = y
        self.isNone = isNone
    }

    /// Step 3's `before(a, b)`: rows `band` points apart (8 on a phone, 13
    /// on a pad), then left to right (or right to left); none sorts last.
    @inline(__always)
    static func before(_ a: OrderKey, _ b: OrderKey, band: Double, rightToLeft: Bool) -> Bool {
        if a.isNone { return false }
        if b.isNone { return true }
        return before(a.y, a.x, b.y, b.x, band: band, rightToLeft: rightToLeft)
    }

    /// `before` of two keys that are not none, at (`ax`, `ay`) and (`bx`, `by`).
    @inline(__always)
    static func before(
        _ ay: Double, _ ax: Double, _ by: Double, _ bx: Double, band: Double, rightToLeft: Bool
    ) -> Bool {
        if abs(ay - by) >= band { return ay < by }
        return rightToLeft ? ax > bx : ax < bx
    }
}
