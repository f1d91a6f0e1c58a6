/// `0 ..< count` cut into at most `parts` consecutive runs of equal length
/// (the last may be shorter), none empty: how the tools share a list of
/// items among cores. Empty for a count of 0.
public func consecutiveRuns(_ count: Int, parts: Int) -> [Range<Int>] {
    guard count > 0 else { return [] }
    let size = (count + max(1, parts) - 1) / max(1, parts)
    return stride(from: 0, to: count, by: size).map { $0 ..< min(count, $0 + size) }
}
