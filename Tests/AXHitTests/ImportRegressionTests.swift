import Foundation
import Testing

@testable import AXHit

private func importError(_ text: String) -> TreeError? {
    do {
        _ = try ElementTree(contentsOf: Data(text.utf8), file: "in")
        return nil
    } catch {
        return error
    }
}

/// Bugs found by the reliability work (issue 7), each kept fixed.
@Suite struct ImportRegressionTests {
    /// XMLParser's stream mode reported success when the input stopped
    /// inside an element: a truncated dump used to import as far as it went.
    /// (The page-source scanner that replaced it reports the last line.)
    @Test(arguments: [
        ("<hierarchy rotation=\"0\">\n<node bounds=\"[0,0][10,10]\" class=\"a\">", 2),
        ("<AppiumAUT>\n<XCUIElementTypeApplication x=\"0\" y=\"0\" width=\"1\" height=\"1\">\n", 3),
        ("<hierarchy>\n<!-- never closed </hierarchy>", 2),
    ])
    func truncatedXML(_ text: String, _ line: Int) {
        let e = importError(text)
        #expect(e?.line == line, "\(String(describing: e))")
        #expect(e?.message == "malformed XML: unexpected end of input (truncated?)")
    }

    /// The parser's codes were libxml2's, read as `XMLParser.ErrorCode`
    /// (off by one), so most came out as "XML error N"; the scanner that
    /// replaced it keeps the words.
    @Test(arguments: [
        ("<hierarchy>\n<node bounds=\"[0,0][1,1]\"></hierarchy>", "mismatched closing tag"),
        ("<hierarchy><node bounds=\"[0,0][1,1]\" bounds=\"[0,0][1,1]\"/></hierarchy>", "attribute given twice"),
        ("<hierarchy></hierarchy><node/>", "content after the document element"),
        ("<hierarchy>&nope;</hierarchy>", "undeclared entity"),
    ])
    func xmlErrorWords(_ text: String, _ words: String) {
        #expect(importError(text)?.message == "malformed XML: \(words)")
    }

    /// FoundationXML crashed (strlen of a null pointer) on a processing
    /// instruction without data, and on what libxml2 makes of a broken XML
    /// declaration; the fuzzer found both. The scanner that replaced it
    /// steps over processing instructions; these inputs still fail (they
    /// are not well-formed), with an error.
    @Test(arguments: ["processing-instruction-without-data.xml", "broken-declaration.xml"])
    func fuzzFoundInputsThrowInsteadOfCrashing(_ name: String) throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/Regressions/appium-xml/\(name)")
        let data = try Data(contentsOf: url)
        #expect(throws: TreeError.self) { try ElementTree(appiumPageSource: data, file: "in") }
        #expect(throws: TreeError.self) { try ElementTree(uiautomatorDump: data, file: "in") }
    }

    @Test func processingInstructionsAreSkipped() throws {
        #expect(importError("<?foo?><AppiumAUT>")?.line == 1)
        #expect(importError("<?xeecrha?>\n<Ap\n") != nil)
        // A declaration, and a processing instruction anywhere, are stepped over.
        let tree = try ElementTree(
            contentsOf: Data(
                ("<?xml version=\"1.0\"?>\n<AppiumAUT>"
                    + "<XCUIElementTypeApplication x=\"0\" y=\"0\" width=\"10\" height=\"10\"><?foo?></XCUIElementTypeApplication>"
                    + "</AppiumAUT>").utf8), file: "in")
        #expect(tree.count == 1)
        #expect(importError("<?xml version=\"1.0\"?><?foo?>\n<AppiumAUT>") != nil)
    }

    /// Input that is no known format names its first line of content;
    /// whitespace alone is an empty file.
    @Test func unrecognizedInputHasALine() {
        let e = importError("\n\n  hello")
        #expect(e?.line == 3)
        #expect(e?.message.hasPrefix("unrecognized input") == true)
        let empty = importError("")
        #expect(empty?.line == 1)
        #expect(empty?.message == "the file is empty")
        #expect(importError("\n \n")?.message == "the file is empty")
    }

    /// Ids and quoted values may hold newlines (JSON escapes); the error's
    /// description must stay one line for the command line.
    @Test func descriptionIsOneLine() {
        let e = importError(
            "{\"format\": \"axhit/1\", \"root\": {\"id\": \"w\", \"frame\": [0, 0, 1, 1], \"children\": ["
                + "{\"id\": \"a\\nb\", \"kind\": \"element\"}, {\"id\": \"a\\nb\", \"kind\": \"x\\u2028\\r\\t\\u0001\"}]}}"
        )
        #expect(e?.node == "a\nb")  // the fact itself is kept as it is
        #expect(
            e?.description == "in: line 1: node \"a\\nb\": key \"kind\": "
                + "unknown kind \"x\\u{2028}\\r\\t\\u{1}\" (expected \"view\" or \"element\")")
    }
}
