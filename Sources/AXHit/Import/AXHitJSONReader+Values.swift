import Foundation

/// The values of the document's keys (strings, booleans, numbers, rects,
/// points, traits, actions, id lists, paths), each checked as it is read,
/// an error carrying its line.
extension AXHitJSONReader {
    // MARK: Values

    func expected(_ what: StaticString, _ found: JSONScanner.Token, key: StaticString) -> TreeError {
        TreeError(.input, "expected \(what), found \(found.noun)", line: scanner.tokenLine, key: "\(key)")
    }

    /// Skips the next value (checking that it is valid JSON).
    mutating func skipValue() throws(TreeError) {
        let t = try scanner.next()
        guard t == .beginObject || t == .beginArray else { return }
        let depth = scanner.depth - 1
        while scanner.depth > depth { _ = try scanner.next() }
    }

    mutating func readString(key: StaticString) throws(TreeError) -> String {
        let t = try scanner.next()
        guard t == .string else { throw expected("a string", t, key: key) }
        return scanner.text
    }

    /// A `kind` value, matched without building a string; nil for an
    /// unknown kind (its text is still in the scanner).
    mutating func readKind() throws(TreeError) -> NodeKind? {
        let t = try scanner.next()
        guard t == .string else { throw expected("a string", t, key: "kind") }
        return scanner.lookup(in: Self.kinds)
    }

    mutating func readBool(key: StaticString) throws(TreeError) -> Bool {
        let t = try scanner.next()
        if t == .true { return true }
        if t == .false { return false }
        throw expected("a boolean (true or false)", t, key: key)
    }

    mutating func readNumber(key: StaticString) throws(TreeError) -> Double {
        let t = try scanner.next()
        guard t == .number else { throw expected("a number", t, key: key) }
        return try finiteNumber(key: key)
    }

    // Mutating, like every helper on the hot path: a non-mutating method
    // called from a mutating one copies the whole reader (hundreds of bytes).
    private mutating func finiteNumber(key: StaticString) throws(TreeError) -> Double {
        let v = scanner.doubleValue()
        guard v.isFinite else {
            throw TreeError(
                .validation, "number \(scanner.numberText) is out of range (not finite)", line: scanner.tokenLine,
                key: "\(key)")
        }
        return v
    }

    /// Reads an array of exactly `count` finite numbers into `numbers`;
    /// returns where the array starts.
    @discardableResult
    mutating func readNumbers(count: Int, key: StaticString, noun: StaticString) throws(TreeError) -> Int {
        let t = try scanner.next()
        guard t == .beginArray else { throw expected(noun, t, key: key) }
        let offset = scanner.tokenOffset
        var n = 0
        switch try scanner.readNumbers(into: &numbers, max: count, count: &n) {
        case .closed:
            guard n == count else {
                throw TreeError(
                    .input, "expected \(count) numbers, found \(n)", line: scanner.line(at: offset), key: "\(key)")
            }
            return offset
        case .notFinite:
            throw TreeError(
                .validation, "number \(scanner.numberText) is out of range (not finite)", line: scanner.tokenLine,
                key: "\(key)")
        case .stopped:
            break  // the rest token by token, for the exact error
        }
        while true {
            let e = try scanner.next()
            if e == .endArray { break }
            guard e == .number else { throw expected("a number", e, key: key) }
            if n == count {
                throw TreeError(.input, "expected \(count) numbers, found more", line: scanner.tokenLine, key: "\(key)")
            }
            numbers[n] = try finiteNumber(key: key)
            n += 1
        }
        guard n == count else {
            throw TreeError(
                .input, "expected \(count) numbers, found \(n)", line: scanner.line(at: offset), key: "\(key)")
        }
        return offset
    }

    mutating func readRect(key: StaticString) throws(TreeError) -> CGRect {
        let offset = try readNumbers(count: 4, key: key, noun: "a rect [x, y, width, height]")
        if let problem = ValueRules.rectProblem(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3]) {
            throw TreeError(.validation, problem, line: scanner.line(at: offset), key: "\(key)")
        }
        return CGRect(
            x: CGFloat(numbers[0]), y: CGFloat(numbers[1]), width: CGFloat(numbers[2]), height: CGFloat(numbers[3]))
    }

    mutating func readPoint(key: StaticString) throws(TreeError) -> CGPoint {
        try readNumbers(count: 2, key: key, noun: "a point [x, y]")
        return CGPoint(x: CGFloat(numbers[0]), y: CGFloat(numbers[1]))
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

    mutating func readPath() throws(TreeError) -> AccessibilityPath {
        let t = try scanner.next()
        guard t == .beginObject else { throw expected("an object with path data \"d\"", t, key: "accessibilityPath") }
        let offset = scanner.tokenOffset
        var seen: [PathKey] = []
        var data: String?
        var dataOffset = offset
        var evenOdd = false
        var space = PathCoordinateSpace.screen
        while true {
            let k = try scanner.next()
            if k == .endObject { break }
            guard let key = scanner.lookup(in: Self.pathKeys) else {
                try skipValue()
                continue
            }
            let name: StaticString =
                switch key {
                case .d: "accessibilityPath.d"
                case .usesEvenOddFillRule: "accessibilityPath.usesEvenOddFillRule"
                case .coordinateSpace: "accessibilityPath.coordinateSpace"
                }
            if seen.contains(key) { throw TreeError(.input, "duplicate key", line: scanner.tokenLine, key: "\(name)") }
            seen.append(key)
            switch key {
            case .d:
                data = try readString(key: name)
                dataOffset = scanner.tokenOffset
            case .usesEvenOddFillRule:
                evenOdd = try readBool(key: name)
            case .coordinateSpace:
                let text = try readString(key: name)
                guard let s = PathCoordinateSpace(rawValue: text) else {
                    throw TreeError(
                        .validation, "unknown coordinate space \"\(text)\" (expected \"screen\" or \"view\")",
                        line: scanner.tokenLine, key: "\(name)")
                }
                space = s
            }
        }
        guard let data else {
            throw TreeError(
                .input, "required key is missing", line: scanner.line(at: offset), key: "accessibilityPath.d")
        }
        var path: BezierPath
        do {
            path = try BezierPath(svgPathData: data)
        } catch {
            throw TreeError(.validation, "\(error)", line: scanner.line(at: dataOffset), key: "accessibilityPath.d")
        }
        if evenOdd { path.fillRule = .evenOdd }
        let points = ValueRules.pathPoints(path)
        if let problem = ValueRules.pathProblem(points: points) {
            throw TreeError(.validation, problem, line: scanner.line(at: dataOffset), key: "accessibilityPath.d")
        }
        pathPoints += points
        return AccessibilityPath(path, coordinateSpace: space)
    }
}
