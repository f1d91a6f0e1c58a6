import Foundation
import Testing

/// The command line's output on the bundled screens, pinned: a change of
/// output is a visible diff (`scripts/golden` re-records it when intended).
/// And the README's console examples, run as printed.
@Suite struct GoldenOutputTests {
    static let root = Corpus.directory.deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let golden = root.appendingPathComponent("Tests/Fixtures/golden")

    /// The bundled screens, by the name their outputs are filed under.
    static let screens: [(name: String, path: String)] = {
        var out = [("player", "Data/player.axhit.json")]
        let folder = root.appendingPathComponent("Data/screens")
        for file in ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
        where file.hasSuffix(".xml") || file.hasSuffix(".json") {
            out.append(((file as NSString).deletingPathExtension, "Data/screens/\(file)"))
        }
        precondition(out.count >= 4, "expected the bundled screens in Data/")
        return out
    }()

    static func run(_ arguments: [String]) throws -> CLIRun {
        try #require(try CLIScratch().run(arguments, in: root))
    }

    @Test(arguments: screens.map(\.name))
    func outputsMatchTheGoldenFiles(_ name: String) throws {
        let path = try #require(Self.screens.first { $0.name == name }).path
        for (args, file) in [
            (["activate", path], "\(name).activate.jsonl"),
            (["audit", path], "\(name).audit.txt"),
            (["audit", path, "--json"], "\(name).audit.jsonl"),
        ] {
            let expected = try String(contentsOf: Self.golden.appendingPathComponent(file), encoding: .utf8)
            let run = try Self.run(args)
            #expect(
                run.stdout == expected,
                "axhit \(args.joined(separator: " ")) differs from \(file) (scripts/golden re-records it)")
            #expect(run.stderr.isEmpty)
        }
        let render = try Self.run(["render", path, "-o", "-"])
        let picture = try String(
            contentsOf: Self.root.appendingPathComponent("Data/renders/\(name).svg"), encoding: .utf8)
        #expect(render.stdout == picture, "axhit render \(path) differs from Data/renders/\(name).svg (scripts/golden)")
    }

    /// Every `$ axhit ...` command in the README's console blocks prints the
    /// lines shown under it, in order (`...` skips lines).
    @Test func readmeConsoleExamplesRunAsPrinted() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        var examples = 0
        var inConsole = false
        var command: [String]?
        var shown: [String] = []
        func check() throws {
            guard let command else { return }
            let run = try Self.run(command)
            var lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            lines += run.stderr.split(separator: "\n").map(String.init)
            var at = 0
            for line in shown where line != "..." {
                guard let found = lines[at...].firstIndex(of: line) else {
                    Issue.record("README: `axhit \(command.joined(separator: " "))` does not print: \(line)")
                    return
                }
                at = found + 1
            }
            examples += 1
        }
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line == "```console" {
                inConsole = true
                continue
            }
            if inConsole && line == "```" {
                try check()
                inConsole = false
                command = nil
                continue
            }
            guard inConsole else { continue }
            if line.hasPrefix("$ axhit ") {
                try check()
                command = line.dropFirst("$ axhit ".count).split(separator: " ").map(String.init)
                shown = []
            } else {
                shown.append(line)
            }
        }
        #expect(examples >= 3)
    }
}
