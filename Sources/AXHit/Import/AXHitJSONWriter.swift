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
/// The walk is iterative, so depth is bounded only by memory.
struct AXHitJSONWriter {
    private var out: [UInt8] = []

    /// Indentation stops growing here, so a deep chain costs O(n), not O(n²).
    private static let maxIndent = 32

    /// The document for `tree`.
    ///
    /// - Complexity: O(n) in the nodes and their strings and paths.
    static func write(_ tree: ElementTree) -> [UInt8] {
        var w = AXHitJSONWriter()
        w.out.reserveCapacity(64 + tree.count * 80)
        w.writeDocument(tree)
        return w.out
    }

    private mutating func writeDocument(_ tree: ElementTree) {
        put("{\n  \"format\": \"axhit/1\"")
        if tree.screenBounds != nil || tree.screenScale != nil {
            put(",\n  \"screen\": {")
            var first = true
            if let b = tree.screenBounds {
                put("\"bounds\": ")
                rect(b)
                first = false
            }
            if let s = tree.screenScale {
                if !first { put(", ") }
                put("\"scale\": ")
                number(s)
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
            writeNode(tree[n])
            let child = tree.firstChild(of: n)
            if !child.isNone {
                put(", \"children\": [\n")
                depth += 1
                indent(depth)
                n = child
                continue
            }
            put("}")
            // Climb to the nearest node with a next sibling, closing arrays.
            while n != root && tree.nextSibling(of: n).isNone {
                n = tree.parent(of: n)
                depth -= 1
                put("\n")
                indent(depth)
                put("]}")
            }
            if n == root { return }
            put(",\n")
            indent(depth)
            n = tree.nextSibling(of: n)
        }
    }

    /// The node's keys, without its children and closing brace. Element
    /// nodes get no view properties: the format has none for them.
    private mutating func writeNode(_ node: Node) {
        put("{\"id\": ")
        string(node.id)
        let isView = node.kind == .view
        if isView {
            put(", \"frame\": ")
            rect(node.frame)
            if let b = node.bounds {
                put(", \"bounds\": ")
                rect(b)
            }
            if node.transform != .identity {
                let t = node.transform
                put(", \"transform\": [")
                for (k, v) in [t.a, t.b, t.c, t.d, t.tx, t.ty].enumerated() {
                    if k > 0 { put(", ") }
                    number(v)
                }
                put("]")
            }
            if node.clipsToBounds { put(", \"clipsToBounds\": true") }
            if node.isHidden { put(", \"isHidden\": true") }
            if node.alpha != 1 {
                put(", \"alpha\": ")
                number(node.alpha)
            }
            if !node.isUserInteractionEnabled { put(", \"isUserInteractionEnabled\": false") }
        } else {
            put(", \"kind\": \"element\"")
        }
        if node.isAccessibilityElement != !isView {
            put(node.isAccessibilityElement ? ", \"isAccessibilityElement\": true" : ", \"isAccessibilityElement\": false")
        }
        optionalString("accessibilityLabel", node.accessibilityLabel)
        optionalString("accessibilityValue", node.accessibilityValue)
        optionalString("accessibilityHint", node.accessibilityHint)
        optionalString("accessibilityIdentifier", node.accessibilityIdentifier)
        optionalString("accessibilityLanguage", node.accessibilityLanguage)
        let traits = node.accessibilityTraits
        if !traits.isEmpty {
            put(", \"accessibilityTraits\": ")
            if traits.unnamedBits != 0 {
                // Names cannot carry unnamed bits: the integer mask keeps them all.
                put(String(traits.rawValue))
            } else {
                put("[")
                for (k, name) in traits.names.enumerated() {
                    if k > 0 { put(", ") }
                    string(name)
                }
                put("]")
            }
        }
        if let r = node.accessibilityFrame {
            put(", \"accessibilityFrame\": ")
            rect(r)
        }
        if !isView, let r = node.accessibilityFrameInContainerSpace {
            put(", \"accessibilityFrameInContainerSpace\": ")
            rect(r)
        }
        if let p = node.accessibilityActivationPoint {
            put(", \"accessibilityActivationPoint\": [")
            number(p.x)
            put(", ")
            number(p.y)
            put("]")
        }
        if let path = node.accessibilityPath {
            put(", \"accessibilityPath\": {\"d\": ")
            string(path.path.svgPathData)
            if path.path.fillRule == .evenOdd { put(", \"usesEvenOddFillRule\": true") }
            if path.coordinateSpace != .screen {
                put(", \"coordinateSpace\": ")
                string(path.coordinateSpace.rawValue)
            }
            put("}")
        }
        if node.accessibilityElementsHidden { put(", \"accessibilityElementsHidden\": true") }
        if node.accessibilityViewIsModal { put(", \"accessibilityViewIsModal\": true") }
        if node.shouldGroupAccessibilityChildren { put(", \"shouldGroupAccessibilityChildren\": true") }
        if node.accessibilityNavigationStyle != .automatic {
            put(", \"accessibilityNavigationStyle\": ")
            string(node.accessibilityNavigationStyle.rawValue)
        }
    }

    // MARK: Values

    @inline(__always)
    private mutating func put(_ s: StaticString) {
        out.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    private mutating func put(_ s: String) {
        out.append(contentsOf: s.utf8)
    }

    private mutating func indent(_ depth: Int) {
        for _ in 0..<min(depth, Self.maxIndent) { put("  ") }
    }

    private mutating func optionalString(_ key: String, _ value: String?) {
        guard let value else { return }
        put(", \"")
        put(key)
        put("\": ")
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
            if v == 0 && v.sign == .minus {
                put("-0")
            } else {
                put(String(Int64(v)))
            }
            return
        }
        var s = v.description
        if s.hasSuffix(".0") { s.removeLast(2) }
        put(s)
    }

    /// `s` as a JSON string: quotes, backslashes and control characters
    /// escaped, everything else as UTF-8.
    private mutating func string(_ s: String) {
        out.append(UInt8(ascii: "\""))
        for c in s.utf8 {
            switch c {
            case UInt8(ascii: "\""): put("\\\"")
            case UInt8(ascii: "\\"): put("\\\\")
            case 0x0A: put("\\n")
            case 0x0D: put("\\r")
            case 0x09: put("\\t")
            case 0x08: put("\\b")
            case 0x0C: put("\\f")
            case 0..<0x20:
                put("\\u00")
                out.append(Self.hexDigits[Int(c >> 4)])
                out.append(Self.hexDigits[Int(c & 0xF)])
            default:
                out.append(c)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
