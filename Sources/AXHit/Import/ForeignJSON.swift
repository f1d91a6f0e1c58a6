import Foundation

/// A JSON value of a foreign page source (idb, DroidBot, WebDriverAgent),
/// read whole, with the byte offset it starts at, so that an error can name
/// its line.
///
/// Read by the `axhit/1` reader's `JSONScanner`: the same checks (grammar,
/// UTF-8, escapes, one top-level value) and errors with lines; iterative,
/// so depth is bounded only by memory. Every value of a document lives in
/// one flat store (`Document`) and names its members by index, so no value
/// owns another: a document nested 200,000 deep is read and freed without
/// recursion (a tree of nested values would free itself recursively and
/// overflow the stack).
struct ForeignJSON {
    enum Kind {
        /// Members in document order, a range of `Document.members` (a
        /// repeated key: the first one counts).
        case object(Range<Int>)
        /// Elements, a range of `Document.elements`.
        case array(Range<Int>)
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
    }

    /// A parsed document: its values, and their members and elements by index.
    final class Document {
        var offsets: [Int] = []
        var kinds: [Kind] = []
        var members: [(key: String, value: Int)] = []
        var elements: [Int] = []
    }

    let document: Document
    let index: Int

    /// Where the value starts in the input.
    var offset: Int { document.offsets[index] }
    var kind: Kind { document.kinds[index] }

    /// The member `key` of an object, if present and not null.
    subscript(key: String) -> ForeignJSON? {
        guard case let .object(range) = kind,
            let m = document.members[range].first(where: { $0.key == key })
        else { return nil }
        if case .null = document.kinds[m.value] { return nil }
        return ForeignJSON(document: document, index: m.value)
    }

    /// The first of `keys` present (not null): a key spelled two ways in
    /// two schemas.
    subscript(either keys: String...) -> ForeignJSON? {
        for k in keys { if let v = self[k] { return v } }
        return nil
    }

    var string: String? {
        if case let .string(s) = kind { return s }
        return nil
    }

    var number: Double? {
        if case let .number(d) = kind { return d }
        return nil
    }

    var array: [ForeignJSON]? {
        guard case let .array(range) = kind else { return nil }
        return document.elements[range].map { ForeignJSON(document: document, index: $0) }
    }

    var isObject: Bool {
        if case .object = kind { return true }
        return false
    }

    /// A boolean, or a string that says one ("true", "1", ...: older
    /// schemas write booleans as text).
    var bool: Bool? {
        switch kind {
        case let .bool(b): return b
        case let .string(s): return SourceValue.bool(s)
        default: return nil
        }
    }

    /// A string, or a number or boolean written out (a value that is not
    /// always a string).
    var text: String? {
        switch kind {
        case let .string(s): return s
        case let .number(d): return d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
        case let .bool(b): return b ? "true" : "false"
        default: return nil
        }
    }

    /// The document in `bytes`.
    ///
    /// - Complexity: O(n) in the input size.
    /// - Throws: `TreeError` (`.input`, with `file` and the line) for input
    ///   that is not JSON.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, file: String?) throws(TreeError) -> ForeignJSON {
        do {
            return try parse(bytes)
        } catch {
            throw error.located(file: file)
        }
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(TreeError) -> ForeignJSON {
        var scanner = JSONScanner(bytes)
        struct Open {
            var offset: Int
            var isObject: Bool
            var members: [(key: String, value: Int)] = []
            var elements: [Int] = []
            var key = ""
        }
        let document = Document()
        func add(_ offset: Int, _ kind: Kind) -> Int {
            document.offsets.append(offset)
            document.kinds.append(kind)
            return document.kinds.count - 1
        }
        var stack: [Open] = []
        var result = -1
        while true {
            let token = try scanner.next()
            let offset = scanner.tokenOffset
            let value: Int
            switch token {
            case .beginObject, .beginArray:
                stack.append(Open(offset: offset, isObject: token == .beginObject))
                continue
            case .key:
                stack[stack.count - 1].key = scanner.text
                continue
            case .endObject, .endArray:
                let o = stack.removeLast()
                if o.isObject {
                    let start = document.members.count
                    document.members += o.members
                    value = add(o.offset, .object(start ..< document.members.count))
                } else {
                    let start = document.elements.count
                    document.elements += o.elements
                    value = add(o.offset, .array(start ..< document.elements.count))
                }
            case .string: value = add(offset, .string(scanner.text))
            case .number: value = add(offset, .number(scanner.doubleValue()))
            case .true: value = add(offset, .bool(true))
            case .false: value = add(offset, .bool(false))
            case .null: value = add(offset, .null)
            case .end: return ForeignJSON(document: document, index: result >= 0 ? result : add(0, .null))
            }
            if stack.isEmpty {
                result = value
            } else if stack[stack.count - 1].isObject {
                stack[stack.count - 1].members.append((stack[stack.count - 1].key, value))
            } else {
                stack[stack.count - 1].elements.append(value)
            }
        }
    }
}
