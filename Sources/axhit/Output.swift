import AXHit
import CommandLineSupport
import Foundation

/// Everything the tool writes, checked (cli.md: never a crash, never a write
/// over the input).
enum Output {
    /// A failed write to standard output: a reader that went away (a closed
    /// pipe, `| head`) ends the tool quietly with the status a SIGPIPE would
    /// have given (141); anything else (a full disk, a closed descriptor) is
    /// exit 1 with one line.
    static func failed(_ code: Int32) -> Never { StandardOutput.exitAfterFailedWrite(code, tool: "axhit") }

    /// A buffer for standard output whose failures end the tool as `failed`
    /// says.
    static func buffer() -> OutputBuffer { OutputBuffer(failure: failed) }

    /// Writes `text` and a newline to standard output (help, one-line answers).
    static func line(_ text: String) { StandardOutput.write(text + "\n", failure: failed) }

    /// Writes `data` to the file at `path` (`-`: standard output), refusing
    /// to replace the input (`inputPath`, after resolving links).
    ///
    /// - Throws: `TreeError` (`.io`) naming the file when it is the input or
    ///   cannot be written (a full disk, a missing directory, no permission).
    static func write(_ data: Data, to path: String, input inputPath: String) throws(TreeError) {
        if path == "-" {
            let code = data.withUnsafeBytes { StandardOutput.writeAll(1, $0) }
            if code != 0 { failed(code) }
            return
        }
        if inputPath != "-" && sameFile(path, inputPath) {
            throw TreeError(.io, "refusing to write over the input", file: path)
        }
        do {
            // Atomically: a failed write leaves no half-written file behind.
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            let reason = (error as NSError).userInfo[NSUnderlyingErrorKey].map { "\($0)" } ?? error.localizedDescription
            throw TreeError(.io, "cannot write the file (\(reason.prefix(120)))", file: path)
        }
    }

    /// Whether two paths name the same file, links resolved (a path that
    /// does not exist yet names no existing file).
    static func sameFile(_ a: String, _ b: String) -> Bool {
        var sa = stat(), sb = stat()
        guard stat(a, &sa) == 0, stat(b, &sb) == 0 else { return false }
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
    }
}
