import Foundation

/// Writes an `ElementTree` as an `axhit/1` document (tree-format.md).
///
/// One node per line, indented by depth (capped, so a very deep chain stays
/// linear in size), keys in a fixed order, and only the properties that
/// differ from their defaults: reading the output back gives an equal tree.
/// Numbers are written in their shortest round-trip form (`10`, `0.1`,
/// `1e+20`); strings are escaped as JSON requires and otherwise kept as they
/// are.
///
/// The walk is iterative, so depth is bounded only by memory. Nodes are
/// written straight from the tree's columns (no `Node` per node) into one
/// byte buffer; numbers and strings are formatted without an intermediate
/// `String` where possible.
struct AXHitJSONWriter {
    private var out: [UInt8] = []

    /// Indentation stops growing here, so a deep chain costs O(n), not O(n²).
    private static let maxIndent = 32

    /// The document for `tree`.
    ///
    /// - Complexity: O(n) in the nodes and their strings and paths.
    static func write(_ tree: ElementTree) -> [UInt8] {
        var w = AXHitJSONWriter()
        w.out.reserveCapacity(64 + tree.count * 160)
        w.writeDocument(tree)
        return w.out
    }

    private mutating func writeDocument(_ tree: ElementTree) {
        put("{\n  \"format\": \"axhit/1\"")
        if tree.platform != .ios {
            put(",\n  \"platform\": ")
            string(tree.platform.rawValue)
        }
        if tree.source != .views {
            put(",\n  \"source\": ")
            string(tree.source.rawValue)
        }
        if tree.screenBounds != nil || tree.screenScale != nil || tree.idiom != .phone
            || tree.layoutDirection != .leftToRight
        {
            put(",\n  \"screen\": {")
            var first = true
            func separate() {
                if !first { put(", ") }
                first = false
            }
            if let b = tree.screenBounds {
                separate()
                put("\"bounds\": ")
                rect(b)
            }
            if let s = tree.screenScale {
                separate()
                put("\"scale\": ")
                number(s)
            }
            if tree.idiom != .phone {
                separate()
                put("\"idiom\": ")
                string(tree.idiom.rawValue)
            }
            if tree.layoutDirection != .leftToRight {
                separate()
                put("\"layoutDirection\": ")
                string(tree.layoutDirection.rawValue)
            }
            put("}")
        }
        if !tree.root.isNone {
            put(",\n  \"root\": ")
            writeNodes(tree)
        }
        put("\n}\n")
    }

    /// Every node in pre-order; a node with children opens `"children": [`
    /// and its last descendant's line closes it.
    private mutating func writeNodes(_ tree: ElementTree) {
        let root = tree.root
        var n = root
        var depth = 1
        while true {
            writeNode(tree, n)
            let child = tree.firstChildren[n.index]
            if !child.isNone {
                put(", \"children\": [\n")
                depth += 1
                indent(depth)
                n = child
                continue
            }
            put("}")
            // Climb to the nearest node with a next sibling, closing arrays.
            while n != root && tree.nextSiblings[n.index].isNone {
                n = tree.backLinks[n.index].parent
                depth -= 1
                put("\n")
                indent(depth)
                put("]}")
            }
            if n == root { return }
            put(",\n")
            indent(depth)
            n = tree.nextSiblings[n.index]
        }
    }

