import Foundation

/// A pull tokenizer for JSON (RFC 8259) over UTF-8 bytes.
///
/// Each `next()` returns one token and checks the grammar as it goes (commas,
/// colons, matching brackets, one top-level value, nothing after it), so a
/// consumer that skips what it does not know still gets a full validation.
/// Strings are checked for valid UTF-8, control characters and escapes
/// (`\uXXXX` surrogate pairs must pair up); numbers are checked against the
/// JSON grammar and converted only on request. Containers are tracked on an
/// explicit stack, so nesting is bounded only by memory.
///
/// Every token records the byte offset it starts at (`tokenOffset`). Lines
/// are not counted while scanning: `line(at:)` counts the newlines before an
/// offset when an error needs it (strings cannot hold raw newlines, so every
/// newline before a token is whitespace).
///
/// The scanner borrows `bytes`: it must not outlive the buffer. Errors are
/// `TreeError`s with a line and no node or key.
struct JSONScanner {
    /// What `next()` found.
    enum Token: UInt8 {
        case beginObject, endObject, beginArray, endArray
        /// An object key; its text is in `text`, and the value follows.
        case key
        case string, number, `true`, `false`, null
        /// The end of the input, after the one top-level value.
        case end

        /// The token in words, for "expected …, found …" messages.
        var noun: String {
            switch self {
            case .beginObject: return "an object"
            case .endObject: return "the end of an object"
            case .beginArray: return "an array"
            case .endArray: return "the end of an array"
            case .key: return "a key"
            case .string: return "a string"
            case .number: return "a number"
            case .true, .false: return "a boolean"
            case .null: return "null"
            case .end: return "the end of the file"
            }
        }
    }

    /// What the grammar allows next.
    enum State: UInt8 {
        case value, valueOrEnd, keyOrEnd, key, afterValue, done
    }

    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    /// Where the last token starts.
    var tokenOffset = 0
    var state = State.value
    // Open containers as a bit stack (1 for an object): the first 64 levels
    // in a word, deeper ones in an array, so that the common shallow
    // push and pop touch no array (no uniqueness check per bracket).
    private var nesting = 0
    private var objectBits: UInt64 = 0
    private var deepObjectBits: [UInt64] = []
    /// Whether the innermost open container is an object.
    private(set) var inObject = false
    // The last string or key: a slice of `bytes`, or `scratch` when it had escapes.
    var textStart = 0
    var textEnd = 0
    var textEscaped = false
    var scratch: [UInt8] = []
    // The last number: a slice of `bytes`, already checked against the grammar,
    // and its value as read during the check: up to 19 significant digits
    // (`mantissa`, exact in a UInt64) times ten to `exponent`; `inexact` when
    // nonzero digits were dropped.
    var numberStart = 0
    var numberEnd = 0
    var mantissa: UInt64 = 0
    var exponent = 0
    var negative = false
    var inexact = false

