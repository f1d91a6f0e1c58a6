import Foundation
import Testing

@testable import AXGeometry

/// The fill's budgets (edges, crossings, candidate pairs), the chain index
/// they are counted on, and the hostile inputs of issue #16 that made the
/// fill run for minutes.
@Suite struct FillBudgetTests {
    /// `n` horizontal and `n` vertical strips, `width` wide and
    /// `length + 1` long, one every `length / n`: each horizontal strip's
    /// outline crosses each vertical one's at 4 points, and strips of one
    /// direction never meet. (Issue #16's "crossing strips".)
    static func crossingStrips(_ n: Int, length: Double = 1000, width: Double = 1) -> [[CGPoint]] {
        let step = length / Double(n)
        return (0 ..< n).flatMap { i -> [[CGPoint]] in
            let c = Double(i) * step + 0.25
            return [
                [pt(-0.5, c), pt(length + 0.5, c), pt(length + 0.5, c + width), pt(-0.5, c + width)],
                [pt(c, -0.5), pt(c + width, -0.5), pt(c + width, length + 0.5), pt(c, length + 0.5)],
            ]
        }
    }

    /// `n` strips 1000 long and 2 wide through (500, 500) at angles
    /// `k·π/n`: every pair crosses near the centre. (Issue #16's fan; the
    /// 180-strip one took 9 s and is `Fuzz/Regressions/svg-path/fan-of-180-strips.txt`.)
    static func fan(_ n: Int) -> [[CGPoint]] {
        (0 ..< n).map { k in
            let a = Double.pi * Double(k) / Double(n)
            let (c, s) = (cos(a), sin(a))
            let (x0, y0, x1, y1) = (500 - 500 * c, 500 - 500 * s, 500 + 500 * c, 500 + 500 * s)
            return [pt(x0, y0), pt(x1, y1), pt(x1 - 2 * s, y1 + 2 * c), pt(x0 - 2 * s, y0 + 2 * c)]
        }
    }

    static func closedRings(_ rings: [[CGPoint]]) throws -> [[CGPoint]] { try PolygonSet.closedRings(rings) }

    // MARK: Crossings

    @Test func crossingStripsMeetFourTimesPerPair() throws {
        let chains = EdgeChains(closedRings: try Self.closedRings(Self.crossingStrips(12)))
        #expect(chains.countCrossings(crossingLimit: .max, workLimit: .max) == .complete(crossings: 4 * 12 * 12))
        // Counting stops just past either limit.
        #expect(chains.countCrossings(crossingLimit: 100, workLimit: .max) == .tooManyCrossings(atLeast: 101))
        #expect(chains.countCrossings(crossingLimit: .max, workLimit: 50) == .tooMuchWork(atLeast: 51))
    }

    @Test func crossingCountMatchesEveryPairTested() throws {
        var rng = SplitMix64(seed: 16)
        for _ in 0 ..< 40 {
            let rings = try Self.closedRings(
                (0 ..< Int.random(in: 1 ... 3, using: &rng)).map { _ in
                    Shapes.randomRing(points: Int.random(in: 3 ... 40, using: &rng), in: 0 ... 100, using: &rng)
                })
            // Every pair of edges but a vertex's two, by solving a + t(b - a) = c + u(d - c).
            var edges: [(CGPoint, CGPoint, ring: Int, index: Int, count: Int)] = []
            for (r, ring) in rings.enumerated() {
                for i in 0 ..< (ring.count - 1) { edges.append((ring[i], ring[i + 1], r, i, ring.count - 1)) }
            }
            var expected = 0
            for i in edges.indices {
                for j in (i + 1) ..< edges.count {
                    let (e, f) = (edges[i], edges[j])
                    if e.ring == f.ring, abs(e.index - f.index) == 1 || abs(e.index - f.index) == e.count - 1 {
                        continue
                    }
                    let r = (Double(e.1.x - e.0.x), Double(e.1.y - e.0.y)),
                        s = (Double(f.1.x - f.0.x), Double(f.1.y - f.0.y))
                    let q = (Double(f.0.x - e.0.x), Double(f.0.y - e.0.y))
                    let denominator = r.0 * s.1 - r.1 * s.0
                    guard denominator != 0 else { continue }  // random points: never collinear
                    let t = (q.0 * s.1 - q.1 * s.0) / denominator, u = (q.0 * r.1 - q.1 * r.0) / denominator
                    if t >= 0, t <= 1, u >= 0, u <= 1 { expected += 1 }
                }
            }
            let chains = EdgeChains(closedRings: rings)
            #expect(chains.countCrossings(crossingLimit: .max, workLimit: .max) == .complete(crossings: expected))
        }
    }

