import Foundation
import Testing

@testable import AXGeometry

/// Dissolving a coverage of faces into valid polygons, on hand-built faces
/// whose union is known.
@Suite struct DissolveTests {
    /// Dissolves and checks that GEOS finds the result valid.
    private func dissolve(_ faces: [[[CGPoint]]]) throws -> PolygonSet {
        let closed = faces.map { $0.map { $0 + [$0[0]] } }
        let set = PolygonSet.dissolving(faces: closed)
        let context = try GEOSContext()
        #expect(try context.isValid(context.geometry(set)))
        return set
    }

    private func square(_ x: Double, _ y: Double, _ size: Double = 1) -> [CGPoint] {
        Shapes.square(x: x, y: y, size: size)
    }

    @Test func squaresSharingAnEdgeBecomeOneRectangle() throws {
        // Either way round: the face orientation is the dissolve's business.
        let set = try dissolve([[square(0, 0)], [Shapes.square(x: 1, y: 0, size: 1, clockwise: true)]])
        #expect(set.polygonCount == 1)
        #expect(set.area == 2)
        // The shared edge's ends stay as vertices on the long sides.
        #expect(set.polygons[0] == [[pt(0, 0), pt(1, 0), pt(2, 0), pt(2, 1), pt(1, 1), pt(0, 1), pt(0, 0)]])
    }

    @Test func eightSquaresAroundAnEmptyOneMakeOneHole() throws {
        var faces: [[[CGPoint]]] = []
        for i in 0 ..< 3 { for j in 0 ..< 3 where i != 1 || j != 1 { faces.append([square(Double(i), Double(j))]) } }
        let set = try dissolve(faces)
        #expect(set.polygonCount == 1)
        #expect(set.polygons[0].count == 2)
        #expect(set.area == 8)
        #expect(!set.contains(pt(1.5, 1.5)))
    }

    @Test func squaresTouchingAtACornerStayTwo() throws {
        let set = try dissolve([[square(0, 0)], [square(1, 1)]])
        #expect(set.polygonCount == 2)
        #expect(set.area == 2)
    }

    @Test func aHoleTouchingItsExteriorAtAPointIsKeptApart() throws {
        // A 4 × 4 square with a triangular hole whose corner touches the
        // bottom edge at (2, 0): one face; rings linked at the touching
        // vertex are split there.
        let set = try dissolve([[square(0, 0, 4), [pt(2, 0), pt(3, 2), pt(1, 2)]]])
        #expect(set.polygonCount == 1)
        #expect(set.polygons[0].count == 2)
        #expect(set.area == 16 - 2)
    }

    @Test func twoArrowheadsTouchingAtTwoPointsStayTwoPolygons() throws {
        // They meet at (2, 0) and (2, 4) around an empty diamond: one
        // exterior with that diamond as a hole touching it twice would be
        // invalid (its interior disconnected).
        let left = [pt(2, 0), pt(0, 2), pt(2, 4), pt(1, 2)]
        let right = [pt(2, 0), pt(3, 2), pt(2, 4), pt(4, 2)]
        let set = try dissolve([[left], [right]])
        #expect(set.polygonCount == 2)
        #expect(set.area == 4)  // each: the triangle of area 4 less one of area 2
    }

    @Test func anIslandInAHoleIsItsOwnPolygon() throws {
        let set = try dissolve([[square(0, 0, 10), square(2, 2, 6)], [square(4, 4, 2)]])
        #expect(set.polygonCount == 2)
        #expect(set.area == 100 - 36 + 4)
        #expect(set.polygons.map(\.count).sorted() == [1, 2])
        #expect(set.contains(pt(5, 5)) && !set.contains(pt(3, 3)) && set.contains(pt(1, 1)))
    }

    @Test func holesFindTheirExteriorThroughOtherHoles() throws {
        // A ray towards -x from the right hole meets the left hole first.
        // The faces: the strip around both holes cut into three pieces.
        let faces = [
            [[pt(0, 0), pt(4, 0), pt(4, 4), pt(0, 4)], [pt(2, 1), pt(3, 1), pt(3, 3), pt(2, 3)]],
            [[pt(4, 0), pt(10, 0), pt(10, 4), pt(4, 4)], [pt(6, 1), pt(7, 1), pt(7, 3), pt(6, 3)]],
        ]
        let set = try dissolve(faces)
        #expect(set.polygonCount == 1)
        #expect(set.polygons[0].count == 3)
        #expect(set.area == 40 - 2 - 2)
    }

    @Test func nothingDissolvesToEmpty() throws {
        #expect(try dissolve([]).isEmpty)
    }
}
