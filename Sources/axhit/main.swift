import AXHit
import CommandLineSupport
import Foundation

// Before any file or thread: a closed standard stream stays closed.
StandardOutput.holdClosedStreams()

/// `axhit VERB ...`: the command-line face of the AXHit library (cli.md).
/// Exit status: 0 on success, 1 for invalid input, 2 for a usage error;
/// a verb may end with another (`audit`: 3 for new findings).
let verbs: [(name: String, summary: String, run: ([String]) throws -> Int32)] = [
    ("hit", "which element is under each point", succeeding(HitCommand.run)),
    ("convert", "convert a rect, point or path between a view's space and the screen", succeeding(ConvertCommand.run)),
    ("shape", "the region an SVG path fills, as WKT", succeeding(ShapeCommand.run)),
    (
        "activate", "where each element's double-tap lands and whether it reaches the element",
        succeeding(ActivateCommand.run)
    ),
    ("audit", "geometric accessibility checks, as text or JSON Lines", AuditCommand.run),
    ("render", "an SVG picture of the screen, its elements, taps and findings", succeeding(RenderCommand.run)),
    ("order", "the exposed elements in navigation order (where a swipe goes next)", succeeding(OrderCommand.run)),
    ("explore", "what a finger dragged along a path meets, stretch by stretch", succeeding(ExploreCommand.run)),
    ("map", "where each element is focused (--focus) or each view takes a tap (--touch)", succeeding(MapCommand.run)),
    ("speak", "what the screen reader says at each element, in navigation order", succeeding(SpeakCommand.run)),
    ("export", "write any input as axhit/1 JSON (ids, platform, snapshot facts)", succeeding(ExportCommand.run)),
]

/// A verb that ends with status 0 unless it throws.
func succeeding(_ run: @escaping ([String]) throws -> Void) -> ([String]) throws -> Int32 {
    { arguments in
        try run(arguments)
        return 0
    }
}

/// The verbs and what they do: on stdout for `--help`, on stderr after a
/// usage error (stdout carries only output).
@MainActor func usage() -> String {
    var text = "usage: axhit VERB [options]   (axhit VERB --help for each)\n\nverbs:\n"
    for v in verbs { text += "  \(v.name.padding(toLength: 10, withPad: " ", startingAt: 0)) \(v.summary)\n" }
    return text
}

// A reader that stops early (`axhit hit ... | head -1`) must not kill us by
// signal: writes then fail with EPIPE, which `Output.failed` handles.
signal(SIGPIPE, SIG_IGN)

/// One line on standard error (control characters escaped).
func report(_ message: String) {
    StandardOutput.writeError("axhit: \(TerminalText.escaped(message))\n")
}

/// Runs the verb `arguments` names; the exit status. Every value it made
/// (the tree, an error's message) is released by the time it returns, so
/// the exit leaves nothing live that the leak checker could take for a
/// leak.
@MainActor func main(_ arguments: [String]) -> Int32 {
    guard let verbName = arguments.first else {
        StandardOutput.writeError(usage())
        return 2
    }
    if verbName == "--help" || verbName == "-h" || verbName == "help" {
        StandardOutput.write(usage(), failure: Output.failed)
        return 0
    }
    guard let verb = verbs.first(where: { $0.name == verbName }) else {
        report("unknown verb '\(verbName)' (axhit --help lists them)")
        return 2
    }
    do {
        return try verb.run(Array(arguments.dropFirst()))
    } catch let error as UsageError {
        report("\(verbName): \(error) (axhit \(verbName) --help)")
        return 2
    } catch {
        report("\(error)")
        return 1
    }
}

exit(main(Array(CommandLine.arguments.dropFirst())))
