import Foundation

/// Progress lines on stderr, each stamped with the time since the start, so
/// a long run shows it is alive and where the time goes.
final class Progress: Sendable {
    let start = Stopwatch.now()
    let enabled: Bool

    init(enabled: Bool = true) { self.enabled = enabled }

    var elapsedSeconds: Double { Double(Stopwatch.now() - start) / 1e9 }

    func log(_ message: String) {
        guard enabled else { return }
        let stamp = String(format: "[%7.1fs]", elapsedSeconds)
        FileHandle.standardError.write(Data("\(stamp) \(message)\n".utf8))
    }
}
