/// A usage error: the command line is not one the tool understands (exit 2).
public struct UsageError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, in words.
    public var message: String
    /// A usage error saying `message`.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

/// The arguments of one verb: options (`--name value`, `--name=value`),
/// flags (`--name`) and positionals, checked against what the verb declares;
/// a verb may give an option a short name too (`-o FILE`).
///
/// Small on purpose: SwiftPM cannot fetch swift-argument-parser here, and the
/// tools need only this.
public struct Arguments {
    private var values: [String: [String]] = [:]
    private var flagsSeen: Set<String> = []
    /// The positional arguments, in order.
    public private(set) var positionals: [String] = []

    /// Parses `arguments` (without the program and verb names).
    ///
    /// - Parameters:
    ///   - options: names (without `--`) that take a value.
    ///   - flags: names that take none.
    ///   - shortNames: single-dash spellings and the names they stand for
    ///     (`["-o": "output"]`); a short name takes its value as the next
    ///     argument.
    /// - Throws: `UsageError` for an unknown name, a missing value or a
    ///   repeated option. A lone `-` is a positional (standard input).
    public init(
        _ arguments: [String], options: Set<String>, flags: Set<String>, shortNames: [String: String] = [:]
    ) throws(UsageError) {
        var i = 0
        var onlyPositionals = false
        while i < arguments.count {
            var arg = arguments[i]
            i += 1
            if !onlyPositionals, let long = shortNames[arg] { arg = "--" + long }
            if onlyPositionals || !arg.hasPrefix("--") || arg == "-" {
                if !onlyPositionals && arg.hasPrefix("-") && arg != "-" && arg.count > 1 && !Self.looksNumeric(arg) {
                    throw UsageError("unknown option '\(arg)'")
                }
                positionals.append(arg)
                continue
            }
            if arg == "--" {
                onlyPositionals = true
                continue
            }
            var name = String(arg.dropFirst(2))
            var inlineValue: String?
            if let eq = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            if flags.contains(name) {
                if inlineValue != nil { throw UsageError("--\(name) takes no value") }
                flagsSeen.insert(name)
            } else if options.contains(name) {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard i < arguments.count else { throw UsageError("--\(name) needs a value") }
                    value = arguments[i]
                    i += 1
                }
                if values[name] != nil { throw UsageError("--\(name) is given twice") }
                values[name] = [value]
            } else {
                throw UsageError("unknown option '--\(name)'")
            }
        }
    }

    private static func looksNumeric(_ s: String) -> Bool { Double(s) != nil }

    /// Whether the flag `--name` was given.
    public func flag(_ name: String) -> Bool { flagsSeen.contains(name) }

    /// The value of `--name`, if given.
    public func option(_ name: String) -> String? { values[name]?.first }

    /// The value of `--name`.
    /// - Throws: `UsageError` when it was not given.
    public func required(_ name: String) throws(UsageError) -> String {
        guard let v = option(name) else { throw UsageError("--\(name) is required") }
        return v
    }

    /// The value of `--name` as a number, or `default` when not given.
    /// - Throws: `UsageError` when it is not a finite number.
    public func number(_ name: String, default value: Double) throws(UsageError) -> Double {
        guard let s = option(name) else { return value }
        guard let v = Double(s), v.isFinite else { throw UsageError("--\(name) must be a number, got '\(s)'") }
        return v
    }

    /// The one positional argument.
    /// - Throws: `UsageError` when there is none or more than one.
    public func single(_ what: String) throws(UsageError) -> String {
        guard positionals.count == 1 else {
            throw UsageError(positionals.isEmpty ? "missing \(what)" : "unexpected argument '\(positionals[1])'")
        }
        return positionals[0]
    }

    /// Checks that there are no positional arguments.
    public func noPositionals() throws(UsageError) {
        if let p = positionals.first { throw UsageError("unexpected argument '\(p)'") }
    }
}
