import Foundation
import Testing

/// The built `axhit` binary, beside the test bundle that runs (whatever the
/// build's configuration, scratch path or sanitizer; `swift build
/// --build-tests`, as scripts/test does, builds both).
let axhitBinary: URL = {
    // On Linux the test runner is the bundle itself, an executable
    // (…/debug/AXHitPackageTests.xctest) in the products' directory.
    let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    return runner.deletingLastPathComponent().appendingPathComponent("axhit")
}()

/// What one run of `axhit` did.
struct CLIRun {
    var status: Int32
    var stdout: String
    var stderr: String

    /// The lines of standard error (a trailing newline ends the last one).
    var stderrLines: [Substring] { stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast() }
}

/// A scratch directory for one test, removed when the value goes away.
final class CLIScratch {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("axhit-cli-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Writes `bytes` to `name` and returns its path.
    @discardableResult
    func write(_ name: String, _ bytes: Data) throws -> String {
        let url = directory.appendingPathComponent(name)
        try bytes.write(to: url)
        return url.path
    }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String { try write(name, Data(text.utf8)) }

    /// Runs `axhit` with `arguments`, `stdin` on standard input, in
    /// `workingDirectory` (default: the scratch directory); nil (with an
    /// Issue recorded) when the binary has not been built.
    func run(_ arguments: [String], stdin: Data = Data(), in workingDirectory: URL? = nil) throws -> CLIRun? {
        guard FileManager.default.isExecutableFile(atPath: axhitBinary.path) else {
            Issue.record("\(axhitBinary.path) is missing: build first (swift build --build-tests, or scripts/test)")
            return nil
        }
        let process = Process()
        process.executableURL = axhitBinary
        process.arguments = arguments
        process.currentDirectoryURL = workingDirectory ?? directory
        // Files, not pipes: nothing can fill up and block while we wait.
        let outURL = directory.appendingPathComponent(".stdout")
        let errURL = directory.appendingPathComponent(".stderr")
        let inURL = directory.appendingPathComponent(".stdin")
        try Data().write(to: outURL)
        try Data().write(to: errURL)
        try stdin.write(to: inURL)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let input = try FileHandle(forReadingFrom: inURL)
        defer {
            try? out.close()
            try? err.close()
            try? input.close()
        }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        process.waitUntilExit()
        let status = process.terminationReason == .exit ? process.terminationStatus : -process.terminationStatus
        return CLIRun(
            status: status,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}

/// A minimal valid document with `children` under the root view `window`
/// (line 1), each child starting on line 2.
private func cliDocument(children: String) -> String {
    "{\"format\": \"axhit/1\", \"root\": {\"id\": \"window\", \"frame\": [0, 0, 100, 100], \"children\": [\n"
        + children + "\n]}}\n"
}

/// A malformed tree file and what its one error line must name.
struct CLIBadTree: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var line: Int?
    var node: String?
    var key: String?
    var testDescription: String { name }

    init(_ name: String, _ text: String, line: Int?, node: String? = nil, key: String? = nil) {
        self.init(name, bytes: Array(text.utf8), line: line, node: node, key: key)
    }

    init(_ name: String, bytes: [UInt8], line: Int?, node: String? = nil, key: String? = nil) {
        self.name = name
        self.bytes = bytes
        self.line = line
        self.node = node
        self.key = key
    }
}

/// Invalid input ends in exit 1 with one line on stderr naming the file and,
/// where they apply, the line, node and key (cli.md); usage errors exit 2;
/// odd but valid input gets an answer. Runs the built binary.
@Suite struct CLIErrorTests {
    static let badTrees: [CLIBadTree] = [
        CLIBadTree("not JSON", "hello, world\n", line: 1),
        CLIBadTree("empty", "", line: 1),
        CLIBadTree("truncated", "{\"format\": \"axhit/1\",\n\"root\": {\"id\": \"w\", \"frame\": [0, 0,", line: 2),
        CLIBadTree(
            "invalid UTF-8",
            bytes: Array(
                cliDocument(children: "{\"id\": \"e\", \"kind\": \"element\", \"accessibilityLabel\": \"caf").utf8)
                + [0xC3, 0x28] + Array("\"}\n]}}".utf8),
            line: 2),
        CLIBadTree("wrong format", "{\n\"format\": \"axhit/2\", \"root\": {}}", line: 2, key: "format"),
        CLIBadTree("no root", "{\"format\": \"axhit/1\",\n\"screen\": {\"scale\": 3}}", line: 1, key: "root"),
        CLIBadTree(
            "node without id",
            cliDocument(children: "{\"id\": \"a\", \"kind\": \"element\"},\n{\"kind\": \"element\"}"),
            line: 3, node: "(child 2 of \"window\")", key: "id"),
        CLIBadTree(
            "duplicate ids",
            cliDocument(children: "{\"id\": \"a\", \"kind\": \"element\"},\n{\"id\": \"a\", \"kind\": \"element\"}"),
            line: 3, node: "a", key: "id"),
        CLIBadTree(
            "wrong type: frame", cliDocument(children: "{\"id\": \"v\", \"frame\": \"0 0 1 1\"}"),
            line: 2, node: "v", key: "frame"),
        CLIBadTree(
            "wrong type: bool",
            cliDocument(children: "{\"id\": \"v\", \"frame\": [0, 0, 1, 1], \"isHidden\": \"yes\"}"),
            line: 2, node: "v", key: "isHidden"),
        CLIBadTree(
            "wrong type: id", cliDocument(children: "{\"id\": 7, \"kind\": \"element\"}"),
            line: 2, node: "(child 1 of \"window\")", key: "id"),
        CLIBadTree(
            "non-finite number", cliDocument(children: "{\"id\": \"v\",\n\"frame\": [0, 0, 1e999, 1]}"),
            line: 3, node: "v", key: "frame"),
        CLIBadTree(
            "overflowing negative number", cliDocument(children: "{\"id\": \"v\", \"frame\": [-1e400, 0, 1, 1]}"),
            line: 2, node: "v", key: "frame"),
        CLIBadTree(
            "overflowing trait mask",
            cliDocument(
                children: "{\"id\": \"e\", \"kind\": \"element\", \"accessibilityTraits\": 36893488147419103232}"),
            line: 2, node: "e", key: "accessibilityTraits"),
        CLIBadTree(
            "negative width", cliDocument(children: "{\"id\": \"play\", \"frame\": [0, 0, -1, 1]}"),
            line: 2, node: "play", key: "frame"),
        CLIBadTree(
            "negative height",
            cliDocument(children: "{\"id\": \"e\", \"kind\": \"element\", \"accessibilityFrame\": [0, 0, 1, -2]}"),
            line: 2, node: "e", key: "accessibilityFrame"),
        CLIBadTree(
            "transform of 5",
            cliDocument(children: "{\"id\": \"v\", \"frame\": [0, 0, 1, 1],\n\"transform\": [1, 0, 0, 1, 0]}"),
            line: 3, node: "v", key: "transform"),
        CLIBadTree(
            "transform of 7",
            cliDocument(children: "{\"id\": \"v\", \"frame\": [0, 0, 1, 1], \"transform\": [1, 0, 0, 1, 0, 0, 0]}"),
            line: 2, node: "v", key: "transform"),
        CLIBadTree(
            "alpha above 1", cliDocument(children: "{\"id\": \"v\", \"frame\": [0, 0, 1, 1], \"alpha\": 1.01}"),
            line: 2, node: "v", key: "alpha"),
        CLIBadTree(
            "alpha below 0", cliDocument(children: "{\"id\": \"v\", \"frame\": [0, 0, 1, 1], \"alpha\": -0.5}"),
            line: 2, node: "v", key: "alpha"),
        CLIBadTree(
            "unknown kind", cliDocument(children: "{\"id\": \"v\", \"kind\": \"layer\"}"),
            line: 2, node: "v", key: "kind"),
        CLIBadTree(
            "unknown trait",
            cliDocument(children: "{\"id\": \"e\", \"kind\": \"element\", \"accessibilityTraits\": [\"shiny\"]}"),
            line: 2, node: "e", key: "accessibilityTraits"),
        CLIBadTree(
            "view under an element",
            cliDocument(
                children:
                    "{\"id\": \"e\", \"kind\": \"element\", \"children\": [\n{\"id\": \"v\", \"frame\": [0, 0, 1, 1]}]}"
            ),
            line: 3, node: "v", key: "kind"),
        CLIBadTree(
            "malformed path data",
            cliDocument(
                children: "{\"id\": \"e\", \"kind\": \"element\",\n\"accessibilityPath\": {\"d\": \"M 0 0 L 10\"}}"),
            line: 3, node: "e", key: "accessibilityPath.d"),
        CLIBadTree(
            "path data with a letter",
            cliDocument(
                children: "{\"id\": \"e\", \"kind\": \"element\", \"accessibilityPath\": {\"d\": \"M 0 0 X 1 1\"}}"),
            line: 2, node: "e", key: "accessibilityPath.d"),
        CLIBadTree(
            "path data with an infinite number",
            cliDocument(
                children: "{\"id\": \"e\", \"kind\": \"element\", \"accessibilityPath\": {\"d\": \"M 0 0 L 1e999 1\"}}"),
            line: 2, node: "e", key: "accessibilityPath.d"),
        CLIBadTree(
            "malformed iOS XML",
            "<?xml version=\"1.0\"?>\n<AppiumAUT>\n<XCUIElementTypeApplication x=\"0\" y=\"0\" width=\"10\" height=\"10\">\n</AppiumAUT>\n",
            line: 4),
        CLIBadTree(
            "malformed uiautomator XML",
            "<hierarchy rotation=\"0\">\n<node bounds=\"[0,0][10,10]\" class=\"a\"\n</hierarchy>\n",
            line: 3),
        CLIBadTree(
            "truncated uiautomator XML", "<hierarchy rotation=\"0\">\n<node bounds=\"[0,0][10,10]\" class=\"a\">\n",
            line: 3),
        CLIBadTree(
            "truncated iOS XML", "<AppiumAUT>\n<XCUIElementTypeApplication x=\"0\" y=\"0\" width=\"1\" height=\"1\">",
            line: 2),
        CLIBadTree("unclosed XML comment", "<hierarchy>\n<!-- x </hierarchy>", line: 2),
        CLIBadTree(
            "bad uiautomator bounds",
            "<hierarchy>\n<node class=\"android.widget.Button\" bounds=\"[0,0][ten,10]\"/>\n</hierarchy>\n",
            line: 2, node: "Button#0", key: "bounds"),
        CLIBadTree(
            "bad iOS coordinate",
            "<AppiumAUT>\n<XCUIElementTypeApplication x=\"0\" y=\"0\" width=\"-1\" height=\"1\"/>\n</AppiumAUT>\n",
            line: 2, node: "Application#0", key: "frame"),
        CLIBadTree(
            "newline in a duplicate id",
            cliDocument(
                children: "{\"id\": \"a\\nb\", \"kind\": \"element\"},\n{\"id\": \"a\\nb\", \"kind\": \"element\"}"),
            line: 3, node: "a\\nb", key: "id"),
        CLIBadTree(
            "newline in an unknown kind", cliDocument(children: "{\"id\": \"v\", \"kind\": \"x\\ny\"}"),
            line: 2, node: "v", key: "kind"),
        CLIBadTree("not a tree at all", "\n\u{0}\u{1}binary", line: 2),
    ]

    @Test(arguments: badTrees)
    func badTree(_ c: CLIBadTree) throws {
        let scratch = try CLIScratch()
        let tree = try scratch.write("tree.json", Data(c.bytes))
        let points = try scratch.write("points.txt", "1 1\n")
        guard let run = try scratch.run(["hit", tree, "--points", points]) else { return }
        expectOneErrorLine(run, file: tree, line: c.line, node: c.node, key: c.key)
    }

    @Test func missingFile() throws {
        let scratch = try CLIScratch()
        let points = try scratch.write("points.txt", "1 1\n")
        let missing = scratch.directory.appendingPathComponent("nope.json").path
        guard let run = try scratch.run(["hit", missing, "--points", points]) else { return }
        expectOneErrorLine(run, file: missing, line: nil, node: nil, key: nil)
        guard let dir = try scratch.run(["hit", scratch.directory.path, "--points", points]) else { return }
        expectOneErrorLine(dir, file: scratch.directory.path, line: nil, node: nil, key: nil)
    }

    @Test func badTreeOnStandardInput() throws {
        let scratch = try CLIScratch()
        let points = try scratch.write("points.txt", "1 1\n")
        let stdin = Data(cliDocument(children: "{\"id\": \"play\", \"frame\": [0, 0, -1, 1]}").utf8)
        guard let run = try scratch.run(["hit", "-", "--points", points], stdin: stdin) else { return }
        #expect(run.stderr == "axhit: <stdin>: line 2: node \"play\": key \"frame\": width is negative\n")
        #expect(run.status == 1)
    }

    /// A points file with a bad line is named with that line's number.
    @Test(arguments: [
        ("1 1\n2,2\nthree 3\n", 3),
        ("# header\n\n1 1\n1 2 3\n", 4),
        ("1 1\n\n1e999 0\n", 3),
        ("1 1\r\n2 2\r\nx\r\n", 3),
        ("5\n", 1),
    ])
    func badPointsLine(_ text: String, _ line: Int) throws {
        let scratch = try CLIScratch()
        let tree = try scratch.write("tree.json", cliDocument(children: ""))
        let points = try scratch.write("points.txt", text)
        guard let run = try scratch.run(["hit", tree, "--points", points]) else { return }
        expectOneErrorLine(run, file: points, line: line, node: nil, key: nil)
    }

    /// A large file is read in pieces on all cores; the first bad line, in
    /// file order, is still the one named, with its number in the file.
    @Test func badPointsLineFarIntoALargeFile() throws {
        let scratch = try CLIScratch()
        let tree = try scratch.write("tree.json", cliDocument(children: ""))
        var lines = [String](repeating: "12.5 7", count: 600_000)
        for k in stride(from: 0, to: lines.count, by: 9_973) { lines[k] = "# comment" }
        lines[123_456] = ""
        lines[400_000] = "12.5 7 8"  // line 400,001: the first bad one
        lines[500_000] = "x"
        let points = try scratch.write("points.txt", lines.joined(separator: "\n"))
        guard let run = try scratch.run(["hit", tree, "--points", points]) else { return }
        expectOneErrorLine(run, file: points, line: 400_001, node: nil, key: nil)
    }

    @Test func pointsNotUTF8() throws {
        let scratch = try CLIScratch()
        let tree = try scratch.write("tree.json", cliDocument(children: ""))
        let points = try scratch.write("points.txt", Data([0x31, 0x20, 0x31, 0x0A, 0xFF, 0x0A]))
        guard let run = try scratch.run(["hit", tree, "--points", points]) else { return }
        expectOneErrorLine(run, file: points, line: nil, node: nil, key: nil)
    }

    /// Every verb `axhit --help` lists has its own help: its usage line, no
    /// unfilled interpolation, and the budgets its work is bounded by, as
    /// Docs/cli.md states them.
    @Test func everyVerbStatesItsLimits() throws {
        let scratch = try CLIScratch()
        guard let top = try scratch.run(["--help"]) else { return }
        let verbs = top.stdout.split(separator: "\n").drop { $0 != "verbs:" }.dropFirst()
            .compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(verbs.count == 11, "\(verbs)")
        for verb in verbs {
            guard let run = try scratch.run([verb, "--help"]) else { return }
            #expect(run.status == 0 && run.stderr.isEmpty, "\(verb)")
            #expect(run.stdout.hasPrefix("usage: axhit \(verb)"), "\(verb)")
            #expect(!run.stdout.contains("\\("), "\(verb): an unfilled interpolation")
            #expect(run.stdout.contains("more than 4,194,304 points is refused"), "\(verb)")
        }
        let budgets = [
            ("activate", "in at most 16,384 cells"), ("audit", "at most 65,536 cells of one element"),
            ("render", "more than 1e12 units across"), ("hit", "at most 1,024 bytes"),
            ("shape", "(default 0.05, at least 1e-6)"),
        ]
        for (verb, line) in budgets {
            guard let run = try scratch.run([verb, "--help"]) else { return }
            #expect(run.stdout.contains(line), "\(verb)")
        }
    }

    /// Errors that come after the tree is read: a path GEOS cannot fill
    /// (`shape --d` names the option as its file), a view scaled to nothing
    /// asked for an inverse, an unknown view.
    @Test func errorsAfterReading() throws {
        let scratch = try CLIScratch()
        let tree = try scratch.write(
            "tree.json",
            cliDocument(
                children: """
                    {"id": "flat", "frame": [0, 0, 10, 10], "transform": [0, 0, 0, 0, 0, 0]}
                    """))
        guard let inverse = try scratch.run(["convert", tree, "--view", "flat", "--point", "1,1", "--inverse"]) else {
            return
        }
        expectOneErrorLine(inverse, file: tree, line: nil, node: "flat", key: "transform")
        guard let unknown = try scratch.run(["convert", tree, "--view", "nobody", "--point", "1,1"]) else { return }
        expectOneErrorLine(unknown, file: tree, line: nil, node: "nobody", key: "id")
        guard let shape = try scratch.run(["shape", "--d", "M 0 0 L"]) else { return }
        expectOneErrorLine(shape, file: "--d", line: nil, node: nil, key: nil)
    }

    @Test(arguments: [
        [],
        ["frobnicate"],
        ["hit"],
        ["hit", "tree.json"],
        ["hit", "tree.json", "--points", "p", "--policy", "bogus"],
        ["hit", "-", "--points", "-"],
        ["hit", "tree.json", "--points", "p", "--bogus"],
        ["convert", "tree.json", "--view", "w"],
        ["convert", "tree.json", "--view", "w", "--rect", "1,2,3"],
        ["convert", "tree.json", "--view", "w", "--rect", "0,0,-1,1"],
        ["convert", "tree.json", "--view", "w", "--point", "1,2", "--rect", "1,2,3,4"],
        ["shape"],
        ["shape", "--d", "M0 0", "--tolerance", "0"],
        ["shape", "--d", "M0 0", "--tolerance", "nan"],
        ["shape", "--d", "M0 0", "--tolerance", "1e-300"],
        ["shape", "--d", "M0 0", "extra"],
    ])
    func usageError(_ arguments: [String]) throws {
        let scratch = try CLIScratch()
        guard let run = try scratch.run(arguments) else { return }
        #expect(run.status == 2, "\(arguments): \(run.stderr)")
        // With no verb the usage goes to stdout; every other usage error is one line on stderr.
        if !arguments.isEmpty {
            #expect(run.stdout.isEmpty)
            #expect(run.stderrLines.count == 1, "\(run.stderr)")
            #expect(run.stderr.hasPrefix("axhit: "))
        }
    }

    /// A tolerance below the floor is an absurd request, refused as such
    /// (naming the floor) rather than as a path too complex to flatten;
    /// the floor itself is taken.
    @Test func toleranceBelowTheFloorIsAUsageError() throws {
        let scratch = try CLIScratch()
        let curve = "M 0 0 C 10 0 10 10 0 10 Z"
        for tiny in ["1e-300", "9.99e-7", "4.9e-324", "0"] {
            let run = try #require(try scratch.run(["shape", "--d", curve, "--tolerance", tiny]))
            #expect(run.status == 2 && run.stdout.isEmpty, "\(tiny): \(run.stderr)")
            #expect(
                run.stderr
                    == "axhit: shape: --tolerance must be at least 1e-6 (points), got \(tiny) (axhit shape --help)\n",
                "\(tiny)")
        }
        let floor = try #require(try scratch.run(["shape", "--d", curve, "--tolerance", "1e-6"]))
        #expect(floor.status == 0 && floor.stdout.hasPrefix("POLYGON (("), "\(floor.stderr)")
    }

    // MARK: Odd but valid

    /// Huge coordinates: frames at 1e300, paths at 1e15.
    @Test func hugeCoordinates() throws {
        let scratch = try CLIScratch()
        let tree = try scratch.write(
            "tree.json",
            """
            {"format": "axhit/1", "root": {"id": "w", "frame": [0, 0, 1e300, 1e300], "children": [
              {"id": "far", "kind": "element", "accessibilityFrame": [1e299, 1e299, 1e299, 1e299]},
              {"id": "big", "frame": [0, 0, 1e15, 1e15], "isAccessibilityElement": true,
               "accessibilityPath": {"d": "M 0 0 L 1e15 0 L 1e15 1e15 Z"}}
            ]}}
            """)
        let points = try scratch.write("points.txt", "1.5e299 1.5e299\n9e14 1e14\n1e14 9e14\n-1 -1\n")
        guard let frame = try scratch.run(["hit", tree, "--points", points]) else { return }
        #expect(frame.status == 0, "\(frame.stderr)")
        #expect(frame.stderr.isEmpty)
        #expect(
            frame.stdout == """
                {"point":[1.5e+299,1.5e+299],"element":"far"}
                {"point":[900000000000000,100000000000000],"element":"big"}
                {"point":[100000000000000,900000000000000],"element":"big"}
                {"point":[-1,-1],"element":null}

                """)
        guard let shape = try scratch.run(["hit", tree, "--points", points, "--policy", "shape"]) else { return }
        #expect(shape.status == 0, "\(shape.stderr)")
        // The triangle holds the point below its diagonal, not the one above.
        #expect(
            shape.stdout == """
                {"point":[1.5e+299,1.5e+299],"element":"far"}
                {"point":[900000000000000,100000000000000],"element":"big"}
                {"point":[100000000000000,900000000000000],"element":null}
                {"point":[-1,-1],"element":null}

                """)
        guard let convert = try scratch.run(["convert", tree, "--view", "big", "--rect", "0,0,1e300,1e300"]) else {
            return
        }
        #expect(convert.status == 0, "\(convert.stderr)")
        #expect(convert.stdout == "{\"rect\":[0,0,1e+300,1e+300]}\n")
    }

    /// Zero sizes hold no point (closed-open); degenerate paths fill nothing.
    @Test func zeroSizesAndDegeneratePaths() throws {
        let scratch = try CLIScratch()
        let tree = try scratch.write(
            "tree.json",
            """
            {"format": "axhit/1", "root": {"id": "w", "frame": [0, 0, 100, 100], "children": [
              {"id": "base", "kind": "element", "accessibilityFrame": [0, 0, 20, 20]},
              {"id": "zero", "frame": [5, 5, 0, 0], "isAccessibilityElement": true},
              {"id": "dot", "kind": "element", "accessibilityFrame": [0, 0, 10, 10], "accessibilityPath": {"d": "M 5 5"}},
              {"id": "line", "kind": "element", "accessibilityFrame": [10, 0, 10, 10], "accessibilityPath": {"d": "M10 0L20 0"}},
              {"id": "empty", "kind": "element", "accessibilityFrame": [0, 10, 10, 10], "accessibilityPath": {"d": ""}}
            ]}}
            """)
        let points = try scratch.write("points.txt", "5 5\n15 0\n5 15\n19.5 19.5\n")
        guard let frame = try scratch.run(["hit", tree, "--points", points]) else { return }
        #expect(frame.status == 0, "\(frame.stderr)")
        #expect(
            frame.stdout == """
                {"point":[5,5],"element":"dot"}
                {"point":[15,0],"element":"line"}
                {"point":[5,15],"element":"empty"}
                {"point":[19.5,19.5],"element":"base"}

                """)
        guard let shape = try scratch.run(["hit", tree, "--points", points, "--policy", "shape"]) else { return }
        #expect(shape.status == 0, "\(shape.stderr)")
        #expect(
            shape.stdout == """
                {"point":[5,5],"element":"base"}
                {"point":[15,0],"element":"base"}
                {"point":[5,15],"element":"base"}
                {"point":[19.5,19.5],"element":"base"}

                """)
        for d in ["M 5 5", "M0 0L10 0", "", "M0 0 L0 0 L0 0 Z", "M 0 0 C 0 0 0 0 0 0"] {
            guard let run = try scratch.run(["shape", "--d", d]) else { return }
            #expect(run.status == 0, "\(d): \(run.stderr)")
            #expect(run.stdout == "POLYGON EMPTY\n", "\(d)")
        }
    }

    /// A view scaled to zero (a singular transform) takes no point, and
    /// neither do its descendants; converting into it is the one error.
    @Test func viewScaledToZero() throws {
        let scratch = try CLIScratch()
        let tree = try scratch.write(
            "tree.json",
            """
            {"format": "axhit/1", "root": {"id": "w", "frame": [0, 0, 100, 100], "children": [
              {"id": "under", "kind": "element", "accessibilityFrame": [0, 0, 100, 100]},
              {"id": "flat", "frame": [0, 0, 100, 100], "transform": [0, 0, 0, 0, 0, 0], "isAccessibilityElement": true},
              {"id": "flat2", "frame": [0, 0, 100, 100], "transform": [1, 0, 0, 0, 0, 0], "children": [
                {"id": "inside", "kind": "element", "accessibilityFrameInContainerSpace": [0, 0, 100, 100],
                 "accessibilityPath": {"d": "M 0 0 H 100 V 100 H 0 Z", "coordinateSpace": "view"}}
              ]}
            ]}}
            """)
        let points = try scratch.write("points.txt", "50 50\n10 50\n")
        for policy in ["frame", "shape"] {
            guard let run = try scratch.run(["hit", tree, "--points", points, "--policy", policy]) else { return }
            #expect(run.status == 0, "\(run.stderr)")
            #expect(
                run.stdout == """
                    {"point":[50,50],"element":"under"}
                    {"point":[10,50],"element":"under"}

                    """, "\(policy)")
        }
        guard let convert = try scratch.run(["convert", tree, "--view", "flat", "--rect", "10,10,20,20"]) else {
            return
        }
        #expect(convert.status == 0, "\(convert.stderr)")
        #expect(convert.stdout == "{\"rect\":[50,50,0,0]}\n")
    }

    /// A 100k-deep chain of views reads and answers.
    @Test func deepChain() throws {
        let depth = 100_000
        var text = "{\"format\": \"axhit/1\", \"root\": "
        text.reserveCapacity(depth * 64)
        for i in 0 ..< depth { text += "{\"id\": \"n\(i)\", \"frame\": [0, 0, 100, 100], \"children\": [\n" }
        text += "{\"id\": \"leaf\", \"kind\": \"element\", \"accessibilityFrame\": [10, 10, 10, 10]}"
        text += String(repeating: "]}", count: depth) + "}\n"
        let scratch = try CLIScratch()
        let tree = try scratch.write("tree.json", text)
        let points = try scratch.write("points.txt", "15 15\n50 50\n")
        for policy in ["frame", "shape"] {
            guard let run = try scratch.run(["hit", tree, "--points", points, "--policy", policy]) else { return }
            #expect(run.status == 0, "\(run.stderr)")
            #expect(
                run.stdout == """
                    {"point":[15,15],"element":"leaf"}
                    {"point":[50,50],"element":null}

                    """, "\(policy)")
        }
        // A bad node at the bottom is still named, with its line.
        let bad = text.replacingOccurrences(
            of: "\"leaf\", \"kind\": \"element\"", with: "\"leaf\", \"kind\": \"elephant\"")
        try scratch.write("bad.json", bad)
        guard let run = try scratch.run(["hit", "bad.json", "--points", points]) else { return }
        expectOneErrorLine(run, file: "bad.json", line: depth + 1, node: "leaf", key: "kind")
    }

    /// A very wide container: `count` elements side by side on a 1000-wide
    /// grid of 1x1 cells. (1M in a release build is checked by hand; 200k
    /// keeps the debug test quick.)
    @Test func wideContainer() throws {
        let count = 200_000
        var text =
            "{\"format\": \"axhit/1\", \"root\": {\"id\": \"w\", \"frame\": [0, 0, 1000, \(count / 1000)], \"children\": [\n"
        text.reserveCapacity(count * 72)
        for i in 0 ..< count {
            if i > 0 { text += ",\n" }
            text +=
                "{\"id\": \"e\(i)\", \"kind\": \"element\", \"accessibilityFrame\": [\(i % 1000), \(i / 1000), 1, 1]}"
        }
        text += "\n]}}\n"
        let scratch = try CLIScratch()
        let tree = try scratch.write("tree.json", text)
        let points = try scratch.write("points.txt", "0.5 0.5\n999.5 199.5\n123.25 45.75\n1000 0\n")
        guard let run = try scratch.run(["hit", tree, "--points", points]) else { return }
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout == """
                {"point":[0.5,0.5],"element":"e0"}
                {"point":[999.5,199.5],"element":"e199999"}
                {"point":[123.25,45.75],"element":"e45123"}
                {"point":[1000,0],"element":null}

                """)
    }
}

/// Checks the one-error-line contract: exit 1, nothing on stdout, one line on
/// stderr, `axhit: FILE: [line N: ][node "ID": ][key "KEY": ]message`.
func expectOneErrorLine(
    _ run: CLIRun, file: String, line: Int?, node: String?, key: String?,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(run.status == 1, "status \(run.status): \(run.stderr)", sourceLocation: sourceLocation)
    #expect(run.stdout.isEmpty, "stdout: \(run.stdout.prefix(200))", sourceLocation: sourceLocation)
    #expect(
        run.stderrLines.count == 1 && run.stderr.hasSuffix("\n"), "stderr: \(run.stderr)",
        sourceLocation: sourceLocation)
    var prefix = "axhit: \(file): "
    if let line { prefix += "line \(line): " }
    if let node { prefix += "node \"\(node)\": " }
    if let key { prefix += "key \"\(key)\": " }
    #expect(run.stderr.hasPrefix(prefix), "expected \(prefix)…, got \(run.stderr)", sourceLocation: sourceLocation)
    // A message follows the facts.
    #expect(run.stderr.count > prefix.count + 2, "\(run.stderr)", sourceLocation: sourceLocation)
}
