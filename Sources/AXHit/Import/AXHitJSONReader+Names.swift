import Foundation

/// Values the `axhit/1` reader reads by name: a node's kind, traits and
/// actions, the cases of an enumeration, and lists of node ids.
extension AXHitJSONReader {
    private static let kinds = KeyTable([("view", NodeKind.view), ("element", NodeKind.element)])
    private static let traitNames = KeyTable(AccessibilityTraits.named.map { ($0.name, $0.trait) })
    private static let actionNames = KeyTable(NodeActions.named.map { ($0.name, $0.action) })

    /// A `kind` value, matched without building a string; nil for an
    /// unknown kind (its text is still in the scanner).
    mutating func readKind() throws(TreeError) -> NodeKind? {
        let t = try scanner.next()
        guard t == .string else { throw expected("a string", t, key: "kind") }
        return scanner.lookup(in: Self.kinds)
    }

    /// Trait names, or an integer bit mask (exactly a non-negative integer
    /// below 2^64; bits without a name are kept).
    mutating func readTraits() throws(TreeError) -> AccessibilityTraits {
        let key: StaticString = "accessibilityTraits"
        let t = try scanner.next()
        if t == .number {
            guard let mask = scanner.exactUInt64() else {
                throw TreeError(
                    .validation, "a trait bit mask must be an integer from 0 to 2^64-1, found \(scanner.numberText)",
                    line: scanner.tokenLine, key: "\(key)")
            }
            return AccessibilityTraits(rawValue: mask)
        }
        guard t == .beginArray else { throw expected("an array of trait names or an integer bit mask", t, key: key) }
        var traits: AccessibilityTraits = []
        while true {
            let e = try scanner.next()
            if e == .endArray { return traits }
            guard e == .string else { throw expected("a trait name (a string)", e, key: key) }
            guard let trait = scanner.lookup(in: Self.traitNames) else {
                throw TreeError(
                    .validation, "unknown trait \"\(scanner.text)\"", line: scanner.tokenLine, key: "\(key)")
            }
            traits.formUnion(trait)
        }
    }

    /// A string naming a case of `T` (its raw value).
    mutating func readName<T: RawRepresentable & CaseIterable>(
        _: T.Type, key: StaticString
    ) throws(TreeError) -> T
    where T.RawValue == String {
        let text = try readString(key: key)
        guard let value = T(rawValue: text) else {
            let names = T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw TreeError(
                .validation, "unknown value \"\(text)\" (expected one of \(names))", line: scanner.tokenLine,
                key: "\(key)")
        }
        return value
    }

    /// Android action names.
    mutating func readActions() throws(TreeError) -> NodeActions {
        let key: StaticString = "actions"
        let t = try scanner.next()
        guard t == .beginArray else { throw expected("an array of action names", t, key: key) }
        var actions: NodeActions = []
        while true {
            let e = try scanner.next()
            if e == .endArray { return actions }
            guard e == .string else { throw expected("an action name (a string)", e, key: key) }
            guard let action = scanner.lookup(in: Self.actionNames) else {
                let names = NodeActions.named.map { "\"\($0.name)\"" }.joined(separator: ", ")
                throw TreeError(
                    .validation, "unknown action \"\(scanner.text)\" (expected one of \(names))",
                    line: scanner.tokenLine, key: "\(key)")
            }
            actions.formUnion(action)
        }
    }

    /// An array of node ids (non-empty strings).
    mutating func readIDList(key: StaticString) throws(TreeError) -> [String] {
        let t = try scanner.next()
        guard t == .beginArray else { throw expected("an array of node ids", t, key: key) }
        var ids: [String] = []
        while true {
            let e = try scanner.next()
            if e == .endArray { return ids }
            guard e == .string else { throw expected("a node id (a string)", e, key: key) }
            let id = scanner.text
            guard !id.isEmpty else {
                throw TreeError(.validation, "an id in the list is empty", line: scanner.tokenLine, key: "\(key)")
            }
            ids.append(id)
        }
    }
}
