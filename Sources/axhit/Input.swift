import AXHit
import CommandLineSupport
import Foundation

#if canImport(Glibc)
import Glibc
private let systemRead = Glibc.read
#elseif canImport(Darwin)
import Darwin
private let systemRead = Darwin.read
#endif

/// The options of every verb that reads a TREE (cli.md): whose rules answer,
/// the density, and whether a snapshot's visibility flags hide nodes.
struct TreeOptions {
    /// The option names (without `--`) that take a value.
    static let names: Set<String> = ["platform", "density"]
    /// The flag names.
    static let flags: Set<String> = ["trust-visible"]
    /// Their lines in a verb's `--help`.
    static let help = """
        --platform ios|android   whose rules answer (overrides what the input says or implies)
        --density D              Android: pixels per dp, for rules stated in dp (default: the
                                 file's screen.scale, else inferred from the screen's width)
        --trust-visible          a snapshot's visibility flags hide nodes (iOS: visible="false";
                                 off by default, since XCTest's flag is often wrong)
        """

    var importOptions = ImportOptions()

    /// Parses a tree-reading verb's arguments: its own `options` and `flags`
    /// plus the tree options.
    /// - Throws: `UsageError` as `Arguments` and `init(_:)`.
    static func parse(
        _ argv: [String], options: Set<String>, flags: Set<String>
    ) throws(UsageError)
        -> (Arguments, TreeOptions)
    {
        let args = try Arguments(argv, options: options.union(names), flags: flags.union(Self.flags))
        return (args, try TreeOptions(args))
    }

    /// The options given in `args`.
    /// - Throws: `UsageError` for an unknown platform or a density that is
    ///   not a finite number > 0.
    init(_ args: Arguments) throws(UsageError) {
        if let name = args.option("platform") {
            guard let platform = Platform(rawValue: name) else {
                throw UsageError("--platform must be ios or android, got '\(name)'")
            }
            importOptions.platform = platform
        }
        if let text = args.option("density") {
            guard let d = Double(text), d.isFinite, d > 0 else {
                throw UsageError("--density must be a finite number > 0 (pixels per dp), got '\(text)'")
            }
            importOptions.density = CGFloat(d)
        }
        importOptions.trustsVisibilityFlags = args.flag("trust-visible")
    }
}

