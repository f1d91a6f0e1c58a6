import Foundation

extension ElementTree {
    /// Reads a tree from any input this library knows, detected by content
    /// (`TreeFormat.detect`): `axhit/1` JSON, an Appium iOS page source,
    /// `idb ui describe-all` JSON (flat or nested), a uiautomator dump
    /// (classic, UiAutomator2, or as `adb exec-out uiautomator dump /dev/tty`
    /// prints it), a DroidBot state (either schema) or an old WebDriverAgent
    /// JSON source. Each importer's doc comment gives its whole mapping.
    ///
    /// Coordinates: the root's frame is in screen coordinates (points; an
    /// Android dump's pixels), every other frame in its parent's bounds
    /// space. Imported trees are snapshots (`source == .snapshot`) of the
    /// platform their format implies; `options` applies to every format.
    ///
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - file: the name to put in errors (as the user gave it), if any.
    ///   - options: the platform, density and visibility choices the input
    ///     cannot make.
    /// - Complexity: O(n) in the input size (O(n log k) when siblings are
    ///   sorted by `drawing-order`, k the largest sibling count); memory is
    ///   the tree plus one compact record per node of a foreign format.
    /// - Throws: `TreeError` naming `file`: `.validation` for a bad option
    ///   (a density that is not finite and > 0); `.input` for an empty file,
    ///   input of a kind that is recognised but not read (a Maestro Studio
    ///   screen JSON, Appium's universal-xml output: the error names it) or
    ///   of no known kind (the error lists the kinds that are read); and
    ///   each reader's errors, with the line, node id and key where they
    ///   apply.
    public init(contentsOf data: Data, file: String? = nil, options: ImportOptions = .init()) throws(TreeError) {
        try options.validate()
        switch TreeFormat.recognize(data) {
        case .read(.axhitJSON):
            self = try ElementTree(axhitJSON: data, file: file)
            try options.apply(to: &self, flagsApplied: false)
        case .read(.appiumIOS): self = try AppiumPageSource.read(data, file: file, options: options)
        case .read(.idbJSON): self = try IDBDescribeAll.read(data, file: file, options: options)
        case .read(.uiautomator): self = try UIAutomatorDump.read(data, file: file, options: options)
        case .read(.droidBot): self = try DroidBotState.read(data, file: file, options: options)
        case .read(.webDriverAgentJSON): self = try WebDriverAgentJSON.read(data, file: file, options: options)
        case let .refused(kind):
            throw TreeError(
                .input,
                "this is \(kind), which AXHit does not read; AXHit reads "
                    + TreeFormat.everyDisplayName, file: file, line: Self.firstContentLine(data))
        case .unknown:
            if data.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
                throw TreeError(.input, "the file is empty", file: file, line: Self.firstContentLine(data))
            }
            throw TreeError(
                .input, "unrecognized input: AXHit reads " + TreeFormat.everyDisplayName,
                file: file, line: Self.firstContentLine(data))
        }
    }

    /// The line of the first byte that is not whitespace: there the input
    /// stopped looking like any known format.
    private static func firstContentLine(_ data: Data) -> Int {
        var line = 1
        for b in data {
            if b == UInt8(ascii: "\n") { line += 1 } else if b != 0x20 && b != 0x09 && b != 0x0D { break }
        }
        return line
    }

    /// Reads an Appium iOS page source (XCUITest / WebDriverAgent XML,
    /// `XCUIElementType*` elements, with or without `<AppiumAUT>`) as a
    /// snapshot tree of view nodes that mirrors it (`AppiumPageSource` gives
    /// the mapping).
    ///
    /// Coordinates: the source's screen points; the root keeps its screen
    /// rect, other frames become parent-relative.
    ///
    /// - Complexity: O(n) in the input size; a streaming scan with an
    ///   explicit stack, so any depth and any size are fine.
    /// - Throws: `TreeError` with `file` and line for malformed XML, a bad
    ///   option, a non-numeric coordinate or a negative size (with the node
    ///   and key), or no element.
    public init(appiumPageSource data: Data, file: String? = nil, options: ImportOptions = .init()) throws(TreeError) {
        try options.validate()
        self = try AppiumPageSource.read(data, file: file, options: options)
    }

    /// Reads `idb ui describe-all` JSON, flat or nested, as a snapshot tree
    /// of view nodes (`IDBDescribeAll` gives the mapping).
    ///
    /// Coordinates: screen points; the root keeps its screen rect, other
    /// frames become parent-relative.
    ///
    /// - Complexity: O(n) in the input size; iterative.
    /// - Throws: `TreeError` with `file`, line, node id and key for malformed
    ///   JSON, a bad option, a bad frame, or no element.
    public init(idbJSON data: Data, file: String? = nil, options: ImportOptions = .init()) throws(TreeError) {
        try options.validate()
        self = try IDBDescribeAll.read(data, file: file, options: options)
    }

    /// Reads an Android uiautomator dump (classic `uiautomator dump`, Appium
    /// UiAutomator2 page source, or the `/dev/tty` form) as a snapshot tree
    /// of view nodes that mirrors it (`UIAutomatorDump` gives the mapping).
    ///
    /// Coordinates: the dump's screen pixels; the root keeps its screen
    /// rect, other frames become parent-relative.
    ///
    /// - Complexity: O(n log k) in the input size (k: the largest sibling count).
    /// - Throws: `TreeError` with `file` and line for malformed XML, a bad
    ///   option, bad `bounds` (with the node and key), or no node.
    public init(uiautomatorDump data: Data, file: String? = nil, options: ImportOptions = .init()) throws(TreeError) {
        try options.validate()
        self = try UIAutomatorDump.read(data, file: file, options: options)
    }

    /// Reads a DroidBot state file (JSON, flat `views` list with `parent`
    /// indices; the 2017 or the 2016 schema) as a snapshot tree of view
    /// nodes, mapped as a uiautomator dump is (`DroidBotState`).
    ///
    /// Coordinates: screen pixels; the root keeps its screen rect, other
    /// frames become parent-relative.
    ///
    /// - Complexity: O(n) in the input size.
    /// - Throws: `TreeError` with `file`, line, node and key for malformed
    ///   JSON, a bad option, bad `bounds` or `parent`, a parent cycle, or no
    ///   view.
    public init(droidBotState data: Data, file: String? = nil, options: ImportOptions = .init()) throws(TreeError) {
        try options.validate()
        self = try DroidBotState.read(data, file: file, options: options)
    }

    /// Reads an old WebDriverAgent JSON page source (`{"value": {"tree":
    /// ...}}`, UIAutomation types such as `UIAButton`) as a snapshot tree of
    /// view nodes, mapped as an Appium iOS page source is
    /// (`WebDriverAgentJSON`).
    ///
    /// Coordinates: screen points; the root keeps its screen rect, other
    /// frames become parent-relative.
    ///
    /// - Complexity: O(n) in the input size; iterative.
    /// - Throws: `TreeError` with `file`, line, node and key for malformed
    ///   JSON, a bad option, a missing or bad `rect`, or no tree.
    public init(webDriverAgentJSON data: Data, file: String? = nil, options: ImportOptions = .init()) throws(TreeError)
    {
        try options.validate()
        self = try WebDriverAgentJSON.read(data, file: file, options: options)
    }
}

/// Calls `body` with `data`'s bytes, passing its typed error through
/// (`Data.withUnsafeBytes` only rethrows untyped errors).
func withBytes<R>(of data: Data, _ body: (UnsafeBufferPointer<UInt8>) throws(TreeError) -> R) throws(TreeError) -> R {
    let result: Result<R, TreeError> = data.withUnsafeBytes { raw in
        do throws(TreeError) {
            return .success(try body(raw.bindMemory(to: UInt8.self)))
        } catch {
            return .failure(error)
        }
    }
    return try result.get()
}
