import Foundation
import Testing

@testable import AXHit

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Each audit rule on a hand-made screen, and every corpus page source
/// through activation, audit and rendering.
@Suite struct AuditTests {
    static func screen() throws -> ElementTree {
        var tree = ElementTree()
        tree.screenBounds = CGRect(x: 0, y: 0, width: 400, height: 800)
        let w = try tree.append(.view("window", frame: CGRect(x: 0, y: 0, width: 400, height: 800)), under: .none)
        func element(_ id: String, _ frame: CGRect, traits: AccessibilityTraits = []) -> Node {
            var n = Node.element(id)
            n.accessibilityFrame = frame
            n.accessibilityTraits = traits
            return n
        }
        try tree.append(Node.element("forgotten"), under: w)  // CGRectZero
        try tree.append(element("gone", CGRect(x: 500, y: 10, width: 50, height: 50)), under: w)
        try tree.append(element("edge", CGRect(x: 380, y: 100, width: 40, height: 40)), under: w)
        var pointy = element("pointy", CGRect(x: 10, y: 200, width: 100, height: 100))
        pointy.accessibilityActivationPoint = CGPoint(x: 200, y: 250)
        try tree.append(pointy, under: w)
        try tree.append(element("tiny", CGRect(x: 10, y: 400, width: 20, height: 20), traits: .button), under: w)
        try tree.append(element("under", CGRect(x: 200, y: 400, width: 50, height: 50)), under: w)
        try tree.append(element("over", CGRect(x: 190, y: 390, width: 100, height: 100)), under: w)
        try tree.append(element("left", CGRect(x: 10, y: 600, width: 100, height: 100)), under: w)
        try tree.append(element("right", CGRect(x: 60, y: 600, width: 100, height: 100)), under: w)
        var blob = element("blob", CGRect(x: 250, y: 600, width: 50, height: 50))
        blob.accessibilityPath = AccessibilityPath(
            try BezierPath(svgPathData: "M 250 600 L 350 600 L 350 650 L 250 650 Z"))
        try tree.append(blob, under: w)
        // A button covered by a touchable opaque view: obstructed, not visible.
        var button = Node.view("button", frame: CGRect(x: 300, y: 200, width: 60, height: 60))
        button.isAccessibilityElement = true
        button.accessibilityTraits = .button
        try tree.append(button, under: w)
        try tree.append(.view("sheet", frame: CGRect(x: 290, y: 190, width: 80, height: 80)), under: w)
        return tree
    }