    // MARK: The chain index's point queries

    @Test func windingAndDistanceMatchBruteForce() throws {
        var rng = SplitMix64(seed: 17)
        for _ in 0 ..< 30 {
            let raw = (0 ..< Int.random(in: 1 ... 3, using: &rng)).map { _ in
                Shapes.randomRing(points: Int.random(in: 3 ... 80, using: &rng), in: 0 ... 100, using: &rng)
            }
            let chains = EdgeChains(closedRings: try Self.closedRings(raw))
            for _ in 0 ..< 60 {
                // Both sides of the box, so rays run both ways.
                let p = rng.point(in: -10 ... 110)
                let d = Shapes.distanceToEdges(p, rings: raw)
                #expect(abs(chains.distance(to: p, notBeyond: 1000) - d) < 1e-9)
                #expect(chains.distance(to: p, notBeyond: d / 2) == d / 2)
                guard d > 1e-9 else { continue }
                #expect(chains.winding(at: p) == Shapes.winding(p, rings: raw), "\(p)")
            }
        }
    }

    // MARK: Fills within the budgets

    @Test func crossingStripsFillToTheirUnion() throws {
        // Union: 2n strips of 1001 × 1 less the n² unit squares where they
        // overlap; each of the (n - 1)² cells between strips is a hole.
        let n = 12
        let set = try PolygonSet.filling(rings: Self.crossingStrips(n), rule: .nonZero)
        #expect(abs(set.area - (2 * Double(n) * 1001 - Double(n * n))) < 1e-6)
        #expect(set.polygonCount == 1)
        #expect(set.polygons[0].count == 1 + (n - 1) * (n - 1))
        let context = try GEOSContext()
        #expect(try context.isValid(context.geometry(set)))
        #expect(set.contains(pt(0.75 + 1000.0 / 12, 500)))  // on a vertical strip
        #expect(!set.contains(pt(50, 50)))  // in a cell between strips
        // The answer does not depend on the order the edges were linked in.
        #expect(try PolygonSet.filling(rings: Self.crossingStrips(n).reversed(), rule: .nonZero).wkt == set.wkt)
    }

    @Test func aFanUnderTheBudgetFills() throws {
        // 60 strips: 4 · C(60, 2) = 7,080 crossings.
        let rings = Self.fan(60)
        let chains = EdgeChains(closedRings: try Self.closedRings(rings))
        #expect(chains.countCrossings(crossingLimit: .max, workLimit: .max) == .complete(crossings: 7_080))
        let set = try PolygonSet.filling(rings: rings, rule: .evenOdd)
        let context = try GEOSContext()
        #expect(try context.isValid(context.geometry(set)))
        var rng = SplitMix64(seed: 18)
        for _ in 0 ..< 200 {
            let p = rng.point(in: 0 ... 1000)
            guard Shapes.distanceToEdges(p, rings: rings) > 1e-6 else { continue }
            #expect(set.contains(p) == FillRule.evenOdd.fills(winding: Shapes.winding(p, rings: rings)))
        }
    }

    // MARK: Refusals, each before GEOS runs

