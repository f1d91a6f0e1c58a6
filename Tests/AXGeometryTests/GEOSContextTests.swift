import Foundation
import Testing

@testable import AXGeometry

@Suite struct GEOSContextTests {
    @Test func parseErrorsAreThrownWithGEOSMessage() throws {
        let context = try GEOSContext()
        do {
            _ = try context.geometry(wkt: "POLYGON ((0 0, 1")
            Issue.record("expected a parse error")
        } catch let GeometryError.geos(operation, message) {
            #expect(operation == "GEOSWKTReader_read_r")
            #expect(!message.isEmpty)
        }
        // The context still works after an error, and reports the new one.
        #expect(try context.area(context.geometry(wkt: "POLYGON ((0 0, 2 0, 2 2, 0 2, 0 0))")) == 4)
        do {
            _ = try context.lineString([CGPoint(x: 1, y: 1)])
            Issue.record("expected a one-point linestring error")
        } catch let GeometryError.geos(operation, message) {
            #expect(operation == "GEOSGeom_createLineString_r")
            #expect(!message.isEmpty)
        }
    }

    @Test func overlaysMeasureAsByHand() throws {
        let context = try GEOSContext()
        let a = try context.polygon(exterior: Shapes.square(x: 0, y: 0, size: 10))
        let b = try context.polygon(exterior: Shapes.square(x: 5, y: 5, size: 10))
        #expect(try context.area(context.intersection(a, b)) == 25)
        #expect(try context.area(context.difference(a, b)) == 75)
        #expect(try context.area(context.union(a, b)) == 175)
        let holed = try context.polygon(
            exterior: Shapes.square(x: 0, y: 0, size: 10),
            holes: [Shapes.square(x: 2, y: 2, size: 2)])
        #expect(try context.area(holed) == 96)
        #expect(try context.wkt(a) == "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0))")
        #expect(try context.wkt(context.point(CGPoint(x: 1.0 / 3.0, y: 2)), decimals: 3) == "POINT (0.333 2)")
    }

    @Test func makeValidRepairsABowTie() throws {
        let context = try GEOSContext()
        let bowTie = try context.polygon(exterior: [
            CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 10),
            CGPoint(x: 10, y: 0), CGPoint(x: 0, y: 10),
        ])
        #expect(try !context.isValid(bowTie))
        let fixed = try context.makeValid(bowTie)
        #expect(try context.isValid(fixed))
        #expect(try context.area(fixed) == 50)
        #expect(try context.polygonSet(fixed).polygonCount == 2)
    }

    @Test func nodingAndPolygonizingFindFaces() throws {
        let context = try GEOSContext()
        let cross = try context.collection(
            .multiLineString,
            taking: [
                context.lineString(Shapes.square(x: 0, y: 0, size: 10), closed: true),
                context.lineString([CGPoint(x: 5, y: -1), CGPoint(x: 5, y: 11)]),
            ])
        let faces = try context.parts(of: context.polygonize(context.node(cross)))
        #expect(faces.count == 2)
        #expect(try faces.map { try context.area($0) } == [50, 50])
        let inside = try #require(try context.pointOnSurface(faces[0]))
        #expect(try context.contains(faces[0], context.point(inside)))
        #expect(try context.intersects(faces[0], faces[1]))
        #expect(try context.pointOnSurface(context.geometry(.empty)) == nil)
    }

    @Test func emptySetRoundTrips() throws {
        let context = try GEOSContext()
        let g = try context.geometry(.empty)
        #expect(try context.isEmpty(g))
        #expect(try context.polygonSet(g) == .empty)
    }
}