    /// The node's keys, without its children and closing brace. Element
    /// nodes get no view properties: the format has none for them. Reads
    /// the columns as `ElementTree[id]` would, without building the `Node`.
    private mutating func writeNode(_ tree: ElementTree, _ id: NodeID) {
        let i = id.index
        let f = tree.flags[i]
        put("{\"id\": ")
        string(tree.ids[i])
        let isView = !f.contains(.element)
        let slot = tree.sideSlots[i].extra
        if isView {
            put(", \"frame\": ")
            rect(tree.frames[i])
            let b = tree.sideSlots[i].bounds
            if b >= 0 {
                put(", \"bounds\": ")
                rect(tree.boundsTable[b])
            }
            let ts = tree.sideSlots[i].transform
            if ts >= 0 && tree.transformTable[ts] != .identity {
                let t = tree.transformTable[ts]
                put(", \"transform\": [")
                number(t.a)
                put(", ")
                number(t.b)
                put(", ")
                number(t.c)
                put(", ")
                number(t.d)
                put(", ")
                number(t.tx)
                put(", ")
                number(t.ty)
                put("]")
            }
            if f.contains(.clipsToBounds) { put(", \"clipsToBounds\": true") }
            if f.contains(.hidden) { put(", \"isHidden\": true") }
            if slot >= 0 && tree.extras[slot].alpha != 1 {
                put(", \"alpha\": ")
                number(tree.extras[slot].alpha)
            }
            if !f.contains(.userInteractionEnabled) { put(", \"isUserInteractionEnabled\": false") }
            if f.contains(.window) { put(", \"isWindow\": true") }
        } else {
            put(", \"kind\": \"element\"")
        }
        let isAccessibilityElement = f.contains(.accessibilityElement)
        if isAccessibilityElement != !isView {
            put(isAccessibilityElement ? ", \"isAccessibilityElement\": true" : ", \"isAccessibilityElement\": false")
        }
        if slot >= 0 { writeExtras(tree.extras[slot], isView: isView) }
        if f.contains(.elementsHidden) { put(", \"accessibilityElementsHidden\": true") }
        if f.contains(.modal) { put(", \"accessibilityViewIsModal\": true") }
        if f.contains(.groupsChildren) { put(", \"shouldGroupAccessibilityChildren\": true") }
        if slot >= 0 { writeNavigationAndSnapshotFacts(tree.extras[slot], isView: isView) }
    }

    /// The rare properties that follow the flags, in the fixed key order.
    private mutating func writeNavigationAndSnapshotFacts(_ e: borrowing NodeExtras, isView: Bool) {
        if e.navigationStyle != .automatic {
            put(", \"accessibilityNavigationStyle\": ")
            string(e.navigationStyle.rawValue)
        }
        if isView, let list = e.accessibilityElements {
            put(", \"accessibilityElements\": [")
            for (k, id) in list.enumerated() {
                if k > 0 { put(", ") }
                string(id)
            }
            put("]")
        }
        if e.containerType != .none {
            put(", \"accessibilityContainerType\": ")
            string(e.containerType.rawValue)
        }
        if let visible = e.visibleInSnapshot {
            put(visible ? ", \"visibleInSnapshot\": true" : ", \"visibleInSnapshot\": false")
        }
        if !e.actions.isEmpty {
            put(", \"actions\": [")
            var first = true
            for (name, action) in NodeActions.named where e.actions.contains(action) {
                if !first { put(", ") }
                string(name)
                first = false
            }
            put("]")
        }
        if let checked = e.checked { put(checked ? ", \"checked\": true" : ", \"checked\": false") }
        if let important = e.importantForAccessibility {
            put(
                important
                    ? ", \"importantForAccessibility\": true" : ", \"importantForAccessibility\": false")
        }
        optionalString(", \"className\": ", e.className)
        if e.labelIsText { put(", \"labelIsText\": true") }
        if e.isPassword { put(", \"isPassword\": true") }
        optionalString(", \"packageName\": ", e.packageName)
        if let index = e.accessibilityIndex {
            put(", \"accessibilityIndex\": ")
            unsigned(UInt64(index))
        }
    }

