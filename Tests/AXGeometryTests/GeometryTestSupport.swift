import Foundation
import Testing

@testable import AXGeometry

/// SplitMix64 (Steele, Lea, Flood 2014): a tiny seeded generator, so random
/// tests see the same data on every run and platform.
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
    /// A uniform double in `range`, from the top 53 bits.
    mutating func double(in range: ClosedRange<Double>) -> Double {
        let unit = Double(next() >> 11) * 0x1p-53
        return range.lowerBound + unit * (range.upperBound - range.lowerBound)
    }
    mutating func point(in range: ClosedRange<Double>) -> CGPoint {
        CGPoint(x: double(in: range), y: double(in: range))
    }
    mutating func int(below n: Int) -> Int { Int(next() % UInt64(n)) }
}

func distance(_ p: CGPoint, _ q: CGPoint) -> CGFloat {
    ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot()
}

/// Distance from `p` to the closed segment `a b`.
func distance(_ p: CGPoint, toSegment a: CGPoint, _ b: CGPoint) -> CGFloat {
    let dx = b.x - a.x, dy = b.y - a.y
    let len2 = dx * dx + dy * dy
    guard len2 > 0 else { return distance(p, a) }
    let t = Swift.max(0, Swift.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2))
    return distance(p, CGPoint(x: a.x + t * dx, y: a.y + t * dy))
}

/// Distance from `p` to the open polyline through `points`.
func distance(_ p: CGPoint, toPolyline points: [CGPoint]) -> CGFloat {
    guard points.count > 1 else { return points.first.map { distance(p, $0) } ?? .infinity }
    var best = CGFloat.infinity
    for i in 1 ..< points.count {
        best = Swift.min(best, distance(p, toSegment: points[i - 1], points[i]))
    }
    return best
}

/// The exact quadratic Bézier point at `t`, de Casteljau (independent of the
/// Bernstein form the code under test uses).
func quadPoint(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ t: CGFloat) -> CGPoint {
    func lerp(_ a: CGPoint, _ b: CGPoint) -> CGPoint { CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t) }
    return lerp(lerp(p0, p1), lerp(p1, p2))
}

/// The exact cubic Bézier point at `t`, de Casteljau.
func cubicPoint(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint, _ t: CGFloat) -> CGPoint {
    func lerp(_ a: CGPoint, _ b: CGPoint) -> CGPoint { CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t) }
    let a = lerp(p0, p1), b = lerp(p1, p2), c = lerp(p2, p3)
    return lerp(lerp(a, b), lerp(b, c))
}

func near(_ p: CGPoint, _ q: CGPoint, _ eps: CGFloat = 1e-9) -> Bool {
    abs(p.x - q.x) <= eps && abs(p.y - q.y) <= eps
}

/// Parses, recording a failure instead of throwing, for terse tests.
func parse(_ d: String) -> BezierPath? {
    do { return try BezierPath(svgPathData: d) } catch { return nil }
}

/// The thrown GeometryError for `d`, or nil when it parses.
func parseError(_ d: String) -> GeometryError? {
    do {
        _ = try BezierPath(svgPathData: d)
        return nil
    } catch { return error }
}

func pt(_ x: CGFloat, _ y: CGFloat) -> CGPoint { CGPoint(x: x, y: y) }

/// Hand-built shapes and brute-force references, independent of the code
/// under test.
enum Shapes {
    /// `PolygonSet.filling(rings:rule:)`, checked valid by GEOS.
    static func validFill(_ rings: [[CGPoint]], _ rule: FillRule) throws -> PolygonSet {
        let set = try PolygonSet.filling(rings: rings, rule: rule)
        let context = try GEOSContext()
        #expect(try context.isValid(context.geometry(set)))
        return set
    }

    /// A regular n-gon's vertices (ring not closed), counter-clockwise in a
    /// y-up frame unless `clockwise`.
    static func regularPolygon(
        center: CGPoint = .zero, radius: Double, sides n: Int,
        clockwise: Bool = false, phase: Double = 0
    ) -> [CGPoint] {
        (0 ..< n).map { k in
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
        (0 ..< n).map { _ in CGPoint(x: Double.random(in: range, using: &rng), y: Double.random(in: range, using: &rng))
        }
    }
}

func approximately(_ a: Double, _ b: Double, relative: Double = 1e-9) -> Bool {
    abs(a - b) <= relative * max(abs(a), abs(b), 1e-300)
}
