import Foundation
import Testing

@testable import AXGeometry

/// The binary search the grids of cells use to find a box's edges.
@Suite struct SortedSearchTests {
    @Test func firstIndexNotBelowIsWhereAValueIsOrWouldGo() {
        let values: [Double] = [1, 3, 3, 5]
        let expected: [(Double, Int)] = [(0, 0), (1, 0), (2, 1), (3, 1), (4, 3), (5, 3), (6, 4), (.infinity, 4)]
        for (x, index) in expected { #expect(values.firstIndex(notBelow: x) == index, "\(x)") }
        #expect([Double]().firstIndex(notBelow: 1) == 0)
        // Against a scan, on random sorted arrays with repeats.
        var random = SplitMix64(seed: 50)
        for _ in 0 ..< 200 {
            let sorted = (0 ..< random.int(below: 20)).map { _ in Double(random.int(below: 10)) }.sorted()
            let x = Double(random.int(below: 12)) - 1
            #expect(sorted.firstIndex(notBelow: x) == (sorted.firstIndex { $0 >= x } ?? sorted.count))
        }
    }
}