    @Test func androidJudgesTouchTargetsInDpAndEmptyBoundsAsOffScreen() throws {
        // Issue 12: the Facebook sheet's icon buttons are 72 pixels square
        // (Button#34 [984,1033][1056,1105], Button#37 [48,1307][120,1379])
        // and its reaction button 96 (Button#28 [48,1021][144,1117]): at
        // 2.625 pixels per dp, 27.43 dp and 36.57 dp, under Android's 48 dp.
        let data = try Data(
            contentsOf: Corpus.directory.appendingPathComponent(
                "android/uifinder_facebook_bottomsheet_1080x2414_classic.xml"))
        func small(density: CGFloat) throws -> [String: String] {
            let tree = try ElementTree(contentsOf: data, options: ImportOptions(density: density))
            var found: [String: String] = [:]
            for f in try Auditor.findings(ScreenAnalysis(tree)) where f.rule == .smallTouchTarget {
                found[tree.id(of: f.element)] = f.message
            }
            return found
        }
        let dense = try small(density: 2.625)
        for id in ["Button#34", "Button#37"] { #expect(dense[id]?.contains("27.43 dp across") == true, "\(id)") }
        #expect(dense["Button#28"]?.contains("36.57 dp across") == true)
        // Read as if a pixel were a dp, the same buttons are 72 and 96 dp: large enough.
        let sparse = try small(density: 1)
        #expect(sparse["Button#34"] == nil && sparse["Button#37"] == nil && sparse["Button#28"] == nil)
        // A node whose bounds are empty was clipped away by the screen (a dump
        // clips bounds to it): not visible, so neither exposed nor judged
        // (tree-format.md, "Android": "Audits").
        let dump = Data(
            #"<hierarchy rotation="0"><node class="android.widget.FrameLayout" bounds="[0,0][1080,1920]"><node class="android.widget.Button" text="Gone" clickable="true" bounds="[0,0][0,0]"/></node></hierarchy>"#
                .utf8)
        let tree = try ElementTree(contentsOf: dump)
        let rules = Set(
            try Auditor.findings(ScreenAnalysis(tree)).filter { tree.id(of: $0.element) == "Button#1" }.map(\.rule))
        #expect(rules.isEmpty, "\(rules)")
        #expect(!ScreenSpace(tree).isExposed(try #require(tree.node(withID: "Button#1"))))
    }

    @Test func everyRuleFiresWhereItShould() throws {
        let tree = try Self.screen()
        let findings = try Auditor.findings(ScreenAnalysis(tree))
        var rules: [String: Set<AuditRule>] = [:]
        for f in findings {
            rules[tree.id(of: f.element), default: []].insert(f.rule)
            #expect(!f.message.isEmpty)
        }
        // Every element's exact findings, worked out from the screen above.
        #expect(rules["forgotten"] == [.zeroFrame])  // alone: it explains the rest
        // Wholly off the 400 × 800 screen: its activation point (525, 35) lies
        // outside the window, so nothing takes the tap, and outside the shape
        // once the window's bounds cut it.
        #expect(rules["gone"] == [.offScreen, .activationLost, .activationOutsideShape])
        // Half off the screen; its activation point (400, 120) is on the
        // window's right edge, which closed-open bounds leave out.
        #expect(rules["edge"] == [.partlyOffScreen, .activationLost, .activationOutsideShape])
        #expect(rules["pointy"] == [.activationOutsideShape])  // (200, 250) is outside 10...110
        #expect(rules["tiny"] == [.smallTouchTarget])  // 20 pt across, a button
        #expect(rules["under"] == [.unreachable, .overlappingElements])  // wholly under "over"
        #expect(rules["over"] == nil)  // nothing wrong with the front element
        #expect(rules["left"] == [.overlappingElements])  // half under "right": reachable
        #expect(rules["right"] == nil)
        #expect(rules["blob"] == [.pathOutsideFrame])  // its path is twice its frame
        // Under the touchable, opaque sheet: the tap goes to the sheet, no tap
        // reaches the button anywhere, and nothing of it can be seen.
        #expect(rules["button"] == [.activationObstructed, .smallTouchTarget, .notVisible])
        #expect(rules.count == 9)
        // Geometry comes with the findings: the overlap of left and right is 50x100.
        let overlap = try #require(
            findings.first { $0.rule == .overlappingElements && tree.id(of: $0.element) == "left" })
        #expect(overlap.wkt == "POLYGON ((60 600, 110 600, 110 700, 60 700, 60 600))")
        #expect(findings.first { $0.rule == .activationObstructed }?.points.count == 1)
    }

