import Foundation
import Testing

/// The command line's contract for writes and options (cli.md): a closed
/// pipe ends quietly, a full disk is one line and exit 1, a closed standard
/// stream is never a crash, the input is never overwritten, and bad option
/// values are usage errors.
@Suite struct CLIReliabilityTests {
    /// Runs `script` with `sh -c`, `$AXHIT` being the binary and the
    /// scratch directory the working directory.
    static func shell(_ script: String, in scratch: CLIScratch) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.environment = ["AXHIT": axhitBinary.path, "PATH": "/usr/bin:/bin"]
        process.currentDirectoryURL = scratch.directory
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// A screen whose picture is far larger than a pipe's buffer.
    static func bigScreen(_ scratch: CLIScratch) throws -> String {
        var children: [String] = []
        for k in 0 ..< 400 {
            children.append(
                "{\"id\": \"e\(k)\", \"frame\": [\(k % 20 * 20), \(k / 20 * 40), 18, 38], \"isAccessibilityElement\": true}"
            )
        }
        return try scratch.write(
            "big.json",
            "{\"format\": \"axhit/1\", \"root\": {\"id\": \"w\", \"frame\": [0, 0, 400, 800], \"children\": [\(children.joined(separator: ", "))]}}"
        )
    }

    @Test func aReaderThatGoesAwayEndsTheToolQuietly() throws {
        let scratch = try CLIScratch()
        let path = try Self.bigScreen(scratch)
        // The reader takes 10 bytes and closes the pipe; the SVG is ~100 KB.
        let process = Process()
        process.executableURL = axhitBinary
        process.arguments = ["render", path, "-o", "-"]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        _ = try out.fileHandleForReading.read(upToCount: 10)
        try out.fileHandleForReading.close()
        let message = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 141, "the status a SIGPIPE would give")
        #expect(message.isEmpty, "\(String(decoding: message, as: UTF8.self))")
    }

    @Test func aFullDiskIsOneLineAndExit1() throws {
        let scratch = try CLIScratch()
        _ = try Self.bigScreen(scratch)
        for verb in ["activate big.json", "render big.json -o -", "export big.json -o -", "--help"] {
            let run = try Self.shell("\"$AXHIT\" \(verb) >/dev/full", in: scratch)
            #expect(run.status == 1, "\(verb): status \(run.status)")
            #expect(
                run.stderr == "axhit: cannot write to standard output: No space left on device\n",
                "\(verb): \(run.stderr)")
        }
    }

    @Test func closedStreamsAreNotACrash() throws {
        let scratch = try CLIScratch()
        _ = try Self.bigScreen(scratch)
        // A closed standard error: the error cannot be told, the status can.
        #expect(try Self.shell("\"$AXHIT\" activate missing.json 2>&-", in: scratch).status == 1)
        // A closed standard output.
        let help = try Self.shell("\"$AXHIT\" --help >&-", in: scratch)
        #expect(help.status == 1 && help.stderr.hasPrefix("axhit: cannot write to standard output"))
        #expect(try Self.shell("\"$AXHIT\" activate big.json >&- 2>&-", in: scratch).status == 1)
    }

    /// Input from a pipe, a FIFO or a closed or unreadable standard input:
    /// read, or one line naming the stream, never a trap.
    @Test func inputFromAnyKindOfStream() throws {
        let scratch = try CLIScratch()
        _ = try Self.bigScreen(scratch)
        try scratch.write("points.txt", "1 1\n")
        let piped = try Self.shell("cat big.json | \"$AXHIT\" hit - --points points.txt", in: scratch)
        #expect(piped.status == 0 && piped.stderr.isEmpty, "\(piped)")
        let fifo = try Self.shell(
            "mkfifo p.fifo && (echo '1 1' > p.fifo &) && \"$AXHIT\" hit big.json --points p.fifo", in: scratch)
        #expect(fifo.status == 0 && fifo.stderr.isEmpty, "\(fifo)")
        // Closed standard input, forty times: the descriptor a library opens
        // on another thread once took number 0 about one run in seventy, and
        // was read as the tree ("Invalid argument").
        let closed = try Self.shell(
            "for i in $(seq 40); do \"$AXHIT\" hit - --points points.txt <&- || echo \"status $?\" >&2; done",
            in: scratch)
        let once = "axhit: <stdin>: cannot be read: Bad file descriptor\nstatus 1\n"
        #expect(closed == (0, String(repeating: once, count: 40)), "\(closed)")
        let directory = try Self.shell("\"$AXHIT\" hit - --points points.txt < .", in: scratch)
        #expect(directory == (1, "axhit: <stdin>: is a directory\n"), "\(directory)")
    }

    @Test func theInputIsNeverOverwritten() throws {
        let scratch = try CLIScratch()
        let path = try Self.bigScreen(scratch)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        try FileManager.default.createSymbolicLink(
            atPath: scratch.directory.appendingPathComponent("link.svg").path,
            withDestinationPath: path)
        for output in ["big.json", "./big.json", "link.svg"] {
            for verb in ["render", "export"] {
                let run = try #require(try scratch.run([verb, "big.json", "-o", output]))
                #expect(run.status == 1, "\(verb) -o \(output)")
                #expect(run.stderr == "axhit: \(output): refusing to write over the input\n", "\(run.stderr)")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        // A missing directory is one line naming the file.
        let run = try #require(try scratch.run(["export", "big.json", "-o", "no/such/dir/out.json"]))
        #expect(run.status == 1 && run.stderr.hasPrefix("axhit: no/such/dir/out.json: cannot write the file"))
    }

    @Test func densityAndPlatformValuesAreChecked() throws {
        let scratch = try CLIScratch()
        _ = try Self.bigScreen(scratch)
        for bad in ["0", "-2", "nan", "inf", "x"] {
            let run = try #require(try scratch.run(["audit", "big.json", "--density", bad]))
            #expect(run.status == 2, "--density \(bad)")
            #expect(run.stderr.contains("--density must be a finite number > 0"))
        }
        let platform = try #require(try scratch.run(["hit", "big.json", "--points", "-", "--platform", "windows"]))
        #expect(platform.status == 2 && platform.stderr.contains("--platform must be ios or android"))
    }

    @Test func exportWritesAnyInputAsAxhitAndReadsBackTheSame() throws {
        let scratch = try CLIScratch()
        let dump = Corpus.directory.appendingPathComponent(
            "android/seniorshield_systemui_quick_settings_1080x2400_classic.xml"
        ).path
        let exported = try #require(try scratch.run(["export", dump, "-o", "out.json"]))
        #expect(exported.status == 0, "\(exported.stderr)")
        let a = try #require(try scratch.run(["activate", dump]))
        let b = try #require(try scratch.run(["activate", "out.json"]))
        #expect(a.stdout == b.stdout && !a.stdout.isEmpty)
        let text = try String(contentsOf: scratch.directory.appendingPathComponent("out.json"), encoding: .utf8)
        #expect(
            text.contains("\"platform\": \"android\"") && text.contains("\"source\": \"snapshot\"")
                && text.contains("\"actions\": [\"click\""))
    }
}
