import Foundation

/// An iOS accessibility snapshot (`platform: "ios"`, `source: "snapshot"`):
/// an Appium/XCUITest or idb page source, which lists accessibility nodes,
/// not views, and does not say which of them take touches.
///
/// Exposure, navigation order and audits are UIKit's (`UIKitRules`), with
/// two differences:
/// - `visibleInSnapshot: false` hides nothing (XCTest's flag is often wrong;
///   an importer option may restore it as `isHidden`), and an audit reports
///   where the flag and the geometry disagree.
/// - Touch and activation follow XCUITest's `isHittable`: a tap at `p` goes
///   to the element `hit(p)` answers under the frame policy, or nowhere;
///   containers never take one. An activation is `ok` when that element is
///   the element itself.
struct IOSSnapshotRules: PlatformRules {
    private let uikit = UIKitRules()

    var screenReader: String { "VoiceOver" }
    var platform: Platform { .ios }

    func isHiddenItself(_ n: NodeID, in tree: ElementTree) -> Bool { uikit.isHiddenItself(n, in: tree) }

    func isExposed(_ n: NodeID, in tree: ElementTree, scope: ExposureScope, screenBox: () -> CGRect) -> Bool {
        uikit.isExposed(n, in: tree, scope: scope, screenBox: screenBox)
    }

    var exposedHidesSubtree: Bool { true }
    var exposureInputs: ExposureInputs { [.hidden, .accessibilityElement] }
    var needsWindows: Bool { false }
    func isFinalWindow(_ n: NodeID, in tree: ElementTree) -> Bool { false }
    var navigationOrderModel: NavigationOrderModel { .sortedGroups }

    var touchModel: TouchModel { .hittableElement }

    func consumesTap(_ n: NodeID, in tree: ElementTree) -> Bool { false }
    func activatesWithoutTap(_ e: NodeID, in tree: ElementTree) -> Bool { false }
    func tapReaches(_ receiver: NodeID, element e: NodeID, in tree: ElementTree) -> Bool { receiver == e }

    func unitScale(of tree: ElementTree) -> (scale: Double, inferred: Bool) { (1, false) }
    var coordinateUnit: String { "pt" }
    var sizeUnit: String { uikit.sizeUnit }

    /// The snapshot types that are controls (tree-format.md, "Audits").
    static let controlTypes: Set<Substring> = [
        "Button", "Link", "Cell", "Switch", "Toggle", "Slider", "TextField", "SecureTextField", "SearchField",
        "TextView", "Key", "Tab", "PickerWheel", "PageIndicator", "MenuItem",
    ]
    /// The snapshot types that scroll (tree-format.md, "Audits").
    static let scrollTypes: Set<Substring> = ["Table", "CollectionView", "ScrollView", "WebView", "TextView"]

    /// A control's trait, or a control's type.
    func isControl(_ e: NodeID, in tree: ElementTree) -> Bool {
        uikit.isControl(e, in: tree) || Self.controlTypes.contains(Self.type(of: e, in: tree))
    }

    func isScrollContainer(_ n: NodeID, in tree: ElementTree) -> Bool {
        Self.scrollTypes.contains(Self.type(of: n, in: tree)) || tree.actions(of: n).contains(.scroll)
    }

    /// The node's snapshot type (`Button`): its class name where a tree
    /// gives one, else what the importer's id `<Type>#<n>` says
    /// (tree-format.md, "Node ids of imported trees"); empty for an id of
    /// another form.
    static func type(of n: NodeID, in tree: ElementTree) -> Substring {
        if let c = tree.className(of: n) { return Substring(c) }
        let id = tree.id(of: n)
        guard let hash = id.lastIndex(of: "#"), hash != id.startIndex else { return "" }
        let digits = id[id.index(after: hash)...]
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return "" }
        return id[..<hash]
    }
    var viewsCoverWhatIsBehind: Bool { false }
    var checksVisibilityFlag: Bool { true }
}