/// Reading what the user names on the command line: files or `-`.
enum Input {
    /// The bytes of `path`, or standard input for `-`: a regular file, a
    /// pipe, a FIFO or a terminal alike (`--points <(...)`), read with the
    /// system's `read` so that a closed or unreadable descriptor is an error
    /// that names the file, never a trap (as `FileHandle`'s reads trap).
    /// - Throws: `TreeError` naming the file when it cannot be opened or read,
    ///   or is a directory.
    static func read(_ path: String) throws(TreeError) -> Data {
        let name = displayName(path)
        let fd = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            let why = code == ENOENT ? "no such file" : "cannot be read: \(StandardOutput.describe(code))"
            throw TreeError(.io, why, file: name)
        }
        defer { if path != "-" { close(fd) } }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw TreeError(.io, "cannot be read: \(StandardOutput.describe(errno))", file: name)
        }
        let type = info.st_mode & S_IFMT
        guard type != S_IFDIR else { throw TreeError(.io, "is a directory", file: name) }
        var data = Data()
        if type == S_IFREG { data.reserveCapacity(Int(info.st_size)) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if n == 0 { return data }
            guard n > 0 else {
                if errno == EINTR { continue }
                throw TreeError(.io, "cannot be read: \(StandardOutput.describe(errno))", file: name)
            }
            data.append(contentsOf: chunk[0 ..< n])
        }
    }

    /// The name errors give for `path`.
    static func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : path }

    /// Reads and imports the tree in `path` (axhit/1 JSON or a page source,
    /// detected from the content), read as `options` say.
    static func tree(_ path: String, _ options: TreeOptions) throws(TreeError) -> ElementTree {
        let data = try read(path)
        return try ElementTree(contentsOf: data, file: displayName(path), options: options.importOptions)
    }

    /// Resolves the tree in `path` for queries.
    static func hitTester(_ path: String, _ options: TreeOptions) throws(TreeError) -> HitTester {
        HitTester(try tree(path, options))
    }

    /// The longest line a points file may have: two numbers need far less,
    /// and a bound keeps a file of one huge line from being read as text.
    static let maximumPointLine = 1024

    /// The points of a points file: one per line, `x y` or `x,y` (spaces,
    /// tabs or one comma between), in the tree's screen units; blank lines
    /// and lines starting with `#` are skipped. Parsed in place, a byte at a
    /// time, with C's `strtod` for the numbers (no `String` per line).
    ///
    /// - Throws: `TreeError` naming the file and line of a line that is not
    ///   two finite numbers (a NUL, trailing junk, a third number) or is
    ///   longer than `maximumPointLine` bytes.
    static func points(_ path: String) throws(TreeError) -> [CGPoint] {
        let data = try read(path)
        let name = displayName(path)
        let result = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Result<[CGPoint], TreeError> in
            Result { () throws(TreeError) -> [CGPoint] in try points(in: raw.bindMemory(to: UInt8.self), file: name) }
        }
        return try result.get()
    }

    /// The points of `bytes` (see `points(_:)`).
    private static func points(in bytes: UnsafeBufferPointer<UInt8>, file name: String) throws(TreeError) -> [CGPoint] {
        var points: [CGPoint] = []
        points.reserveCapacity(bytes.count / 8)
        // One line at a time, copied into a NUL-terminated buffer for strtod.
        var line = [CChar](repeating: 0, count: maximumPointLine + 2)
        var start = 0, lineNumber = 0
        while start < bytes.count {
            lineNumber += 1
            var end = start
            // Stops at the newline, or just past the longest line allowed.
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") && end - start <= maximumPointLine { end += 1 }
            var length = end - start
            guard length <= maximumPointLine else {
                throw TreeError(
                    .input, "the line is longer than \(maximumPointLine) bytes (expected a point as 'x y' or 'x,y')",
                    file: name, line: lineNumber)
            }
            if length > 0 && bytes[start + length - 1] == UInt8(ascii: "\r") { length -= 1 }
            for k in 0 ..< length { line[k] = CChar(bitPattern: bytes[start + k]) }
            line[length] = 0
            if let point = try parsePoint(line, length: length, file: name, line: lineNumber) { points.append(point) }
            start = end + 1
        }
        return points
    }

    /// The point on one line (NUL-terminated in `text`, `length` bytes), or
    /// nil for a blank or comment line.
    private static func parsePoint(_ text: [CChar], length: Int, file: String, line: Int) throws(TreeError) -> CGPoint?
    {
        func isBlank(_ c: CChar) -> Bool { c == 0x20 || c == 0x09 }
        var i = 0
        while i < length && isBlank(text[i]) { i += 1 }
        if i == length || text[i] == CChar(UInt8(ascii: "#")) { return nil }
        func fail() -> TreeError {
            let shown = String(decoding: text[0 ..< min(length, 40)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return TreeError(
                .input, "expected a point as 'x y' or 'x,y', found '\(shown)\(length > 40 ? "…" : "")'",
                file: file, line: line)
        }
        let result = text.withUnsafeBufferPointer { buffer -> Result<CGPoint, TreeError> in
            Result { () throws(TreeError) -> CGPoint in
                guard let base = buffer.baseAddress else { throw fail() }
                /// The number at `i`, and where it ends; strtod skips leading
                /// blanks itself but must have consumed something.
                func number(at i: Int) -> (Double, Int)? {
                    var end: UnsafeMutablePointer<CChar>?
                    let v = strtod(base + i, &end)
                    guard let end, UnsafePointer(end) > base + i else { return nil }
                    return (v, UnsafePointer(end) - base)
                }
                guard let (x, afterX) = number(at: i) else { throw fail() }
                var k = afterX
                while k < length && isBlank(base[k]) { k += 1 }
                if k < length && base[k] == CChar(UInt8(ascii: ",")) { k += 1 }
                // A separator (blanks, a comma) between the two numbers.
                guard k > afterX, let (y, afterY) = number(at: k), afterY <= length else { throw fail() }
                var rest = afterY
                while rest < length && isBlank(base[rest]) { rest += 1 }
                // Anything left (junk, a third number, a NUL inside the line) is an error.
                guard rest == length else { throw fail() }
                guard x.isFinite, y.isFinite else {
                    throw TreeError(.validation, "the point is not finite", file: file, line: line)
                }
                return CGPoint(x: x, y: y)
            }
        }
        return try result.get()
    }

    /// The numbers of a comma-separated list such as `--rect 1,2,3,4`.
    static func numbers(_ text: String, count: Int, option: String) throws(UsageError) -> [Double] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        let values = parts.compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == count, values.count == count, values.allSatisfy(\.isFinite) else {
            throw UsageError("--\(option) needs \(count) comma-separated numbers, got '\(text)'")
        }
        return values
    }
}
