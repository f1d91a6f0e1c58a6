/// One multi-byte UTF-8 sequence, checked as Unicode's table 3-7 allows
/// them: no overlong forms, no surrogates, nothing above U+10FFFF. The JSON
/// and XML scanners both step over non-ASCII text with it, each wording the
/// failure in its own format's terms.
enum UTF8Sequence {
    /// What is wrong with a sequence.
    enum Problem: Error {
        /// The first byte starts no sequence (a continuation byte, an
        /// overlong lead 0xC0/0xC1, or 0xF5 and above).
        case badLead
        /// The input ends inside the sequence.
        case truncated
        /// The second byte is outside the range the lead allows (an
        /// overlong form, a surrogate, or above U+10FFFF).
        case badSecond
        /// A later byte is not a continuation byte; `offset` is its offset
        /// from the lead.
        case badContinuation(offset: Int)
    }

    /// The length (2 to 4) of the sequence whose lead byte is at `position`
    /// of `bytes` (not ASCII), or the problem.
    ///
    /// - Complexity: O(1).
    @inline(__always)
    static func length(in bytes: UnsafeBufferPointer<UInt8>, at position: Int) throws(Problem) -> Int {
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF  // the second byte's range
        switch bytes[position] {
        case 0xC2 ... 0xDF: length = 2
        case 0xE0:
            length = 3
            low = 0xA0
        case 0xE1 ... 0xEC, 0xEE ... 0xEF: length = 3
        case 0xED:
            length = 3
            high = 0x9F
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF1 ... 0xF3: length = 4
        case 0xF4:
            length = 4
            high = 0x8F
        default: throw .badLead
        }
        guard position + length <= bytes.count else { throw .truncated }
        guard bytes[position + 1] >= low && bytes[position + 1] <= high else { throw .badSecond }
        for k in 2 ..< max(2, length) where bytes[position + k] & 0xC0 != 0x80 {
            throw .badContinuation(offset: k)
        }
        return length
    }

    /// Appends code point `s` (a valid one, checked while scanning) as UTF-8.
    static func append(_ s: UInt32, to out: inout [UInt8]) {
        switch s {
        case 0 ..< 0x80:
            out.append(UInt8(s))
        case 0x80 ..< 0x800:
            out.append(UInt8(0xC0 | s >> 6))
            out.append(UInt8(0x80 | s & 0x3F))
        case 0x800 ..< 0x10000:
            out.append(UInt8(0xE0 | s >> 12))
            out.append(UInt8(0x80 | s >> 6 & 0x3F))
            out.append(UInt8(0x80 | s & 0x3F))
        default:
            out.append(UInt8(0xF0 | s >> 18))
            out.append(UInt8(0x80 | s >> 12 & 0x3F))
            out.append(UInt8(0x80 | s >> 6 & 0x3F))
            out.append(UInt8(0x80 | s & 0x3F))
        }
    }
}
