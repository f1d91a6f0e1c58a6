import AXHit
import CommandLineSupport
import Foundation

/// `cli-hit/<workload>`: `axhit hit TREE --points FILE` end to end, as a
/// script runs it: the `axhit` built next to this harness reads the tree
/// (written as `axhit/1`) and a file of `cliPointTotal` points (fewer where
/// the workload bounds them, `Workload.cliPoints`; the run's query points,
/// to 0.1 pt, cycled), answers them and writes its JSON lines
/// to a pipe the harness drains. Reports the whole run per point (reading,
/// building, parsing, answering, printing), the same run with no points (the
/// tree's fixed cost), and the difference per point. Skipped when there is
/// no `axhit` beside the harness (`swift build -c release` builds both).
enum CLIHitBenchmark {
    static func run(_ c: BenchContext) throws {
        let name = c.name("cli-hit")
        let axhit = Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent("axhit")
        guard let axhit, FileManager.default.isExecutableFile(atPath: axhit.path) else {
            c.results.note("\(name): skipped (no axhit beside axhit-bench: swift build -c release --product axhit)")
            return
        }
        let total = c.workload.cliPoints(c.settings.cliPointTotal, elements: c.elements)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("axhit-bench-cli-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let treeFile = directory.appendingPathComponent("tree.axhit.json")
        let pointsFile = directory.appendingPathComponent("points.txt")
        let emptyFile = directory.appendingPathComponent("empty.txt")
        try c.screen.tree.axhitJSON().write(to: treeFile)
        let points = c.points.map { CGPoint(x: ($0.x * 10).rounded() / 10, y: ($0.y * 10).rounded() / 10) }
        try pointsText(points, total: total).write(to: pointsFile)
        try Data().write(to: emptyFile)

        let fixed = try runHit(axhit, treeFile, emptyFile)
        guard fixed.status == 0 else {
            // The reader refuses the tree (one of its budgets): no row, but
            // its reason, so that the skip is seen.
            c.results.note("\(name): skipped: axhit refuses the tree: \(fixed.errors.prefix(300))")
            return
        }
        guard fixed.lineCount == 0 else { throw BenchError("\(name): axhit answered points of an empty file") }
        let full = try runHit(axhit, treeFile, pointsFile)
        guard full.status == 0 else {
            throw BenchError("\(name): axhit hit exited with \(full.status): \(full.errors.prefix(500))")
        }
        try check(c, name, full, points: points, total: total)
        let perPoint = full.nanoseconds / Double(total)
        c.log.log(
            "  \(Report.count(total)) points: \(String(format: "%.2f", full.nanoseconds / 1e9)) s, "
                + "tree alone \(String(format: "%.2f", fixed.nanoseconds / 1e9)) s")
        c.results.add(name, "axhit", elements: c.elements, metric: "per-point", unit: "ns", samples: [perPoint])
        c.results.add(
            name, "axhit", elements: c.elements, metric: "tree-alone", unit: "ms", samples: [fixed.nanoseconds / 1e6])
        c.results.add(
            name, "axhit", elements: c.elements, metric: "per-point-beyond-tree", unit: "ns",
            samples: [(full.nanoseconds - fixed.nanoseconds) / Double(total)])
    }

    /// `total` lines `x y`, cycling through `points`.
    static func pointsText(_ points: [CGPoint], total: Int) -> Data {
        var text: [UInt8] = []
        text.reserveCapacity(total * 14)
        for k in 0 ..< total {
            let p = points[k % points.count]
            // As the tools print numbers: the shortest text that reads back.
            JSONText.appendNumber(p.x, to: &text)
            text.append(UInt8(ascii: " "))
            JSONText.appendNumber(p.y, to: &text)
            text.append(UInt8(ascii: "\n"))
        }
        return Data(text)
    }

    /// A run's wall time, its first `checkedLines` lines, how many lines
    /// it printed, its exit status and what it wrote to standard error.
    struct Run {
        var nanoseconds: Double
        var lines: [Substring]
        var lineCount: Int
        var status: Int32
        var errors: String
    }

    /// Lines kept for `check`.
    static let checkedLines = 4096

    /// Runs `axhit hit tree --points points`, draining its output.
    static func runHit(_ axhit: URL, _ tree: URL, _ points: URL) throws -> Run {
        let process = Process()
        process.executableURL = axhit
        process.arguments = ["hit", tree.path, "--points", points.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        // Its error line, if any, is small: read once it has exited.
        let errors = Pipe()
        process.standardError = errors
        let start = Stopwatch.now()
        try process.run()
        // Drained as a fast reader would: `read` into one reused buffer,
        // newlines counted with `memchr`, so that the harness takes as little
        // of the machine from `axhit` as it can.
        var head: [UInt8] = [], newlines = 0
        let fd = pipe.fileHandleForReading.fileDescriptor
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            buffer.withUnsafeBytes { raw in
                let chunk = UnsafeRawBufferPointer(rebasing: raw[0 ..< n])
                if head.count < checkedLines * 128 { head.append(contentsOf: chunk) }
                guard let base = chunk.baseAddress else { return }
                var at = base
                let end = base + n
                while at < end, let hit = memchr(at, Int32(UInt8(ascii: "\n")), end - at) {
                    newlines += 1
                    at = UnsafeRawPointer(hit) + 1
                }
            }
        }
        process.waitUntilExit()
        let ns = Double(Stopwatch.now() - start)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let lines = String(decoding: head, as: UTF8.self).split(separator: "\n").prefix(checkedLines)
        return Run(
            nanoseconds: ns, lines: Array(lines), lineCount: newlines, status: process.terminationStatus,
            errors: message)
    }

    /// A benchmark of a wrong answer is worthless: one line per point, and
    /// the first lines name what the library's own `hit` answers there.
    static func check(_ c: BenchContext, _ name: String, _ run: Run, points: [CGPoint], total: Int) throws {
        guard run.lineCount == total else {
            throw BenchError("\(name): axhit printed \(run.lineCount) lines for \(total) points")
        }
        let engine = try c.engine()
        for (k, line) in run.lines.enumerated() {
            let p = points[k % points.count]
            let expected = engine.hit(p).map { JSONText.string(engine.tree.id(of: $0)) } ?? "null"
            guard line.hasSuffix(",\"element\":\(expected)}") else {
                throw BenchError(
                    "\(name): line \(k + 1) is \(line); the library answers \(expected) at (\(p.x), \(p.y))")
            }
        }
    }
}
