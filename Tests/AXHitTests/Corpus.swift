import Foundation

/// The real page sources in `Tests/Fixtures/corpus` (a copy of the shared
/// corpus, with its sources and licenses in SOURCES.md there).
enum Corpus {
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // AXHitTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Fixtures/corpus")

    /// Every page source, sorted by path (never empty: the tests that walk it
    /// must not pass vacuously).
    static var files: [URL] {
        let fm = FileManager.default
        var files: [URL] = []
        for dir in ["android", "ios"] {
            let folder = directory.appendingPathComponent(dir)
            for name in (try? fm.contentsOfDirectory(atPath: folder.path)) ?? [] {
                files.append(folder.appendingPathComponent(name))
            }
        }
        precondition(!files.isEmpty, "no corpus files under \(directory.path)")
        return files.sorted { $0.path < $1.path }
    }
}
