import Foundation
import Testing

@testable import AXHit

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Each audit rule and each exemption on screens whose geometry is worked
/// out by hand (tree-format.md, "Audits: what a reviewer would ask to
/// fix"), and every corpus screen through activation, audit and rendering.
@Suite struct AuditTests {
    // MARK: Building screens

    /// An element node with `frame` and `traits`.
    static func element(_ id: String, _ frame: CGRect, traits: AccessibilityTraits = []) -> Node {
        var n = Node.element(id)
        n.accessibilityFrame = frame
        n.accessibilityTraits = traits
        return n
    }

    /// A view that is an accessibility element, with `traits`.
    static func control(_ id: String, _ frame: CGRect, traits: AccessibilityTraits = .button) -> Node {
        var n = Node.view(id, frame: frame)
        n.isAccessibilityElement = true
        n.accessibilityTraits = traits
        return n
    }

    /// A view tree: a `width` × `height` screen and window holding `nodes`
    /// (each under the window, or under the node named by `parent`).
    static func viewTree(
        _ width: CGFloat, _ height: CGFloat, _ nodes: [(Node, parent: String?)]
    ) throws -> ElementTree {
        var tree = ElementTree()
        tree.screenBounds = CGRect(x: 0, y: 0, width: width, height: height)
        let w = try tree.append(.view("window", frame: CGRect(x: 0, y: 0, width: width, height: height)), under: .none)
        for (n, parent) in nodes {
            try tree.append(n, under: parent.flatMap { tree.node(withID: $0) } ?? w)
        }
        return tree
    }

    /// The rules found per element id.
    static func rules(
        _ tree: ElementTree, _ options: AuditOptions = AuditOptions()
    ) throws -> [String: [AuditRule]] {
        var out: [String: [AuditRule]] = [:]
        for f in try Auditor.findings(ScreenAnalysis(tree), options: options) {
            out[tree.id(of: f.element), default: []].append(f.rule)
            #expect(!f.message.isEmpty)
        }
        return out
    }

    /// A uiautomator dump of one window (1080 × 1920 px) holding `nodes`.
    static func dump(_ nodes: String) -> Data {
        Data(
            """
            <hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" \
            bounds="[0,0][1080,1920]">\(nodes)</node></hierarchy>
            """.utf8)
    }

    /// An Android tree read from `dump(nodes)` at 2.625 px per dp.
    static func android(_ nodes: String) throws -> ElementTree {
        try ElementTree(contentsOf: dump(nodes), options: ImportOptions(density: 2.625))
    }

    // MARK: Rules on a view tree

    /// Every rule where it should fire, on a 400 × 800 pt screen, each
    /// element's findings worked out by hand.
    @Test func everyRuleFiresWhereItShould() throws {
        var pointy = Self.element("pointy", CGRect(x: 10, y: 200, width: 100, height: 100))
        pointy.accessibilityActivationPoint = CGPoint(x: 200, y: 250)
        let tree = try Self.viewTree(
            400, 800,
            [
                (Node.element("forgotten"), nil),  // CGRectZero
                (Self.element("gone", CGRect(x: 500, y: 10, width: 50, height: 50), traits: .button), nil),
                (pointy, nil),
                (Self.element("tiny", CGRect(x: 10, y: 400, width: 20, height: 20), traits: .button), nil),
                (Self.element("under", CGRect(x: 200, y: 400, width: 50, height: 50)), nil),
                (Self.element("over", CGRect(x: 190, y: 390, width: 100, height: 100)), nil),
                (Self.element("left", CGRect(x: 10, y: 600, width: 100, height: 100)), nil),
                (Self.element("right", CGRect(x: 60, y: 600, width: 100, height: 100)), nil),
                // Two cells meeting on a hairline: 745 ... 746 is shared, 1 pt.
                (Self.element("cell1", CGRect(x: 0, y: 701, width: 400, height: 45)), nil),
                (Self.element("cell2", CGRect(x: 0, y: 745, width: 400, height: 45)), nil),
                // A button under a touchable, opaque sheet.
                (Self.control("button", CGRect(x: 300, y: 200, width: 60, height: 60)), nil),
                (.view("sheet", frame: CGRect(x: 290, y: 190, width: 80, height: 80)), nil),
            ])
        let rules = try Self.rules(tree)
        #expect(rules["forgotten"] == [.zeroSize])  // alone: it explains the rest
        // x from 500: wholly right of the 400 pt screen, no scroll container:
        // off-screen alone (not also a lost tap).
        #expect(rules["gone"] == [.offScreen])
        // (200, 250) is outside 10 ... 110; not a control, so no activation rule.
        #expect(rules["pointy"] == [.activationOutsideShape])
        #expect(rules["tiny"] == [.smallTouchTarget])  // 20 pt across, a button: under 44
        #expect(rules["under"] == [.unreachable])  // 200...250 inside 190...290 both ways
        #expect(rules["over"] == nil)
        // 60 ... 110 of left is under right: a part 50 pt wide.
        #expect(rules["left"] == [.covered])
        #expect(rules["right"] == nil)
        // 1 pt of cell1 under cell2: under 2 pt wide, where two cells meet.
        #expect(rules["cell1"] == nil && rules["cell2"] == nil)
        // The sheet takes every tap on the button and hides all of it.
        #expect(rules["button"] == [.activationObstructed, .smallTouchTarget, .notVisible])
        #expect(rules.count == 7)

        let findings = try Auditor.findings(ScreenAnalysis(tree))
        let left = try #require(findings.first { $0.rule == .covered })
        #expect(left.wkt == "POLYGON ((60 600, 110 600, 110 700, 60 700, 60 600))")
        #expect(left.message.contains("50 pt wide") && left.related.map(tree.id(of:)) == "right")
        #expect(findings.first { $0.rule == .activationObstructed }?.related.map(tree.id(of:)) == "sheet")
    }

