import Foundation

/// The filled `accessibilityPath` of every exposed element that has one, as
/// plain polygons in screen space: flattened and fill-rule-resolved once, so
/// that a query tests a point without GEOS or allocation.
struct ElementShapes: Sendable {
    /// Per node: an index into `polygons`, or -1 for no path.
    private var slots: [Int32]
    private var polygons: [PolygonSet]

    /// Fills the paths of the exposed elements of `space`.
    ///
    /// - Throws: `TreeError` naming the node and key `accessibilityPath` when
    ///   GEOS cannot fill a path.
    init(_ space: ScreenSpace, tolerance: CGFloat = 0.05) throws(TreeError) {
        slots = Array(repeating: -1, count: space.tree.capacity)
        polygons = []
        for i in 0..<space.tree.capacity {
            let id = NodeID(i)
            guard space.resolved[i].contains(.exposed), let path = space.screenPath(of: id) else { continue }
            do {
                let region = try PolygonSet.filling(rings: path.flattened(tolerance: tolerance), rule: path.fillRule)
                slots[i] = Int32(polygons.count)
                polygons.append(region)
            } catch {
                throw TreeError("\(error)", node: space.tree.name(of: id), key: "accessibilityPath")
            }
        }
    }

    /// The filled path of `id` in screen space, or nil when it has none.
    @inline(__always)
    func region(of id: NodeID) -> PolygonSet? {
        let s = slots[id.index]
        return s >= 0 ? polygons[Int(s)] : nil
    }
}