    @Test func lostActivationIsReported() throws {
        var tree = ElementTree()
        var w = Node.view("window", frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        w.isUserInteractionEnabled = false
        let root = try tree.append(w, under: .none)
        var e = Node.element("e")
        e.accessibilityFrame = CGRect(x: 10, y: 10, width: 50, height: 50)
        try tree.append(e, under: root)
        let findings = try Auditor.findings(ScreenAnalysis(tree))
        #expect(findings.map(\.rule) == [.activationLost])
        #expect(findings.first?.points == [CGPoint(x: 35, y: 35)])
    }

    static var corpus: [URL] { Corpus.files }

    /// Every corpus screen through activation, audit and rendering: the
    /// activation findings agree with the oracle's statuses
    /// (`Tests/Fixtures/expectations`, worked out without the engine), every
    /// suggested point really activates its element, and the picture is
    /// well-formed XML.
    @Test func everyCorpusScreenRunsThroughActivationAuditAndRender() throws {
        let files = Self.corpus
        #expect(files.count >= 25)
        var checkedStatuses = 0
        for file in files {
            let name = file.deletingPathExtension().lastPathComponent
            let tree = try ElementTree(contentsOf: try Data(contentsOf: file), file: file.lastPathComponent)
            let analysis = try ScreenAnalysis(tree)
            let findings = try Auditor.findings(analysis)
            let svg = try SVGRenderer.svg(analysis, findings: findings, title: file.lastPathComponent)
            #expect(XMLParser(data: Data(svg.utf8)).parse(), "\(name): the picture is not well-formed XML")
            let rules = analysis.tester.rules
            for a in analysis.elements {
                if let s = a.suggested {
                    #expect(analysis.tester.shapeRegionContains(a.element, s), "\(name) \(tree.id(of: a.element))")
                    let reached =
                        rules.activatesWithoutTap(a.element, in: tree)
                        || analysis.tester.touch(s).map { rules.tapReaches($0, element: a.element, in: tree) } == true
                    #expect(reached, "\(name) \(tree.id(of: a.element)): the suggested point does not activate it")
                }
                #expect(a.visibleFraction >= 0 && a.visibleFraction <= 1)
            }
            // The activation findings say what the independent statuses say.
            let expectations = RealScreenTests.directory.appendingPathComponent(name + ".json")
            guard let data = try? Data(contentsOf: expectations) else { continue }
            let expected = try JSONDecoder().decode(RealScreenTests.Expectation.self, from: data)
            for e in expected.activations {
                let rulesFound = Set(findings.filter { tree.id(of: $0.element) == e.element }.map(\.rule))
                // A frame with no area is reported alone: it explains the rest.
                if rulesFound == [.zeroFrame] || rulesFound == [.offScreen] { continue }
                #expect(
                    rulesFound.contains(.activationObstructed) == (e.status == "obstructed"), "\(name) \(e.element)")
                #expect(rulesFound.contains(.activationLost) == (e.status == "lost"), "\(name) \(e.element)")
                checkedStatuses += 1
            }
        }
        #expect(checkedStatuses > 400)
    }

    /// The tree-wide path budget is 64 points per node plus what each path
    /// element earns: its own flattened points, up to 64 (a rectangle's
    /// move and three lines earn 4, its close 0; one huge cubic earns 64
    /// though it flattens to thousands), and at least 2,097,152.
    @Test func pathsEarnTheirBudgetElementByElement() throws {
        #expect(ElementTree.maximumPathPoints(nodes: 10, pathPointsEarned: 100) == 2_097_152)
        #expect(ElementTree.maximumPathPoints(nodes: 1_000_000, pathPointsEarned: 2_000_000) == 66_000_000)
        let rect = BezierPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(ElementTree.pathPointsEarned(by: rect) == 4)
        var huge = BezierPath()
        huge.move(to: .zero)
        huge.addCurve(
            to: CGPoint(x: 0, y: 1e6), controlPoint1: CGPoint(x: 1e6, y: 0), controlPoint2: CGPoint(x: 1e6, y: 1e6))
        #expect(huge.flattenedPointCount() > 1_000)
        #expect(ElementTree.pathPointsEarned(by: huge) == 1 + 64)
        // A quarter circle of 200 pt, as UIBezierPath draws it: earns all it uses.
        var quarter = BezierPath()
        quarter.move(to: CGPoint(x: 200, y: 0))
        quarter.addCurve(
            to: CGPoint(x: 0, y: 200), controlPoint1: CGPoint(x: 200, y: 110.46),
            controlPoint2: CGPoint(x: 110.46, y: 200))
        #expect(quarter.flattenedPointCount() > 32 && quarter.flattenedPointCount() < 64)
        #expect(ElementTree.pathPointsEarned(by: quarter) == quarter.flattenedPointCount())
    }