    /// The hairline's edge: cells sharing 3 pt are covered over a part 3 pt
    /// wide (2 pt is the least a reviewer asks about).
    /// Numbers in messages: at most two decimals, no trailing zero, as C's
    /// "%.2f" rounds them (hand cases), and the same digits as "%.2f" over
    /// random values of every magnitude a message meets.
    @Test func messageNumbersKeepTwoDecimalsAsPrintfRoundsThem() {
        let cases: [(Double, String)] = [
            (0, "0"), (44, "44"), (43.999, "44"), (1.5, "1.5"), (0.05, "0.05"), (12.345, "12.35"),
            (-2.345, "-2.35"), (-0.004, "0"), (-0.006, "-0.01"), (125371.214, "125371.21"), (0.1 + 0.2, "0.3"),
        ]
        for (v, text) in cases { #expect(Auditor.text(v) == text, "\(v)") }
        var rng = SeededRandom(seed: 45)
        for _ in 0 ..< 20_000 {
            let v = Double.random(in: -1 ... 1, using: &rng) * pow(10, Double.random(in: -3 ... 12, using: &rng))
            var printf = String(format: "%.2f", (v * 100).rounded() / 100)
            while printf.hasSuffix("0") { printf.removeLast() }
            if printf.hasSuffix(".") { printf.removeLast() }
            if printf == "-0" { printf = "0" }
            #expect(Auditor.text(v) == printf, "\(v)")
        }
    }

    @Test func aCoveredPartTwoPointsWideIsReported() throws {
        for (overlap, found) in [(1.0, false), (1.99, false), (2.0, true), (3.0, true)] {
            let tree = try Self.viewTree(
                400, 800,
                [
                    (Self.element("a", CGRect(x: 0, y: 100, width: 400, height: 45)), nil),
                    (Self.element("b", CGRect(x: 0, y: 145 - overlap, width: 400, height: 45)), nil),
                ])
            #expect((try Self.rules(tree)["a"] == [.covered]) == found, "\(overlap)")
        }
    }

    /// A double-tap that no view takes, on a control only.
    @Test func lostActivationIsReportedOnControls() throws {
        var tree = ElementTree()
        var w = Node.view("window", frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        w.isUserInteractionEnabled = false
        let root = try tree.append(w, under: .none)
        try tree.append(Self.element("e", CGRect(x: 10, y: 10, width: 50, height: 50), traits: .button), under: root)
        try tree.append(Self.element("text", CGRect(x: 10, y: 70, width: 50, height: 20)), under: root)
        let findings = try Auditor.findings(ScreenAnalysis(tree))
        // The button: lost at (35, 35), and so no tap reaches it (a 0 pt target).
        #expect(findings.map(\.rule) == [.activationLost, .smallTouchTarget])
        #expect(findings.first?.points == [CGPoint(x: 35, y: 35)])
    }

    // MARK: Scrolled away

    /// A row under the fold of a list that scrolls: 820 ... 844 of its
    /// 820 ... 864 is on the 844 pt screen, so its touch region there is
    /// 24 pt tall; a scroll brings the rest into view, so neither its size
    /// nor anything else is judged on that part, and a row wholly below
    /// is not judged at all. Without the scroll container the same rows
    /// are a small target and an element off the screen.
    @Test func rowsUnderTheFoldAreScrolledAwayNotDefects() throws {
        func screen(scrolls: Bool) throws -> ElementTree {
            var list = Node.view("list", frame: CGRect(x: 0, y: 0, width: 390, height: 844))
            if scrolls { list.actions = [.scroll] }
            return try Self.viewTree(
                390, 844,
                [
                    (list, nil),
                    (Self.control("shown", CGRect(x: 0, y: 100, width: 390, height: 44)), "list"),
                    (Self.control("fold", CGRect(x: 0, y: 820, width: 390, height: 44)), "list"),
                    (Self.control("below", CGRect(x: 0, y: 900, width: 390, height: 44)), "list"),
                ])
        }
        #expect(try Self.rules(screen(scrolls: true)).isEmpty)
        let fixed = try Self.rules(screen(scrolls: false))
        #expect(fixed["fold"] == [.smallTouchTarget])  // 24 pt: what the screen shows
        #expect(fixed["below"] == [.offScreen])
        #expect(fixed["shown"] == nil)
    }

    // MARK: Android

    /// A clickable row and the button inside it: touch exploration finds
    /// the button over 126 px (48 dp) of the row, but the button is the
    /// row's descendant, so that is no finding. The same button as the
    /// row's sibling in front covers that part of it.
    @Test func aRowAndItsButtonAreNoFinding() throws {
        let row =
            #"<node class="android.widget.LinearLayout" content-desc="Wi-Fi" clickable="true" focusable="true" bounds="[0,300][1080,468]">"#
        let button =
            #"<node class="android.widget.ImageButton" content-desc="Wi-Fi settings" clickable="true" focusable="true" bounds="[900,321][1026,447]"/>"#
        let nested = try Self.android(row + button + "</node>")
        let tester = HitTester(nested)
        #expect(tester.hit(CGPoint(x: 963, y: 384)).map(nested.id(of:)) == "ImageButton#2")
        #expect(tester.hit(CGPoint(x: 100, y: 384)).map(nested.id(of:)) == "LinearLayout#1")
        #expect(try Self.rules(nested).isEmpty)
        let siblings = try Self.android(row + "</node>" + button)
        #expect(try Self.rules(siblings)["LinearLayout#1"] == [.covered])
    }

    /// ATF's sizes: 105 px at 2.625 px per dp is 40 dp. At the screen's
    /// left or right edge the width is held to 32 dp (40 passes) and the
    /// height to 48 (40 fails); in the top-left corner both to 32; in the
    /// middle both to 48. `--min-target 40` holds to 40 and round(32 × 40 /
    /// 48) = 27.
    @Test func anIconAtTheScreensEdgeIsJudgedAsATFDoes() throws {
        func icon(_ bounds: String) -> String {
            #"<node class="android.widget.ImageButton" content-desc="Icon" clickable="true" bounds="\#(bounds)"/>"#
        }
        let tree = try Self.android(
            icon("[0,600][105,705]") + icon("[975,900][1080,1005]") + icon("[0,0][105,105]")
                + icon("[500,1200][605,1305]"))
        let findings = try Auditor.findings(ScreenAnalysis(tree))
        let small = Dictionary(
            findings.filter { $0.rule == .smallTouchTarget }.map { (tree.id(of: $0.element), $0) },
            uniquingKeysWith: { a, _ in a })
        #expect(Set(small.keys) == ["ImageButton#1", "ImageButton#2", "ImageButton#4"])
        for id in ["ImageButton#1", "ImageButton#2"] {
            let m = try #require(small[id]).message
            #expect(m.contains("height is 40 dp (at least 48 dp)") && !m.contains("width"), "\(id): \(m)")
            #expect(small[id]?.severity == .warning)
        }
        #expect(small["ImageButton#4"]?.message.contains("width is 40 dp (at least 48 dp)") == true)
        let forty = try Auditor.findings(ScreenAnalysis(tree), options: AuditOptions(minimumTarget: 40))
        #expect(forty.filter { $0.rule == .smallTouchTarget }.isEmpty)
        let fifty = try Auditor.findings(ScreenAnalysis(tree), options: AuditOptions(minimumTarget: 50))
        // 50 in the middle, round(32 × 50 / 48) = 33 at an edge: the corner's 40 passes.
        #expect(
            Set(fifty.filter { $0.rule == .smallTouchTarget }.map { tree.id(of: $0.element) }) == [
                "ImageButton#1", "ImageButton#2", "ImageButton#4",
            ])
    }

    /// A 30 dp icon (79 px: 30.1, rounded 30) inside a clickable row 56 dp
    /// tall (147 px) and 411 dp wide (1080 px: 411.4): the row takes the
    /// taps around it and meets 48 dp both ways, so ATF only mentions the
    /// icon (info). A row that only long-clicks, or a ListView, excuses
    /// nothing (warning).
    @Test func aSmallIconInsideABigClickableRowIsInfo() throws {
        func severity(_ rowAttributes: String) throws -> AuditSeverity? {
            let tree = try Self.android(
                #"<node \#(rowAttributes) bounds="[0,600][1080,747]"><node class="android.widget.ImageView" content-desc="Star" clickable="true" bounds="[42,634][121,713]"/></node>"#
            )
            return try Auditor.findings(ScreenAnalysis(tree)).first {
                $0.rule == .smallTouchTarget && tree.id(of: $0.element) == "ImageView#2"
            }?.severity
        }
        #expect(try severity(#"class="android.widget.LinearLayout" clickable="true""#) == .info)
        #expect(try severity(#"class="android.widget.LinearLayout" long-clickable="true""#) == .warning)
        #expect(try severity(#"class="android.widget.ListView" clickable="true""#) == .warning)
        #expect(try severity(#"class="android.webkit.WebView""#) == .info)
    }

    /// ATF leaves alone a small node that a scrolling ancestor reaches no
    /// further than on some side (the list may scroll it into a bigger
    /// place): a 40 dp icon (105 px) whose bottom is its list's bottom is
    /// not judged; 1 px higher, inside the list, it is.
    @Test func aSmallNodeAtItsScrollingListsEdgeIsNotJudged() throws {
        func judged(iconBottom: Int) throws -> Bool {
            let tree = try Self.android(
                #"<node class="android.widget.FrameLayout" scrollable="true" bounds="[0,300][1080,1000]"><node class="android.widget.ImageButton" content-desc="Icon" clickable="true" bounds="[500,\#(iconBottom - 105)][605,\#(iconBottom)]"/><node class="android.widget.TextView" text="x" bounds="[0,300][10,310]"/></node>"#
            )
            return try Auditor.findings(ScreenAnalysis(tree)).contains {
                $0.rule == .smallTouchTarget && tree.id(of: $0.element) == "ImageButton#2"
            }
        }
        #expect(try !judged(iconBottom: 1000))
        #expect(try judged(iconBottom: 999))
    }

    /// iOS snapshots: an on-screen text the dump calls not visible is
    /// reported as info (the geometry is kept); one it calls visible, on
    /// the screen, is not.
    @Test func aVisibleFlagTheGeometryContradictsIsInfo() throws {
        let xml = """
            <AppiumAUT><XCUIElementTypeApplication type="XCUIElementTypeApplication" x="0" y="0" width="390" height="844">\
            <XCUIElementTypeStaticText type="XCUIElementTypeStaticText" label="Shown" visible="false" x="10" y="100" width="100" height="20"/>\
            <XCUIElementTypeStaticText type="XCUIElementTypeStaticText" label="Plain" visible="true" x="10" y="200" width="100" height="20"/>\
            </XCUIElementTypeApplication></AppiumAUT>
            """
        let tree = try ElementTree(contentsOf: Data(xml.utf8))
        let findings = try Auditor.findings(ScreenAnalysis(tree))
        #expect(findings.map(\.rule) == [.visibilityDisagrees])
        #expect(findings.first.map { tree.id(of: $0.element) } == "StaticText#1" && findings.first?.severity == .info)
    }

    /// Two clickable buttons with exactly equal bounds: one finding, on the
    /// first in the dump's order, naming the second; a text with the same
    /// bounds that does not click is no member. One pixel apart, none.
    @Test func twoClickablesWithEqualBoundsAreDuplicates() throws {
        func button(_ bounds: String) -> String {
            #"<node class="android.widget.Button" text="OK" clickable="true" bounds="\#(bounds)"/>"#
        }
        let text = #"<node class="android.widget.TextView" text="OK" bounds="[100,100][500,300]"/>"#
        let tree = try Self.android(button("[100,100][500,300]") + text + button("[100,100][500,300]"))
        let found = try Auditor.findings(ScreenAnalysis(tree)).filter { $0.rule == .duplicateBounds }
        #expect(found.count == 1)
        #expect(found.first.map { tree.id(of: $0.element) } == "Button#1")
        #expect(found.first?.related.map(tree.id(of:)) == "Button#3")
        #expect(found.first?.message.contains("\"Button#3\"") == true && found.first?.severity == .error)
        let apart = try Self.android(button("[100,100][500,300]") + button("[100,100][500,301]"))
        #expect(try Auditor.findings(ScreenAnalysis(apart)).filter { $0.rule == .duplicateBounds }.isEmpty)
    }

    // MARK: WCAG 2.2

    /// axe-core's spacing exception, circles by hand: button A is 20 × 20 pt
    /// at (100, 100), centre (110, 110); its 12 pt circle reaches x = 122.
    /// - B, 20 × 20 at x = 124: its region is 14 away, its centre (134, 110)
    ///   24 away: the two 12 pt circles touch. Passes.
    /// - at x = 123.9: centres 23.9 apart (+0.05 < 24). Fails.
    /// - at x = 123.96: 23.96 rounds to 24.0. Passes.
    /// - E, 44 × 44 (no undersized centre to keep away from) at x = 122: its
    ///   region is exactly 12 away, tangent to A's circle. Passes; at x =
    ///   121.9, 11.9 + 0.05 < 12: fails.
    @Test func theSpacingExceptionWithCirclesByHand() throws {
        func aFails(_ other: CGRect) throws -> Bool {
            let tree = try Self.viewTree(
                400, 400,
                [
                    (Self.control("A", CGRect(x: 100, y: 100, width: 20, height: 20)), nil),
                    (Self.control("B", other), nil),
                ])
            let rules = try Self.rules(tree, AuditOptions(profile: .wcag22))
            return rules["A"] == [.smallTouchTarget]
        }
        #expect(try !aFails(CGRect(x: 124, y: 100, width: 20, height: 20)))
        #expect(try aFails(CGRect(x: 123.9, y: 100, width: 20, height: 20)))
        #expect(try !aFails(CGRect(x: 123.96, y: 100, width: 20, height: 20)))
        #expect(try !aFails(CGRect(x: 122, y: 100, width: 44, height: 44)))
        #expect(try aFails(CGRect(x: 121.9, y: 100, width: 44, height: 44)))
        // Size alone: 24 − 0.05 = 23.95 is enough with no neighbour near.
        #expect(try !aFails(CGRect(x: 300, y: 300, width: 20, height: 20)))
    }

    /// axe-core's largest unoverlapped rectangle: a 40 × 30 pt button whose
    /// right 20 pt another control overlaps keeps a 20 × 30 rectangle, under
    /// 24, and the other's centre is within its circle: it fails; a 60 × 30
    /// one keeps 40 × 30 and passes.
    @Test func theLargestUnoverlappedRectangleIsMeasured() throws {
        for (width, fails) in [(40.0, true), (60.0, false)] {
            let tree = try Self.viewTree(
                400, 400,
                [
                    (Self.element("A", CGRect(x: 100, y: 100, width: width, height: 30), traits: .button), nil),
                    (Self.element("B", CGRect(x: 100 + width - 20, y: 100, width: 20, height: 30), traits: .link), nil),
                ])
            let rules = try Self.rules(tree, AuditOptions(profile: .wcag22))
            #expect((rules["A"]?.contains(.smallTouchTarget) == true) == fails, "\(width)")
        }
        #expect(
            TouchTargetAudit.largestFreeRectangle(
                in: CGRect(x: 0, y: 0, width: 40, height: 30), avoiding: [CGRect(x: 20, y: 0, width: 20, height: 30)])
                == CGRect(x: 0, y: 0, width: 20, height: 30))
    }

