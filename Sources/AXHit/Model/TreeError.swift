/// Everything the AXHit layer throws: a bad tree, a bad file, a bad request,
/// a failed geometry operation.
///
/// It carries what a caller needs to act: a `kind` to switch on, and the
/// facts a user needs to find the problem (the file, the line, the node's
/// `id` and the key, each where it applies). `description` joins them as
/// the command line prints them:
/// `screen.json: line 12: node "play": key "frame": width is negative`.
public struct TreeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, broadly.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The input cannot be read as a tree: malformed JSON or XML, a
        /// format AXHit does not read, a value of the wrong type, a missing
        /// required key.
        case input
        /// A well-formed tree or request breaks a rule: a negative size, a
        /// non-finite number, a duplicate id, a view under an element node,
        /// a node that is not in the tree, a bad option value.
        case validation
        /// A geometry operation failed or went over its budget (GEOS).
        case geometry
        /// A file could not be read or written.
        case io
    }

    /// What went wrong, broadly.
    public var kind: Kind
    /// The file the input came from (as the user named it), if known.
    public var file: String?
    /// The 1-based line in `file`, if known.
    public var line: Int?
    /// The `id` of the node at fault, if known.
    public var node: String?
    /// The key at fault (`frame`, `accessibilityPath.d`, ...), if any.
    public var key: String?
    /// What is wrong, in words.
    public var message: String

    /// An error of `kind` with the facts that apply.
    public init(
        _ kind: Kind, _ message: String, file: String? = nil, line: Int? = nil, node: String? = nil,
        key: String? = nil
    ) {
        self.kind = kind
        self.message = message
        self.file = file
        self.line = line
        self.node = node
        self.key = key
    }

    /// This error, with `file` and `line` filled in where they are unknown.
    public func located(file: String?, line: Int? = nil) -> TreeError {
        var e = self
        if e.file == nil { e.file = file }
        if e.line == nil { e.line = line }
        return e
    }

    /// The facts that apply, joined on one line as the command line prints
    /// them. Control characters (which ids, file names and quoted values may
    /// hold) are escaped, so that the command line's error stays one line.
    public var description: String {
        var parts: [String] = []
        if let file { parts.append(file) }
        if let line { parts.append("line \(line)") }
        if let node { parts.append("node \"\(node)\"") }
        if let key { parts.append("key \"\(key)\"") }
        parts.append(message)
        return TerminalText.escaped(parts.joined(separator: ": "))
    }
}