    /// The tree keeps what its paths earn through every write: appends,
    /// updates (another path, the same path, no path, no extras at all),
    /// removal, a freed slot reused, and the reader's pending nodes
    /// completed after their children (a path, an id and a kind read late).
    @Test func theTreeKeepsWhatItsPathsEarnThroughEveryWrite() throws {
        func expectKept(_ tree: ElementTree, _ expected: Int, sourceLocation: SourceLocation = #_sourceLocation) {
            let recount = tree.preOrder.reduce(0) {
                $0 + (tree.accessibilityPath(of: $1).map { ElementTree.pathPointsEarned(by: $0.path) } ?? 0)
            }
            #expect(recount == expected, sourceLocation: sourceLocation)
            #expect(tree.pathPointsEarned == expected, sourceLocation: sourceLocation)
        }
        let rect = BezierPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))  // earns 4
        var triangle = BezierPath()  // earns 3
        triangle.move(to: .zero)
        triangle.addLine(to: CGPoint(x: 10, y: 0))
        triangle.addLine(to: CGPoint(x: 0, y: 10))
        var tree = ElementTree()
        let root = try tree.append(.view("root", frame: CGRect(x: 0, y: 0, width: 400, height: 400)), under: .none)
        var e = Node.element("e")
        e.accessibilityLabel = "kept"
        e.accessibilityPath = AccessibilityPath(rect)
        let id = try tree.append(e, under: root)
        var f = e
        f.id = "f"
        let other = try tree.append(f, under: root)
        expectKept(tree, 8)
        e.accessibilityPath = AccessibilityPath(triangle)
        try tree.update(id, to: e)
        expectKept(tree, 7)
        e.accessibilityLabel = "relabelled"  // the same path written back
        try tree.update(id, to: e)
        expectKept(tree, 7)
        e.accessibilityPath = nil
        try tree.update(id, to: e)
        expectKept(tree, 4)
        try tree.update(other, to: .element("f"))
        expectKept(tree, 0)
        f.accessibilityPath = AccessibilityPath(triangle)
        try tree.update(other, to: f)
        expectKept(tree, 3)
        try tree.removeSubtree(other)
        expectKept(tree, 0)
        f.id = "g"
        _ = try tree.append(f, under: root)  // into the freed slot
        expectKept(tree, 3)
        #expect(tree.pathPointBudget == 2_097_152)

        let json = """
            {"format": "axhit/1", "root": {"frame": [0, 0, 100, 100], "children": [
              {"children": [{"id": "c", "kind": "element", "accessibilityPath": {"d": "M 0 0 L 10 0 L 10 10 Z"}}],
               "accessibilityPath": {"d": "M 0 0 L 5 0 L 5 5 L 0 5 Z"}, "kind": "element", "id": "late"}
            ], "id": "w"}}
            """
        let read = try ElementTree(contentsOf: Data(json.utf8))
        #expect(read.count == 3)
        expectKept(read, 3 + 4)
    }

    /// Paths of lines fit whatever their number: each line is one point and
    /// earns one. Twenty-five polygons of 100,000 line points each (a move
    /// and 99,999 lines: exactly 100,000 points, counted by hand) flatten to
    /// 2,500,000 points, past the 2,097,152 floor, and are within the
    /// budget: the engine fills all 25 and the analysis accepts the screen.
    @Test func manyLongPathsOfLinesAreWithinTheBudget() throws {
        var path = BezierPath()
        path.move(to: CGPoint(x: 100, y: 0))
        for k in 1 ..< 100_000 {
            let a = 2 * Double.pi * Double(k) / 100_000
            path.addLine(to: CGPoint(x: 100 + 100 * cos(a), y: 100 + 100 * sin(a)))
        }
        path.closeSubpath()
        #expect(path.flattenedPointCount(tolerance: HitTester.pathTolerance) == 100_000)
        let tester = try Self.screen(of: 25, path)
        #expect(tester.tree.pathPointBudget == 64 * 26 + 25 * 100_000)
        let space = ScreenSpace(tester.tree)
        let exposed = tester.tree.preOrder.filter { space.isExposed($0) }
        #expect(exposed.count == 25)
        try ScreenAnalysis.checkFillBudget(exposed, space)
        #expect(tester.hit(CGPoint(x: 100, y: 100), policy: .shape).map(tester.tree.id(of:)) == "e24")
    }

    /// Huge arcs, few elements and many points each, add up to the budget:
    /// k of them fit while k times one's points is within 2,097,152 (their
    /// elements earn far less), so with k + 1 the engine fills the first k
    /// and not the last (frontmost, yet hit nowhere by shape), and the
    /// analysis refuses the screen before any fill, naming the last.
    @Test func hugeArcsAddUpToOneBudgetPerTree() throws {
        let circle = try BezierPath(svgPathData: "M -1e7 100 A 1e7 1e7 0 1 1 1e7 100 A 1e7 1e7 0 1 1 -1e7 100 Z")
        let per = circle.flattenedPointCount(tolerance: HitTester.pathTolerance)
        let k = 2_097_152 / per
        #expect(k >= 10 && k <= 200)
        #expect(64 * (k + 2) + (k + 1) * ElementTree.pathPointsEarned(by: circle) < 2_097_152)
        let within = try Self.screen(of: k, circle)
        let space = ScreenSpace(within.tree)
        try ScreenAnalysis.checkFillBudget(within.tree.preOrder.filter { space.isExposed($0) }, space)
        let centre = CGPoint(x: 100, y: 100)
        #expect(within.hit(centre, policy: .shape).map(within.tree.id(of:)) == "e\(k - 1)")
        let over = try Self.screen(of: k + 1, circle)
        #expect(over.hit(centre, policy: .shape).map(over.tree.id(of:)) == "e\(k - 1)")
        #expect(over.hit(centre, policy: .frame).map(over.tree.id(of:)) == "e\(k)")
        let error = try #require(throws: TreeError.self) { try ScreenAnalysis(over) }
        #expect(error.kind == .geometry && error.node == "e\(k)" && error.key == "accessibilityPath")
        #expect(error.message.contains("2097152 points together"))
    }

    /// A 400 × 400 window of `count` elements `e0`, `e1`, ... (back to
    /// front), each with the frame (0, 0, 200, 200) and `path`.
    private static func screen(of count: Int, _ path: BezierPath) throws -> HitTester {
        var tree = ElementTree()
        let root = try tree.append(.view("root", frame: CGRect(x: 0, y: 0, width: 400, height: 400)), under: .none)
        for k in 0 ..< count {
            var e = Node.element("e\(k)")
            e.isAccessibilityElement = true
            e.accessibilityFrame = CGRect(x: 0, y: 0, width: 200, height: 200)
            e.accessibilityPath = AccessibilityPath(path)
            try tree.append(e, under: root)
        }
        return HitTester(tree)
    }

    /// The `axhit/1` reader refuses a file whose paths add up past the
    /// tree-wide budget as it reads it, naming the node that crosses it:
    /// 1,000 elements of a few bytes each, every one a huge arc that alone
    /// passes the per-path budget (a one-line "hostile" file: together they
    /// would flatten to tens of millions of points).
    @Test func theReaderRefusesPathsOverTheTreeBudget() throws {
        let arc = "M 0 0 A 1e7 1e7 0 1 1 1 0 Z"
        let per = ValueRules.pathPoints(try BezierPath(svgPathData: arc))
        #expect(per > 2_097_152 / 1_000 && per <= BezierPath.maximumFlattenedPoints)
        let kids = (0 ..< 1_000).map {
            "{\"id\": \"e\($0)\", \"kind\": \"element\", \"accessibilityPath\": {\"d\": \"\(arc)\"}}"
        }
        let json =
            "{\"format\": \"axhit/1\", \"root\": {\"id\": \"root\", \"frame\": [0, 0, 10, 10], "
            + "\"children\": [\(kids.joined(separator: ", "))]}}"
        let error = try #require(throws: TreeError.self) { try ElementTree(contentsOf: Data(json.utf8)) }
        // The first k arcs fit while k * per <= 2,097,152.
        #expect(error.node == "e\(2_097_152 / per)" && error.key == "accessibilityPath" && error.kind == .validation)
        // Within the budget, the same arcs read.
        let few =
            "{\"format\": \"axhit/1\", \"root\": {\"id\": \"root\", \"frame\": [0, 0, 10, 10], "
            + "\"children\": [\(kids.prefix(2_097_152 / per).joined(separator: ", "))]}}"
        #expect(try ElementTree(contentsOf: Data(few.utf8)).count == 1 + 2_097_152 / per)
    }
}
