/// Whose rules answer the questions asked of a tree (tree-format.md,
/// "Platforms and snapshots"): which nodes accessibility exposes, what a
/// finger finds, what takes a tap, and the units audits judge in.
public enum Platform: String, Sendable, Hashable, CaseIterable {
    /// UIKit and VoiceOver; coordinates in points.
    case ios
    /// The Android framework and TalkBack; coordinates in the dump's pixels,
    /// `screen.scale` the density (pixels per dp).
    case android
}

/// What a tree was taken from.
public enum TreeSource: String, Sendable, Hashable, CaseIterable {
    /// A real view hierarchy (one an app dumps of itself): every fact UIKit
    /// uses is there.
    case views
    /// An accessibility snapshot (an Appium/XCUITest or idb page source, a
    /// uiautomator dump): accessibility nodes rather than views, so that
    /// touch is judged as the platform's test frameworks judge it.
    case snapshot
}

/// The kind of device a screen belongs to (`screen.idiom`); navigation
/// order's row band depends on it.
public enum Idiom: String, Sendable, Hashable, CaseIterable {
    case phone, pad
}

/// The screen's reading direction (`screen.layoutDirection`), used by
/// navigation order.
public enum LayoutDirection: String, Sendable, Hashable, CaseIterable {
    case leftToRight, rightToLeft
}

/// What an Android node declares it handles (tree-format.md `actions`):
/// `clickable`, `long-clickable`, `checkable`, `focusable`,
/// `screen-reader-focusable`, `scrollable` in a dump.
public struct NodeActions: OptionSet, Sendable, Hashable {
    /// The actions' bits (`click` is bit 0, in the order of `named`).
    public let rawValue: UInt8
    /// Actions from their bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `clickable`: takes taps and TalkBack's double-tap.
    public static let click = NodeActions(rawValue: 1 << 0)
    /// `long-clickable`.
    public static let longClick = NodeActions(rawValue: 1 << 1)
    /// `checkable`.
    public static let check = NodeActions(rawValue: 1 << 2)
    /// `focusable` (input focus).
    public static let focus = NodeActions(rawValue: 1 << 3)
    /// `screen-reader-focusable`.
    public static let screenReaderFocus = NodeActions(rawValue: 1 << 4)
    /// `scrollable`: a list or scroll view that scrolls.
    public static let scroll = NodeActions(rawValue: 1 << 5)

    /// Each action with its name in `axhit/1`, in bit order.
    public static let named: [(name: String, action: NodeActions)] = [
        ("click", .click), ("longClick", .longClick), ("check", .check), ("focus", .focus),
        ("screenReaderFocus", .screenReaderFocus), ("scroll", .scroll),
    ]

    /// The actions a double-tap or a tap can trigger by themselves: `click`
    /// and `longClick`.
    public static let tap: NodeActions = [.click, .longClick]
}

/// `accessibilityContainerType`: how a container groups its children for
/// navigation; no effect on hit-testing.
public enum AccessibilityContainerType: String, Sendable, Hashable, CaseIterable {
    case none, dataTable, list, landmark, semanticGroup
}