    @Test func crossingStripsOverTheBudgetAreRefused() {
        // 71² · 4 = 20,164 crossings: refused as soon as 20,001 are counted.
        let refusal = GeometryError.overBudget(
            .fillCrossings, count: PolygonSet.maximumFillCrossings + 1,
            limit: PolygonSet.maximumFillCrossings)
        #expect(throws: refusal) { try PolygonSet.filling(rings: Self.crossingStrips(71), rule: .nonZero) }
        // Issue #16's 4.2 KB grid (90 + 90 strips, 12 s and 2.8 MB of WKT
        // before) and 5.2 KB fan (180 strips, 9 s).
        #expect(throws: refusal) { try PolygonSet.filling(rings: Self.crossingStrips(90), rule: .nonZero) }
        #expect(throws: refusal) { try PolygonSet.filling(rings: Self.fan(180), rule: .nonZero) }
        #expect(
            refusal.description == "path too complex to fill: more than 20000 pairs of its edges cross or touch "
                + "(PolygonSet.maximumFillCrossings)")
    }

    @Test func loopingCurvesAreRefused() throws {
        // Issue #16: 300 looping cubics, 6 KB of path data, ran 157 s and
        // printed 52 MB of WKT. These 300 (controls ±999) cross 67,607 times.
        var rng = SplitMix64(seed: 300)
        var path = BezierPath()
        path.move(to: .zero)
        for _ in 0 ..< 300 {
            path.addCurve(
                to: rng.point(in: -99 ... 99), controlPoint1: rng.point(in: -999 ... 999),
                controlPoint2: rng.point(in: -999 ... 999))
        }
        #expect(
            throws: GeometryError.overBudget(
                .fillCrossings, count: PolygonSet.maximumFillCrossings + 1,
                limit: PolygonSet.maximumFillCrossings)
        ) {
            try PolygonSet.filling(path: path)
        }
    }

    @Test func longChordsOverADenseArcAreRefusedByTheCandidateBudget() throws {
        // A circle of 65,536 edges and 300 thin triangles along lines
        // x + y = c just outside it: nothing crosses, but each long edge's
        // box holds a quarter of the circle, which the crossing count (and
        // GEOS's snap rounding) would walk edge by edge.
        let radius = 1000.0
        var rings = [Shapes.regularPolygon(radius: radius, sides: 65_536)]
        for i in 0 ..< 300 {
            let c = radius * 2.0.squareRoot() + 1 + Double(i) * 0.01
            rings.append([pt(c, 0), pt(0, c), pt(0, c + 0.001)])
        }
        let refusal = GeometryError.overBudget(
            .fillCandidatePairs, count: PolygonSet.maximumFillCandidatePairs + 1,
            limit: PolygonSet.maximumFillCandidatePairs)
        #expect(throws: refusal) { try PolygonSet.filling(rings: rings, rule: .nonZero) }
        #expect(
            refusal.description == "path too complex to fill: its edges pass close to each other in more than "
                + "4194304 places (PolygonSet.maximumFillCandidatePairs)")
    }

    @Test func overTheEdgeBudgetIsRefused() throws {
        let edges = PolygonSet.maximumFillEdges + 1
        let ring = Shapes.regularPolygon(radius: 1e6, sides: edges)
        #expect(throws: GeometryError.overBudget(.fillEdges, count: edges, limit: PolygonSet.maximumFillEdges)) {
            try PolygonSet.filling(rings: [ring], rule: .nonZero)
        }
        // A path is refused on its point count, before it is flattened:
        // 1 + 5 × 65,536 points.
        var path = BezierPath()
        path.move(to: .zero)
        for _ in 0 ..< 5 { path.addCurve(to: .zero, controlPoint1: pt(1e12, 1e12), controlPoint2: pt(-1e12, 1e12)) }
        let count = 1 + 5 * BezierPath.maximumSegmentsPerCurve
        let refusal = GeometryError.overBudget(.fillEdges, count: count, limit: PolygonSet.maximumFillEdges)
        #expect(throws: refusal) { try PolygonSet.filling(path: path) }
        #expect(throws: refusal) { try RegionBuilder().filling(path: path) }
        #expect(throws: refusal) {
            try PolygonSet.filling(paths: [(path, BezierPath.defaultFlatteningTolerance)])[0].get()
        }
        #expect(
            refusal.description == "path too complex to fill: 327681 edges, over the budget of 262144 "
                + "(PolygonSet.maximumFillEdges)")
    }

    // MARK: GEOS's noder's worst case: nodes in order along one line

    /// A zigzag from (0, 0) through (i, ±1) for i = 1...n to (n + 1, 0),
    /// closed along y = 0: its closing edge crosses every tooth. The region
    /// is a row of triangles between the crossings at x = 1.5, 2.5, ...:
    /// 0.75 at each end and 0.5 for each of the n − 2 between, 0.5n + 0.5.
    static func comb(_ n: Int) -> [CGPoint] {
        [pt(0, 0)] + (1 ... n).map { pt(Double($0), $0 % 2 == 1 ? 1 : -1) } + [pt(Double(n + 1), 0)]
    }

    @Test func aCombAlongItsClosingEdgeFills() throws {
        // 3,000 crossings, all on one line, found in order: the linework
        // goes to GEOS in scrambled pieces (PolygonSet.scrambledPieces).
        let n = 3_000
        let chains = EdgeChains(closedRings: try Self.closedRings([Self.comb(n)]))
        #expect(chains.countCrossings(crossingLimit: .max, workLimit: .max) == .complete(crossings: n - 1))
        for rule in [FillRule.nonZero, .evenOdd] {
            let set = try PolygonSet.filling(rings: [Self.comb(n)], rule: rule)
            #expect(abs(set.area - (0.5 * Double(n) + 0.5)) < 1e-6, "\(rule)")
            #expect(set.polygonCount == n, "\(rule): one triangle per tooth")
        }
    }

    @Test func scrambledPiecesHoldEveryEdgeOnceInAFixedOrder() throws {
        let rings = try Self.closedRings([Self.comb(1_000), Shapes.square(x: 0, y: 5, size: 3)])
        let pieces = PolygonSet.scrambledPieces(of: rings)
        struct Edge: Hashable { var ax, ay, bx, by: Double }
        func edges(_ points: some Collection<CGPoint>) -> [Edge] {
            zip(points, points.dropFirst()).map { Edge(ax: $0.x, ay: $0.y, bx: $1.x, by: $1.y) }
        }
        let expected = rings.flatMap { edges($0) }
        let got = pieces.flatMap { edges($0) }
        #expect(got.count == expected.count && Set(got) == Set(expected))
        #expect(pieces.allSatisfy { $0.count >= 2 && $0.count <= PolygonSet.linePieceEdges + 1 })
        // Scrambled: not the rings' order; fixed: the same every call.
        #expect(pieces.map(\.startIndex) != pieces.map(\.startIndex).sorted())
        #expect(PolygonSet.scrambledPieces(of: rings) == pieces)
    }

    @Test func straightRunsCollapse() throws {
        // Collinear vertices between two corners go; the corners stay.
        let square = try Self.closedRings([[pt(0, 0), pt(1, 0), pt(2, 0), pt(3, 0), pt(3, 3), pt(0, 3), pt(0, 1)]])[0]
        #expect(PolygonSet.straightened(square, tolerance: 1e-9) == [pt(0, 0), pt(3, 0), pt(3, 3), pt(0, 3), pt(0, 0)])
        // A run that turns back keeps its turn: out to (10, 0) and back is
        // a spike of no area, but its tip is not between its neighbours.
        let spike = try Self.closedRings([[pt(0, 0), pt(5, 0), pt(10, 0), pt(5, 0.5), pt(0, 1)]])[0]
        #expect(PolygonSet.straightened(spike, tolerance: 1e-9) == [pt(0, 0), pt(10, 0), pt(0, 1), pt(0, 0)])
        // A vertex off the line by more than the tolerance stays.
        let bent = try Self.closedRings([[pt(0, 0), pt(1, 1e-6), pt(2, 0), pt(2, 2)]])[0]
        #expect(PolygonSet.straightened(bent, tolerance: 1e-9) == bent)
        #expect(PolygonSet.straightened(bent, tolerance: 1e-5) == [pt(0, 0), pt(2, 0), pt(2, 2), pt(0, 0)])
        // All on one line: no area.
        let line = try Self.closedRings([[pt(0, 0), pt(1, 1), pt(2, 2), pt(3, 3), pt(1, 1)]])[0]
        #expect(PolygonSet.straightened(line, tolerance: 1e-9) == nil)
    }

    @Test func straightenedRingsStayWithinTheTolerance() throws {
        // Random walks along jittered lines: every vertex dropped lies within
        // the tolerance of the straightened ring's edges, and each kept one
        // is a vertex of the original, in order.
        var rng = SplitMix64(seed: 77)
        var dropped = 0
        for _ in 0 ..< 200 {
            let tolerance = 0.01
            var ring: [CGPoint] = []
            var p = pt(0, 0)
            for _ in 0 ..< Int.random(in: 3 ... 12, using: &rng) {
                let angle = Double.random(in: 0 ..< 2 * .pi, using: &rng)
                for _ in 0 ..< Int.random(in: 1 ... 20, using: &rng) {
                    let step = Double.random(in: -0.2 ... 1, using: &rng)  // sometimes back
                    let jitter = Double.random(in: -0.02 ... 0.02, using: &rng)
                    p = pt(p.x + step * cos(angle) - jitter * sin(angle), p.y + step * sin(angle) + jitter * cos(angle))
                    ring.append(p)
                }
            }
            guard let closed = try Self.closedRings([ring]).first else { continue }
            guard let out = PolygonSet.straightened(closed, tolerance: tolerance) else {
                // Nothing left means every vertex lies within the tolerance of one segment.
                continue
            }
            dropped += closed.count - out.count
            for v in closed {
                #expect(Shapes.distanceToEdges(v, rings: [out]) <= tolerance * (1 + 1e-9))
            }
            var k = 0
            for v in out {
                while k < closed.count && closed[k] != v { k += 1 }
                #expect(k < closed.count, "a kept vertex that is not the original's, in order")
            }
        }
        #expect(dropped > 1_000, "the walks must have straight runs to drop")
    }

    @Test func aStraightCurveWithAFarControlPointFillsNothingAtOnce() throws {
        // Found by the CI fuzz run (Fuzz/Regressions/svg-path): a smooth
        // quadratic whose control point is its start is a straight line,
        // flattened to 2,249 points that each touch the closing edge; GEOS
        // noded them in order, 69 s under ASan. They collapse to one edge.
        let path = try BezierPath(svgPathData: "M101e4.5 T81 00")
        let rings = path.flattened()
        #expect(rings.map(\.count) == [2_249])
        let closed = try Self.closedRings(rings)
        #expect(PolygonSet.straightened(closed[0], tolerance: PolygonSet.gridSize(forMagnitude: 1_010_000) / 2) == nil)
        #expect(try PolygonSet.filling(path: path) == .empty)
    }

    // MARK: Paths, end to end

    @Test func fillingAPathMatchesFillingItsRings() throws {
        var path = try BezierPath(
            svgPathData: "M 150 100 A 50 50 0 1 1 50 100 A 50 50 0 1 1 150 100 Z M 0 0 h 20 v 20 h -20 z")
        path.fillRule = .evenOdd
        let direct = try PolygonSet.filling(rings: path.flattened(), rule: .evenOdd)
        #expect(try PolygonSet.filling(path: path) == direct)
        #expect(try RegionBuilder().filling(path: path) == direct)
        // Non-finite points, which the parser refuses, are refused here too.
        let nan = BezierPath(elements: [.move(to: .zero), .line(to: pt(.nan, 1)), .line(to: pt(1, 0))])
        #expect(throws: GeometryError.coordinateOutOfRange(ring: 0, point: 1)) { try PolygonSet.filling(path: nan) }
    }
}