    // MARK: Fingerprints, baselines, SARIF

    /// A fingerprint survives a move (the rule, identifier, label and type
    /// are the same) and changes with the label; an element with neither
    /// identifier nor label is named by its id. A baseline holding it marks
    /// the finding as baseline.
    @Test func fingerprintsSurviveSmallChangesAndBaselinesMarkThem() throws {
        func finding(
            _ label: String?, x: CGFloat, id: String = "tiny", baseline: AuditBaseline = .init()
        ) throws
            -> AuditFinding
        {
            var n = Self.element(id, CGRect(x: x, y: 100, width: 20, height: 20), traits: .button)
            n.accessibilityLabel = label
            let tree = try Self.viewTree(400, 400, [(n, nil)])
            let all = try Auditor.findings(
                ScreenAnalysis(tree), options: AuditOptions(baseline: baseline), screen: "s.json")
            #expect(all.count == 1 && all.first?.screen == "s.json")
            return try #require(all.first)
        }
        let a = try finding("Play", x: 10)
        #expect(a.fingerprint.count == 16 && !a.baseline)
        #expect(try finding("Play", x: 200).fingerprint == a.fingerprint)
        #expect(try finding("Play", x: 10, id: "other").fingerprint == a.fingerprint)
        #expect(try finding("Pause", x: 10).fingerprint != a.fingerprint)
        #expect(try finding(nil, x: 10).fingerprint != finding(nil, x: 10, id: "other").fingerprint)
        #expect(try finding("Play", x: 50, baseline: AuditBaseline([a.fingerprint])).baseline)

        // The file round-trips; anything else is refused, naming the file.
        let baseline = AuditBaseline([a.fingerprint, "x\"y"])
        #expect(try AuditBaseline(contentsOf: baseline.data, file: "b.json") == baseline)
        for bad in ["not json", "{\"fingerprints\": []}", "{\"format\": \"axhit-baseline/1\", \"fingerprints\": [1]}"] {
            let error = try #require(throws: TreeError.self) {
                try AuditBaseline(contentsOf: Data(bad.utf8), file: "b.json")
            }
            #expect(error.file == "b.json" && error.description.contains("baseline"), "\(bad)")
        }
    }

    /// The SARIF document, field by field, as cli.md lists them.
    @Test func theSARIFDocumentHasEveryFieldCodeScanningReads() throws {
        var tiny = Self.element("tiny", CGRect(x: 10, y: 100, width: 20, height: 20), traits: .button)
        tiny.accessibilityLabel = "Play"
        let tree = try Self.viewTree(
            400, 400, [(tiny, nil), (Self.element("gone", CGRect(x: 500, y: 0, width: 50, height: 50)), nil)])
        let first = try Auditor.findings(ScreenAnalysis(tree), screen: "screens/a b.json")
        let accepted = AuditBaseline([try #require(first.first { $0.rule == .offScreen }).fingerprint])
        let findings = try Auditor.findings(
            ScreenAnalysis(tree), options: AuditOptions(baseline: accepted), screen: "screens/a b.json")
        let text = AuditSARIFWriter.document(
            [
                .init(
                    file: "screens/a b.json", tree: tree, findings: findings,
                    lines: [try #require(tree.node(withID: "tiny")): 7])
            ],
            version: "1.2.3")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(doc["$schema"] as? String == "https://json.schemastore.org/sarif-2.1.0.json")
        #expect(doc["version"] as? String == "2.1.0")
        let runs = try #require(doc["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let driver = try #require((runs[0]["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "axhit" && driver["version"] as? String == "1.2.3")
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.compactMap { $0["id"] as? String } == AuditRule.allCases.map(\.rawValue))
        for rule in rules {
            for key in ["shortDescription", "fullDescription", "help"] {
                #expect(((rule[key] as? [String: Any])?["text"] as? String)?.isEmpty == false, "\(key)")
            }
            let level = (rule["defaultConfiguration"] as? [String: Any])?["level"] as? String
            #expect(["error", "warning", "note"].contains(level ?? ""))
        }
        #expect(
            rules.first { $0["id"] as? String == "visibility-disagrees" }.flatMap {
                ($0["defaultConfiguration"] as? [String: Any])?["level"] as? String
            } == "note")
        let results = try #require(runs[0]["results"] as? [[String: Any]])
        #expect(results.count == 2)
        let byRule = Dictionary(results.map { ($0["ruleId"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
        let small = try #require(byRule["small-touch-target"])
        #expect(small["level"] as? String == "warning")
        #expect(((small["message"] as? [String: Any])?["text"] as? String)?.contains("20 pt wide") == true)
        let location = try #require((small["locations"] as? [[String: Any]])?.first)
        let physical = try #require(location["physicalLocation"] as? [String: Any])
        #expect((physical["artifactLocation"] as? [String: Any])?["uri"] as? String == "screens/a%20b.json")
        #expect((physical["region"] as? [String: Any])?["startLine"] as? Int == 7)
        let logical = try #require((location["logicalLocations"] as? [[String: Any]])?.first)
        #expect(logical["name"] as? String == "tiny" && logical["kind"] as? String == "element")
        let tinyFinding = try #require(findings.first { $0.rule == .smallTouchTarget })
        #expect((small["partialFingerprints"] as? [String: Any])?["axhit/v1"] as? String == tinyFinding.fingerprint)
        #expect(small["baselineState"] as? String == "new")
        let gone = try #require(byRule["off-screen"])
        #expect(gone["level"] as? String == "error" && gone["baselineState"] as? String == "unchanged")
        let goneRegion =
            ((gone["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?[
                "region"] as? [String: Any]
        #expect(goneRegion?["startLine"] as? Int == 1)  // no line known: 1
    }

    /// The line of an element in its file: a JSON node's `"id"`, an XML
    /// page source's n-th element below the wrapper.
    @Test func elementsAreFoundOnTheirLines() throws {
        let json =
            "{\"format\": \"axhit/1\",\n \"root\": {\"id\": \"w\", \"frame\": [0, 0, 10, 10], \"children\": [\n  {\"id\": \"e\", \"kind\": \"element\"}]}}"
        let jtree = try ElementTree(contentsOf: Data(json.utf8))
        let jlines = ElementLines.lines(in: Data(json.utf8), of: jtree)
        let w = try #require(jtree.node(withID: "w")), e = try #require(jtree.node(withID: "e"))
        #expect(jlines[w] == 2)
        #expect(jlines[e] == 3)
        let xml = Self.dump(
            "\n<node class=\"android.widget.Button\" text=\"OK\" clickable=\"true\" bounds=\"[1,1][50,50]\"/>")
        let xtree = try ElementTree(contentsOf: xml)
        let xlines = ElementLines.lines(in: xml, of: xtree)
        #expect(xlines[try #require(xtree.node(withID: "FrameLayout#0"))] == 1)
        #expect(xlines[try #require(xtree.node(withID: "Button#1"))] == 2)
    }

    // MARK: Real screens

    /// `text` with `old` replaced by `new`, where `old` must occur.
    static func plant(_ text: String, _ old: String, _ new: String) throws -> String {
        let range = try #require(text.range(of: old), "the dump no longer holds \(old)")
        return text.replacingCharacters(in: range, with: new)
    }

    static func corpusText(_ path: String) throws -> String {
        try String(contentsOf: Corpus.directory.appendingPathComponent(path), encoding: .utf8)
    }

    /// The findings on `text` as (rule, element id) pairs.
    static func audit(_ text: String) throws -> [(rule: AuditRule, id: String)] {
        let tree = try ElementTree(contentsOf: Data(text.utf8))
        return try Auditor.findings(ScreenAnalysis(tree)).map { ($0.rule, tree.id(of: $0.element)) }
    }

    /// Defects planted into real dumps are found, each on the element
    /// planted, and the same dumps untouched give no finding at all.
    @Test func plantedDefectsInRealDumpsAreFoundAndTheDumpsAreOtherwiseClean() throws {
        let top = try Self.corpusText("ios/shirates_settings_top_iphone390x844.xml")
        let accessibility = try Self.corpusText("ios/shirates_settings_accessibility_iphone375x667.xml")
        let gmail = try Self.corpusText("android/mobileenv_gmail_newfeatures_overlay_1080x1794_classic.xml")
        for clean in [top, accessibility, gmail] { #expect(try Self.audit(clean).isEmpty) }

        let back = #"x="0" y="20" width="92" height="44" name="Settings""#
        // A shrunken button: the back button, 30 × 30 pt.
        let shrunk = try Self.audit(
            Self.plant(accessibility, back, #"x="0" y="20" width="30" height="30" name="Settings""#))
        #expect(shrunk.map(\.rule) == [.smallTouchTarget] && shrunk.first?.id.hasPrefix("Button#") == true)
        // A control moved off the screen (375 pt wide), out of any scroll container.
        let moved = try Self.audit(
            Self.plant(accessibility, back, #"x="400" y="20" width="92" height="44" name="Settings""#))
        #expect(moved.map(\.rule) == [.offScreen] && moved.first?.id == shrunk.first?.id)
        // A zero-size element: the navigation bar's title.
        let zero = try Self.audit(
            Self.plant(
                accessibility, #"x="137" y="32" width="101" height="21""#, #"x="137" y="32" width="0" height="0""#))
        #expect(zero.map(\.rule) == [.zeroSize] && zero.first?.id.hasPrefix("StaticText#") == true)

        // A half-covered control: a text over the left half (0 ... 195, 248
        // ... 292) of the General cell (0, 248, 390 × 45), after it in the
        // table; the next cell starts at 292.
        let end = "</XCUIElementTypeTable>"
        let half = try Self.audit(
            Self.plant(
                top, end,
                #"<XCUIElementTypeStaticText type="XCUIElementTypeStaticText" enabled="true" visible="true" x="0" y="248" width="195" height="44" name="Planted" label="Planted"/>"#
                    + end))
        #expect(half.count == 1 && half.first?.rule == .covered)
        #expect(half.first?.id.hasPrefix("Cell#") == true)
        // An obstructed double-tap: a dot over the centre (195, 314.5) of the
        // Accessibility cell (0, 292, 390 × 45).
        let dot = try Self.audit(
            Self.plant(
                top, end,
                #"<XCUIElementTypeStaticText type="XCUIElementTypeStaticText" enabled="true" visible="true" x="185" y="305" width="20" height="20" name="Dot" label="Dot"/>"#
                    + end))
        #expect(dot.map(\.rule).contains(.activationObstructed))
        #expect(Set(dot.map(\.id)).count == 1)

        // A shrunken Android button: GOT IT, 60 × 40 px (23 × 15 dp at the
        // inferred 2.625).
        let gotIt = #"bounds="[0,1647][1080,1794]" />"#
        let small = try Self.audit(Self.plant(gmail, gotIt, #"bounds="[500,1700][560,1740]" />"#))
        #expect(small.map(\.rule) == [.smallTouchTarget] && small.first?.id.hasPrefix("TextView#") == true)
        // Duplicate clickable bounds: GOT IT's frame (same bounds) made clickable.
        let frameTag = try #require(gmail.range(of: #"bounds="[0,1647][1080,1794]">"#))
        let open = try #require(
            gmail.range(of: "<node", options: .backwards, range: gmail.startIndex ..< frameTag.lowerBound))
        var duplicated = gmail
        let tag = String(gmail[open.lowerBound ..< frameTag.upperBound])
        duplicated.replaceSubrange(
            open.lowerBound ..< frameTag.upperBound,
            with: try Self.plant(tag, #"clickable="false""#, #"clickable="true""#))
        let dup = try Self.audit(duplicated)
        #expect(dup.map(\.rule) == [.duplicateBounds] && dup.first?.id.hasPrefix("FrameLayout#") == true)
    }

    static var corpus: [URL] { Corpus.files }

    /// Every corpus screen through activation, audit and rendering: every
    /// activation finding agrees with the oracle's status
    /// (`Tests/Fixtures/expectations`, worked out without the engine), every
    /// suggested point really activates its element, the picture is
    /// well-formed XML, and nothing is reported that rests on what a scroll
    /// brings into view (no off-screen finding under a scroll container).
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
            // The audit's own analysis searches circles only where a finding
            // cites one; what it finds is what the whole analysis gives.
            for options in [AuditOptions(), AuditOptions(profile: .wcag22)] {
                func said(_ f: [AuditFinding]) -> [String] {
                    f.map { "\($0.rule) \(tree.id(of: $0.element)) \($0.message)" }
                }
                #expect(
                    said(try Auditor.findings(analysis.tester, options: options))
                        == said(try Auditor.findings(analysis, options: options)), "\(name) \(options.profile)")
            }
            let context = AuditContext(analysis, options: AuditOptions())
            for f in findings where f.rule == .offScreen { #expect(!context.scrolls[f.element.index], "\(name)") }
            // The activation findings say what the independent statuses say.
            let expectations = RealScreenTests.directory.appendingPathComponent(name + ".json")
            guard let data = try? Data(contentsOf: expectations) else { continue }
            let expected = try JSONDecoder().decode(RealScreenTests.Expectation.self, from: data)
            for e in expected.activations {
                let rulesFound = Set(findings.filter { tree.id(of: $0.element) == e.element }.map(\.rule))
                if rulesFound.contains(.activationObstructed) {
                    #expect(e.status == "obstructed", "\(name) \(e.element)")
                }
                if rulesFound.contains(.activationLost) { #expect(e.status == "lost", "\(name) \(e.element)") }
                // A control wholly in view, with no scroll container, is judged.
                guard let id = tree.node(withID: e.element), rules.isControl(id, in: tree), !context.scrolls[id.index],
                    context.space.accessibilityFrame(of: id) == context.judgedPart(of: id)
                else { continue }
                #expect(
                    rulesFound.contains(.activationObstructed) == (e.status == "obstructed"), "\(name) \(e.element)")
                #expect(rulesFound.contains(.activationLost) == (e.status == "lost"), "\(name) \(e.element)")
                checkedStatuses += 1
            }
        }
        #expect(checkedStatuses > 50)
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
        #expect(ScreenAnalysis.pathsOverBudget(exposed, space).isEmpty)
        #expect(tester.hit(CGPoint(x: 100, y: 100), policy: .shape).map(tester.tree.id(of:)) == "e24")
    }

    /// Huge arcs, few elements and many points each, add up to the budget:
    /// k of them fit while k times one's points is within 2,097,152 (their
    /// elements earn far less), so with k + 1 the engine fills the first k
    /// and not the last (frontmost, yet hit nowhere by shape), and the
    /// analysis, before any fill, leaves the last unfilled, naming the
    /// tree's budget, rather than refusing the screen.
    @Test func hugeArcsAddUpToOneBudgetPerTree() throws {
        let circle = try BezierPath(svgPathData: "M -1e7 100 A 1e7 1e7 0 1 1 1e7 100 A 1e7 1e7 0 1 1 -1e7 100 Z")
        let per = circle.flattenedPointCount(tolerance: HitTester.pathTolerance)
        let k = 2_097_152 / per
        #expect(k >= 10 && k <= 200)
        #expect(64 * (k + 2) + (k + 1) * ElementTree.pathPointsEarned(by: circle) < 2_097_152)
        let within = try Self.screen(of: k, circle)
        let space = ScreenSpace(within.tree)
        #expect(ScreenAnalysis.pathsOverBudget(within.tree.preOrder.filter { space.isExposed($0) }, space).isEmpty)
        let centre = CGPoint(x: 100, y: 100)
        #expect(within.hit(centre, policy: .shape).map(within.tree.id(of:)) == "e\(k - 1)")
        let over = try Self.screen(of: k + 1, circle)
        #expect(over.hit(centre, policy: .shape).map(over.tree.id(of:)) == "e\(k - 1)")
        #expect(over.hit(centre, policy: .frame).map(over.tree.id(of:)) == "e\(k)")
        let overSpace = ScreenSpace(over.tree)
        let unfilled = ScreenAnalysis.pathsOverBudget(over.tree.preOrder.filter { overSpace.isExposed($0) }, overSpace)
        let last = try #require(over.tree.node(withID: "e\(k)"))
        #expect(unfilled == [last.index: .screenPoints(budget: 2_097_152)])
        #expect(PathOverBudget.screenPoints(budget: 2_097_152).description.contains("2097152 points together"))
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
