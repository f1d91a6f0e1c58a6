import Foundation

extension ElementTree {
    /// Reads a tree from any input this library knows, detected by content
    /// (`TreeFormat.detect`): `axhit/1` JSON, an Appium iOS page source, a
    /// uiautomator dump, a DroidBot state or an old WebDriverAgent JSON source.
    ///
    /// Coordinates: the root's frame is in screen points, every other frame in
    /// its parent's bounds space. `options` applies to the foreign formats only.
    ///
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - file: the name to put in errors (as the user gave it), if any.
    /// - Complexity: O(n) in the input size (O(n log k) for uiautomator).
    /// - Throws: `TreeError` with `file` (and the line, node id and key where
    ///   they apply) when the format is unrecognized or the input is invalid.
    public init(contentsOf data: Data, file: String? = nil, options: ImportOptions = .init()) throws(TreeError) {
        switch TreeFormat.detect(data) {
        case .axhitJSON?: self = try readAXHitJSON(data, file: file)
        case .appiumIOS?: self = try AppiumPageSource.read(data, file: file, options: options)
        case .uiautomator?: self = try UIAutomatorDump.read(data, file: file, options: options)
        case .droidBot?: self = try DroidBotState.read(data, file: file, options: options)
        case .webDriverAgentJSON?: self = try WebDriverAgentJSON.read(data, file: file, options: options)
        case nil:
            // Name the line of the first byte that is not whitespace: there
            // the input stopped looking like any known format.
            var line = 1
            for b in data {
                if b == UInt8(ascii: "\n") { line += 1 } else if b != 0x20 && b != 0x09 && b != 0x0D { break }
            }
            if data.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
                throw TreeError(.input, "the file is empty", file: file, line: line)
            }
            throw TreeError(.input, "unrecognized input: expected axhit/1 JSON, an Appium iOS page source "
                            + "or an Android uiautomator dump", file: file, line: line)
        }
    }

    /// Reads an Appium iOS page source (XCUITest / WebDriverAgent XML,
    /// `XCUIElementType*` elements, with or without `<AppiumAUT>`) as a tree
    /// of view nodes that mirrors it.
    ///
    /// Ids are `<Type>#<n>` (`Button#12`: n is the element's pre-order number
    /// in the source). `name`, `label`, `value` become identifier, label and
    /// value; `accessible` (or, when absent, the type) decides
    /// `isAccessibilityElement`; the type or the `traits` attribute gives the
    /// traits, `enabled="false"` adds notEnabled; `visible="false"` becomes
    /// `isHidden` unless `options.hidesInvisibleNodes` is false.
    /// `screenBounds` is the application's frame.
    ///
    /// Coordinates: the source's screen points; the root keeps its screen
    /// rect, other frames become parent-relative.
    ///
    /// - Complexity: O(n) in the input size; event-based parsing with an
    ///   explicit stack, so any depth and any size are fine.
    /// - Throws: `TreeError` with `file` and line for malformed XML, a
    ///   non-numeric coordinate, a negative size, or no element.
    public init(appiumPageSource data: Data, file: String? = nil, options: ImportOptions = .init()) throws(TreeError) {
        self = try AppiumPageSource.read(data, file: file, options: options)
    }

    /// Reads an Android uiautomator dump (classic `uiautomator dump` or Appium
    /// UiAutomator2 page source) as a tree of view nodes that mirrors it.
    ///
    /// Ids are `<SimpleClass>#<n>` (`TextView#12`). Bounds, in pixels, are
    /// divided by `options.density` (default 1). `content-desc` (else `text`)
    /// is the label, `resource-id` the identifier; clickable, checkable or
    /// labelled nodes are accessibility elements; the class gives the traits.
    /// Several top-level windows get a synthetic root `screen`; siblings
    /// follow `drawing-order` when all have it. Invisible nodes
    /// (`visible-to-user`/`displayed` false) become hidden unless
    /// `options.hidesInvisibleNodes` is false.
    ///
    /// Coordinates: screen pixels / density = points; the root keeps its
    /// screen rect, other frames become parent-relative. `screenBounds` is the
    /// hierarchy's size, else the root's frame; `screenScale` the density.
    ///
    /// - Complexity: O(n log k) in the input size (k: the largest sibling count).
    /// - Throws: `TreeError` with `file` and line for malformed XML, bad
    ///   `bounds`, a bad density, or no node.
    public init(uiautomatorDump data: Data, file: String? = nil, options: ImportOptions = .init()) throws(TreeError) {
        self = try UIAutomatorDump.read(data, file: file, options: options)
    }

    /// Reads a DroidBot state file (JSON, flat `views` list with `parent`
    /// indices) as a tree of view nodes, mapped as a uiautomator dump is. Ids
    /// are `<SimpleClass>#<i>`, `i` the index in `views`.
    ///
    /// Coordinates: screen pixels / `options.density` = points; the root keeps
    /// its screen rect, other frames become parent-relative.
    ///
    /// - Complexity: O(n) in the input size.
    /// - Throws: `TreeError` with `file`, node and key for malformed JSON, bad
    ///   `bounds` or `parent`, a parent cycle, a bad density, or no view.
    public init(droidBotState data: Data, file: String? = nil, options: ImportOptions = .init()) throws(TreeError) {
        self = try DroidBotState.read(data, file: file, options: options)
    }

    /// Reads an old WebDriverAgent JSON page source (`{"value": {"tree":
    /// ...}}`, UIAutomation types such as `UIAButton`) as a tree of view
    /// nodes, mapped as an Appium iOS page source is.
    ///
    /// Coordinates: screen points; the root keeps its screen rect, other
    /// frames become parent-relative.
    ///
    /// - Complexity: O(n) in the input size; iterative.
    /// - Throws: `TreeError` with `file`, node and key for malformed JSON, a
    ///   missing or bad `rect`, or no tree.
    public init(webDriverAgentJSON data: Data, file: String? = nil, options: ImportOptions = .init()) throws(TreeError) {
        self = try WebDriverAgentJSON.read(data, file: file, options: options)
    }
}
