import Foundation

/// The properties most nodes leave at their defaults, stored only for the
/// nodes that set one of them (`ElementTree.extras`).
///
/// Space: 40 bytes inline (alpha, traits and the small enums, which the
/// common rare node sets alone: a button's trait), plus the strings and the
/// explicit accessibility geometry each in a box of its own (104 and 130
/// bytes with the object's header), made only when one of its values is
/// set. A node with a trait alone stores 40 bytes, where one flat record of
/// every field took 232. Boxes are copied on write, so copies of a tree
/// share them and a write copies only the box it changes.
struct NodeExtras: Sendable, Hashable {
    // No default values: each init sets every property once (see
    // `NodeRecord`). Declared widest first: 40 bytes, a stride of 40.
    var alpha: CGFloat
    var traits: AccessibilityTraits
    private var texts: Box<Texts>?
    private var geometry: Box<Geometry>?
    var navigationStyle: NavigationStyle
    var containerType: AccessibilityContainerType
    var visibleInSnapshot: Bool?
    var actions: NodeActions
    var checked: Bool?
    var importantForAccessibility: Bool?
    var labelIsText: Bool
    var isPassword: Bool

    /// The strings: what VoiceOver reads and the ids an explicit order lists.
    struct Texts: Sendable, Hashable {
        var label: String?
        var value: String?
        var hint: String?
        var identifier: String?
        var language: String?
        var accessibilityElements: [String]?
        var className: String?
        var packageName: String?
        var accessibilityIndex: Int?
        static let defaults = Texts()
    }

    /// The explicit accessibility geometry.
    struct Geometry: Sendable, Hashable {
        var accessibilityFrame: CGRect?
        var frameInContainerSpace: CGRect?
        var activationPoint: CGPoint?
        var path: AccessibilityPath?
        static let defaults = Geometry()
    }

    /// Every property at its default.
    init() {
        alpha = 1
        traits = []
        texts = nil
        geometry = nil
        navigationStyle = .automatic
        containerType = .none
        visibleInSnapshot = nil
        actions = []
        checked = nil
        importantForAccessibility = nil
        labelIsText = false
        isPassword = false
    }

    /// The extras of `node`.
    init(of node: borrowing Node) {
        alpha = node.alpha
        traits = node.accessibilityTraits
        // A box only where one of its values is set (asked field by field:
        // making the values to compare would copy the strings).
        texts =
            Self.setsTexts(node)
            ? Box(
                Texts(
                    label: node.accessibilityLabel, value: node.accessibilityValue, hint: node.accessibilityHint,
                    identifier: node.accessibilityIdentifier, language: node.accessibilityLanguage,
                    accessibilityElements: node.accessibilityElements, className: node.className,
                    packageName: node.packageName, accessibilityIndex: node.accessibilityIndex)) : nil
        geometry =
            Self.setsGeometry(node)
            ? Box(
                Geometry(
                    accessibilityFrame: node.accessibilityFrame,
                    frameInContainerSpace: node.accessibilityFrameInContainerSpace,
                    activationPoint: node.accessibilityActivationPoint, path: node.accessibilityPath)) : nil
        navigationStyle = node.accessibilityNavigationStyle
        containerType = node.accessibilityContainerType
        visibleInSnapshot = node.visibleInSnapshot
        actions = node.actions
        checked = node.checked
        importantForAccessibility = node.importantForAccessibility
        labelIsText = node.labelIsText
        isPassword = node.isPassword
    }

    /// Every property at its default, made once.
    static let none = NodeExtras()

    // MARK: The boxed properties

    var label: String? {
        get { texts?.value.label }
        set { modifyTexts(unless: newValue == nil && label == nil) { $0.label = newValue } }
    }
    var value: String? {
        get { texts?.value.value }
        set { modifyTexts(unless: newValue == nil && value == nil) { $0.value = newValue } }
    }
    var hint: String? {
        get { texts?.value.hint }
        set { modifyTexts(unless: newValue == nil && hint == nil) { $0.hint = newValue } }
    }
    var identifier: String? {
        get { texts?.value.identifier }
        set { modifyTexts(unless: newValue == nil && identifier == nil) { $0.identifier = newValue } }
    }
    var language: String? {
        get { texts?.value.language }
        set { modifyTexts(unless: newValue == nil && language == nil) { $0.language = newValue } }
    }
    var accessibilityElements: [String]? {
        get { texts?.value.accessibilityElements }
        set {
            modifyTexts(unless: newValue == nil && accessibilityElements == nil) { $0.accessibilityElements = newValue }
        }
    }
    var className: String? {
        get { texts?.value.className }
        set { modifyTexts(unless: newValue == nil && className == nil) { $0.className = newValue } }
    }
    var packageName: String? {
        get { texts?.value.packageName }
        set { modifyTexts(unless: newValue == nil && packageName == nil) { $0.packageName = newValue } }
    }
    var accessibilityIndex: Int? {
        get { texts?.value.accessibilityIndex }
        set { modifyTexts(unless: newValue == nil && accessibilityIndex == nil) { $0.accessibilityIndex = newValue } }
    }
    var accessibilityFrame: CGRect? {
        get { geometry?.value.accessibilityFrame }
        set {
            modifyGeometry(unless: newValue == nil && accessibilityFrame == nil) { $0.accessibilityFrame = newValue }
        }
    }
    var frameInContainerSpace: CGRect? {
        get { geometry?.value.frameInContainerSpace }
        set {
            modifyGeometry(unless: newValue == nil && frameInContainerSpace == nil) {
                $0.frameInContainerSpace = newValue
            }
        }
    }
    var activationPoint: CGPoint? {
        get { geometry?.value.activationPoint }
        set { modifyGeometry(unless: newValue == nil && activationPoint == nil) { $0.activationPoint = newValue } }
    }
    var path: AccessibilityPath? {
        get { geometry?.value.path }
        set { modifyGeometry(unless: newValue == nil && path == nil) { $0.path = newValue } }
    }