    /// The rare properties, in the fixed key order (between
    /// `isAccessibilityElement` and `accessibilityElementsHidden`).
    private mutating func writeExtras(_ e: borrowing NodeExtras, isView: Bool) {
        optionalString(", \"accessibilityLabel\": ", e.label)
        optionalString(", \"accessibilityValue\": ", e.value)
        optionalString(", \"accessibilityHint\": ", e.hint)
        optionalString(", \"accessibilityIdentifier\": ", e.identifier)
        optionalString(", \"accessibilityLanguage\": ", e.language)
        let traits = e.traits
        if !traits.isEmpty {
            put(", \"accessibilityTraits\": ")
            if traits.unnamedBits != 0 {
                // Names cannot carry unnamed bits: the integer mask keeps them all.
                unsigned(traits.rawValue)
            } else {
                put("[")
                var first = true
                // In bit order; no array built.
                for (name, trait) in AccessibilityTraits.named where traits.contains(trait) {
                    if !first { put(", ") }
                    string(name)
                    first = false
                }
                put("]")
            }
        }
        if let r = e.accessibilityFrame {
            put(", \"accessibilityFrame\": ")
            rect(r)
        }
        if !isView, let r = e.frameInContainerSpace {
            put(", \"accessibilityFrameInContainerSpace\": ")
            rect(r)
        }
        if let p = e.activationPoint {
            put(", \"accessibilityActivationPoint\": [")
            number(p.x)
            put(", ")
            number(p.y)
            put("]")
        }
        if let path = e.path {
            put(", \"accessibilityPath\": {\"d\": ")
            string(path.path.svgPathData)
            if path.path.fillRule == .evenOdd { put(", \"usesEvenOddFillRule\": true") }
            if path.coordinateSpace != .screen {
                put(", \"coordinateSpace\": ")
                string(path.coordinateSpace.rawValue)
            }
            put("}")
        }
    }

    // MARK: Values

    @inline(__always)
    private mutating func put(_ s: StaticString) {
        out.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    /// `value` in decimal, formatted in place.
    private mutating func unsigned(_ value: UInt64) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var v = value
            var k = 20
            repeat {
                k -= 1
                buffer[k] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v % 10)
                v /= 10
            } while v != 0
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[k...]))
        }
    }

    private mutating func indent(_ depth: Int) {
        for _ in 0 ..< min(depth, Self.maxIndent) { put("  ") }
    }

    /// `prefix` (`, "key": `) and the value, if there is one.
    private mutating func optionalString(_ prefix: StaticString, _ value: String?) {
        guard let value else { return }
        put(prefix)
        string(value)
    }

    private mutating func rect(_ r: CGRect) {
        put("[")
        number(r.origin.x)
        put(", ")
        number(r.origin.y)
        put(", ")
        number(r.size.width)
        put(", ")
        number(r.size.height)
        put("]")
    }

    /// The shortest text that reads back as exactly `x`: integers without a
    /// fraction (`10`, `-0`), others as Swift's shortest round-trip
    /// `description` (`0.1`, `1e+20`, both valid JSON). A non-finite value
    /// (which no valid tree holds) is written as `null`, which reading
    /// rejects rather than misreads.
    private mutating func number(_ x: CGFloat) {
        let v = Double(x)
        guard v.isFinite else {
            put("null")
            return
        }
        if v == v.rounded() && abs(v) < 1e15 {
            // Exact in an Int64 (below 1e15): digits formatted in place.
            if v.sign == .minus { out.append(UInt8(ascii: "-")) }
            unsigned(UInt64(abs(v)))
            return
        }
        let start = out.count
        var text = v.description
        text.withUTF8 { out.append(contentsOf: $0) }  // a contiguous copy, not a generic UTF8View append
        // An integral value written in full ends in ".0": drop it.
        let n = out.count
        if n - start >= 2 && out[n - 2] == UInt8(ascii: ".") && out[n - 1] == UInt8(ascii: "0") { out.removeLast(2) }
    }

    /// `s` as a JSON string: quotes, backslashes and control characters
    /// escaped, everything else as UTF-8. Runs that need no escape are
    /// copied whole.
    private mutating func string(_ s: String) {
        out.append(UInt8(ascii: "\""))
        var text = s
        text.withUTF8 { bytes in
            var runStart = 0
            for (k, c) in bytes.enumerated() where c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") || c < 0x20 {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart ..< k]))
                escape(c)
                runStart = k + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    private mutating func escape(_ c: UInt8) {
        switch c {
        case UInt8(ascii: "\""): put("\\\"")
        case UInt8(ascii: "\\"): put("\\\\")
        case 0x0A: put("\\n")
        case 0x0D: put("\\r")
        case 0x09: put("\\t")
        case 0x08: put("\\b")
        case 0x0C: put("\\f")
        default:
            put("\\u00")
            out.append(Self.hexDigits[Int(c >> 4)])
            out.append(Self.hexDigits[Int(c & 0xF)])
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
