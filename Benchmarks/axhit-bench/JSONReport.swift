import CommandLineSupport
import Foundation

/// The `--json` file: machine, git commit, configuration, notes, and one row
/// per measurement (`ResultRow`). `compare` reads it back.
struct JSONReport {
    /// Key/value pairs (values as JSON text) of what was measured and how:
    /// `RunSettings.jsonFields`, or count's.
    let configuration: [(String, String)]
    let rows: [ResultRow]
    let notes: [String]
    let durationSeconds: Double
    let peakResident: Int?

    func text() -> String {
        var s = "{\n  \"schema\": \"axhit-bench/1\",\n"
        s += "  \"date\": \(JSONText.string(ISO8601DateFormatter().string(from: Date()))),\n"
        s +=
            "  \"machine\": {" + Machine.fields().map { "\(JSONText.string($0.0)): \($0.1)" }.joined(separator: ", ")
            + "},\n"
        s += "  \"git\": {\"commit\": \(JSONText.string(Machine.gitCommit()))},\n"
        var config = configuration
        #if DEBUG
        config.append(("build", "\"debug\""))
        #else
        config.append(("build", "\"release\""))
        #endif
        config.append(("durationSeconds", JSONText.number((durationSeconds * 10).rounded() / 10)))
        config.append(("peakResidentBytes", peakResident.map(String.init) ?? "null"))
        s +=
            "  \"configuration\": {" + config.map { "\(JSONText.string($0.0)): \($0.1)" }.joined(separator: ", ")
            + "},\n"
        s += "  \"notes\": [" + notes.map(JSONText.string).joined(separator: ", ") + "],\n"
        s += "  \"results\": [\n"
        s += rows.map { r in
            "    {\"benchmark\": \(JSONText.string(r.benchmark)), \"implementation\": \(JSONText.string(r.implementation)), "
                + "\"elements\": \(r.elements), \"metric\": \(JSONText.string(r.metric)), \"unit\": \(JSONText.string(r.unit)), "
                + "\"p50\": \(number(r.p50)), \"p90\": \(number(r.p90)), \"p99\": \(number(r.p99)), \"samples\": \(r.samples)"
                + list("values", r.values) + list("passMedians", r.passMedians)
                + (r.otherCores.map { ", \"otherCores\": \(number($0))" } ?? "") + "}"
        }.joined(separator: ",\n")
        s += "\n  ]\n}\n"
        return s
    }

    /// `, "name": [1.5,2]`, or nothing for nil.
    private func list(_ name: String, _ values: [Double]?) -> String {
        guard let values else { return "" }
        return ", \"\(name)\": [" + values.map(number).joined(separator: ",") + "]"
    }

    /// Four significant digits are plenty for timings and keep diffs readable.
    private func number(_ v: Double) -> String {
        guard v.isFinite, v != 0 else { return JSONText.number(v) }
        let digits = max(0, 3 - Int(log10(abs(v)).rounded(.down)))
        let scale = pow(10, Double(digits))
        return JSONText.number((v * scale).rounded() / scale)
    }

    /// The report's rows, read back (`compare`).
    static func read(_ path: String) throws -> [ResultRow] {
        struct File: Decodable { var results: [ResultRow] }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw BenchError("cannot read \(path): \(error.localizedDescription)")
        }
        do { return try JSONDecoder().decode(File.self, from: data).results } catch {
            throw BenchError("\(path) is not an axhit-bench JSON report: \(error)")
        }
    }
}

/// What the numbers were measured on.
enum Machine {
    static func fields() -> [(String, String)] {
        let cpu = firstValue(in: "/proc/cpuinfo", key: "model name") ?? "unknown"
        let memKB = firstValue(in: "/proc/meminfo", key: "MemTotal").flatMap {
            Int($0.split(separator: " ").first ?? "")
        }
        var uts = utsname()
        uname(&uts)
        let kernel = withUnsafeBytes(of: &uts.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let arch = withUnsafeBytes(of: &uts.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return [
            ("cpu", JSONText.string(cpu)),
            ("cores", String(ProcessInfo.processInfo.activeProcessorCount)),
            ("memoryBytes", memKB.map { String($0 * 1024) } ?? "null"),
            ("os", JSONText.string("Linux \(kernel)")),
            ("arch", JSONText.string(arch)),
            ("hostname", JSONText.string(ProcessInfo.processInfo.hostName)),
        ]
    }

    /// The value after `key :` on the first line that has it.
    static func firstValue(in file: String, key: String) -> String? {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(key) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    /// `git rev-parse HEAD` in the package (with `-dirty` when tracked files
    /// changed), or "unknown" without git.
    static func gitCommit() -> String {
        guard let head = git(["rev-parse", "HEAD"]), !head.isEmpty else { return "unknown" }
        let dirty = git(["status", "--porcelain", "--untracked-files=no"]).map { !$0.isEmpty } ?? false
        return dirty ? head + "-dirty" : head
    }

    private static func git(_ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", BenchPaths.packageRoot.path] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
