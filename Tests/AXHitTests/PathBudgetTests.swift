import Foundation
import Testing

@testable import AXHit

/// Budgets per element, not per screen (issue 48): one element whose path
/// goes over a budget is answered as far as it can be (its frame; its
/// path's winding test) and reported once, while every other element of
/// the screen is answered exactly as without it. And a fill tolerance below
/// the floor is refused as the tolerance it is.
@Suite struct PathBudgetTests {
    // MARK: The screen, worked out by hand

    /// 71 horizontal strips (y = 120 + 4i to 122 + 4i, x from 20 to 305)
    /// and 71 vertical ones (x = 20 + 4i to 22 + 4i, y from 120 to 405),
    /// all drawn the same way round: 2.8 kB of path data whose strips cross
    /// 71 · 71 · 4 = 20,164 times, past `PolygonSet.maximumFillCrossings`.
    /// Under the non-zero rule a point is inside when it lies in a strip.
    static let mesh: String = {
        var d = ""
        for i in 0 ..< 71 { d += "M20 \(120 + 4 * i)H305V\(122 + 4 * i)H20Z" }
        for i in 0 ..< 71 { d += "M\(20 + 4 * i) 120H\(22 + 4 * i)V405H\(20 + 4 * i)Z" }
        return d
    }()

    /// An iOS view tree on a 390 × 844 screen: `top` [0, 0, 390, 100],
    /// `mesh` [20, 120, 285, 285] with the mesh path, `bottom` [0, 500, 390,
    /// 100] and `star` [100, 650, 200, 100] with the triangle (100, 650),
    /// (300, 650), (200, 750): four buttons whose frames do not meet. The
    /// mesh is left out with `withMesh` false.
    static func screen(withMesh: Bool = true) -> String {
        let mesh =
            withMesh
            ? """
            {"id": "mesh", "frame": [20, 120, 285, 285], "isAccessibilityElement": true, "accessibilityLabel": "Mesh",
             "accessibilityTraits": ["button"], "accessibilityPath": {"d": "\(Self.mesh)"}},
            """ : ""
        return """
            {"format": "axhit/1", "screen": {"bounds": [0, 0, 390, 844], "scale": 3},
             "root": {"id": "window", "frame": [0, 0, 390, 844], "children": [
              {"id": "top", "frame": [0, 0, 390, 100], "isAccessibilityElement": true, "accessibilityLabel": "Top",
               "accessibilityTraits": ["button"]},
              \(mesh)
              {"id": "bottom", "frame": [0, 500, 390, 100], "isAccessibilityElement": true,
               "accessibilityLabel": "Bottom", "accessibilityTraits": ["button"]},
              {"id": "star", "frame": [100, 650, 200, 100], "isAccessibilityElement": true, "accessibilityLabel": "Star",
               "accessibilityTraits": ["button"], "accessibilityPath": {"d": "M 100 650 L 300 650 L 200 750 Z"}}
             ]}}
            """
    }

    static func tester(withMesh: Bool = true) throws -> HitTester {
        HitTester(try ElementTree(contentsOf: Data(screen(withMesh: withMesh).utf8)))
    }

    /// The analysis of the element named `id`.
    static func element(_ id: String, in analysis: ScreenAnalysis) throws -> ElementAnalysis {
        let node = try #require(analysis.tree.node(withID: id), "\(id)")
        return try #require(analysis.analysis(of: node), "\(id)")
    }

    /// The crossing budget the mesh goes over, as the fill reports it (the
    /// count stops one past the limit).
    static let meshOverBudget = PathOverBudget.fill(
        .overBudget(
            .fillCrossings, count: PolygonSet.maximumFillCrossings + 1, limit: PolygonSet.maximumFillCrossings))

    // MARK: Hit

