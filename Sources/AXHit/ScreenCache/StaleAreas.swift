import Foundation

/// Where the screen grid's answers may be out of date: the screen areas the
/// updates since it was built reached (`HitTester.screenReach(_:)`). A
/// frame query at a point inside one takes the per-view search; anywhere
/// else the grid's answer still holds, since a change to a subtree changes
/// answers only where a query can reach that subtree, before or after.
///
/// **Budget.** At most `IndexPolicy.staleAreaCapacity` boxes, 32 bytes
/// each. An area whose union with a box is at most twice their two areas
/// (a cell's old and new place) joins that box; past the capacity, an area
/// joins the box its union grows least. So a query tests few boxes, and
/// updates in one place (a cell moved again and again) keep one box
/// there. Joining only widens what is stale: never wrong, only slower there.
/// `area` lets the owner drop the grid once much of it is stale.
///
/// **Cost.** `holds` O(boxes), one vector compare each, and a load and a
/// branch when there are none (every query with a grid reads it); `insert`
/// O(boxes).
struct StaleAreas: Sendable {
    /// Each box as (minX, minY, −maxX, −maxY), edges included: a point
    /// (x, y, −x, −y) is inside when it is at least the box on all four.
    private var boxes: [SIMD4<Double>] = []
    /// `boxes.count`, kept beside the array so that the check every query
    /// makes reads the engine alone.
    private var count = 0
    /// The sum of the boxes' areas (at least the area they cover).
    private(set) var area = 0.0

    /// Whether no area is stale.
    @inline(__always)
    var isEmpty: Bool { count == 0 }

    /// Whether `p` lies in a stale area (edges included; NaN in none).
    @inline(__always)
    func holds(_ p: CGPoint) -> Bool {
        guard count != 0 else { return false }
        return Self.holds(boxes, SIMD4(Double(p.x), Double(p.y), -Double(p.x), -Double(p.y)))
    }

    @inline(never)
    private static func holds(_ boxes: [SIMD4<Double>], _ q: SIMD4<Double>) -> Bool {
        boxes.withUnsafeBufferPointer { boxes in
            for b in boxes where all(q .>= b) { return true }
            return false
        }
    }

    /// Marks the box from (`minX`, `minY`) to (`maxX`, `maxY`) stale
    /// (finite, not empty).
    mutating func insert(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let box = SIMD4(minX, minY, -maxX, -maxY)
        let size = Self.area(box)
        var best = -1, bestGrowth = Double.infinity
        for k in boxes.indices {
            let b = boxes[k]
            let joined = Self.union(b, box)
            if joined == b { return }  // already stale
            let growth = Self.area(joined) - Self.area(b)
            if growth <= Self.area(b) + 2 * size {
                // The union wastes at most the two areas: join.
                boxes[k] = joined
                area += growth
                return
            }
            if growth < bestGrowth {
                best = k
                bestGrowth = growth
            }
        }
        if count < IndexPolicy.staleAreaCapacity {
            boxes.append(box)
            count += 1
            area += size
        } else {
            boxes[best] = Self.union(boxes[best], box)
            area += bestGrowth
        }
    }

    /// The smallest box holding `a` and `b`.
    private static func union(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> SIMD4<Double> { pointwiseMin(a, b) }

    private static func area(_ b: SIMD4<Double>) -> Double { (-b.z - b.x) * (-b.w - b.y) }
}
