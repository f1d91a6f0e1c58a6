import Foundation
import Testing

/// `axhit audit`'s CI surface (cli.md): several trees and folders, each
/// finding naming its screen; JSON Lines and SARIF; baselines; `--fail-on`
/// and exit status 3, with 1 winning for invalid input; usage errors.
@Suite struct CLIAuditTests {
    /// A 200 × 200 pt screen with one 20 pt button ("tiny": a warning) and,
    /// when `error`, an element wholly off it ("gone": an error).
    static func screen(error: Bool) -> String {
        let gone =
            error
            ? #", {"id": "gone", "kind": "element", "isAccessibilityElement": true, "accessibilityFrame": [300, 0, 50, 50]}"#
            : ""
        return """
            {"format": "axhit/1", "screen": {"bounds": [0, 0, 200, 200]},
             "root": {"id": "window", "frame": [0, 0, 200, 200], "children": [
              {"id": "tiny", "kind": "element", "isAccessibilityElement": true, "accessibilityLabel": "Play",
               "accessibilityTraits": ["button"], "accessibilityFrame": [10, 10, 20, 20]}\(gone)]}}
            """
    }

    static func lines(_ s: String) -> [[String: Any]] {
        s.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    @Test func severalTreesAndFoldersNameTheirScreensAndFailOnDecidesTheStatus() throws {
        let scratch = try CLIScratch()
        try FileManager.default.createDirectory(
            at: scratch.directory.appendingPathComponent("screens"), withIntermediateDirectories: true)
        try scratch.write("screens/a.json", Self.screen(error: true))
        try scratch.write("screens/b.json", Self.screen(error: false))
        try scratch.write("screens/notes.txt", "not a dump")
        try scratch.write("c.json", Self.screen(error: false))

        let run = try #require(try scratch.run(["audit", "screens", "c.json", "--json"]))
        #expect(run.status == 3)  // an error, and --fail-on error by default
        #expect(run.stderr == "axhit: screens/notes.txt: skipped: not a dump AXHit reads\n")
        let found = Self.lines(run.stdout)
        #expect(
            found.map { $0["screen"] as? String } == ["screens/a.json", "screens/a.json", "screens/b.json", "c.json"])
        #expect(
            found.map { $0["rule"] as? String } == [
                "small-touch-target", "off-screen", "small-touch-target", "small-touch-target",
            ])
        for f in found {
            #expect(f["severity"] is String && f["element"] is String && f["message"] is String)
            #expect((f["fingerprint"] as? String)?.count == 16 && f["baseline"] as? Bool == false)
        }
        // The same button on two screens has one fingerprint.
        #expect(found[2]["fingerprint"] as? String == found[3]["fingerprint"] as? String)

