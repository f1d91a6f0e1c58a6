/// UIAccessibilityTraits with UIKit's bit values. Bits this type has no name
/// for are kept as they are, so a tree round-trips unchanged.
public struct AccessibilityTraits: OptionSet, Hashable, Sendable {
    /// UIKit's bit mask.
    public let rawValue: UInt64
    /// Traits from a raw UIKit bit mask.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// UIAccessibilityTraits `button`, with UIKit's bit value.
    public static let button = AccessibilityTraits(rawValue: 1 << 0)
    /// UIAccessibilityTraits `link`, with UIKit's bit value.
    public static let link = AccessibilityTraits(rawValue: 1 << 1)
    /// UIAccessibilityTraits `image`, with UIKit's bit value.
    public static let image = AccessibilityTraits(rawValue: 1 << 2)
    /// UIAccessibilityTraits `selected`, with UIKit's bit value.
    public static let selected = AccessibilityTraits(rawValue: 1 << 3)
    /// UIAccessibilityTraits `playsSound`, with UIKit's bit value.
    public static let playsSound = AccessibilityTraits(rawValue: 1 << 4)
    /// UIAccessibilityTraits `keyboardKey`, with UIKit's bit value.
    public static let keyboardKey = AccessibilityTraits(rawValue: 1 << 5)
    /// UIAccessibilityTraits `staticText`, with UIKit's bit value.
    public static let staticText = AccessibilityTraits(rawValue: 1 << 6)
    /// UIAccessibilityTraits `summaryElement`, with UIKit's bit value.
    public static let summaryElement = AccessibilityTraits(rawValue: 1 << 7)
    /// UIAccessibilityTraits `notEnabled`, with UIKit's bit value.
    public static let notEnabled = AccessibilityTraits(rawValue: 1 << 8)
    /// UIAccessibilityTraits `updatesFrequently`, with UIKit's bit value.
    public static let updatesFrequently = AccessibilityTraits(rawValue: 1 << 9)
    /// UIAccessibilityTraits `searchField`, with UIKit's bit value.
    public static let searchField = AccessibilityTraits(rawValue: 1 << 10)
    /// UIAccessibilityTraits `startsMediaSession`, with UIKit's bit value.
    public static let startsMediaSession = AccessibilityTraits(rawValue: 1 << 11)
    /// UIAccessibilityTraits `adjustable`, with UIKit's bit value.
    public static let adjustable = AccessibilityTraits(rawValue: 1 << 12)
    /// UIAccessibilityTraits `allowsDirectInteraction`, with UIKit's bit value.
    public static let allowsDirectInteraction = AccessibilityTraits(rawValue: 1 << 13)
    /// UIAccessibilityTraits `causesPageTurn`, with UIKit's bit value.
    public static let causesPageTurn = AccessibilityTraits(rawValue: 1 << 14)
    /// UIAccessibilityTraits `tabBar`, with UIKit's bit value.
    public static let tabBar = AccessibilityTraits(rawValue: 1 << 15)
    /// UIAccessibilityTraits `header`, with UIKit's bit value.
    public static let header = AccessibilityTraits(rawValue: 1 << 16)
    /// UIAccessibilityTraits `supportsZoom`, with UIKit's bit value.
    public static let supportsZoom = AccessibilityTraits(rawValue: 1 << 46)
    /// UIAccessibilityTraits `toggleButton`, with UIKit's bit value.
    public static let toggleButton = AccessibilityTraits(rawValue: 1 << 53)

    /// The spec's trait names with their traits, in bit order.
    public static let named: [(name: String, trait: AccessibilityTraits)] = [
        ("button", .button), ("link", .link), ("image", .image), ("selected", .selected),
        ("playsSound", .playsSound), ("keyboardKey", .keyboardKey), ("staticText", .staticText),
        ("summaryElement", .summaryElement), ("notEnabled", .notEnabled),
        ("updatesFrequently", .updatesFrequently), ("searchField", .searchField),
        ("startsMediaSession", .startsMediaSession), ("adjustable", .adjustable),
        ("allowsDirectInteraction", .allowsDirectInteraction), ("causesPageTurn", .causesPageTurn),
        ("tabBar", .tabBar), ("header", .header), ("supportsZoom", .supportsZoom),
        ("toggleButton", .toggleButton),
    ]

    /// The trait with the spec's `name`, or nil for an unknown name.
    public init?(name: String) {
        guard let entry = Self.named.first(where: { $0.name == name }) else { return nil }
        self = entry.trait
    }

    /// The names of the named traits set, in bit order.
    public var names: [String] { Self.named.filter { contains($0.trait) }.map(\.name) }

    /// The bits that have no name in the spec.
    public var unnamedBits: UInt64 {
        Self.named.reduce(rawValue) { $0 & ~$1.trait.rawValue }
    }
}
