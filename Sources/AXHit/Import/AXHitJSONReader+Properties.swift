import Foundation

/// A node's keys: each value read, checked and put in the node's record.
extension AXHitJSONReader {
    /// Reads the value of `key` into the node.
    mutating func readProperty(_ key: NodeKey, into f: inout NodeFrame) throws(TreeError) {
        let keyOffset = scanner.tokenOffset
        if f.has(key) { throw TreeError(.input, "duplicate key", line: scanner.line(at: keyOffset), key: key.name) }
        f.seen |= key.bit
        if !f.treeID.isNone { f.dirty = true }
        if key.isViewProperty {
            if f.has(.kind) && f.isElement {
                throw TreeError(
                    .validation, "element nodes have no \(key.name) (a view property)",
                    line: scanner.line(at: keyOffset), key: key.name)
            }
            if f.viewKey == nil {
                f.viewKey = key
                f.viewKeyOffset = keyOffset
            }
        }
        let name = key.staticName
        // Each key is read once (duplicates are errors), so a rare property
        // set to a non-default value keeps `hasExtras` true for good.
        switch key {
        case .id:
            let id = try readString(key: name)
            guard !id.isEmpty else {
                throw TreeError(.validation, "must not be empty", line: scanner.tokenLine, key: "\(name)")
            }
            f.values.name = id
            f.idOffset = scanner.tokenOffset
            // Hashed now and its bucket asked for: the node is added once its
            // other keys are read, by when the bucket's miss is over.
            f.nameHash = IDTable.hash(id)
            tree.idTable.prefetch(hash: f.nameHash)
        case .kind:
            let text = try readKind()
            guard let kind = text else {
                throw TreeError(
                    .validation, "unknown kind \"\(scanner.text)\" (expected \"view\" or \"element\")",
                    line: scanner.tokenLine, key: "\(name)")
            }
            f.set(.element, kind == .element)
            f.kindOffset = scanner.tokenOffset
            if kind == .element, let viewKey = f.viewKey {
                throw TreeError(
                    .validation, "element nodes have no \(viewKey.name) (a view property)",
                    line: scanner.line(at: f.viewKeyOffset), key: viewKey.name)
            }
        case .children:
            let t = try scanner.next()
            guard t == .beginArray else { throw expected("an array of nodes", t, key: name) }
            f.inChildren = true
        case .isAccessibilityElement: f.set(.accessibilityElement, try readBool(key: name))
        case .accessibilityLabel:
            f.values.extras.label = try readString(key: name)
            f.values.hasExtras = true
        case .accessibilityValue:
            f.values.extras.value = try readString(key: name)
            f.values.hasExtras = true
        case .accessibilityHint:
            f.values.extras.hint = try readString(key: name)
            f.values.hasExtras = true
        case .accessibilityIdentifier:
            f.values.extras.identifier = try readString(key: name)
            f.values.hasExtras = true
        case .accessibilityLanguage:
            f.values.extras.language = try readString(key: name)
            f.values.hasExtras = true
        case .accessibilityTraits:
            let traits = try readTraits()
            f.values.extras.traits = traits
            if !traits.isEmpty { f.values.hasExtras = true }
        case .accessibilityFrame:
            f.values.extras.accessibilityFrame = try readRect(key: name)
            f.values.hasExtras = true
        case .accessibilityFrameInContainerSpace:
            f.values.extras.frameInContainerSpace = try readRect(key: name)
            f.values.hasExtras = true
            f.containerSpaceFrameOffset = keyOffset
        case .accessibilityActivationPoint:
            f.values.extras.activationPoint = try readPoint(key: name)
            f.values.hasExtras = true
        case .accessibilityPath:
            f.values.extras.path = try readPath()
            f.values.hasExtras = true
        case .accessibilityElementsHidden: f.set(.elementsHidden, try readBool(key: name))
        case .accessibilityViewIsModal: f.set(.modal, try readBool(key: name))
        case .shouldGroupAccessibilityChildren: f.set(.groupsChildren, try readBool(key: name))
        case .accessibilityNavigationStyle:
            let text = try readString(key: name)
            guard let style = NavigationStyle(rawValue: text) else {
                throw TreeError(
                    .validation,
                    "unknown navigation style \"\(text)\" (expected \"automatic\", \"separate\" or \"combined\")",
                    line: scanner.tokenLine, key: "\(name)")
            }
            f.values.extras.navigationStyle = style
            if style != .automatic { f.values.hasExtras = true }
        case .accessibilityContainerType:
            let type = try readName(AccessibilityContainerType.self, key: name)
            f.values.extras.containerType = type
            if type != .none { f.values.hasExtras = true }
        case .visibleInSnapshot:
            f.values.extras.visibleInSnapshot = try readBool(key: name)
            f.values.hasExtras = true
        case .actions:
            let actions = try readActions()
            f.values.extras.actions = actions
            if !actions.isEmpty { f.values.hasExtras = true }
        case .checked:
            f.values.extras.checked = try readBool(key: name)
            f.values.hasExtras = true
        case .importantForAccessibility:
            f.values.extras.importantForAccessibility = try readBool(key: name)
            f.values.hasExtras = true
        case .className:
            f.values.extras.className = try readString(key: name)
            f.values.hasExtras = true
        case .labelIsText:
            f.values.extras.labelIsText = try readBool(key: name)
            if f.values.extras.labelIsText { f.values.hasExtras = true }
        case .isPassword:
            f.values.extras.isPassword = try readBool(key: name)
            if f.values.extras.isPassword { f.values.hasExtras = true }
        case .packageName:
            f.values.extras.packageName = try readString(key: name)
            f.values.hasExtras = true
        case .accessibilityIndex:
            let index = try readNumber(key: name)
            guard index >= 0, index == index.rounded(), index < 1e15 else {
                throw TreeError(
                    .validation, "must be an integer from 0, found \(index)", line: scanner.tokenLine, key: "\(name)")
            }
            f.values.extras.accessibilityIndex = Int(index)
            f.values.hasExtras = true
        case .accessibilityElements:
            f.values.extras.accessibilityElements = try readIDList(key: name)
            f.values.hasExtras = true
        case .frame: f.values.frame = try readRect(key: name)
        case .bounds: f.values.bounds = try readRect(key: name)
        case .transform:
            try readNumbers(count: 6, key: name, noun: "a transform [a, b, c, d, tx, ty]")
            let t = CGAffineTransform(
                a: CGFloat(numbers[0]), b: CGFloat(numbers[1]), c: CGFloat(numbers[2]),
                d: CGFloat(numbers[3]), tx: CGFloat(numbers[4]), ty: CGFloat(numbers[5]))
            f.values.transform = t == .identity ? nil : t
        case .clipsToBounds: f.set(.clipsToBounds, try readBool(key: name))
        case .isHidden: f.set(.hidden, try readBool(key: name))
        case .alpha:
            let alpha = try readNumber(key: name)
            if let problem = ValueRules.alphaProblem(alpha) {
                throw TreeError(.validation, problem, line: scanner.tokenLine, key: "\(name)")
            }
            f.values.extras.alpha = CGFloat(alpha)
            if alpha != 1 { f.values.hasExtras = true }
        case .isUserInteractionEnabled: f.set(.userInteractionEnabled, try readBool(key: name))
        case .isWindow: f.set(.window, try readBool(key: name))
        }
    }
}
