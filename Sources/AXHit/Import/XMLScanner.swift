import Foundation

/// A pull scanner for the XML that page sources are written in, over UTF-8
/// bytes.
///
/// Each `next()` returns one element event: a start tag (its name and
/// attributes, as byte ranges of the input), or an end tag (a self-closing
/// tag gives both). Between them it checks well-formedness: names, quoting,
/// matching end tags, attributes given twice, one document element, valid
/// UTF-8, no control characters, and character references. Comments,
/// processing instructions (the XML declaration among them), CDATA sections
/// and text are stepped over; a DOCTYPE is skipped whole, internal subset
/// included, and what it declares is never used.
///
/// Entities: only XML's five predefined ones (`&amp; &lt; &gt; &quot;
/// &apos;`) and character references (`&#N;`, `&#xN;`) exist; any other is
/// an error ("undeclared entity"). Nothing is ever fetched or expanded
/// beyond one character, so external entities (XXE) and entity bombs
/// (billion laughs) cannot happen.
///
/// Attribute values are left in place: `withValue` and `string` decode one
/// on request (entities, and XML's attribute-value normalization: a literal
/// tab, newline or carriage return becomes a space, `\r\n` one space), so
/// attributes nobody reads cost one scan. Open elements are kept on an
/// explicit stack, so depth costs no native stack.
///
/// Lines are not counted while scanning: `line(at:)` counts the newlines
/// before an offset when an error needs it. The scanner borrows `bytes`: it
/// must not outlive the buffer.
struct XMLScanner {
    /// What `next()` found.
    enum Event {
        /// A start tag: `name`, `attributes`, `tagOffset`.
        case start
        /// The end of the element opened by the matching `.start`.
        case end
        /// The end of the input, after the document element.
        case finish
    }

    /// What may follow the document element besides whitespace, comments
    /// and processing instructions.
    enum Epilogue {
        /// Nothing else (XML's rule).
        case strict
        /// Anything: the input ends with the document element (a dump that
        /// began with adb's `/dev/tty` banner, after which adb may print
        /// anything).
        case ignored
        /// adb's `UI hierchary dumped to: ...` banner and whatever follows
        /// it (adb prints the banner after the dump, too).
        case devTTYBanner
    }

    /// One attribute: byte ranges of its name and of its value (without
    /// the quotes).
    struct Attribute {
        var nameStart: Int
        var nameEnd: Int
        var valueStart: Int
        var valueEnd: Int
        /// The value holds an entity or a literal tab, newline or carriage
        /// return, so it must be decoded rather than read in place.
        var needsDecoding: Bool
    }

    let bytes: UnsafeBufferPointer<UInt8>
    /// The file name errors carry.
    let file: String?
    var epilogue: Epilogue = .strict

    /// Where scanning continues.
    var position: Int
    /// The last start tag's name (a byte range), attributes, and where the
    /// tag begins (its `<`).
    private(set) var nameStart = 0
    private(set) var nameEnd = 0
    private(set) var attributes: [Attribute] = []
    private(set) var tagOffset = 0
    /// The names of the open elements, as (start, end) byte ranges.
    var open: [(Int, Int)] = []
    /// The names of the last start tag's attributes, once it has more than
    /// `linearAttributeLimit` (else empty): the duplicate check beyond
    /// that is one hash per attribute, not a comparison with every name
    /// before it.
    private var attributeNames: Set<AttributeName> = []
    /// A self-closing tag's `.end` is due.
    private var pendingEnd = false
    var sawDocumentElement = false

    /// A scanner over `bytes` from `start` (a UTF-8 byte order mark there is
    /// skipped).
    init(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0, file: String?) {
        self.bytes = bytes
        self.file = file
        var p = start
        if bytes.count >= p + 3 && bytes[p] == 0xEF && bytes[p + 1] == 0xBB && bytes[p + 2] == 0xBF { p += 3 }
        position = p
        attributes.reserveCapacity(32)
    }

    /// How many elements are open (1 inside the document element).
    var depth: Int { open.count }

    /// The last start tag's name.
    var name: UnsafeBufferPointer<UInt8> { slice(nameStart, nameEnd) }

