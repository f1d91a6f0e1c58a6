import Foundation
import Testing

@testable import AXHit

/// Reads `text` as an axhit/1 document from a file named "t.json".
func loadTree(_ text: String) throws(TreeError) -> ElementTree {
    try ElementTree(axhitJSON: Data(text.utf8), file: "t.json")
}

/// The error reading `bytes` throws, or nil when it reads.
func readError(_ bytes: Data) -> TreeError? {
    do {
        _ = try ElementTree(axhitJSON: bytes, file: "t.json")
        return nil
    } catch {
        return error
    }
}

func readError(_ text: String) -> TreeError? { readError(Data(text.utf8)) }

/// A document whose root view `window` has `children` (JSON text).
func document(children: String) -> String {
    """
    {"format": "axhit/1", "root": {"id": "window", "frame": [0, 0, 390, 844], "children": [
    \(children)
    ]}}
    """
}

@Suite struct AXHitJSONReaderTests {
    @Test func specExample() throws {
        let tree = try loadTree(
            """
            {
              "format": "axhit/1",
              "screen": { "bounds": [0, 0, 390, 844], "scale": 3 },
              "root": { "id": "window", "frame": [0, 0, 390, 844], "children": [] }
            }
            """)
        #expect(tree.count == 1)
        #expect(tree.root == NodeID(Int32(0)))
        #expect(tree.screenBounds == CGRect(x: 0, y: 0, width: 390, height: 844))
        #expect(tree.screenScale == 3)
        #expect(tree[tree.root] == Node.view("window", frame: CGRect(x: 0, y: 0, width: 390, height: 844)))
    }

    @Test func defaults() throws {
        let tree = try loadTree(
            document(
                children: """
                    {"id": "v", "frame": [1, 2, 3, 4]},
                    {"id": "e", "kind": "element"},
                    {"id": "v2", "kind": "view", "frame": [0, 0, 0, 0], "isAccessibilityElement": true},
                    {"id": "e2", "kind": "element", "isAccessibilityElement": false}
                    """))
        #expect(tree.screenBounds == nil && tree.screenScale == nil)
        let v = try #require(tree.node(withID: "v"))
        #expect(tree[v] == Node.view("v", frame: CGRect(x: 1, y: 2, width: 3, height: 4)))
        #expect(tree[v]!.isAccessibilityElement == false)
        #expect(tree[v]!.bounds == nil)
        #expect(tree[v]!.effectiveBounds == CGRect(x: 0, y: 0, width: 3, height: 4))
        let e = try #require(tree.node(withID: "e"))
        #expect(tree[e] == Node.element("e"))
        #expect(tree[e]!.isAccessibilityElement == true)
        #expect(tree[try #require(tree.node(withID: "v2"))]!.isAccessibilityElement == true)
        #expect(tree[try #require(tree.node(withID: "e2"))]!.isAccessibilityElement == false)
    }