    /// Writes the strings through `body`, in a box held alone, unless the
    /// write changes nothing (`skip`: a value cleared that was not set), so
    /// that it makes or copies no box.
    private mutating func modifyTexts(unless skip: Bool, _ body: (inout Texts) -> Void) {
        if skip { return }
        Box.makeUnique(&texts, blank: .defaults)
        body(&texts.unsafelyUnwrapped.value)
    }

    /// Writes the geometry through `body` (see `modifyTexts`).
    private mutating func modifyGeometry(unless skip: Bool, _ body: (inout Geometry) -> Void) {
        if skip { return }
        Box.makeUnique(&geometry, blank: .defaults)
        body(&geometry.unsafelyUnwrapped.value)
    }

    // MARK: Equality by value

    // A box whose values went back to their defaults equals no box.
    static func == (a: NodeExtras, b: NodeExtras) -> Bool {
        a.alpha == b.alpha && a.traits == b.traits && a.navigationStyle == b.navigationStyle
            && a.containerType == b.containerType && a.visibleInSnapshot == b.visibleInSnapshot
            && a.actions == b.actions && a.checked == b.checked
            && a.importantForAccessibility == b.importantForAccessibility
            && a.labelIsText == b.labelIsText && a.isPassword == b.isPassword
            && (a.texts?.value ?? .defaults) == (b.texts?.value ?? .defaults)
            && (a.geometry?.value ?? .defaults) == (b.geometry?.value ?? .defaults)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(alpha)
        hasher.combine(traits)
        hasher.combine(navigationStyle)
        hasher.combine(containerType)
        hasher.combine(visibleInSnapshot)
        hasher.combine(actions)
        hasher.combine(checked)
        hasher.combine(importantForAccessibility)
        hasher.combine(labelIsText)
        hasher.combine(isPassword)
        hasher.combine(texts?.value ?? .defaults)
        hasher.combine(geometry?.value ?? .defaults)
    }

    // MARK: Derived

    /// The points `path` earns toward the tree's path budget (0 without
    /// one): `ElementTree.pathPointsEarned(by:)`.
    var pathPointsEarned: Int { path.map { ElementTree.pathPointsEarned(by: $0.path) } ?? 0 }

    /// Whether every property `init(of:)` would take from `node` is at its
    /// default, field by field, so that a node without any is stored
    /// without making its extras (copying five optional strings) to find
    /// out.
    static func areDefault(in node: borrowing Node) -> Bool {
        node.alpha == 1 && node.accessibilityTraits.isEmpty && !setsTexts(node) && !setsGeometry(node)
            && node.accessibilityNavigationStyle == .automatic && node.accessibilityContainerType == .none
            && node.visibleInSnapshot == nil && node.actions.isEmpty && node.checked == nil
            && node.importantForAccessibility == nil && !node.labelIsText && !node.isPassword
    }

    /// Whether `node` sets one of the values of `Texts`.
    private static func setsTexts(_ node: borrowing Node) -> Bool {
        node.accessibilityLabel != nil || node.accessibilityValue != nil || node.accessibilityHint != nil
            || node.accessibilityIdentifier != nil || node.accessibilityLanguage != nil
            || node.accessibilityElements != nil || node.className != nil || node.packageName != nil
            || node.accessibilityIndex != nil
    }

    /// Whether `node` sets one of the values of `Geometry`.
    private static func setsGeometry(_ node: borrowing Node) -> Bool {
        node.accessibilityFrame != nil || node.accessibilityFrameInContainerSpace != nil
            || node.accessibilityActivationPoint != nil || node.accessibilityPath != nil
    }
}

/// A value on the heap, shared by copies and copied on write by its owner
/// (`makeUnique`): how `NodeExtras` keeps values most nodes leave unset out
/// of its inline 40 bytes.
///
/// `@unchecked Sendable`: `value` is written only through a reference held
/// alone (`isKnownUniquelyReferenced`), so no two threads see a write.
final class Box<Value: Sendable>: @unchecked Sendable {
    /// Unchecked: written only through a reference held alone, so the
    /// runtime's exclusivity check on every read guards nothing.
    @exclusivity(unchecked) var value: Value

    init(_ value: Value) { self.value = value }

    /// Makes `box` a box held by the caller alone: a new one holding
    /// `blank` where there is none, a copy where it is shared.
    static func makeUnique(_ box: inout Box?, blank: Value) {
        guard !isKnownUniquelyReferenced(&box) else { return }
        box = Box(box?.value ?? blank)
    }
}
