import CommandLineSupport
import Foundation

// axhit-bench: how the engine scales, and whether it regressed (README in
// Benchmarks/README.md). Exit status: 0 ok, 1 failure (including an engine
// that disagrees with the naive walk), 2 a regression (compare, ab), 64 usage.

let usage = """
    usage: axhit-bench run [--quick] [--only PATTERN] [--elements N] [--json FILE] [--svg FILE]
           axhit-bench compare BASELINE.json NEW.json [--threshold 5%]
           axhit-bench ab OLD_BENCH NEW_BENCH [--only PATTERN] [--rounds 8]
           axhit-bench count [--only PATTERN] [--json FILE] [--cache-sim]
           axhit-bench selftest
           axhit-bench VERB --help
    """

/// Runs a verb and exits. The naive baseline recurses once per tree level
/// (a 100k-level chain included), so the work runs on a thread with a large
/// stack (address space only: pages are committed as touched).
func runVerb(_ arguments: [String]) -> Never {
    func fail(_ message: String, _ status: Int32) -> Never {
        FileHandle.standardError.write(Data("axhit-bench: \(message)\n".utf8))
        exit(status)
    }
    guard let verb = arguments.first else { fail("missing verb\n" + usage, 64) }
    let rest = Array(arguments.dropFirst())
    do {
        switch verb {
        case "run": exit(try RunCommand.run(rest))
        case "compare": exit(try CompareCommand.run(rest))
        case "ab": exit(try ABCommand.run(rest))
        case "count": exit(try CountCommand.run(rest))
        case "selftest": exit(try SelfTest.run(rest))
        case "--help", "-h", "help":
            print(usage + "\n\n" + RunCommand.catalogue)
            exit(0)
        default: fail("unknown verb '\(verb)'\n" + usage, 64)
        }
    } catch let error as UsageError {
        fail("\(verb): \(error) (axhit-bench \(verb) --help)", 64)
    } catch {
        fail("\(error)", 1)
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
let worker = Thread { runVerb(arguments) }
worker.stackSize = 1 << 30
worker.start()
// The worker exits the process; the main thread only waits.
while true { sleep(60) }
