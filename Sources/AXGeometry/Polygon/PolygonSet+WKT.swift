import Foundation

extension PolygonSet {
    /// Well-known text: `POLYGON EMPTY`, `POLYGON ((x y, ...), (...))` for one
    /// polygon, `MULTIPOLYGON (((...)), ((...)))` for several; rings closed,
    /// exterior first, in stored order and orientation.
    ///
    /// Numbers are printed shortest round-trip (reading them back gives the
    /// same `Double`), integers without a fraction: `POLYGON ((0 0, 10 0,
    /// 10 10, 0 10, 0 0))`. O(vertices).
    public var wkt: String {
        if isEmpty { return "POLYGON EMPTY" }
        func ringText(_ r: Int) -> String {
            "("
                + ring(r).map { "\(Self.wktNumber(Double($0.x))) \(Self.wktNumber(Double($0.y)))" }
                .joined(separator: ", ") + ")"
        }
        func polygonText(_ k: Int) -> String {
            "(" + (polygonStarts[k] ..< polygonStarts[k + 1]).map(ringText).joined(separator: ", ") + ")"
        }
        if polygonCount == 1 { return "POLYGON " + polygonText(0) }
        return "MULTIPOLYGON (" + (0 ..< polygonCount).map(polygonText).joined(separator: ", ") + ")"
    }

    /// Integral values as integers (exact below 1e18, where Int64 holds
    /// them), others as Swift's shortest round-trip description.
    static func wktNumber(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e18 { return String(Int64(v)) }
        return v.description
    }
}
