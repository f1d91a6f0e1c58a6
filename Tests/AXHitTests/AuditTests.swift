import Foundation
import Testing
@testable import AXHit

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
        blob.accessibilityPath = AccessibilityPath(try BezierPath(svgPathData: "M 250 600 L 350 600 L 350 650 L 250 650 Z"))
        try tree.append(blob, under: w)
        // A button covered by a touchable opaque view: obstructed, not visible.
        var button = Node.view("button", frame: CGRect(x: 300, y: 200, width: 60, height: 60))
        button.isAccessibilityElement = true
        button.accessibilityTraits = .button
        try tree.append(button, under: w)
        try tree.append(.view("sheet", frame: CGRect(x: 290, y: 190, width: 80, height: 80)), under: w)
        return tree
    }

    @Test func everyRuleFiresWhereItShould() throws {
        let tree = try Self.screen()
        let findings = try Auditor.findings(ScreenAnalysis(tree))
        var rules: [String: Set<AuditRule>] = [:]
        for f in findings {
            rules[tree.id(of: f.element), default: []].insert(f.rule)
            #expect(!f.message.isEmpty)
        }
        #expect(rules["forgotten"] == [.zeroFrame])
        #expect(rules["gone"]?.contains(.offScreen) == true)
        #expect(rules["edge"]?.contains(.partlyOffScreen) == true)
        #expect(rules["pointy"]?.contains(.activationOutsideShape) == true)
        #expect(rules["tiny"]?.contains(.smallTouchTarget) == true)
        #expect(rules["under"]?.contains(.unreachable) == true)
        #expect(rules["under"]?.contains(.overlappingElements) == true)
        #expect(rules["left"]?.contains(.overlappingElements) == true)
        #expect(rules["left"]?.contains(.unreachable) != true)
        #expect(rules["blob"]?.contains(.pathOutsideFrame) == true)
        #expect(rules["button"]?.contains(.activationObstructed) == true)
        #expect(rules["button"]?.contains(.notVisible) == true)
        #expect(rules["over"] == nil)  // nothing wrong with the front element
        // Geometry comes with the findings: the overlap of left and right is 50x100.
        let overlap = try #require(findings.first { $0.rule == .overlappingElements && tree.id(of: $0.element) == "left" })
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
        #expect(findings.contains { $0.rule == .activationLost })
    }

    static var corpus: [URL] { Corpus.files }

    @Test func everyCorpusScreenRunsThroughActivationAuditAndRender() throws {
        let files = Self.corpus
        #expect(files.count >= 17)
        for file in files {
            let tree = try ElementTree(contentsOf: try Data(contentsOf: file), file: file.lastPathComponent)
            let analysis = try ScreenAnalysis(tree)
            let findings = try Auditor.findings(analysis)
            let svg = SVGRenderer.svg(analysis, findings: findings, title: file.lastPathComponent)
            #expect(svg.hasPrefix("<svg") && svg.hasSuffix("</svg>\n"))
            for a in analysis.elements {
                if let s = a.suggested {
                    #expect(analysis.tester.shapeRegionContains(a.element, s), "\(file.lastPathComponent) \(tree.id(of: a.element))")
                    let r = analysis.tester.touch(s)
                    #expect(r.map { tree.isDescendant($0, of: a.view) } == true)
                }
                #expect(a.visibleFraction >= 0 && a.visibleFraction <= 1)
            }
        }
    }
}