    /// The bytes `start..<end` of the input.
    @inline(__always)
    func slice(_ start: Int, _ end: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[start ..< end])
    }

    /// The name of attribute `a`.
    @inline(__always)
    func name(of a: Attribute) -> UnsafeBufferPointer<UInt8> { slice(a.nameStart, a.nameEnd) }

    /// Calls `body` with the decoded value of attribute `a`: the input's
    /// own bytes when nothing needs decoding, else a decoded copy.
    @inline(__always)
    func withValue<R>(_ a: Attribute, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if !a.needsDecoding { return body(slice(a.valueStart, a.valueEnd)) }
        return decodedValue(a).withUnsafeBufferPointer(body)
    }

    /// The decoded value of attribute `a`.
    func string(_ a: Attribute) -> String {
        withValue(a) { String(decoding: $0, as: UTF8.self) }
    }

    /// The 1-based line of the byte at `offset`.
    ///
    /// - Complexity: O(offset): for errors only.
    func line(at offset: Int) -> Int { SourceLines(bytes: bytes).line(at: offset) }

    /// An input error at `offset`.
    func error(_ words: String, at offset: Int) -> TreeError {
        TreeError(.input, "malformed XML: \(words)", file: file, line: line(at: offset))
    }

    // MARK: Scanning

    /// The next element event.
    ///
    /// - Complexity: O(bytes stepped over).
    /// - Throws: `TreeError` (`.input`, with the line) for input that is not
    ///   well-formed XML of this subset.
    mutating func next() throws(TreeError) -> Event {
        if pendingEnd {
            pendingEnd = false
            open.removeLast()
            return .end
        }
        let n = bytes.count
        while true {
            guard position < n else {
                if !open.isEmpty { throw error("unexpected end of input (truncated?)", at: n) }
                if !sawDocumentElement { throw error("no XML document (no element)", at: n) }
                return .finish
            }
            let c = bytes[position]
            if c == Self.lt {
                let next = position + 1 < n ? bytes[position + 1] : 0
                switch next {
                case UInt8(ascii: "?"): try skip(past: "?>", from: position + 2)
                case UInt8(ascii: "!"): try skipDeclaration()
                case UInt8(ascii: "/"): return try endTag()
                default:
                    if sawDocumentElement && open.isEmpty {
                        if endsInEpilogue() { return .finish }
                        throw error("content after the document element", at: position)
                    }
                    return try startTag()
                }
            } else if Self.isSpace(c) {
                position += 1
            } else if open.isEmpty {
                if sawDocumentElement && endsInEpilogue() { return .finish }
                throw error(
                    sawDocumentElement ? "content after the document element" : "text before the document element",
                    at: position)
            } else {
                try skipText()
            }
        }
    }

    /// Whether `epilogue` lets the input end at `position`, after the
    /// document element; if so, moves there to the end.
    private mutating func endsInEpilogue() -> Bool {
        switch epilogue {
        case .strict: return false
        case .ignored: break
        case .devTTYBanner:
            guard TreeFormat.devTTYBannerEnd(slice(position, bytes.count)) != nil else { return false }
        }
        position = bytes.count
        return true
    }

    /// Attributes per start tag checked for duplicates against the names
    /// before them (under a 64-bit signature): page sources give a node 7
    /// to 30, and that check costs no hashing; at this count it costs at
    /// most some 2,000 comparisons, a few per byte of the tag. Past it,
    /// names go into `attributeNames`, so that a tag of n attributes costs
    /// O(n), not O(n²) (a node of 400,000 took minutes).
    static let linearAttributeLimit = 64

    /// An attribute's name, hashed and compared by its bytes (with the
    /// standard library's seeded hash, so that no input can make its names
    /// collide). It borrows the input, as the scanner does.
    private struct AttributeName: Hashable {
        let bytes: UnsafeBufferPointer<UInt8>

        init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        static func == (a: Self, b: Self) -> Bool { a.bytes.count == b.bytes.count && a.bytes.elementsEqual(b.bytes) }

        func hash(into hasher: inout Hasher) { hasher.combine(bytes: UnsafeRawBufferPointer(bytes)) }
    }

    static let lt = UInt8(ascii: "<"), gt = UInt8(ascii: ">"), amp = UInt8(ascii: "&")
    private static let slash = UInt8(ascii: "/"), eq = UInt8(ascii: "=")

    @inline(__always)
    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D }

    /// A byte a name may start with: a letter, `_`, `:` or (part of) a
    /// non-ASCII character.
    @inline(__always)
    private static func isNameStart(_ b: UInt8) -> Bool {
        let l = b | 0x20
        return (l >= UInt8(ascii: "a") && l <= UInt8(ascii: "z")) || b == UInt8(ascii: "_") || b == UInt8(ascii: ":")
            || b >= 0x80
    }

    /// The ASCII bytes a name may continue with, as bit masks over 0..<64
    /// (`-`, `.`, digits, `:`) and 64..<128 (letters, `_`). Literals: a
    /// computed static would cost a lazy-initialization check per name.
    private static let nameBytesLow: UInt64 = 0x07FF_6000_0000_0000
    private static let nameBytesHigh: UInt64 = 0x07FF_FFFE_87FF_FFFE

    /// An ASCII byte a name may continue with.
    @inline(__always)
    private static func isNameByte(_ b: UInt8, low: UInt64, high: UInt64) -> Bool {
        let mask = b < 64 ? low : high
        return (mask >> UInt64(b & 63)) & 1 != 0
    }

    /// Scans a name at `position`; returns its end.
    private mutating func scanName() throws(TreeError) -> Int {
        let n = bytes.count
        guard position < n, Self.isNameStart(bytes[position]) else {
            throw position < n
                ? error("a name was expected", at: position)
                : error("unexpected end of input (truncated?)", at: n)
        }
        let low = Self.nameBytesLow, high = Self.nameBytesHigh
        skipLowercaseAndDashes()
        while position < n {
            let b = bytes[position]
            if b < 0x80 {
                guard Self.isNameByte(b, low: low, high: high) else { break }
                position &+= 1
            } else {
                try skipUTF8Sequence()
            }
        }
        return position
    }

    /// Steps over lowercase ASCII letters and `-`, 8 at a time: most of a
    /// page source's names (`node`, `long-clickable`, `visible-to-user`).
    @inline(__always)
    private mutating func skipLowercaseAndDashes() {
        guard let base = bytes.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        let n = bytes.count
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080,
            lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        while position &+ 8 <= n {
            let w = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self))
            // Exact per byte (with the high bit clear, no carry crosses a
            // byte): `atLeastA` flags bytes >= "a", `aboveZ` bytes > "z",
            // `dash` bytes equal to "-"; non-ASCII bytes are never name
            // bytes here.
            let low7 = w & lows
            let atLeastA = low7 &+ ones &* (0x80 - 0x61)
            let aboveZ = low7 &+ ones &* (0x80 - 0x7B)
            let x = low7 ^ (ones &* 0x2D)
            let dash = ~(((x & lows) &+ lows) | x)
            let others = ~((atLeastA & ~aboveZ) | dash) & highs | (w & highs)
            if others != 0 {
                position &+= others.trailingZeroBitCount >> 3
                return
            }
            position &+= 8
        }
    }

    private mutating func skipSpaces() {
        while position < bytes.count && Self.isSpace(bytes[position]) { position += 1 }
    }

    /// A start tag at `position` (its `<`).
    private mutating func startTag() throws(TreeError) -> Event {
        let n = bytes.count
        tagOffset = position
        position += 1
        nameStart = position
        nameEnd = try scanName()
        attributes.removeAll(keepingCapacity: true)
        if !attributeNames.isEmpty {
            // Kept for the next large tag, unless a huge one would make
            // every later tag clear a huge table.
            attributeNames.removeAll(keepingCapacity: attributeNames.capacity <= 1 << 12)
        }
        // A 64-bit signature of the names seen, so that a duplicate check
        // among the first `linearAttributeLimit` compares bytes only when
        // two names share a bit.
        var seen: UInt64 = 0
        while true {
            let hadSpace = position < n && Self.isSpace(bytes[position])
            skipSpaces()
            guard position < n else { throw error("unexpected end of input (truncated?)", at: n) }
            let c = bytes[position]
            if c == Self.gt {
                position += 1
                break
            }
            if c == Self.slash {
                guard position + 1 < n else { throw error("unexpected end of input (truncated?)", at: n) }
                guard bytes[position + 1] == Self.gt else { throw error("broken tag", at: position) }
                position += 2
                pendingEnd = true
                break
            }
            guard hadSpace else { throw error("broken tag", at: position) }
            let aStart = position
            let aEnd = try scanName()
            skipSpaces()
            guard position < n, bytes[position] == Self.eq else {
                throw position < n
                    ? error("broken attribute", at: position) : error("unexpected end of input (truncated?)", at: n)
            }
            position += 1
            skipSpaces()
            guard position < n else { throw error("unexpected end of input (truncated?)", at: n) }
            let quote = bytes[position]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                throw error("broken attribute", at: position)
            }
            position += 1
            let vStart = position
            let needsDecoding = try scanValue(quote: quote)
            let attribute = Attribute(
                nameStart: aStart, nameEnd: aEnd, valueStart: vStart, valueEnd: position,
                needsDecoding: needsDecoding)
            position += 1  // the closing quote
            if attributes.count < Self.linearAttributeLimit {
                let bit: UInt64 =
                    1 << ((UInt64(aEnd - aStart) &* 31 &+ UInt64(bytes[aStart]) &+ UInt64(bytes[aEnd - 1]) &* 7) & 63)
                if seen & bit != 0 {
                    let name = slice(aStart, aEnd)
                    if attributes.contains(where: { self.name(of: $0).elementsEqual(name) }) {
                        throw error("attribute given twice", at: aStart)
                    }
                }
                seen |= bit
            } else {
                if attributeNames.isEmpty {
                    attributeNames.reserveCapacity(4 * Self.linearAttributeLimit)
                    for a in attributes { attributeNames.insert(AttributeName(name(of: a))) }
                }
                guard attributeNames.insert(AttributeName(slice(aStart, aEnd))).inserted else {
                    throw error("attribute given twice", at: aStart)
                }
            }
            attributes.append(attribute)
        }
        open.append((nameStart, nameEnd))
        sawDocumentElement = true
        return .start
    }

    /// An end tag at `position` (its `<`).
    private mutating func endTag() throws(TreeError) -> Event {
        let at = position
        position += 2
        let start = position
        let end = try scanName()
        skipSpaces()
        guard position < bytes.count else { throw error("unexpected end of input (truncated?)", at: bytes.count) }
        guard bytes[position] == Self.gt else { throw error("broken tag", at: position) }
        position += 1
        guard let (openStart, openEnd) = open.last, slice(openStart, openEnd).elementsEqual(slice(start, end)) else {
            throw error(open.isEmpty ? "content after the document element" : "mismatched closing tag", at: at)
        }
        open.removeLast()
        return .end
    }

    /// Scans an attribute value from `position` to its closing quote (left
    /// at `position`). Returns whether it needs decoding.
    private mutating func scanValue(quote: UInt8) throws(TreeError) -> Bool {
        let n = bytes.count
        var needsDecoding = false
        while true {
            skipPlain(quote: quote)
            guard position < n else { throw error("unexpected end of input (truncated?)", at: n) }
            let b = bytes[position]
            switch b {
            case quote: return needsDecoding
            case Self.lt: throw error("'<' in an attribute value", at: position)
            case Self.amp:
                try checkReference()
                needsDecoding = true
            case 0x09, 0x0A, 0x0D:
                needsDecoding = true
                position += 1
            case 0x80...:
                try skipUTF8Sequence()
            case ..<0x20:
                throw error("invalid character", at: position)
            default:
                position += 1
            }
        }
    }

    /// Steps over text content up to the next `<` (left at `position`).
    private mutating func skipText() throws(TreeError) {
        let n = bytes.count
        while position < n {
            skipPlain(quote: Self.lt)
            guard position < n else { return }
            let b = bytes[position]
            switch b {
            case Self.lt: return
            case Self.amp: try checkReference()
            case 0x09, 0x0A, 0x0D: position += 1
            case 0x80...: try skipUTF8Sequence()
            case ..<0x20: throw error("invalid character", at: position)
            default: position += 1
            }
        }
    }

    /// Steps over plain ASCII bytes, 8 at a time: stops at the first byte
    /// that needs a look (`quote`, `<`, `&`, a control character or a
    /// non-ASCII byte) or at the end of the input.
    @inline(__always)
    private mutating func skipPlain(quote: UInt8) {
        let n = bytes.count
        guard let base = bytes.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let q = ones &* UInt64(quote), l = ones &* UInt64(Self.lt), a = ones &* UInt64(Self.amp)
        // The high bit of each byte that is zero. A borrow can flag a byte
        // above a zero byte, never one below: the lowest flag is exact.
        @inline(__always) func zeros(_ v: UInt64) -> UInt64 { (v &- ones) & ~v & highs }
        while position &+ 8 <= n {
            let w = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self))
            // Below 0x20 (the same borrow argument), at or above 0x80, or one
            // of the three stop bytes.
            let stops = (((w &- ones &* 0x20) & ~w) | w) & highs | zeros(w ^ q) | zeros(w ^ l) | zeros(w ^ a)
            if stops != 0 {
                position &+= stops.trailingZeroBitCount >> 3
                return
            }
            position &+= 8
        }
        while position < n {
            let b = bytes[position]
            if b < 0x20 || b >= 0x80 || b == quote || b == Self.lt || b == Self.amp { return }
            position &+= 1
        }
    }

    /// Checks the entity or character reference at `position` (its `&`)
    /// and steps over it.
    private mutating func checkReference() throws(TreeError) {
        let at = position
        let (_, end) = try reference(at: at)
        position = end
    }

    /// (Unicode table 3-7: no overlong forms, no surrogates, nothing above
    /// U+10FFFF).
    private mutating func skipUTF8Sequence() throws(TreeError) {
        let length: Int
        do {
            length = try UTF8Sequence.length(in: bytes, at: position)
        } catch {
            throw TreeError(.input, "not UTF-8 (byte \(position))", file: file, line: line(at: position))
        }
        // U+FFFE and U+FFFF are not XML characters.
        if bytes[position] == 0xEF && bytes[position + 1] == 0xBF && bytes[position + 2] >= 0xBE {
            throw error("invalid character", at: position)
        }
        position += length
    }
}
