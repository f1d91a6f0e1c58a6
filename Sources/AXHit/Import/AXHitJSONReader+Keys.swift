import Foundation

/// The keys and names `AXHitJSONReader` knows, as spelled in `axhit/1`
/// files, each kind in a table the scanner looks keys up in without a
/// `String`.
extension AXHitJSONReader {
    enum DocumentKey: CaseIterable { case format, platform, source, screen, root }
    enum ScreenKey: CaseIterable { case bounds, scale, idiom, layoutDirection }
    enum PathKey: CaseIterable { case d, usesEvenOddFillRule, coordinateSpace }

    /// The keys of a node object, as spelled in the file. View properties
    /// come last (`isViewProperty`).
    enum NodeKey: Int, CaseIterable {
        case id, kind, children, isAccessibilityElement
        case accessibilityLabel, accessibilityValue, accessibilityHint, accessibilityIdentifier, accessibilityLanguage
        case accessibilityTraits, accessibilityFrame, accessibilityFrameInContainerSpace, accessibilityActivationPoint
        case accessibilityPath, accessibilityElementsHidden, accessibilityViewIsModal, shouldGroupAccessibilityChildren
        case accessibilityNavigationStyle, accessibilityContainerType, visibleInSnapshot, actions
        case checked, importantForAccessibility, className, packageName, accessibilityIndex, labelIsText, isPassword
        case frame, bounds, transform, clipsToBounds, isHidden, alpha, isUserInteractionEnabled, isWindow
        case accessibilityElements

        /// The key as spelled in the file.
        var name: String { "\(staticName)" }

        /// The key as spelled in the file, with no reference counting: the
        /// reader passes one along with every value it reads, for errors.
        /// Inlined: a call per key is measurable.
        @inline(__always)
        var staticName: StaticString {
            switch self {
            case .id: "id"
            case .kind: "kind"
            case .children: "children"
            case .isAccessibilityElement: "isAccessibilityElement"
            case .accessibilityLabel: "accessibilityLabel"
            case .accessibilityValue: "accessibilityValue"
            case .accessibilityHint: "accessibilityHint"
            case .accessibilityIdentifier: "accessibilityIdentifier"
            case .accessibilityLanguage: "accessibilityLanguage"
            case .accessibilityTraits: "accessibilityTraits"
            case .accessibilityFrame: "accessibilityFrame"
            case .accessibilityFrameInContainerSpace: "accessibilityFrameInContainerSpace"
            case .accessibilityActivationPoint: "accessibilityActivationPoint"
            case .accessibilityPath: "accessibilityPath"
            case .accessibilityElementsHidden: "accessibilityElementsHidden"
            case .accessibilityViewIsModal: "accessibilityViewIsModal"
            case .shouldGroupAccessibilityChildren: "shouldGroupAccessibilityChildren"
            case .accessibilityNavigationStyle: "accessibilityNavigationStyle"
            case .accessibilityContainerType: "accessibilityContainerType"
            case .visibleInSnapshot: "visibleInSnapshot"
            case .actions: "actions"
            case .checked: "checked"
            case .importantForAccessibility: "importantForAccessibility"
            case .className: "className"
            case .packageName: "packageName"
            case .accessibilityIndex: "accessibilityIndex"
            case .labelIsText: "labelIsText"
            case .isPassword: "isPassword"
            case .frame: "frame"
            case .bounds: "bounds"
            case .transform: "transform"
            case .clipsToBounds: "clipsToBounds"
            case .isHidden: "isHidden"
            case .alpha: "alpha"
            case .isUserInteractionEnabled: "isUserInteractionEnabled"
            case .isWindow: "isWindow"
            case .accessibilityElements: "accessibilityElements"
            }
        }
        var bit: UInt64 { 1 << UInt64(rawValue) }
        /// Whether only view nodes may carry the key.
        var isViewProperty: Bool { rawValue >= NodeKey.frame.rawValue }
    }

    static func table<K: CaseIterable>(_: K.Type) -> KeyTable<K> {
        KeyTable(K.allCases.map { (String(describing: $0), $0) })
    }

    static let documentKeys = table(DocumentKey.self)
    static let screenKeys = table(ScreenKey.self)
    static let pathKeys = table(PathKey.self)
    static let nodeKeys = table(NodeKey.self)
    static let traitNames = KeyTable(AccessibilityTraits.named.map { ($0.name, $0.trait) })
    static let kinds = KeyTable([("view", NodeKind.view), ("element", NodeKind.element)])
    static let actionNames = KeyTable(NodeActions.named.map { ($0.name, $0.action) })
}
