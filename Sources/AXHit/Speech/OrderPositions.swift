/// Where each element of a navigation order stands in it, by slot: what
/// lets a transcript speak the elements in slot order, the order the tree's
/// columns and side tables lie in memory, and put each speech in its place.
/// A screen's order sorts by position on the screen, so that walking it
/// reads each element's facts at a random place in memory: at 1M elements,
/// a cache miss or more per element, most of a transcript's time.
///
/// Space: 4 bytes per slot, plus the places of repeated elements.
struct OrderPositions {
    /// The number of places in the order.
    let count: Int
    /// Per slot: the place of the slot's element's first appearance, or -1.
    private let first: [Int32]
    /// The later appearances, by place (an irregular order, whose explicit
    /// list names a node and one of its ancestors, places an element twice).
    private let repeats: [(place: Int, element: NodeID)]

    /// The places of `order`'s elements: `walk` calls its body with each
    /// element of the order, in order. O(capacity + order).
    init(capacity: Int, _ walk: ((NodeID) -> Void) -> Void) {
        var first = [Int32](repeating: -1, count: capacity)
        var repeats: [(place: Int, element: NodeID)] = []
        var k = 0
        walk { e in
            if first[e.index] < 0 { first[e.index] = Int32(k) } else { repeats.append((k, e)) }
            k += 1
        }
        count = k
        self.first = first
        self.repeats = repeats
    }

    /// The speech at every place of the order. `speak` is called once per
    /// element, in slot order; where it returns nil (an element whose speech
    /// depends on its place, such as a tab's number), `late` is called once
    /// with every place of such elements, in order, and returns their
    /// speeches in the same order. A repeated element says the same at each
    /// of its places.
    ///
    /// - Complexity: O(capacity + order), plus what the calls cost.
    func speeches(
        in tree: ElementTree,
        speak: (NodeID) -> (description: String, hint: String?)?,
        late: ([(place: Int, element: NodeID)]) -> [(description: String, hint: String?)]
    ) -> [Speech] {
        [Speech](filling: count) { buffer, initialized in
            var deferred: [(place: Int, element: NodeID)] = []
            var deferredSlots = Set<Int>()
            for slot in first.indices where first[slot] >= 0 {
                let e = tree.nodeID(slot)
                if let (description, hint) = speak(e) {
                    (buffer.baseAddress! + Int(first[slot])).initialize(
                        to: Speech(element: e, description: description, hint: hint))
                } else {
                    deferred.append((Int(first[slot]), e))
                    deferredSlots.insert(slot)
                }
            }
            for r in repeats where deferredSlots.contains(r.element.index) { deferred.append(r) }
            if !deferred.isEmpty {
                deferred.sort { $0.place < $1.place }
                let said = late(deferred)
                precondition(said.count == deferred.count, "one speech per late place")
                for (d, s) in zip(deferred, said) {
                    (buffer.baseAddress! + d.place).initialize(
                        to: Speech(element: d.element, description: s.description, hint: s.hint))
                }
            }
            for r in repeats where !deferredSlots.contains(r.element.index) {
                (buffer.baseAddress! + r.place).initialize(to: buffer[Int(first[r.element.index])])
            }
            initialized = count
        }
    }
}
