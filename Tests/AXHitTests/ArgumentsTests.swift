import CommandLineSupport
import Testing

/// The command line's argument parser: long options, flags, positionals and
/// a verb's short names, against what each spelling must mean.
@Suite struct ArgumentsTests {
    @Test func aShortNameStandsForItsOptionOnlyWhereAnOptionCanStand() throws {
        let options: Set<String> = ["output", "element"]
        let short = ["-o": "output"]
        let a = try Arguments(["tree.json", "-o", "out.svg"], options: options, flags: [], shortNames: short)
        #expect(a.option("output") == "out.svg" && a.positionals == ["tree.json"])
        // As another option's value, or after `--`, it is just text.
        let b = try Arguments(["--element", "-o", "t", "--", "-o"], options: options, flags: [], shortNames: short)
        #expect(b.option("element") == "-o" && b.option("output") == nil && b.positionals == ["t", "-o"])
        // Given twice (short and long) is the repeated-option error; without
        // the short name it is an unknown option.
        #expect(throws: UsageError.self) {
            try Arguments(["-o", "a", "--output", "b"], options: options, flags: [], shortNames: short)
        }
        #expect(throws: UsageError.self) { try Arguments(["-o", "a"], options: options, flags: []) }
        #expect(throws: UsageError.self) { try Arguments(["t", "-o"], options: options, flags: [], shortNames: short) }
    }
}
