/// Per-node boolean properties, packed.
struct NodeFlags: OptionSet, Hashable, Sendable {
    let rawValue: UInt16
    static let alive = NodeFlags(rawValue: 1 << 0)
    static let element = NodeFlags(rawValue: 1 << 1)  // kind == .element
    static let accessibilityElement = NodeFlags(rawValue: 1 << 2)
    static let hidden = NodeFlags(rawValue: 1 << 3)
    static let clipsToBounds = NodeFlags(rawValue: 1 << 4)
    static let userInteractionEnabled = NodeFlags(rawValue: 1 << 5)
    static let elementsHidden = NodeFlags(rawValue: 1 << 6)
    static let modal = NodeFlags(rawValue: 1 << 7)
    static let groupsChildren = NodeFlags(rawValue: 1 << 8)
    static let translucent = NodeFlags(rawValue: 1 << 9)  // alpha != 1
    // Which rare geometry a node has, so that hot paths skip the side table.
    static let hasAccessibilityFrame = NodeFlags(rawValue: 1 << 10)
    static let hasFrameInContainerSpace = NodeFlags(rawValue: 1 << 11)
    static let hasPath = NodeFlags(rawValue: 1 << 12)
    static let window = NodeFlags(rawValue: 1 << 13)  // isWindow
    /// Some snapshot fact (visibleInSnapshot, actions) is set: rules that
    /// read them skip the side table otherwise.
    static let hasSnapshotFacts = NodeFlags(rawValue: 1 << 14)

    /// The flags derived from a node's rare properties, as the write path
    /// sets them.
    static func derived(from e: borrowing NodeExtras, isElement: Bool) -> NodeFlags {
        var f: NodeFlags = []
        if e.alpha != 1 { f.insert(.translucent) }
        if e.accessibilityFrame != nil { f.insert(.hasAccessibilityFrame) }
        if isElement && e.frameInContainerSpace != nil { f.insert(.hasFrameInContainerSpace) }
        if e.path != nil { f.insert(.hasPath) }
        if e.visibleInSnapshot != nil || !e.actions.isEmpty || e.checked != nil || e.importantForAccessibility != nil {
            f.insert(.hasSnapshotFacts)
        }
        return f
    }
}
