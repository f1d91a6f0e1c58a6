import Foundation
import Testing

@testable import AXGeometry

@Suite struct AffineTransformTests {
    @Test func concatenationAppliesSelfFirst() {
        let scale = CGAffineTransform(scaleX: 2, y: 3)
        let move = CGAffineTransform(translationX: 10, y: 20)
        // (1,1) scaled to (2,3), then moved to (12,23).
        #expect(CGPoint(x: 1, y: 1).applying(scale.concatenating(move)) == CGPoint(x: 12, y: 23))
        // Moved to (11,21), then scaled to (22,63).
        #expect(CGPoint(x: 1, y: 1).applying(move.concatenating(scale)) == CGPoint(x: 22, y: 63))
    }

    @Test func rotationTurnsXAxisTowardsPositiveY() {
        let p = CGPoint(x: 1, y: 0).applying(CGAffineTransform(rotationAngle: .pi / 2))
        #expect(abs(p.x) < 1e-15 && abs(p.y - 1) < 1e-15)
    }

    @Test func inverseUndoesTransform() {
        let t = CGAffineTransform(a: 2, b: 1, c: -0.5, d: 3, tx: 7, ty: -4)
        let p = CGPoint(x: 3.5, y: -2).applying(t).applying(t.inverted())
        #expect(abs(p.x - 3.5) < 1e-12 && abs(p.y + 2) < 1e-12)
        let singular = CGAffineTransform(scaleX: 0, y: 0)
        #expect(!singular.isInvertible)
        #expect(singular.inverted() == singular)
    }

    @Test func rectApplyingIsBoundingBoxOfCorners() {
        let r = CGRect(x: 0, y: 0, width: 10, height: 20)
        let rotated = r.applying(CGAffineTransform(rotationAngle: .pi / 4))
        let s = sqrt(0.5)
        // Corners (0,0) (10,0) (10,20) (0,20) rotated by 45°.
        #expect(abs(rotated.minX - (-20 * s)) < 1e-12)
        #expect(abs(rotated.maxX - 10 * s) < 1e-12)
        #expect(abs(rotated.minY - 0) < 1e-12)
        #expect(abs(rotated.maxY - 30 * s) < 1e-12)
    }

    @Test func closedOpenContainment() {
        let r = CGRect(x: 0, y: 0, width: 10, height: 10)
        #expect(r.containsClosedOpen(CGPoint(x: 0, y: 0)))
        #expect(r.containsClosedOpen(CGPoint(x: 9.999, y: 9.999)))
        #expect(!r.containsClosedOpen(CGPoint(x: 10, y: 5)))
        #expect(!r.containsClosedOpen(CGPoint(x: 5, y: 10)))
        #expect(!CGRect(x: 1, y: 1, width: 0, height: 5).containsClosedOpen(CGPoint(x: 1, y: 2)))
    }
}
