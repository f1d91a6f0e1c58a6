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
        guard let usage = try scratch.run(["speak", file, "--bogus"]) else { return }
        #expect(usage.status == 2)
        guard let help = try scratch.run(["speak", "--help"]) else { return }
        #expect(help.status == 0 && help.stdout.contains("usage: axhit speak TREE [--element ID]"))
    }
}
