/// How a path's rings decide which points are inside, as UIBezierPath's
/// `usesEvenOddFillRule`.
public enum FillRule: Sendable, Hashable {
    /// Inside where the winding number is non-zero (UIKit's default).
    case nonZero
    /// Inside where the winding number is odd.
    case evenOdd

    /// Whether a point with winding number `winding` is filled.
    @inline(__always)
    public func fills(winding: Int) -> Bool {
        switch self {
        case .nonZero: return winding != 0
        case .evenOdd: return winding & 1 != 0
        }
    }
}