    /// Frame policy: the mesh answers over its whole frame. Shape policy:
    /// by its path's winding (no fill needed): (21, 121) lies in horizontal
    /// strip 0 and vertical strip 0 (winding 2), (21, 300) in vertical strip
    /// 0, (23.5, 123.5) and the frame's centre (162.5, 262.5) in no strip
    /// (offsets 3.5 and 142.5 ≡ 2.5 mod 4 lie between strips), so nothing
    /// (the window is not an element). The other elements answer as
    /// without the mesh: the star's triangle holds (200, 700) but not
    /// (120, 740) (at y = 740 it spans x 190 to 210), which its frame holds.
    @Test func hitAnswersTheMeshByFrameAndWindingAndTheOthersAsBefore() throws {
        let with = try Self.tester(), without = try Self.tester(withMesh: false)
        func id(_ t: HitTester, _ x: CGFloat, _ y: CGFloat, _ policy: HitPolicy) -> String? {
            t.hit(CGPoint(x: x, y: y), policy: policy).map(t.tree.id(of:))
        }
        for (x, y) in [(21.0, 121.0), (23.5, 123.5), (162.5, 262.5), (21, 300), (304, 404)] {
            #expect(id(with, x, y, .frame) == "mesh", "(\(x), \(y))")
        }
        #expect(id(with, 21, 121, .shape) == "mesh")
        #expect(id(with, 21, 300, .shape) == "mesh")
        #expect(id(with, 23.5, 123.5, .shape) == nil)
        #expect(id(with, 162.5, 262.5, .shape) == nil)
        let others: [(CGFloat, CGFloat, HitPolicy, String?)] = [
            (195, 50, .frame, "top"), (195, 50, .shape, "top"), (195, 550, .frame, "bottom"),
            (195, 550, .shape, "bottom"), (200, 700, .frame, "star"), (200, 700, .shape, "star"),
            (120, 740, .frame, "star"), (120, 740, .shape, nil), (10, 450, .frame, nil), (10, 450, .shape, nil),
        ]
        for (x, y, policy, expected) in others {
            #expect(id(with, x, y, policy) == expected, "(\(x), \(y)) \(policy)")
            #expect(id(without, x, y, policy) == expected, "(\(x), \(y)) \(policy) without the mesh")
        }
    }

    // MARK: Activation

    /// The screen is analysed, not refused. The mesh: activation point the
    /// frame's centre (162.5, 262.5), which UIKit delivers to the mesh
    /// view (ok), outside its path by the winding test; no suggested point,
    /// size or visible share, and the crossing budget named. The others,
    /// by hand and equal to the screen without the mesh: `top` and
    /// `bottom` at their centres, their largest circle of radius 50 centred
    /// on their middle line; `star` at (200, 700), inside its triangle,
    /// whose incircle (sides 141.42, 141.42, 200) has its centre at
    /// (200, 650 + 41.42) and radius 10,000 / 241.42 = 41.42.
    @Test func activationAnswersTheMeshAsFarAsItCanAndTheOthersAsBefore() throws {
        let analysis = try ScreenAnalysis(try Self.tester())
        let without = try ScreenAnalysis(try Self.tester(withMesh: false))
        let tree = analysis.tree
        #expect(analysis.elements.map { tree.id(of: $0.element) } == ["top", "mesh", "bottom", "star"])
        let mesh = try Self.element("mesh", in: analysis)
        #expect(mesh.pathOverBudget == Self.meshOverBudget)
        #expect(mesh.activationPoint == CGPoint(x: 162.5, y: 262.5))
        #expect(mesh.receiver.map(tree.id(of:)) == "mesh" && mesh.status == .ok)
        #expect(mesh.outside)
        #expect(mesh.suggested == nil && mesh.touchTargetRadius == 0 && mesh.visibleFraction.isNaN)
        #expect(mesh.shapeRegion.isEmpty && mesh.deliverableRegion.isEmpty)

        let incircle = 10_000 / (100 + 2 * 2.0.squareRoot() * 50)  // area / semiperimeter
        let expected: [String: (activation: CGPoint, suggested: CGPoint, radius: Double)] = [
            "top": (CGPoint(x: 195, y: 50), CGPoint(x: 195, y: 50), 50),
            "bottom": (CGPoint(x: 195, y: 550), CGPoint(x: 195, y: 550), 50),
            "star": (CGPoint(x: 200, y: 700), CGPoint(x: 200, y: 650 + incircle), incircle),
        ]
        for (name, e) in expected {
            for (which, a) in [("with", analysis), ("without", without)] {
                let x = try Self.element(name, in: a)
                #expect(x.pathOverBudget == nil, "\(name) \(which)")
                #expect(x.activationPoint == e.activation, "\(name) \(which)")
                #expect(x.receiver.map(a.tree.id(of:)) == name && x.status == .ok && !x.outside, "\(name) \(which)")
                let s = try #require(x.suggested, "\(name) \(which)")
                // Rects: anywhere on the middle line a circle of 50 fits.
                if name == "star" {
                    #expect(abs(s.x - e.suggested.x) < 0.05 && abs(s.y - e.suggested.y) < 0.05, "\(name) \(which) \(s)")
                } else {
                    #expect(abs(s.y - e.suggested.y) < 0.05 && s.x >= 50 && s.x <= 340, "\(name) \(which) \(s)")
                }
                #expect(abs(x.touchTargetRadius - e.radius) < 0.05, "\(name) \(which)")
                #expect(abs(x.visibleFraction - 1) < 1e-9, "\(name) \(which)")
            }
            let a = try Self.element(name, in: analysis)
            let b = try Self.element(name, in: without)
            #expect(a.suggested == b.suggested && a.touchTargetRadius == b.touchTargetRadius, "\(name)")
        }
    }