        // Warnings only: 0 by default, 3 at --fail-on warning or info, 0 at never.
        for (args, status) in [
            ([], Int32(0)), (["--fail-on", "warning"], 3), (["--fail-on", "info"], 3), (["--fail-on", "never"], 0),
        ] {
            #expect(try scratch.run(["audit", "c.json"] + args)?.status == status, "\(args)")
        }
        #expect(try scratch.run(["audit", "screens", "--fail-on", "never"])?.status == 0)
        let text = try #require(try scratch.run(["audit", "screens", "c.json", "--fail-on", "never"]))
        #expect(text.stdout.contains("screens/a.json: error: off-screen: \"gone\": "))
        #expect(text.stdout.hasSuffix("4 findings: 1 error, 3 warnings, 0 info\n"))
    }

    @Test func baselinesAcceptFindingsAndWriteBaselineAcceptsThemAll() throws {
        let scratch = try CLIScratch()
        try scratch.write("a.json", Self.screen(error: true))
        let write = try #require(try scratch.run(["audit", "a.json", "--write-baseline", "base.json"]))
        #expect(write.status == 0)  // every finding accepted
        let base = try String(contentsOf: scratch.directory.appendingPathComponent("base.json"), encoding: .utf8)
        #expect(base.contains("\"format\": \"axhit-baseline/1\""))
        let again = try #require(try scratch.run(["audit", "a.json", "--json", "--baseline", "base.json"]))
        #expect(again.status == 0)
        #expect(Self.lines(again.stdout).map { $0["baseline"] as? Bool } == [true, true])
        // A new finding on top of the baseline fails the run again.
        try scratch.write("a.json", Self.screen(error: true).replacingOccurrences(of: "\"Play\"", with: "\"Stop\""))
        let changed = try #require(try scratch.run(["audit", "a.json", "--json", "--baseline", "base.json"]))
        #expect(changed.status == 0)  // the new finding is a warning: under --fail-on error
        #expect(Self.lines(changed.stdout).map { $0["baseline"] as? Bool } == [false, true])
        #expect(try scratch.run(["audit", "a.json", "--baseline", "base.json", "--fail-on", "warning"])?.status == 3)

        // A baseline that is not JSON, or not a baseline: 1, naming the file.
        try scratch.write("bad.json", "not json")
        try scratch.write("other.json", "{\"fingerprints\": []}")
        for file in ["bad.json", "other.json", "missing.json"] {
            let run = try #require(try scratch.run(["audit", "a.json", "--baseline", file]))
            #expect(run.status == 1 && run.stderr.hasPrefix("axhit: \(file): ") && run.stdout.isEmpty, "\(file)")
        }
    }

    @Test func theSARIFDocumentComesFromTheCommandLine() throws {
        let scratch = try CLIScratch()
        try scratch.write("a.json", Self.screen(error: true))
        let run = try #require(try scratch.run(["audit", "a.json", "--sarif"]))
        #expect(run.status == 3)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(doc["version"] as? String == "2.1.0")
        let results = try #require((doc["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        #expect(results.map { $0["ruleId"] as? String } == ["small-touch-target", "off-screen"])
        let location = (results[0]["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
        #expect((location?["artifactLocation"] as? [String: Any])?["uri"] as? String == "a.json")
        // The element "tiny" is written on line 3 of the file.
        #expect((location?["region"] as? [String: Any])?["startLine"] as? Int == 3)
    }

    @Test func invalidInputWinsAfterTheValidOnesAreAudited() throws {
        let scratch = try CLIScratch()
        try scratch.write("a.json", Self.screen(error: true))
        try scratch.write("bad.json", #"{"format": "axhit/1", "root": {"id": "r", "frame": [0, 0, -1, 1]}}"#)
        let run = try #require(try scratch.run(["audit", "bad.json", "a.json", "--json"]))
        #expect(run.status == 1)
        #expect(run.stderr == "axhit: bad.json: line 1: node \"r\": key \"frame\": width is negative\n")
        #expect(Self.lines(run.stdout).count == 2)  // a.json still audited
        // A folder with no dump: 1, naming it.
        try FileManager.default.createDirectory(
            at: scratch.directory.appendingPathComponent("empty"), withIntermediateDirectories: true)
        try scratch.write("empty/readme.txt", "hello")
        let empty = try #require(try scratch.run(["audit", "empty"]))
        #expect(empty.status == 1 && empty.stderr.hasSuffix("axhit: empty: the folder holds no dump AXHit reads\n"))
    }

    @Test func badOptionsAreUsageErrors() throws {
        let scratch = try CLIScratch()
        try scratch.write("a.json", Self.screen(error: false))
        for args in [
            ["--profile", "strict"], ["--min-target", "-1"], ["--min-target", "nan"], ["--fail-on", "sometimes"],
            ["--json", "--sarif"],
        ] {
            let run = try #require(try scratch.run(["audit", "a.json"] + args))
            #expect(run.status == 2 && run.stdout.isEmpty && run.stderr.hasPrefix("axhit: audit: "), "\(args)")
        }
        #expect(try scratch.run(["audit"])?.status == 2)
        #expect(try scratch.run(["audit", "a.json", "--profile", "wcag22", "--min-target", "30"])?.status == 0)
    }
}
