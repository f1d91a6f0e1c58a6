import Foundation
import Testing

@testable import AXHit

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `axhit render`'s tooltips: each exposed element's drawn shape carries
/// what the screen reader says there as a `<title>` child (the description,
/// then the hint on a line of its own), escaped as the picture's other text.
@Suite struct RenderTooltipTests {
    static func picture(_ tree: ElementTree) throws -> String {
        let analysis = try ScreenAnalysis(tree)
        return try SVGRenderer.svg(analysis, findings: try Auditor.findings(analysis))
    }

    static func corpusPicture(_ path: String) throws -> String {
        let data = try Data(contentsOf: Corpus.directory.appendingPathComponent(path))
        return try picture(try ElementTree(contentsOf: data, file: path))
    }

    /// The shapes drawn with tooltip `title` (escaped text): each from its
    /// tag's start to its end.
    static func shapes(titled title: String, in svg: String) -> [Substring] {
        let tail = "<title>\(title)</title>"
        var found: [Substring] = []
        var rest = svg[...]
        while let r = rest.range(of: tail) {
            let start = svg[..<r.lowerBound].lastIndex(of: "\n").map { svg.index(after: $0) } ?? svg.startIndex
            let end = svg[r.upperBound...].firstIndex(of: "\n") ?? svg.endIndex
            found.append(svg[start ..< end])
            rest = svg[r.upperBound...]
        }
        return found
    }

    /// TextField#16 of TheApp's login screen (an Appium page source):
    /// label "username", value "alice". By the rules: a TextField is text
    /// entry; the description is "label: value" and a period, then the
    /// trait word "Text Field."; text entry that is enabled has the hint
    /// "Double tap to edit.". Its shape is its frame (50, 185, 314, 51).
    @Test func aTextFieldOfARealIOSScreen() throws {
        let svg = try Self.corpusPicture("ios/appium_theapp_login_iphone414x896.xml")
        let shapes = Self.shapes(titled: "username: alice. Text Field.\nDouble tap to edit.", in: svg)
        #expect(shapes.count == 1)
        let shape = try #require(shapes.first)
        #expect(shape.hasPrefix("<rect x=\"50\" y=\"185\" width=\"314\" height=\"51\" "), "\(shape)")
        #expect(shape.hasSuffix("</title></rect>"), "\(shape)")
        // Key#18 (an empty label) says nothing: no tooltip is empty.
        #expect(!svg.contains("<title></title>") && !svg.contains("<title>\n"))
    }

    /// Button#11 of a permission dialog (a uiautomator dump): a Button with
    /// text "Allow" that declares click. By TalkBack's rules: name "Allow",
    /// role "Button", joined with ", "; the usage hint "Double-tap to
    /// activate". Its shape is its bounds [133,1206][947,1353] in pixels.
    @Test func aButtonOfARealAndroidScreen() throws {
        let svg = try Self.corpusPicture(
            "android/shieldapp_permissioncontroller_notification-permission-dialog_1080x2400_classic.xml")
        let shapes = Self.shapes(titled: "Allow, Button\nDouble-tap to activate", in: svg)
        #expect(shapes.count == 1)
        let shape = try #require(shapes.first)
        #expect(shape.hasPrefix("<rect x=\"133\" y=\"1206\" width=\"814\" height=\"147\" "), "\(shape)")
    }

    /// Every element that says something has one tooltip, and nothing else
    /// in the picture has one.
    @Test func oneTooltipPerElementThatSpeaks() throws {
        for path in [
            "ios/appium_theapp_login_iphone414x896.xml",
            "android/shieldapp_permissioncontroller_notification-permission-dialog_1080x2400_classic.xml",
        ] {
            let data = try Data(contentsOf: Corpus.directory.appendingPathComponent(path))
            var engine = HitTester(try ElementTree(contentsOf: data, file: path))
            let speaking = try engine.transcript().filter { !$0.description.isEmpty || $0.hint != nil }
            let svg = try Self.corpusPicture(path)
            #expect(svg.components(separatedBy: "<title>").count - 1 == speaking.count, "\(path)")
        }
    }

    /// A label with markup characters, a control character and quotes:
    /// escaped in the tooltip as in the picture's other text (a control
    /// character becomes a space), and the picture stays well-formed XML.
    @Test func aTooltipIsEscaped() throws {
        var tree = ElementTree()
        let window = try tree.append(.view("window", frame: CGRect(x: 0, y: 0, width: 390, height: 844)), under: .none)
        var odd = Node.view("odd", frame: CGRect(x: 10, y: 20, width: 100, height: 44))
        odd.isAccessibilityElement = true
        odd.accessibilityLabel = "a<b & \"c\"\u{7}d"
        odd.accessibilityTraits = .button
        try tree.append(odd, under: window)
        let svg = try Self.picture(tree)
        #expect(Self.shapes(titled: "a&lt;b &amp; &quot;c&quot; d. Button.", in: svg).count == 1, "\(svg)")
        #expect(XMLParser(data: Data(svg.utf8)).parse())
    }
}
