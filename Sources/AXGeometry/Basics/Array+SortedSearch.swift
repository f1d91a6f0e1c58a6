/// Binary search over arrays kept sorted.
extension Array where Element: Comparable {
    /// The index of the first element not below `x` in this ascending
    /// array (`count` when every element is below it): where `x` is, or
    /// would go. O(log n).
    package func firstIndex(notBelow x: Element) -> Int {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if self[mid] < x { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
