import AXHit
import CommandLineSupport
import Foundation

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
    static func parse(_ argv: [String], options: Set<String>, flags: Set<String>) throws(UsageError)
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
    /// The bytes of `path`, or standard input for `-`.
    /// - Throws: `TreeError` naming the file when it cannot be read.
    static func read(_ path: String) throws(TreeError) -> Data {
        if path == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            let why = !exists ? "no such file" : isDirectory.boolValue ? "is a directory" : "cannot be read"
            throw TreeError(.io, why, file: path)
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

    /// The points of a points file: one per line, `x y` or `x,y`; blank lines
    /// and lines starting with `#` are skipped.
    /// - Throws: `TreeError` naming the file and line of a bad line.
    static func points(_ path: String) throws(TreeError) -> [CGPoint] {
        let data = try read(path)
        let name = displayName(path)
        var points: [CGPoint] = []
        var lineNumber = 0
        // Split on the byte: as Characters, "\r\n" is one grapheme that a
        // split on "\n" would never break, so CRLF files read as one line.
        for bytes in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            guard let line = String(bytes: bytes, encoding: .utf8) else {
                throw TreeError(.input, "not UTF-8 text", file: name, line: lineNumber)
            }
            let trimmed = line.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\r")))
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let fields = trimmed.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" })
            guard fields.count == 2, let x = Double(fields[0]), let y = Double(fields[1]) else {
                throw TreeError(.input, "expected a point as 'x y' or 'x,y', found '\(trimmed.prefix(40))'", file: name, line: lineNumber)
            }
            guard x.isFinite, y.isFinite else {
                throw TreeError(.validation, "the point is not finite", file: name, line: lineNumber)
            }
            points.append(CGPoint(x: x, y: y))
        }
        return points
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
