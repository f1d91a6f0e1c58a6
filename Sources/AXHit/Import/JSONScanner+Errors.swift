import Foundation

/// The scanner's errors: where they are (lines are counted only for an
/// error) and how they name what they found.
extension JSONScanner {
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

extension JSONScanner.Token {
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