    /// A scanner at the start of `bytes`. A UTF-8 byte order mark is skipped
    /// (RFC 8259 lets a parser ignore one).
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { position = 3 }
    }

    /// How many containers are open: 1 inside the top-level object.
    var depth: Int { nesting }

    private mutating func push(object: Bool) {
        let bit: UInt64 = 1 << UInt64(nesting & 63)
        if nesting < 64 {
            if object { objectBits |= bit } else { objectBits &= ~bit }
        } else {
            let word = (nesting - 64) >> 6
            if word == deepObjectBits.count { deepObjectBits.append(0) }
            if object { deepObjectBits[word] |= bit } else { deepObjectBits[word] &= ~bit }
        }
        nesting += 1
        inObject = object
    }

    /// Closes the innermost container; whether it was an object.
    private mutating func pop() -> Bool {
        let was = inObject
        nesting -= 1
        if nesting == 0 {
            inObject = false
        } else {
            let level = nesting - 1
            let bit: UInt64 = 1 << UInt64(level & 63)
            inObject = (level < 64 ? objectBits : deepObjectBits[(level - 64) >> 6]) & bit != 0
        }
        return was
    }

    /// The 1-based line of the byte at `offset`.
    ///
    /// - Complexity: O(offset): meant for errors only.
    func line(at offset: Int) -> Int {
        var newlines = 0
        for b in UnsafeBufferPointer(rebasing: bytes[..<min(max(offset, 0), bytes.count)]) {
            newlines &+= b == 0x0A ? 1 : 0
        }
        return newlines + 1
    }

    /// The line the last token starts on. O(offset): for errors only.
    var tokenLine: Int { line(at: tokenOffset) }

    // MARK: Tokens

    /// The next token.
    ///
    /// - Complexity: O(length of the token and the whitespace before it).
    /// - Throws: `TreeError` (with the line) for anything that is not JSON:
    ///   a grammar error, a truncated file, invalid UTF-8, a bad escape, a
    ///   control character in a string, or anything after the top-level value.
    mutating func next() throws(TreeError) -> Token {
        while true {
            skipWhitespace()
            tokenOffset = position
            guard position < bytes.count else {
                if state == .done { return .end }
                if state == .value && nesting == 0 { throw fail("the file is empty") }
                throw fail("the file ends unexpectedly (truncated?)")
            }
            let c = bytes[position]
            switch state {
            case .done:
                throw fail("unexpected \(Self.describe(c)) after the end of the JSON value")
            case .afterValue:
                if c == UInt8(ascii: ",") {
                    position += 1
                    state = inObject ? .key : .value
                    continue
                }
                if (inObject && c == UInt8(ascii: "}")) || (!inObject && c == UInt8(ascii: "]")) {
                    position += 1
                    return close()
                }
                throw fail("expected ',' or '\(inObject ? "}" : "]")', found \(Self.describe(c))")
            case .key, .keyOrEnd:
                if c == UInt8(ascii: "\"") {
                    try scanString()
                    skipWhitespace()
                    guard position < bytes.count else { throw fail("the file ends unexpectedly (truncated?)") }
                    guard bytes[position] == UInt8(ascii: ":") else {
                        throw fail("expected ':' after a key, found \(Self.describe(bytes[position]))")
                    }
                    position += 1
                    state = .value
                    return .key
                }
                if state == .keyOrEnd && c == UInt8(ascii: "}") {
                    position += 1
                    return close()
                }
                throw fail("expected a key (a string in double quotes), found \(Self.describe(c))")
            case .value, .valueOrEnd:
                if state == .valueOrEnd && c == UInt8(ascii: "]") {
                    position += 1
                    return close()
                }
                return try scanValue(c)
            }
        }
    }

    mutating func close() -> Token {
        let wasObject = pop()
        state = nesting == 0 ? .done : .afterValue
        return wasObject ? .endObject : .endArray
    }

    mutating func scalarDone() {
        state = nesting == 0 ? .done : .afterValue
    }

    private mutating func scanValue(_ c: UInt8) throws(TreeError) -> Token {
        switch c {
        case UInt8(ascii: "{"):
            position += 1
            push(object: true)
            state = .keyOrEnd
            return .beginObject
        case UInt8(ascii: "["):
            position += 1
            push(object: false)
            state = .valueOrEnd
            return .beginArray
        case UInt8(ascii: "\""):
            try scanString()
            scalarDone()
            return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0") ... UInt8(ascii: "9"):
            try scanNumber()
            scalarDone()
            return .number
        case UInt8(ascii: "t"):
            try scanLiteral("true")
            return .true
        case UInt8(ascii: "f"):
            try scanLiteral("false")
            return .false
        case UInt8(ascii: "n"):
            try scanLiteral("null")
            return .null
        default:
            throw fail("expected a value, found \(Self.describe(c))")
        }
    }

    private mutating func scanLiteral(_ word: StaticString) throws(TreeError) {
        let n = word.utf8CodeUnitCount
        let w = UnsafeBufferPointer(start: word.utf8Start, count: n)
        for k in 0 ..< n where position + k >= bytes.count || bytes[position + k] != w[k] {
            throw fail("invalid literal (expected \(word))")
        }
        position += n
        scalarDone()
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while position < bytes.count {
            let c = bytes[position]
            // One compare rejects every byte above ' ' (most tokens start right away).
            guard c <= 0x20 && (c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D) else { return }
            position += 1
        }
    }

    // MARK: Errors

    func fail(_ message: String) -> TreeError {
        fail(message, at: position)
    }

    func fail(_ message: String, at offset: Int) -> TreeError {
        TreeError(.input, "invalid JSON: " + message, line: line(at: offset))
    }

    static func describe(_ c: UInt8) -> String {
        if c >= 0x21 && c < 0x7F { return "'\(Character(Unicode.Scalar(c)))'" }
        return "byte \(hexByte(c))"
    }

    static func describeBare(_ c: UInt8) -> String {
        if c >= 0x21 && c < 0x7F { return String(Character(Unicode.Scalar(c))) }
        return "(byte \(hexByte(c)))"
    }

    static func hexByte(_ c: UInt8) -> String {
        let s = String(c, radix: 16, uppercase: true)
        return "0x" + (s.count < 2 ? "0" + s : s)
    }

    static func hex(_ u: UInt16) -> String {
        let s = String(u, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}
