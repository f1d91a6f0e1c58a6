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
        _ argv: [String], options: Set<String>, flags: Set<String>, shortNames: [String: String] = [:]
    ) throws(UsageError)
        -> (Arguments, TreeOptions)
    {
        let args = try Arguments(
            argv, options: options.union(names), flags: flags.union(Self.flags), shortNames: shortNames)
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
        // A regular file is read straight into place (its size, and one
        // byte more to see it end); anything else a chunk at a time.
        var data = Data(count: type == S_IFREG ? Int(info.st_size) + 1 : 1 << 16)
        var filled = 0
        while true {
            if filled == data.count { data.count += max(1 << 16, data.count / 2) }
            let n = data.withUnsafeMutableBytes {
                systemRead(fd, $0.baseAddress?.advanced(by: filled), $0.count - filled)
            }
            if n == 0 {
                data.count = filled
                return data
            }
            guard n > 0 else {
                if errno == EINTR { continue }
                throw TreeError(.io, "cannot be read: \(StandardOutput.describe(errno))", file: name)
            }
            filled += n
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

    /// The points of the points file `path` (`PointsFile`), parsed with
    /// the help of whoever calls `share.help()` (`PointsFile.points`).
    ///
    /// - Throws: `TreeError` naming the file, and the line of a line that is
    ///   not a point.
    static func points(_ path: String, sharing share: PieceShare? = nil) throws(TreeError) -> [CGPoint] {
        let data = try read(path)
        let name = displayName(path)
        let result = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Result<[CGPoint], TreeError> in
            Result { () throws(TreeError) -> [CGPoint] in
                try PointsFile.points(in: raw.bindMemory(to: UInt8.self), file: name, sharing: share)
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
