import Foundation
@testable import AXGeometry

/// SplitMix64: a tiny seeded generator so random tests see the same data on
/// every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Hand-built shapes and brute-force references, independent of the code
/// under test.
enum Shapes {
    /// A regular n-gon's vertices (ring not closed), counter-clockwise in a
    /// y-up frame unless `clockwise`.
    static func regularPolygon(center: CGPoint = .zero, radius: Double, sides n: Int,
                               clockwise: Bool = false, phase: Double = 0) -> [CGPoint] {
        (0..<n).map { k in
            let angle = phase + (clockwise ? -1.0 : 1.0) * 2 * Double.pi * Double(k) / Double(n)
            return CGPoint(x: Double(center.x) + radius * cos(angle), y: Double(center.y) + radius * sin(angle))
        }
    }

    /// Area of a regular n-gon with circumradius `r`: (n/2) r² sin(2π/n).
    static func regularPolygonArea(radius r: Double, sides n: Int) -> Double {
        Double(n) / 2 * r * r * sin(2 * Double.pi / Double(n))
    }

    /// An axis-aligned square ring, counter-clockwise in a y-up frame
    /// unless `clockwise`.
    static func square(x: Double, y: Double, size s: Double, clockwise: Bool = false) -> [CGPoint] {
        let ccw = [CGPoint(x: x, y: y), CGPoint(x: x + s, y: y), CGPoint(x: x + s, y: y + s), CGPoint(x: x, y: y + s)]
        return clockwise ? ccw.reversed() : ccw
    }

    /// Winding number by signed ray crossings towards +x, with the crossing
    /// abscissa computed explicitly (a different formulation from the
    /// library's).
    static func winding(_ p: CGPoint, rings: [[CGPoint]]) -> Int {
        var w = 0
        for ring in rings where ring.count >= 2 {
            for i in ring.indices {
                let a = ring[i], b = ring[(i + 1) % ring.count]
                let upward = a.y <= p.y && b.y > p.y
                let downward = b.y <= p.y && a.y > p.y
                guard upward || downward else { continue }
                let t = Double((p.y - a.y) / (b.y - a.y))
                let x = Double(a.x) + t * Double(b.x - a.x)
                if x > Double(p.x) { w += upward ? 1 : -1 }
            }
        }
        return w
    }

    /// Distance from `p` to the segment `a`–`b`.
    static func distance(_ p: CGPoint, _ a: CGPoint, _ b: CGPoint) -> Double {
        let dx = Double(b.x - a.x), dy = Double(b.y - a.y)
        let len2 = dx * dx + dy * dy
        var t = len2 > 0 ? (Double(p.x - a.x) * dx + Double(p.y - a.y) * dy) / len2 : 0
        t = min(1, max(0, t))
        let ex = Double(a.x) + t * dx - Double(p.x), ey = Double(a.y) + t * dy - Double(p.y)
        return (ex * ex + ey * ey).squareRoot()
    }

    /// Distance from `p` to the nearest edge of any (implicitly closed) ring.
    static func distanceToEdges(_ p: CGPoint, rings: [[CGPoint]]) -> Double {
        var best = Double.infinity
        for ring in rings where !ring.isEmpty {
            for i in ring.indices {
                best = min(best, distance(p, ring[i], ring[(i + 1) % ring.count]))
            }
        }
        return best
    }

    static func randomRing(points n: Int, in range: ClosedRange<Double>, using rng: inout SplitMix64) -> [CGPoint] {
        (0..<n).map { _ in CGPoint(x: Double.random(in: range, using: &rng), y: Double.random(in: range, using: &rng)) }
    }
}

func approximately(_ a: Double, _ b: Double, relative: Double = 1e-9) -> Bool {
    abs(a - b) <= relative * max(abs(a), abs(b), 1e-300)
}
