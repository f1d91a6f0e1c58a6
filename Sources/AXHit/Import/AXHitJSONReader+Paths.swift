import Foundation

/// Accessibility paths in an `axhit/1` document: the `accessibilityPath`
/// object, and the budget of points all paths together flatten to.
extension AXHitJSONReader {
    private enum PathKey: CaseIterable { case d, usesEvenOddFillRule, coordinateSpace }
    private static let pathKeys = table(PathKey.self)

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
