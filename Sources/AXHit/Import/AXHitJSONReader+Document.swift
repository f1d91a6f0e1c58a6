import Foundation

/// The document level of the `axhit/1` reader: its entry point, the tree
/// sized from the bytes, the top-level keys and the `screen` object.
extension AXHitJSONReader {
    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        scanner = JSONScanner(bytes)
        let n = Self.estimatedNodeCount(bytes)
        // Rare properties (labels, traits...) are common enough in real trees
        // that their table is worth sizing too; untouched capacity is only
        // address space.
        tree.reserveForLoading(n, extras: n)
    }

    /// About how many nodes `bytes` holds, to size the tree once instead of
    /// regrowing its columns and rehashing its id table: the number of `{`
    /// (every node is an object), but never more than a node per 24 bytes
    /// (no node is shorter), so junk full of braces cannot reserve much.
    /// O(n), a fraction of the parse.
    static func estimatedNodeCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var braces = 0
        var i = 0
        if let base = bytes.baseAddress {
            // 16 bytes at a time: per-lane counters, emptied into `braces`
            // before any lane can wrap (255 rounds).
            let raw = UnsafeRawPointer(base)
            let brace = SIMD16<UInt8>(repeating: UInt8(ascii: "{"))
            let zero = SIMD16<UInt8>(), one = SIMD16<UInt8>(repeating: 1)
            while i &+ 16 <= bytes.count {
                var lanes = SIMD16<UInt8>()
                var rounds = 0
                while rounds < 255 && i &+ 16 <= bytes.count {
                    let v = raw.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
                    lanes &+= zero.replacing(with: one, where: v .== brace)
                    i &+= 16
                    rounds &+= 1
                }
                braces &+= Int(SIMD16<UInt16>(truncatingIfNeeded: lanes).wrappedSum())
            }
        }
        while i < bytes.count {
            braces &+= bytes[i] == UInt8(ascii: "{") ? 1 : 0
            i &+= 1
        }
        return min(braces, bytes.count / 24)
    }

    /// The tree in `bytes`.
    ///
    /// - Complexity: O(n) in the input size.
    /// - Throws: `TreeError` with the line, and the node and key where they
    ///   apply (no file: the caller adds it).
    static func read(_ bytes: UnsafeBufferPointer<UInt8>) throws(TreeError) -> ElementTree {
        var reader = AXHitJSONReader(bytes)
        try reader.readDocument()
        return reader.tree
    }

    private enum DocumentKey: CaseIterable { case format, platform, source, screen, root }
    private enum ScreenKey: CaseIterable { case bounds, scale, idiom, layoutDirection }

    private static let documentKeys = table(DocumentKey.self)
    private static let screenKeys = table(ScreenKey.self)

    // MARK: Document

    private mutating func readDocument() throws(TreeError) {
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

    private mutating func readScreen() throws(TreeError) {
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
