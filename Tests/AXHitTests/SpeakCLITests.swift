import Foundation
import Testing

/// `axhit speak` as cli.md fixes it: JSON Lines in navigation order, one
/// element with `--element`, exit 1 naming an id no node has or a node that
/// is not exposed, control characters escaped. Runs the built binary.
@Suite struct SpeakCLITests {
    static let screen = """
        {"format": "axhit/1", "root": {"id": "window", "frame": [0, 0, 390, 844], "children": [
          {"id": "wifi", "frame": [0, 100, 390, 44], "isAccessibilityElement": true, "accessibilityLabel": "Wi-Fi",
           "accessibilityValue": "1", "accessibilityTraits": ["button", "toggleButton"]},
          {"id": "title", "frame": [0, 0, 390, 44], "isAccessibilityElement": true, "accessibilityLabel": "Settings",
           "accessibilityTraits": ["header"]},
          {"id": "odd", "frame": [0, 200, 390, 44], "isAccessibilityElement": true, "accessibilityLabel": "a\\u0007b\\"c"},
          {"id": "deco", "frame": [0, 300, 390, 44]}
        ]}}
        """

    @Test func speakPrintsTheTranscript() throws {
        let scratch = try CLIScratch()
        let file = try scratch.write("screen.json", Self.screen)
        guard let run = try scratch.run(["speak", file]) else { return }
        #expect(run.status == 0)
        #expect(
            run.stdout == """
                {"index":0,"element":"title","speech":"Settings. Heading.","hint":null}
                {"index":1,"element":"wifi","speech":"Wi-Fi. Switch Button. On.","hint":"Double tap to toggle setting."}
                {"index":2,"element":"odd","speech":"a\\u0007b\\"c","hint":null}

                """)
        guard let one = try scratch.run(["speak", file, "--element", "wifi"]) else { return }
        #expect(one.status == 0)
        #expect(
            one.stdout
                == "{\"index\":1,\"element\":\"wifi\",\"speech\":\"Wi-Fi. Switch Button. On.\",\"hint\":\"Double tap to toggle setting.\"}\n"
        )
    }

    @Test func speakRejectsAnUnknownOrUnexposedElement() throws {
        let scratch = try CLIScratch()
        let file = try scratch.write("screen.json", Self.screen)
        for name in ["nobody", "deco", "window"] {
            guard let run = try scratch.run(["speak", file, "--element", name]) else { return }
            #expect(run.status == 1, "\(name)")
            #expect(run.stdout.isEmpty)
            #expect(run.stderrLines.count == 1)
            #expect(run.stderr.contains("screen.json") && run.stderr.contains("\"\(name)\""), "\(run.stderr)")
        }
        // An id with control characters is named escaped, on one line.
        guard let odd = try scratch.run(["speak", file, "--element", "no\u{1B}[2J\nbody"]) else { return }
        #expect(odd.status == 1 && odd.stdout.isEmpty && odd.stderrLines.count == 1)
        #expect(!odd.stderr.contains("\u{1B}") && odd.stderr.contains("body"), "\(odd.stderr)")
        guard let usage = try scratch.run(["speak", file, "--bogus"]) else { return }
        #expect(usage.status == 2)
        guard let help = try scratch.run(["speak", "--help"]) else { return }
        #expect(help.status == 0 && help.stdout.contains("usage: axhit speak TREE [--element ID]"))
    }

    /// A label no string can hold (an unpaired surrogate) is invalid input,
    /// refused by the reader as by every verb: exit 1, one line naming the
    /// file and the line, nothing spoken. (Control characters are spoken
    /// and escaped: `speakPrintsTheTranscript`.)
    @Test func speakRefusesAnUnpairedSurrogate() throws {
        let scratch = try CLIScratch()
        let json = try scratch.write(
            "lone.json",
            """
            {"format": "axhit/1", "root": {"id": "window", "frame": [0, 0, 390, 844], "children": [
              {"id": "a", "frame": [0, 0, 390, 44], "isAccessibilityElement": true, "accessibilityLabel": "x\\ud800y"}
            ]}}
            """)
        let xml = try scratch.write(
            "lone.xml",
            """
            <?xml version="1.0" encoding="UTF-8"?><AppiumAUT><XCUIElementTypeApplication type="XCUIElementTypeApplication" x="0" y="0" width="390" height="844">
            <XCUIElementTypeButton type="XCUIElementTypeButton" label="x&#xD800;y" x="0" y="0" width="390" height="44"/>
            </XCUIElementTypeApplication></AppiumAUT>
            """)
        for (file, name) in [(json, "lone.json"), (xml, "lone.xml")] {
            guard let run = try scratch.run(["speak", file]) else { return }
            #expect(run.status == 1, "\(name): \(run.stderr)")
            #expect(run.stdout.isEmpty && run.stderrLines.count == 1)
            #expect(run.stderr.contains(name) && run.stderr.contains("line 2"), "\(run.stderr)")
        }
    }
}