    // MARK: Audit

    /// Without the mesh the screen is clean (four disjoint buttons, each
    /// wide enough under either profile, activated at a point inside its
    /// shape). With it, the others still have no finding, and the mesh has
    /// exactly two: `activation-outside-shape` (its activation point lies
    /// between the strips, by the winding test) and one `path-over-budget`
    /// at `info`, naming the crossing budget; no size or visibility finding
    /// rests on the fill it does not have.
    @Test func auditReportsTheMeshOnceAndTheOthersAsBefore() throws {
        for profile in [AuditProfile.platform, .wcag22] {
            let options = AuditOptions(profile: profile)
            let without = try Auditor.findings(ScreenAnalysis(try Self.tester(withMesh: false)), options: options)
            #expect(without.isEmpty, "\(profile): \(without.map(\.message))")
            let analysis = try ScreenAnalysis(try Self.tester())
            let findings = try Auditor.findings(analysis, options: options)
            let tree = analysis.tree
            #expect(
                findings.map { "\(tree.id(of: $0.element)) \($0.rule.rawValue)" }
                    == ["mesh activation-outside-shape", "mesh path-over-budget"], "\(profile)")
            let over = try #require(findings.first { $0.rule == .pathOverBudget })
            #expect(over.severity == .info)
            #expect(over.message.contains("PolygonSet.maximumFillCrossings") && over.message.contains("20000"))
        }
        #expect(AuditRule.pathOverBudget.severity == .info)
        for text in [
            AuditRule.pathOverBudget.summary, AuditRule.pathOverBudget.explanation, AuditRule.pathOverBudget.help,
        ] {
            #expect(!text.isEmpty)
        }
    }

    // MARK: The per-element point budget

    /// A screen path of a circle of radius 2e8 (a few bytes; about 149k
    /// points at 0.05 on the screen, within the reader's tree budget) is over
    /// `maximumElementPathPoints` for one element: it is not filled, and
    /// is still hit by its winding; the button beside it is analysed as
    /// ever.
    @Test func aPathOverTheElementBudgetIsAnsweredWithoutItsFill() throws {
        let r = 2e8
        let circle = "M \(50 + r) 625 A \(r) \(r) 0 1 1 \(50 - r) 625 A \(r) \(r) 0 1 1 \(50 + r) 625 Z"
        let json = """
            {"format": "axhit/1", "screen": {"bounds": [0, 0, 390, 844]},
             "root": {"id": "window", "frame": [0, 0, 390, 844], "children": [
              {"id": "huge", "frame": [0, 600, 100, 50], "isAccessibilityElement": true,
               "accessibilityTraits": ["button"], "accessibilityPath": {"d": "\(circle)"}},
              {"id": "plain", "frame": [0, 0, 390, 100], "isAccessibilityElement": true, "accessibilityTraits": ["button"]}
             ]}}
            """
        let tester = HitTester(try ElementTree(contentsOf: Data(json.utf8)))
        let count = try BezierPath(svgPathData: circle).flattenedPointCount(tolerance: HitTester.pathTolerance)
        #expect(count > ScreenAnalysis.maximumElementPathPoints && count < 2 * ScreenAnalysis.maximumElementPathPoints)
        #expect(ScreenAnalysis.maximumElementPathPoints == 131_072)
        let analysis = try ScreenAnalysis(tester)
        let huge = try Self.element("huge", in: analysis)
        #expect(huge.pathOverBudget == .elementPoints(count: count))
        #expect(huge.suggested == nil && !huge.outside && huge.status == .ok)
        #expect(tester.hit(CGPoint(x: 50, y: 625), policy: .shape).map(tester.tree.id(of:)) == "huge")
        let plain = try Self.element("plain", in: analysis)
        #expect(plain.pathOverBudget == nil && plain.suggested.map { abs($0.y - 50) < 0.05 } == true)
        #expect(
            PathOverBudget.elementPoints(count: count).description.contains("ScreenAnalysis.maximumElementPathPoints"))
    }

    // MARK: Tolerance floor

    /// A fill asked for a tolerance below 1e-6 is refused as such, before
    /// anything is counted (1e-300 used to be "path too complex"), through
    /// every entry point that takes one; the floor itself is taken.
    @Test func aFillToleranceBelowTheFloorIsRefusedAsSuch() throws {
        #expect(BezierPath.minimumFillTolerance == 1e-6)
        let curve = try BezierPath(svgPathData: "M 0 0 C 10 0 10 10 0 10 Z")
        for tiny: CGFloat in [1e-300, 9.99e-7, 0, -1] {
            let refusal = GeometryError.toleranceBelowMinimum(tolerance: Double(tiny))
            #expect(throws: refusal) { try PolygonSet.filling(path: curve, tolerance: tiny) }
            #expect(throws: refusal) { try RegionBuilder().filling(path: curve, tolerance: tiny) }
            #expect(throws: refusal) { try PolygonSet.filling(paths: [(curve, tiny)])[0].get() }
        }
        let nan = try #require(throws: GeometryError.self) { try PolygonSet.filling(path: curve, tolerance: .nan) }
        guard case .toleranceBelowMinimum = nan else {
            Issue.record("NaN: \(nan)")
            return
        }
        #expect(
            GeometryError.toleranceBelowMinimum(tolerance: 1e-300).description
                == "flattening tolerance 1e-300 is below the floor of 1e-06 (BezierPath.minimumFillTolerance)")
        #expect(!(try PolygonSet.filling(path: curve, tolerance: 1e-6)).isEmpty)
    }

    // MARK: The command line

    /// `activate`, `audit` and `render` answer the screen (exit 0) rather
    /// than refusing it (exit 1, as before): the mesh's line has
    /// `"suggested": null` and a note naming the budget; every other line
    /// is the one the screen without the mesh gives.
    @Test func theCommandLineAnswersTheScreen() throws {
        let scratch = try CLIScratch()
        let with = try scratch.write("mesh.json", Self.screen())
        let without = try scratch.write("plain.json", Self.screen(withMesh: false))

        let activate = try #require(try scratch.run(["activate", with]))
        #expect(activate.status == 0 && activate.stderr.isEmpty, "\(activate.stderr)")
        let plain = try #require(try scratch.run(["activate", without]))
        let lines = activate.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(
            lines.filter { !$0.hasPrefix("{\"element\":\"mesh\"") }
                == plain.stdout.split(separator: "\n").map(String.init))
        #expect(
            lines.first { $0.hasPrefix("{\"element\":\"mesh\"") }
                == "{\"element\":\"mesh\",\"activationPoint\":[162.5,262.5],\"receiver\":\"mesh\",\"status\":\"ok\""
                + ",\"outside\":true,\"suggested\":null,\"note\":\"no suggested point, since its accessibilityPath "
                + "is not filled: path too complex to fill: more than 20000 pairs of its edges cross or touch "
                + "(PolygonSet.maximumFillCrossings)\"}")

        let audit = try #require(try scratch.run(["audit", with, "--json"]))
        #expect(audit.status == 0 && audit.stderr.isEmpty, "\(audit.stderr)")
        let findings = try audit.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let over = findings.filter { $0["rule"] as? String == "path-over-budget" }
        #expect(over.count == 1)
        #expect(over.first?["element"] as? String == "mesh" && over.first?["severity"] as? String == "info")
        #expect(findings.allSatisfy { $0["element"] as? String == "mesh" })
        let strict = try #require(try scratch.run(["audit", with, "--fail-on", "info"]))
        #expect(strict.status == 3, "\(strict.stderr)")
        let sarif = try #require(try scratch.run(["audit", with, "--sarif"]))
        #expect(sarif.status == 0)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
        let run = try #require((doc["runs"] as? [[String: Any]])?.first)
        let rules = try #require(
            ((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
        let rule = try #require(rules.first { $0["id"] as? String == "path-over-budget" })
        #expect((rule["defaultConfiguration"] as? [String: Any])?["level"] as? String == "note")
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(
            results.filter { $0["ruleId"] as? String == "path-over-budget" }.map { $0["level"] as? String } == ["note"])

        let render = try #require(try scratch.run(["render", with, "-o", "mesh.svg"]))
        #expect(render.status == 0 && render.stderr.isEmpty, "\(render.stderr)")
        let plainRender = try #require(try scratch.run(["render", without, "-o", "plain.svg"]))
        #expect(plainRender.status == 0)
        let svg = try String(contentsOf: scratch.directory.appendingPathComponent("mesh.svg"), encoding: .utf8)
        let plainSVG = try String(contentsOf: scratch.directory.appendingPathComponent("plain.svg"), encoding: .utf8)
        // The shapes: the others' as without the mesh, the mesh's path as
        // SVG fills it.
        func shapes(_ svg: String) -> [Substring] {
            guard let start = svg.range(of: "<g fill-opacity=\"0.16\"") else { return [] }
            return svg[start.upperBound...].split(separator: "\n").dropFirst().prefix { $0 != "</g>" }.map { $0 }
        }
        let meshShapes = shapes(svg), plainShapes = shapes(plainSVG)
        #expect(meshShapes.count == 4 && plainShapes.count == 3)
        #expect(meshShapes.filter { !$0.contains("fill-rule=\"nonzero\"") } == plainShapes)
        #expect(meshShapes.filter { $0.contains("fill-rule=\"nonzero\"") && $0.hasPrefix("<path d=\"M") }.count == 1)
    }

    /// Every verb that analyses a screen states the per-element budget in
    /// its help; `shape` still refuses a tolerance below the floor (exit 2,
    /// naming it).
    @Test func theHelpStatesTheBudgetAndTheFloor() throws {
        let scratch = try CLIScratch()
        for verb in ["activate", "audit", "render"] {
            let run = try #require(try scratch.run([verb, "--help"]))
            #expect(run.stdout.contains("more than 131,072 points"), "\(verb)")
        }
        let run = try #require(try scratch.run(["shape", "--d", "M0 0 C 1 0 1 1 0 1 Z", "--tolerance", "1e-300"]))
        #expect(run.status == 2 && run.stderr.contains("at least 1e-6"), "\(run.stderr)")
    }
}
