import Foundation

/// The document around the nodes: `format`, `platform`, `source`, `screen`
/// and `root`, and the tree-wide path budget checked once they are read.
extension AXHitJSONReader {
    mutating func readDocument() throws(TreeError) {
        let first = try scanner.next()
        guard first == .beginObject else {
            throw TreeError(
                .input, "expected an axhit/1 document (a JSON object), found \(first.noun)", line: scanner.tokenLine)
        }
        let documentOffset = scanner.tokenOffset
        var seen: [DocumentKey] = []
        while true {
            let t = try scanner.next()
            if t == .endObject { break }
            guard let key = scanner.lookup(in: Self.documentKeys) else {
                try skipValue()
                continue
            }
            if seen.contains(key) { throw TreeError(.input, "duplicate key", line: scanner.tokenLine, key: "\(key)") }
            seen.append(key)
            switch key {
            case .format:
                let format = try readString(key: "format")
                guard format == "axhit/1" else {
                    throw TreeError(
                        .input, "unsupported format \"\(format)\" (expected \"axhit/1\")",
                        line: scanner.tokenLine, key: "format")
                }
            case .platform:
                tree.platform = try readName(Platform.self, key: "platform")
            case .source:
                tree.source = try readName(TreeSource.self, key: "source")
            case .screen:
                try readScreen()
            case .root:
                try readNodes()
            }
        }
        guard seen.contains(.format) else {
            throw TreeError(
                .input, "required key is missing (\"format\": \"axhit/1\")", line: scanner.line(at: documentOffset),
                key: "format")
        }
        guard seen.contains(.root) else {
            throw TreeError(
                .input, "required key is missing (the root view)", line: scanner.line(at: documentOffset), key: "root")
        }
        _ = try scanner.next()  // the end, or an error for anything after the document
        try checkPathBudget()
    }

    /// Refuses a tree whose paths flatten to more than its
    /// `pathPointBudget` points together, naming the
    /// node (in pre-order) whose path crosses it. O(1) when within it.
    func checkPathBudget() throws(TreeError) {
        let budget = tree.pathPointBudget
        guard pathPoints > budget else { return }
        var total = 0
        for n in tree.preOrder {
            guard let path = tree.accessibilityPath(of: n) else { continue }
            total += ValueRules.pathPoints(path.path)
            if total > budget {
                throw TreeError(
                    .validation, ValueRules.pathBudgetProblem(budget), node: tree.id(of: n), key: "accessibilityPath")
            }
        }
    }

    mutating func readScreen() throws(TreeError) {
        let t = try scanner.next()
        guard t == .beginObject else { throw expected("an object", t, key: "screen") }
        var seen: [ScreenKey] = []
        while true {
            let k = try scanner.next()
            if k == .endObject { return }
            guard let key = scanner.lookup(in: Self.screenKeys) else {
                try skipValue()
                continue
            }
            if seen.contains(key) {
                throw TreeError(.input, "duplicate key", line: scanner.tokenLine, key: "screen.\(key)")
            }
            seen.append(key)
            switch key {
            case .bounds:
                tree.screenBounds = try readRect(key: "screen.bounds")
            case .scale:
                let scale = try readNumber(key: "screen.scale")
                if let problem = ValueRules.scaleProblem(scale) {
                    throw TreeError(.validation, problem, line: scanner.tokenLine, key: "screen.scale")
                }
                tree.screenScale = CGFloat(scale)
            case .idiom:
                tree.idiom = try readName(Idiom.self, key: "screen.idiom")
            case .layoutDirection:
                tree.layoutDirection = try readName(LayoutDirection.self, key: "screen.layoutDirection")
            }
        }
    }
}
