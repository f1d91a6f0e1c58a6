#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

/// Writing to the standard streams with every failure checked: a closed
/// pipe, a full disk or a closed descriptor is reported, never a trap (as
/// `FileHandle.write(_:)` traps) and never silently lost.
public enum StandardOutput {
    /// Keeps each standard stream that is closed at startup (`<&-`, `>&-`)
    /// closed in effect, so that nothing opened later takes its number.
    ///
    /// Without this, the first descriptor the program or its libraries open
    /// (a points file, Dispatch's epoll descriptor on another thread) lands
    /// on 0, 1 or 2 and is read as standard input or written as output, and
    /// what happens depends on which thread wins. Each closed number is
    /// taken by `/dev/null` opened the other way round (write-only for
    /// input, read-only for output), so its reads and writes fail with
    /// `EBADF` as on a closed descriptor. Call it first thing in `main`,
    /// before any file or thread is opened. If `/dev/null` cannot be opened
    /// the number is left free, as before.
    public static func holdClosedStreams() {
        for fd: Int32 in 0 ... 2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let held = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY)
            // Lower numbers are free only if closed too, and they were
            // taken in order, so `held` is `fd` or nothing.
            if held >= 0 && held != fd { close(held) }
        }
    }

    /// Writes all of `bytes` to `fd`, retrying after interruptions and
    /// partial writes.
    ///
    /// - Returns: 0 when everything was written, else the `errno` of the
    ///   failed write (`EPIPE`, `ENOSPC`, `EBADF`...).
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        guard var p = bytes.baseAddress else { return 0 }
        var left = bytes.count
        while left > 0 {
            let n = systemWrite(fd, p, left)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if n == 0 { return EIO }
            p += n
            left -= n
        }
        return 0
    }

    /// Writes `text` to standard output, calling `failure` with the
    /// `errno` when that fails.
    public static func write(_ text: String, failure: (Int32) -> Never) {
        var text = text
        let code = text.withUTF8 { writeAll(1, UnsafeRawBufferPointer($0)) }
        if code != 0 { failure(code) }
    }

    /// Writes `text` to standard error, ignoring failures: there is nowhere
    /// left to report them (a closed standard error must not end the tool).
    public static func writeError(_ text: String) {
        var text = text
        _ = text.withUTF8 { writeAll(2, UnsafeRawBufferPointer($0)) }
    }

    /// Ends `tool` after a failed write to standard output, the conventional
    /// way: a reader that went away (a closed pipe, `| head`) quietly, with
    /// the status a SIGPIPE would have given (141); anything else (a full
    /// disk, a closed descriptor) with exit 1 and one line on standard error.
    public static func exitAfterFailedWrite(_ code: Int32, tool: String) -> Never {
        if code == EPIPE { exit(141) }
        writeError("\(tool): cannot write to standard output: \(describe(code))\n")
        exit(1)
    }

    /// The system's words for `code` (`No space left on device`).
    public static func describe(_ code: Int32) -> String {
        guard let s = strerror(code) else { return "error \(code)" }
        return String(cString: s)
    }
}
