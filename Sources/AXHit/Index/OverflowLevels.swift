import AXGeometry
import Foundation

/// The children added to a wide view since its `ContainerIndex` was built:
/// the logarithmic method (Bentley and Saxe) over small static R-trees, so
/// that an insert costs O(log n) amortized and a query O(log² n), and the
/// view's own index is rebuilt only once as many children were added as it
/// holds (O(1) amortized per insert).
///
/// The newest children wait in a short list scanned one by one. When it
/// fills (`IndexPolicy.overflowListLimit`), it is merged with the levels 0,
/// 1, … that are in use, up to the first free one, which receives them all
/// as one new R-tree pair (local and screen boxes, as the index has): a
/// binary counter, so each child is rebuilt into O(log n) levels over its
/// life.
struct OverflowLevels: Sendable {
    /// One level: children with their boxes, and trees over those boxes.
    struct Level: Sendable {
        /// Item → child, as merged. A level is never written after its
        /// merge: an item whose child was removed or moved stays, and
        /// `places` no longer names it (see `OverflowLevels.holds`).
        var items: [NodeID] = []
        var boxes: [ItemBoxes] = []
        var local = PackedRTree(boxes: [])
        var screen = PackedRTree(boxes: [])
        /// Items whose child is still here (`holds`).
        var live = 0

        init() {}

        init(items: [NodeID], boxes: [ItemBoxes]) {
            self.items = items
            self.boxes = boxes
            live = items.count
            local = PackedRTree(rects: boxes.count) { boxes[$0].local }
            rebuildScreen()
        }

        mutating func rebuildScreen() {
            let boxes = self.boxes
            screen =
                boxes.contains { !$0.screen.isNull }
                ? PackedRTree(rects: boxes.count) { boxes[$0].screen } : PackedRTree(boxes: [])
        }
    }

    /// Where a child is: `level == -1` for the list.
    struct Place: Sendable, Equatable {
        var level: Int32
        var k: Int32
    }

    /// The newest children and their boxes, scanned one by one.
    var list: [NodeID] = []
    var listBoxes: [ItemBoxes] = []
    var levels: [Level] = []
    /// Where each child is, by its slot (chunked: see `SlotMap`).
    var places = SlotMap(filler: Place(level: 0, k: 0))

    /// Children held (`places.count`, kept apart so that a query reads a
    /// number rather than the map). O(1).
    private(set) var count = 0
    var isEmpty: Bool { count == 0 }

    /// Adds a child. O(log n) amortized.
    mutating func insert(_ child: NodeID, _ boxes: ItemBoxes) {
        places.set(child.rawValue, Place(level: -1, k: Int32(list.count)))
        count += 1
        list.append(child)
        listBoxes.append(boxes)
        if list.count >= IndexPolicy.overflowListLimit { carry() }
    }

    /// Merges the list and the levels in use below the first free one into
    /// that one. O(size of the merged level).
    private mutating func carry() {
        var items = list, boxes = listBoxes
        list.removeAll(keepingCapacity: true)
        listBoxes.removeAll(keepingCapacity: true)
        var i = 0
        while i < levels.count && levels[i].live > 0 {
            for (k, c) in levels[i].items.enumerated() where Self.holds(places, c, level: i, item: k) {
                items.append(c)
                boxes.append(levels[i].boxes[k])
            }
            levels[i] = Level()
            i += 1
        }
        if i == levels.count { levels.append(Level()) }
        levels[i] = Level(items: items, boxes: boxes)
        for (k, c) in items.enumerated() { places.set(c.rawValue, Place(level: Int32(i), k: Int32(k))) }
    }

    /// Whether item `k` of level `l`, child `c`, is still where `places`
    /// puts `c`. Removals and moves leave the levels as they are: a write
    /// to a level's arrays copies them whole while a snapshot shares them
    /// (an update under a snapshot would cost O(level)), so they take the
    /// child's place instead. O(1) expected, one lookup.
    /// (Static, so that a query's closure captures the map, not `self`.)
    @inline(__always)
    private static func holds(_ places: SlotMap<Place>, _ c: NodeID, level l: Int, item k: Int) -> Bool {
        places[c.rawValue] == Place(level: Int32(truncatingIfNeeded: l), k: Int32(truncatingIfNeeded: k))
    }

    /// Forgets a child; returns whether it was here. O(1) expected: a
    /// child in a level is dropped from `places` only (`holds`).
    @discardableResult
    mutating func remove(_ child: NodeID) -> Bool {
        guard let place = places.removeValue(forSlot: child.rawValue) else { return false }
        count -= 1
        let k = Int(place.k)
        if place.level < 0 {
            // Swap-remove: the list has no order.
            let last = list.removeLast(), lastBoxes = listBoxes.removeLast()
            if k < list.count {
                list[k] = last
                listBoxes[k] = lastBoxes
                places.set(last.rawValue, place)
            }
            return true
        }
        levels[Int(place.level)].live -= 1
        return true
    }

    /// Replaces the boxes of a child held here. O(1) amortized, as an
    /// insert: a child in a level leaves it (as a removal does) for the
    /// list, with its new boxes.
    mutating func setBoxes(of child: NodeID, to boxes: ItemBoxes) {
        guard let place = places[child.rawValue] else { return }
        let k = Int(place.k)
        if place.level < 0 {
            listBoxes[k] = boxes
            return
        }
        levels[Int(place.level)].live -= 1
        count -= 1
        insert(child, boxes)
    }

    /// Calls `body` with every child whose boxes may hold the point (`q` in
    /// the view's space, `p` on the screen), in no order, possibly twice.
    /// (Closures capture locals only: capturing `self` would copy it.)
    @inline(__always)
    func forEach(local q: CGPoint, screen p: CGPoint, _ body: (NodeID) -> Void) {
        for (k, boxes) in listBoxes.enumerated() where boxes.mayHold(local: q, screen: p) { body(list[k]) }
        for l in levels.indices where levels[l].live > 0 {
            let items = levels[l].items, places = self.places
            let visit = { (k: Int32) -> Bool in
                if Self.holds(places, items[Int(k)], level: l, item: Int(k)) { body(items[Int(k)]) }
                return true
            }
            levels[l].local.forEach(containing: q, visit)
            if levels[l].screen.count > 0 { levels[l].screen.forEach(containing: p, visit) }
        }
    }

    /// Calls `body` with every child held.
    func forEachChild(_ body: (NodeID) -> Void) {
        list.forEach(body)
        for l in levels.indices where levels[l].live > 0 {
            for (k, c) in levels[l].items.enumerated() where Self.holds(places, c, level: l, item: k) { body(c) }
        }
    }

    /// Memory held, in bytes.
    var memoryBytes: Int {
        let perItem = MemoryLayout<NodeID>.stride + MemoryLayout<ItemBoxes>.stride
        return list.count * perItem + places.memoryBytes
            + levels.reduce(0) { $0 + $1.items.count * perItem + $1.local.memoryBytes + $1.screen.memoryBytes }
    }
}
