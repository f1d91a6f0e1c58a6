import Foundation
import Testing

@testable import AXGeometry

/// Overlays and measurements through `RegionBuilder`, computed by hand.
@Suite struct RegionBuilderTests {
    @Test func halfCoveredSquare() throws {
        let builder = try RegionBuilder()
        let square = PolygonSet(rect: CGRect(x: 0, y: 0, width: 100, height: 100))
        let cover = PolygonSet(rect: CGRect(x: 50, y: 0, width: 100, height: 100))
        let left = try builder.subtracting([cover], from: square)
        #expect(abs(left.area - 5000) < 1e-9)
        let circle = try #require(left.largestInscribedCircle(tolerance: 0.001))
        #expect(abs(circle.radius - 25) < 0.01)
        #expect(abs(circle.center.x - 25) < 0.01 && abs(circle.center.y - 50) < 0.01)
        #expect(abs(try builder.intersection(square, cover).area - 5000) < 1e-9)
        #expect(abs(try builder.union([square, cover]).area - 15000) < 1e-9)
        #expect(left.contains(try #require(try builder.pointOnSurface(of: left))))
    }

    @Test func emptyAndDisjointOperands() throws {
        let builder = try RegionBuilder()
        let a = PolygonSet(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
        let b = PolygonSet(rect: CGRect(x: 10, y: 0, width: 10, height: 10))  // shares an edge only
        #expect(try builder.intersection(a, b).isEmpty)
        #expect(try builder.subtracting([b], from: a) == a)
        #expect(PolygonSet.empty.largestInscribedCircle(tolerance: 0.01) == nil)
        #expect(try builder.subtracting([a], from: a).isEmpty)
        #expect(try a.subtracting(PolygonSet(rect: CGRect(x: 0, y: 0, width: 5, height: 10))).area == 50)
    }
}
