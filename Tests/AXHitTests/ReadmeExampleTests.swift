import Foundation
import Testing

/// The README's library example is `Examples/readme-example/main.swift`,
/// built with the package: the README must show that file exactly, and
/// running it must print what its comments say.
@Suite struct ReadmeExampleTests {
    static let root = Corpus.directory.deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func theReadmeShowsTheBuiltExample() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let example = try String(
            contentsOf: Self.root.appendingPathComponent("Examples/readme-example/main.swift"), encoding: .utf8)
        #expect(
            readme.contains("```swift\n" + example + "```\n"),
            "README.md's library example differs from Examples/readme-example/main.swift")
    }

    @Test func theExamplePrintsWhatItsCommentsSay() throws {
        let binary = axhitBinary.deletingLastPathComponent().appendingPathComponent("readme-example")
        let process = Process()
        process.executableURL = binary
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(String(decoding: data, as: UTF8.self) == "row Inbox 156.0\nnothing\n[\"ok\"] 0\n")
    }
}
