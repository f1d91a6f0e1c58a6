import Foundation
import Testing

/// `axhit order`, `explore` and `map` as cli.md fixes them: JSON Lines on
/// stdout, exit 1 naming file, node and key for an invalid list, exit 2 for
/// a bad path or flags. Runs the built binary.
@Suite struct OrderExploreMapCLITests {
    /// A window of 390 × 844 holding a row of two buttons and, below, a card
    /// whose explicit list reverses its two buttons.
    static func screen(list: String = "[\"c2\", \"c1\"]") -> String {
        """
        {"format": "axhit/1", "root": {"id": "window", "frame": [0, 0, 390, 844], "children": [
          {"id": "b2", "frame": [200, 100, 100, 44], "isAccessibilityElement": true},
          {"id": "b1", "frame": [0, 103, 100, 44], "isAccessibilityElement": true},
          {"id": "card", "frame": [0, 300, 390, 100], "accessibilityElements": \(list), "children": [
            {"id": "c1", "frame": [0, 0, 100, 44], "isAccessibilityElement": true},
            {"id": "c2", "frame": [200, 0, 100, 44], "isAccessibilityElement": true}
          ]}
        ]}}
        """
    }

    @Test func orderPrintsTheSwipeOrder() throws {
        let scratch = try CLIScratch()
        let file = try scratch.write("screen.json", Self.screen())
        guard let run = try scratch.run(["order", file]) else { return }
        #expect(run.status == 0)
        #expect(
            run.stdout == """
                {"index":0,"element":"b1","frame":[0,103,100,44]}
                {"index":1,"element":"b2","frame":[200,100,100,44]}
                {"index":2,"element":"c2","frame":[200,300,100,44]}
                {"index":3,"element":"c1","frame":[0,300,100,44]}

                """)
    }

    @Test func orderRejectsAnInvalidListNamingFileNodeAndKey() throws {
        let scratch = try CLIScratch()
        for list in ["[\"nobody\"]", "[\"c1\", \"c1\"]", "[\"card\"]", "[\"b1\"]"] {
            let file = try scratch.write("bad.json", Self.screen(list: list))
            guard let run = try scratch.run(["order", file]) else { return }
            #expect(run.status == 1, "\(list)")
            #expect(run.stdout.isEmpty)
            #expect(run.stderrLines.count == 1)
            #expect(
                run.stderr.contains("bad.json") && run.stderr.contains("node \"card\"")
                    && run.stderr.contains("key \"accessibilityElements\""),
                "\(run.stderr)")
        }
    }

    @Test func exploreFollowsThePath() throws {
        let scratch = try CLIScratch()
        let file = try scratch.write("screen.json", Self.screen())
        guard let run = try scratch.run(["explore", file, "--path", "50,120 250,120 250,320"]) else { return }
        #expect(run.status == 0)
        #expect(
            run.stdout == """
                {"element":"b1","from":[50,120],"to":[100,120]}
                {"element":null,"from":[100,120],"to":[200,120]}
                {"element":"b2","from":[200,120],"to":[250,144]}
                {"element":null,"from":[250,144],"to":[250,300]}
                {"element":"c2","from":[250,300],"to":[250,320]}

                """)
    }

    @Test func exploreRejectsShortOrNonFinitePathsAsUsage() throws {
        let scratch = try CLIScratch()
        let file = try scratch.write("screen.json", Self.screen())
        for path in ["10,10", "", "10,10 nan,3", "10,10 5,inf", "10,10 5", "a,b c,d"] {
            guard let run = try scratch.run(["explore", file, "--path", path]) else { return }
            #expect(run.status == 2, "\(path)")
            #expect(run.stdout.isEmpty && run.stderrLines.count == 1)
        }
    }

    @Test func mapPrintsOneRegionPerOwner() throws {
        let scratch = try CLIScratch()
        let file = try scratch.write("screen.json", Self.screen())
        guard let focus = try scratch.run(["map", file, "--focus"]),
            let touch = try scratch.run(["map", file, "--touch"])
        else { return }
        #expect(focus.status == 0 && touch.status == 0)
        #expect(
            focus.stdout.hasPrefix(
                "{\"element\":\"b2\",\"wkt\":\"POLYGON ((200 100, 300 100, 300 144, 200 144, 200 100))\"}\n"))
        #expect(focus.stdout.split(separator: "\n").count == 4)
        // The window owns the screen around the views: a hole for b2, a notch
        // for b1, and the part below the card (which spans the width).
        #expect(
            touch.stdout == """
                {"view":"window","wkt":"MULTIPOLYGON (((0 0, 390 0, 390 300, 0 300, 0 147, 100 147, 100 103, 0 103, 0 0), \
                (300 100, 200 100, 200 144, 300 144, 300 100)), ((0 400, 390 400, 390 844, 0 844, 0 400)))"}
                {"view":"b2","wkt":"POLYGON ((200 100, 300 100, 300 144, 200 144, 200 100))"}
                {"view":"b1","wkt":"POLYGON ((0 103, 100 103, 100 147, 0 147, 0 103))"}
                {"view":"card","wkt":"POLYGON ((100 300, 200 300, 200 344, 300 344, 300 300, 390 300, 390 400, 0 400, 0 344, 100 344, 100 300))"}
                {"view":"c1","wkt":"POLYGON ((0 300, 100 300, 100 344, 0 344, 0 300))"}
                {"view":"c2","wkt":"POLYGON ((200 300, 300 300, 300 344, 200 344, 200 300))"}

                """)
        for flags in [[], ["--focus", "--touch"]] {
            guard let run = try scratch.run(["map", file] + flags) else { return }
            #expect(run.status == 2)
        }
    }

    @Test func everyNewVerbHasHelp() throws {
        let scratch = try CLIScratch()
        for verb in ["order", "explore", "map"] {
            guard let run = try scratch.run([verb, "--help"]) else { return }
            #expect(run.status == 0 && run.stdout.hasPrefix("usage: axhit \(verb)"))
        }
    }
}