    @Test func everyProperty() throws {
        let tree = try loadTree(
            document(
                children: """
                    {"id": "v", "frame": [10, 20, 30, 40], "bounds": [0, 5, 30, 40], "transform": [1, 0, 0, 1, 5, -5],
                     "clipsToBounds": true, "isHidden": true, "alpha": 0.5, "isUserInteractionEnabled": false,
                     "isAccessibilityElement": true, "accessibilityLabel": "Play", "accessibilityValue": "50%",
                     "accessibilityHint": "Plays", "accessibilityIdentifier": "play", "accessibilityLanguage": "en",
                     "accessibilityTraits": ["button", "selected", "toggleButton"], "accessibilityFrame": [1, 2, 3, 4],
                     "accessibilityActivationPoint": [2.5, 3.5],
                     "accessibilityPath": {"d": "", "usesEvenOddFillRule": true, "coordinateSpace": "view"},
                     "accessibilityElementsHidden": true, "accessibilityViewIsModal": true,
                     "shouldGroupAccessibilityChildren": true, "accessibilityNavigationStyle": "combined", "children": [
                       {"id": "e", "kind": "element", "accessibilityFrameInContainerSpace": [1, 1, 2, 2],
                        "accessibilityTraits": 1099511627777}
                    ]}
                    """))
        var v = Node.view("v", frame: CGRect(x: 10, y: 20, width: 30, height: 40))
        v.bounds = CGRect(x: 0, y: 5, width: 30, height: 40)
        v.transform = CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 5, ty: -5)
        v.clipsToBounds = true
        v.isHidden = true
        v.alpha = 0.5
        v.isUserInteractionEnabled = false
        v.isAccessibilityElement = true
        v.accessibilityLabel = "Play"
        v.accessibilityValue = "50%"
        v.accessibilityHint = "Plays"
        v.accessibilityIdentifier = "play"
        v.accessibilityLanguage = "en"
        v.accessibilityTraits = [.button, .selected, .toggleButton]
        v.accessibilityFrame = CGRect(x: 1, y: 2, width: 3, height: 4)
        v.accessibilityActivationPoint = CGPoint(x: 2.5, y: 3.5)
        var path = try BezierPath(svgPathData: "")
        path.fillRule = .evenOdd
        v.accessibilityPath = AccessibilityPath(path, coordinateSpace: .view)
        v.accessibilityElementsHidden = true
        v.accessibilityViewIsModal = true
        v.shouldGroupAccessibilityChildren = true
        v.accessibilityNavigationStyle = .combined
        #expect(tree[try #require(tree.node(withID: "v"))] == v)
        var e = Node.element("e")
        e.accessibilityFrameInContainerSpace = CGRect(x: 1, y: 1, width: 2, height: 2)
        e.accessibilityTraits = AccessibilityTraits(rawValue: 1 << 40 | 1)
        #expect(tree[try #require(tree.node(withID: "e"))] == e)
    }

    /// `d` is read as SVG path data: absolute and relative commands, an
    /// implicit line after a move, a quadratic curve, each element as
    /// written by hand below; the fill rule is non-zero unless given.
    @Test func pathData() throws {
        let tree = try loadTree(
            document(
                children: """
                    {"id": "e", "kind": "element", "accessibilityPath": {"d": "M 0 0 L 10 0 l 0 10 Z"}},
                    {"id": "f", "kind": "element", "accessibilityPath": {"d": "m 1 2 3 4 Q 5 6 7 8", "usesEvenOddFillRule": true}}
                    """))
        let e = tree[try #require(tree.node(withID: "e"))]!
        let triangle: [BezierPath.Element] = [
            .move(to: CGPoint(x: 0, y: 0)), .line(to: CGPoint(x: 10, y: 0)), .line(to: CGPoint(x: 10, y: 10)),
            .closeSubpath,
        ]
        #expect(e.accessibilityPath?.path.elements == triangle)
        #expect(e.accessibilityPath?.path.fillRule == .nonZero)
        let f = tree[try #require(tree.node(withID: "f"))]!
        let open: [BezierPath.Element] = [
            .move(to: CGPoint(x: 1, y: 2)), .line(to: CGPoint(x: 4, y: 6)),
            .quadCurve(to: CGPoint(x: 7, y: 8), control: CGPoint(x: 5, y: 6)),
        ]
        #expect(f.accessibilityPath?.path.elements == open)
        #expect(f.accessibilityPath?.path.fillRule == .evenOdd)
    }

    /// Node ids follow the file in pre-order, whatever the key order inside
    /// each node, and unknown keys are skipped.
    @Test func preOrderWithAnyKeyOrder() throws {
        let tree = try loadTree(
            """
            {"extra": {"nested": [1, {"x": null}], "s": "\\u0041"}, "root": {"children": [
              {"children": [{"id": "a1", "frame": [0, 0, 1, 1]}, {"kind": "element", "id": "a2"}],
               "frame": [0, 0, 10, 10], "id": "a", "futureKey": [[[]]]},
              {"children": [{"id": "b1", "kind": "element", "children": [{"id": "b11", "kind": "element"}]}],
               "id": "b", "kind": "element", "accessibilityLabel": "late"},
              {"children": [{"id": "c1", "kind": "element"}], "kind": "element"}
            ], "id": "window", "frame": [0, 0, 100, 100]}, "format": "axhit/1"}
            """.replacingOccurrences(
                of: "{\"children\": [{\"id\": \"c1\", \"kind\": \"element\"}], \"kind\": \"element\"}",
                with: "{\"children\": [{\"id\": \"c1\", \"kind\": \"element\"}], \"kind\": \"element\", \"id\": \"c\"}")
        )
        let names = tree.preOrder.map { tree.id(of: $0) }
        #expect(names == ["window", "a", "a1", "a2", "b", "b1", "b11", "c", "c1"])
        #expect(tree.preOrder.map(\.rawValue) == Array(0 ..< 9))
        let b = try #require(tree.node(withID: "b"))
        #expect(tree.kind(of: b) == .element)
        #expect(tree[b]!.accessibilityLabel == "late")
        #expect(tree[b]!.isAccessibilityElement == true)
        #expect(tree.kind(of: try #require(tree.node(withID: "a"))) == .view)
        #expect(tree[try #require(tree.node(withID: "a"))]!.frame == CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(tree.node(withID: "") == nil)
        #expect(tree.count == 9)
    }

    /// The reader hashes each id as it reads it and hands the hash to the
    /// tree with the node: every node of a large file is then found by its
    /// id (ids of every length, written in either Unicode form, an id
    /// before or after the node's other keys and its children), and an id
    /// equal to an earlier one only up to canonical equivalence is refused.
    @Test func everyIdReadIsFoundByItsId() throws {
        var children: [String] = []
        for k in 0 ..< 3_000 {
            let id = k % 3 == 0 ? "café-\(k)" : (k % 3 == 1 ? String(repeating: "n", count: k % 40) + "\(k)" : "\(k)")
            let frame = "\"frame\": [\(k % 300), \(k / 300 * 10), 10, 10]"
            // Two cells in three put the id first, one after the frame;
            // every tenth has a child, read before the node is complete.
            let child = k % 10 == 0 ? ", \"children\": [{\"id\": \"c\(k)\", \"frame\": [0, 0, 1, 1]}]" : ""
            children.append(
                k % 3 == 2 ? "{\(frame), \"id\": \"\(id)\"\(child)}" : "{\"id\": \"\(id)\", \(frame)\(child)}")
        }
        let tree = try loadTree(document(children: children.joined(separator: ",\n")))
        #expect(tree.count == 1 + 3_000 + 300)
        var lost: [String] = []
        for node in tree.preOrder {
            let id = tree.id(of: node)
            // The decomposed form of "é" names the same node.
            let decomposed = id.replacingOccurrences(of: "\u{E9}", with: "e\u{301}")
            if tree.node(withID: id) != node || tree.node(withID: decomposed) != node { lost.append(id) }
        }
        #expect(tree.preOrder.count == tree.count)
        #expect(lost.count == 0, "not found by their ids: \(lost.prefix(5))")
        let twice = document(
            children: #"{"id": "caf\u00e9", "frame": [0, 0, 1, 1]}, {"id": "cafe\u0301", "frame": [0, 0, 1, 1]}"#)
        #expect(readError(twice)?.message == "duplicate id")
        #expect(readError(twice)?.node == "cafe\u{301}")
    }

    @Test func unicodeStrings() throws {
        let tree = try loadTree(
            document(
                children: #"""
                    {"id": "caf\u00e9 \ud83d\ude00", "kind": "element", "accessibilityLabel": "a\"b\\c\/d\n\u0000 ñ 😀"}
                    """#))
        let e = try #require(tree.node(withID: "café 😀"))
        #expect(tree[e]!.accessibilityLabel == "a\"b\\c/d\n\u{0} ñ 😀")
    }

    @Test func deepChainLoads() throws {
        let depth = 100_000
        var text = #"{"format": "axhit/1", "root": "#
        text.reserveCapacity(depth * 60)
        for i in 0 ..< depth {
            text += #"{"id": "n\#(i)", "frame": [0, 0, 10, 10], "children": ["#
            text += "\n"
        }
        text += #"{"id": "leaf", "kind": "element"}"#
        text += String(repeating: "]}", count: depth) + "}"
        let tree = try loadTree(text)
        #expect(tree.count == depth + 1)
        let leaf = try #require(tree.node(withID: "leaf"))
        #expect(leaf.rawValue == Int32(depth))
        #expect(tree.id(of: tree.parent(of: leaf)) == "n\(depth - 1)")

        // The same chain with every node's keys after its children (the pending path).
        var late = #"{"format": "axhit/1", "root": "#
        for _ in 0 ..< depth { late += #"{"children": ["# }
        late += #"{"id": "leaf", "kind": "element"}"#
        for i in (0 ..< depth).reversed() { late += #"], "id": "n\#(i)", "frame": [0, 0, 1, 1]}"# }
        late += "}"
        let lateTree = try loadTree(late)
        #expect(lateTree.count == depth + 1)
        #expect(lateTree.preOrder.map { lateTree.id(of: $0) } == tree.preOrder.map { tree.id(of: $0) })

        // A deep error still reports its line.
        let bad = text.replacingOccurrences(
            of: #""id": "n99998", "frame": [0, 0, 10, 10]"#,
            with: #""id": "n99998", "frame": [0, 0, -1, 10]"#)
        let e = readError(bad)
        #expect(e?.line == 99_999)
        #expect(e?.node == "n99998")
        #expect(e?.key == "frame")
        #expect(e?.message == "width is negative")
    }
}

/// A bad input and the facts its error must carry.
struct BadInput: Sendable, CustomTestStringConvertible {
    let name: String
    let json: String
    let line: Int
    let node: String?
    let key: String?
    let message: String
    var testDescription: String { name }
}

@Suite struct AXHitJSONReaderErrorTests {
    static let cases: [BadInput] = [
        BadInput(name: "not JSON", json: "hello", line: 1, node: nil, key: nil, message: "invalid JSON"),
        BadInput(name: "empty", json: "", line: 1, node: nil, key: nil, message: "the file is empty"),
        BadInput(name: "only whitespace", json: "\n\n  ", line: 3, node: nil, key: nil, message: "the file is empty"),
        BadInput(
            name: "truncated", json: "{\"format\": \"axhit/1\",\n\"root\": {\"id\": \"w\",\n", line: 3,
            node: nil, key: nil, message: "ends unexpectedly"),
        BadInput(
            name: "truncated string", json: "{\"format\": \"axhit/1\",\n\"root\": {\"id\": \"w", line: 2,
            node: nil, key: nil, message: "ends inside a string"),
        BadInput(
            name: "trailing garbage", json: document(children: "") + "\nx", line: 4,
            node: nil, key: nil, message: "after the end"),
        BadInput(
            name: "not an object", json: "[]", line: 1, node: nil, key: nil,
            message: "expected an axhit/1 document (a JSON object), found an array"),
        BadInput(
            name: "wrong format", json: "{\n\"format\": \"axhit/2\", \"root\": {}}", line: 2, node: nil,
            key: "format", message: "unsupported format \"axhit/2\" (expected \"axhit/1\")"),
        BadInput(
            name: "format not a string", json: "{\"format\": 1}", line: 1, node: nil, key: "format",
            message: "expected a string, found a number"),
        BadInput(
            name: "no format", json: "{\"root\": {\"id\": \"w\", \"frame\": [0, 0, 1, 1]}}", line: 1,
            node: nil, key: "format", message: "required key is missing (\"format\": \"axhit/1\")"),
        BadInput(
            name: "no root", json: "{\n\"format\": \"axhit/1\"}", line: 1, node: nil, key: "root",
            message: "required key is missing (the root view)"),
        BadInput(
            name: "root not an object", json: "{\"format\": \"axhit/1\", \"root\": []}", line: 1, node: nil,
            key: "root", message: "expected a view node (an object), found an array"),
        BadInput(
            name: "root without id", json: "{\"format\": \"axhit/1\", \"root\": {\"frame\": [0, 0, 1, 1]}}",
            line: 1, node: "(the root)", key: "id", message: "required key is missing"),
        BadInput(
            name: "node without id",
            json: document(
                children: """
                    {"id": "list", "frame": [0, 0, 10, 10], "children": [
                      {"id": "a", "kind": "element"},
                      {"id": "b", "kind": "element"},
                      {"kind": "element", "accessibilityLabel": "no id"}
                    ]}
                    """), line: 5, node: "(child 3 of \"list\")", key: "id", message: "required key is missing"),
        BadInput(
            name: "node without id under a node without id",
            json: """
                {"format": "axhit/1", "root": {"frame": [0, 0, 1, 1], "children": [
                {"kind": "element"}]}}
                """, line: 2, node: "(child 1 of the root)", key: "id", message: "required key is missing"),
        BadInput(
            name: "empty id", json: document(children: "{\"id\": \"\", \"kind\": \"element\"}"), line: 2,
            node: "(child 1 of \"window\")", key: "id", message: "must not be empty"),
        BadInput(
            name: "duplicate id",
            json: document(
                children: """
                    {"id": "a", "kind": "element"},
                    {"kind": "element",
                     "id": "a"}
                    """), line: 4, node: "a", key: "id", message: "duplicate id"),
        BadInput(
            name: "duplicate id of an ancestor",
            json: document(
                children: """
                    {"id": "window", "frame": [0, 0, 1, 1]}
                    """), line: 2, node: "window", key: "id", message: "duplicate id"),
        BadInput(
            name: "duplicate key",
            json: document(
                children: """
                    {"id": "a", "frame": [0, 0, 1, 1],
                     "frame": [0, 0, 1, 1]}
                    """), line: 3, node: "a", key: "frame", message: "duplicate key"),
        BadInput(
            name: "rect of a string", json: document(children: "{\"id\": \"a\", \"frame\": \"0 0 1 1\"}"),
            line: 2, node: "a", key: "frame", message: "expected a rect [x, y, width, height], found a string"),
        BadInput(
            name: "rect with a string", json: document(children: "{\"id\": \"a\", \"frame\": [0, \"0\", 1, 1]}"),
            line: 2, node: "a", key: "frame", message: "expected a number, found a string"),
        BadInput(
            name: "rect of 3", json: document(children: "{\"id\": \"a\", \"frame\": [0, 0, 1]}"),
            line: 2, node: "a", key: "frame", message: "expected 4 numbers, found 3"),
        BadInput(
            name: "rect of 5", json: document(children: "{\"id\": \"a\", \"frame\": [0, 0, 1, 1, 1]}"),
            line: 2, node: "a", key: "frame", message: "expected 4 numbers, found more"),
        BadInput(
            name: "bool of a number",
            json: document(children: "{\"id\": \"a\", \"frame\": [0, 0, 1, 1], \"isHidden\": 1}"),
            line: 2, node: "a", key: "isHidden", message: "expected a boolean (true or false), found a number"),
        BadInput(
            name: "string of a number",
            json: document(children: "{\"id\": \"e\", \"kind\": \"element\", \"accessibilityLabel\": 5}"),
            line: 2, node: "e", key: "accessibilityLabel", message: "expected a string, found a number"),
        BadInput(
            name: "id of a number", json: document(children: "{\"id\": 5, \"kind\": \"element\"}"),
            line: 2, node: "(child 1 of \"window\")", key: "id", message: "expected a string, found a number"),
        BadInput(
            name: "children of an object",
            json: document(children: "{\"id\": \"a\", \"frame\": [0, 0, 1, 1], \"children\": {}}"),
            line: 2, node: "a", key: "children", message: "expected an array of nodes, found an object"),
        BadInput(
            name: "child of a number",
            json: document(children: "{\"id\": \"a\", \"frame\": [0, 0, 1, 1], \"children\": [\n1]}"),
            line: 3, node: "a", key: "children", message: "expected a node (an object), found a number"),
        BadInput(
            name: "1e999", json: document(children: "{\"id\": \"a\",\n\"frame\": [0, 0, 1e999, 1]}"),
            line: 3, node: "a", key: "frame", message: "number 1e999 is out of range (not finite)"),
        BadInput(
            name: "1e999 before the id",
            json: document(children: "{\"alpha\": -1e999,\n\"id\": \"a\", \"frame\": [0, 0, 1, 1]}"),
            line: 2, node: "a", key: "alpha", message: "number -1e999 is out of range (not finite)"),
        BadInput(
            name: "negative width", json: document(children: "{\"id\": \"a\", \"frame\": [0, 0, -1, 1]}"),
            line: 2, node: "a", key: "frame", message: "width is negative"),
        BadInput(
            name: "negative height",
            json: document(
                children: "{\"id\": \"e\", \"kind\": \"element\",\n\"accessibilityFrame\": [0, 0, 1, -0.5]}"),
            line: 3, node: "e", key: "accessibilityFrame", message: "height is negative"),
        BadInput(
            name: "negative size before the id, after the children",
            json: document(
                children: """
                    {"frame": [0, 0, 1, -1], "children": [
                      {"id": "c", "kind": "element"}
                    ],
                    "id": "late"}
                    """), line: 2, node: "late", key: "frame", message: "height is negative"),
        BadInput(
            name: "negative screen size",
            json: "{\"format\": \"axhit/1\", \"screen\": {\"bounds\": [0, 0, -390, 844]}}",
            line: 1, node: nil, key: "screen.bounds", message: "width is negative"),
        BadInput(
            name: "transform of 5",
            json: document(children: "{\"id\": \"a\", \"frame\": [0, 0, 1, 1],\n\"transform\": [1, 0, 0, 1, 0]}"),
            line: 3, node: "a", key: "transform", message: "expected 6 numbers, found 5"),
        BadInput(
            name: "alpha 1.5", json: document(children: "{\"id\": \"a\", \"frame\": [0, 0, 1, 1], \"alpha\": 1.5}"),
            line: 2, node: "a", key: "alpha", message: "must be between 0 and 1, got 1.5"),
        BadInput(
            name: "unknown kind", json: document(children: "{\"id\": \"a\", \"kind\": \"layer\"}"),
            line: 2, node: "a", key: "kind", message: "unknown kind \"layer\" (expected \"view\" or \"element\")"),
        BadInput(
            name: "unknown trait",
            json: document(
                children: "{\"id\": \"e\", \"kind\": \"element\", \"accessibilityTraits\": [\"button\", \"shiny\"]}"),
            line: 2, node: "e", key: "accessibilityTraits", message: "unknown trait \"shiny\""),
        BadInput(
            name: "negative trait mask",
            json: document(children: "{\"id\": \"e\", \"kind\": \"element\", \"accessibilityTraits\": -1}"),
            line: 2, node: "e", key: "accessibilityTraits",
            message: "a trait bit mask must be an integer from 0 to 2^64-1, found -1"),
        BadInput(
            name: "trait mask of 2^64",
            json: document(
                children: "{\"id\": \"e\", \"kind\": \"element\", \"accessibilityTraits\": 18446744073709551616}"),
            line: 2, node: "e", key: "accessibilityTraits",
            message: "a trait bit mask must be an integer from 0 to 2^64-1, found 18446744073709551616"),
        BadInput(
            name: "fractional trait mask",
            json: document(children: "{\"id\": \"e\", \"kind\": \"element\", \"accessibilityTraits\": 1.5}"),
            line: 2, node: "e", key: "accessibilityTraits",
            message: "a trait bit mask must be an integer from 0 to 2^64-1, found 1.5"),
        BadInput(
            name: "traits of a string",
            json: document(children: "{\"id\": \"e\", \"kind\": \"element\", \"accessibilityTraits\": \"button\"}"),
            line: 2, node: "e", key: "accessibilityTraits",
            message: "expected an array of trait names or an integer bit mask, found a string"),
        BadInput(
            name: "view under an element",
            json: document(
                children: """
                    {"id": "e", "kind": "element", "children": [
                      {"id": "v", "frame": [0, 0, 1, 1]}
                    ]}
                    """), line: 3, node: "v", key: "kind", message: "a view cannot be a child of an element node"),
        BadInput(
            name: "view under an element, kind given last",
            json: document(
                children: """
                    {"id": "e", "children": [
                      {"id": "v", "frame": [0, 0, 1, 1]}
                    ],
                    "kind": "element"}
                    """), line: 5, node: "e", key: "kind", message: "an element node cannot have a view child (\"v\")"),
        BadInput(
            name: "element with a frame",
            json: document(children: "{\"id\": \"e\", \"kind\": \"element\",\n\"frame\": [0, 0, 1, 1]}"),
            line: 3, node: "e", key: "frame", message: "element nodes have no frame (a view property)"),
        BadInput(
            name: "element with alpha, kind given last",
            json: document(children: "{\"id\": \"e\",\n\"alpha\": 1,\n\"kind\": \"element\"}"),
            line: 3, node: "e", key: "alpha", message: "element nodes have no alpha (a view property)"),
        BadInput(
            name: "element root", json: "{\"format\": \"axhit/1\", \"root\": {\"id\": \"r\", \"kind\": \"element\"}}",
            line: 1, node: "r", key: "kind", message: "the root must be a view"),
        BadInput(
            name: "view without a frame", json: document(children: "{\"id\": \"v\", \"kind\": \"view\"}"),
            line: 2, node: "v", key: "frame", message: "required key is missing (views need a frame)"),
        BadInput(
            name: "view with a container-space frame",
            json: document(
                children:
                    "{\"id\": \"v\", \"frame\": [0, 0, 1, 1],\n\"accessibilityFrameInContainerSpace\": [0, 0, 1, 1]}"),
            line: 3, node: "v", key: "accessibilityFrameInContainerSpace",
            message: "view nodes have no accessibilityFrameInContainerSpace (an element property)"),
        BadInput(
            name: "unknown navigation style",
            json: document(
                children: "{\"id\": \"e\", \"kind\": \"element\", \"accessibilityNavigationStyle\": \"grouped\"}"),
            line: 2, node: "e", key: "accessibilityNavigationStyle",
            message: "unknown navigation style \"grouped\" (expected \"automatic\", \"separate\" or \"combined\")"),
        BadInput(
            name: "path without d",
            json: document(
                children:
                    "{\"id\": \"e\", \"kind\": \"element\",\n\"accessibilityPath\": {\"usesEvenOddFillRule\": true}}"),
            line: 3, node: "e", key: "accessibilityPath.d", message: "required key is missing"),
        BadInput(
            name: "path with an unknown space",
            json: document(
                children:
                    "{\"id\": \"e\", \"kind\": \"element\", \"accessibilityPath\": {\"d\": \"\", \"coordinateSpace\": \"window\"}}"
            ),
            line: 2, node: "e", key: "accessibilityPath.coordinateSpace",
            message: "unknown coordinate space \"window\" (expected \"screen\" or \"view\")"),
        BadInput(
            name: "invalid JSON in an unknown key",
            json: document(children: "{\"id\": \"e\", \"kind\": \"element\", \"extra\": [1, 2,]}"),
            line: 2, node: nil, key: nil, message: "invalid JSON: expected a value, found ']'"),
        BadInput(
            name: "invalid escape", json: document(children: "{\"id\": \"e\\q\", \"kind\": \"element\"}"),
            line: 2, node: nil, key: nil, message: "invalid JSON: invalid escape \\q in a string"),
        BadInput(
            name: "lone surrogate", json: document(children: "{\"id\": \"\\ud83d\", \"kind\": \"element\"}"),
            line: 2, node: nil, key: nil, message: "lone surrogate \\uD83D"),
    ]

    @Test(arguments: cases)
    func badInput(_ c: BadInput) {
        let e = readError(c.json)
        #expect(e != nil)
        guard let e else { return }
        #expect(e.file == "t.json")
        #expect(e.line == c.line, "\(e)")
        #expect(e.node == c.node, "\(e)")
        #expect(e.key == c.key, "\(e)")
        if c.message.hasPrefix("invalid JSON") || c.node == nil && c.key == nil {
            #expect(e.message.contains(c.message), "\(e)")
        } else {
            #expect(e.message == c.message, "\(e)")
        }
    }

    @Test func invalidUTF8() {
        var bytes = Data(document(children: "{\"id\": \"caf\", \"kind\": \"element\"}").utf8)
        if let i = bytes.range(of: Data("caf".utf8)) { bytes.replaceSubrange(i, with: [0x63, 0xC3, 0x28]) }
        let e = readError(bytes)
        #expect(e?.line == 2)
        #expect(e?.message.contains("invalid UTF-8") == true)
        #expect(e?.description.hasPrefix("t.json: line 2: ") == true)
    }

    @Test func descriptionForTheCommandLine() {
        let e = readError(document(children: "{\"id\": \"play\", \"frame\": [0, 0, -1, 1]}"))
        #expect(e?.description == "t.json: line 2: node \"play\": key \"frame\": width is negative")
    }

    /// Path data that does not parse names `accessibilityPath.d` and says why.
    /// Meaningful only with the real SVG path parser (the stand-in parses
    /// everything as the empty path).
    @Test func malformedPathData() {
        let e = readError(
            document(children: "{\"id\": \"e\", \"kind\": \"element\",\n\"accessibilityPath\": {\"d\": \"M 1\"}}"))
        #expect(e?.key == "accessibilityPath.d")
        #expect(e?.node == "e")
        #expect(e?.line == 3)
        #expect(e?.message.contains("path data") == true)
    }

    @Test func acceptedTraitMasks() throws {
        let tree = try loadTree(
            document(
                children: """
                    {"id": "a", "kind": "element", "accessibilityTraits": 18446744073709551615},
                    {"id": "b", "kind": "element", "accessibilityTraits": 8.0},
                    {"id": "c", "kind": "element", "accessibilityTraits": []},
                    {"id": "d", "kind": "element", "accessibilityTraits": ["header", "header", "supportsZoom"]}
                    """))
        func traits(_ name: String) -> UInt64? {
            tree.node(withID: name).map { tree[$0]!.accessibilityTraits.rawValue }
        }
        #expect(traits("a") == UInt64.max)
        #expect(traits("b") == 8)
        #expect(traits("c") == 0)
        #expect(traits("d") == 1 << 16 | 1 << 46)
    }
}
