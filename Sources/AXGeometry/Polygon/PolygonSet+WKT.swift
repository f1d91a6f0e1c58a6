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
        // One string, appended to: joining a string per point and per ring
        // made and freed several for every vertex.
        var s = polygonCount == 1 ? "POLYGON " : "MULTIPOLYGON ("
        s.reserveCapacity(s.utf8.count + 24 * vertices.count)
        for k in 0 ..< polygonCount {
            s += k == 0 ? "(" : ", ("
            for r in polygonStarts[k] ..< polygonStarts[k + 1] {
                s += r == polygonStarts[k] ? "(" : ", ("
                for (i, p) in ring(r).enumerated() {
                    if i > 0 { s += ", " }
                    s += Self.wktNumber(Double(p.x))
                    s += " "
                    s += Self.wktNumber(Double(p.y))
                }
                s += ")"
            }
            s += ")"
        }
        if polygonCount > 1 { s += ")" }
        return s
    }

    /// Integral values as integers (exact below 1e18, where Int64 holds
    /// them), others as Swift's shortest round-trip description.
    static func wktNumber(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e18 { return String(Int64(v)) }
        return v.description
    }
}
