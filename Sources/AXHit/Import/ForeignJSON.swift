import Foundation

/// A JSON value of a foreign page source (idb, DroidBot, WebDriverAgent),
/// read whole, with the byte offset it starts at, so that an error can name
/// its line.
///
/// Read by the `axhit/1` reader's `JSONScanner`: the same checks (grammar,
/// UTF-8, escapes, one top-level value) and errors with lines; iterative,
/// so depth is bounded only by memory. These sources are small (hundreds of
/// nodes); the value graph costs a few allocations per value.
struct ForeignJSON {
    enum Kind {
        /// Members in document order (a repeated key: the first one counts).
        case object([(key: String, value: ForeignJSON)])
        case array([ForeignJSON])
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
    }

    /// Where the value starts in the input.
    var offset: Int
    var kind: Kind

    /// The member `key` of an object, if present and not null.
    subscript(key: String) -> ForeignJSON? {
        guard case let .object(members) = kind, let v = members.first(where: { $0.key == key })?.value else {
            return nil
        }
        if case .null = v.kind { return nil }
        return v
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
        if case let .array(a) = kind { return a }
        return nil
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
            var members: [(key: String, value: ForeignJSON)] = []
            var elements: [ForeignJSON] = []
            var key = ""
        }
        var stack: [Open] = []
        var result = ForeignJSON(offset: 0, kind: .null)
        while true {
            let token = try scanner.next()
            let offset = scanner.tokenOffset
            let value: ForeignJSON
            switch token {
            case .beginObject, .beginArray:
                stack.append(Open(offset: offset, isObject: token == .beginObject))
                continue
            case .key:
                stack[stack.count - 1].key = scanner.text
                continue
            case .endObject, .endArray:
                let o = stack.removeLast()
                value = ForeignJSON(offset: o.offset, kind: o.isObject ? .object(o.members) : .array(o.elements))
            case .string: value = ForeignJSON(offset: offset, kind: .string(scanner.text))
            case .number: value = ForeignJSON(offset: offset, kind: .number(scanner.doubleValue()))
            case .true: value = ForeignJSON(offset: offset, kind: .bool(true))
            case .false: value = ForeignJSON(offset: offset, kind: .bool(false))
            case .null: value = ForeignJSON(offset: offset, kind: .null)
            case .end: return result
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
