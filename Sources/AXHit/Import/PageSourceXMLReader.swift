import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// One XML element of a page source: its name, attributes, parent and line.
struct XMLElementRecord {
    var name: String
    var attributes: [String: String]
    /// The index of the parent element's record, or -1 for the document element.
    var parent: Int
    /// The 1-based line where the start tag ends.
    var line: Int
}

/// Reads an XML page source into flat element records, in document
/// (pre-)order, so parents come before children.
///
/// Event-based (XMLParser on an input stream: `XMLParser(data:)` fails on
/// input over 10 MB on Linux) with an explicit stack, so depth costs no
/// native stack. External entities are not resolved.
final class PageSourceXMLReader: NSObject, XMLParserDelegate {
    private var records: [XMLElementRecord] = []
    private var open: [Int] = []

    /// The elements of `data`, in document order.
    ///
    /// - Complexity: O(size of the input).
    /// - Throws: `TreeError` with `file` and the line when the XML is malformed.
    static func read(_ data: Data, file: String?) throws(TreeError) -> [XMLElementRecord] {
        // FoundationXML traps on a name that is not UTF-8 (it force-unwraps
        // the decoded string), so invalid input never reaches it. Page
        // sources are UTF-8.
        if let bad = firstInvalidUTF8(data) {
            let line = 1 + data.prefix(bad).reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            throw TreeError(.input, "not UTF-8 (byte \(bad))", file: file, line: line)
        }
        // Under 4 bytes XMLParser never creates its context, and asking it
        // for a line number then would dereference null.
        guard data.count >= 4 else { throw TreeError(.input, "malformed XML: unexpected end of input", file: file, line: 1) }
        let parser = XMLParser(stream: InputStream(data: withoutProcessingInstructions(data)))
        let reader = PageSourceXMLReader()
        parser.delegate = reader
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        if parser.parse() {
            // The stream parser reports no error when the input stops inside
            // an element (or a comment), so a truncated dump would import
            // as far as it goes: an element still open means it was cut off.
            guard reader.open.isEmpty else {
                let lines = 1 + data.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
                throw TreeError(.input, "malformed XML: unexpected end of input (truncated?)", file: file, line: lines)
            }
            return reader.records
        }
        let code = (parser.parserError as NSError?)?.code
        throw TreeError(.input, "malformed XML: \(describe(code))", file: file, line: max(1, parser.lineNumber))
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        records.append(XMLElementRecord(name: elementName, attributes: attributeDict,
                                        parent: open.last ?? -1, line: parser.lineNumber))
        open.append(records.count - 1)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        _ = open.popLast()
    }

    /// The offset of the first byte that breaks UTF-8 (RFC 3629: no overlong
    /// forms, surrogates or code points above U+10FFFF), or nil.
    /// `data` with the `<?` of every processing instruction but a
    /// well-formed XML declaration at the very start replaced by two spaces:
    /// FoundationXML on Linux passes a null pointer to strlen for a
    /// processing instruction without data (`<?foo?>`, or what libxml2 makes
    /// of a broken declaration) and crashes. Page sources have none; what is
    /// left is text, which the parser ignores inside elements and reports as
    /// an error outside them. Offsets and lines are unchanged.
    static func withoutProcessingInstructions(_ data: Data) -> Data {
        var bytes = [UInt8](data)
        let lt = UInt8(ascii: "<"), q = UInt8(ascii: "?"), gt = UInt8(ascii: ">")
        // A declaration `<?xml ...?>` at the start (after a byte order mark)
        // with no `<` or `>` before its `?>` is left alone.
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        var keep = -1
        if bytes.count >= start + 6, Array(bytes[start..<(start + 5)]) == Array("<?xml".utf8),
           [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start + 5]) {
            var k = start + 5
            while k + 1 < bytes.count, bytes[k] != lt, bytes[k] != gt, !(bytes[k] == q && bytes[k + 1] == gt) { k += 1 }
            if k + 1 < bytes.count, bytes[k] == q, bytes[k + 1] == gt { keep = start }
        }
        var i = 0
        while i + 1 < bytes.count {
            if bytes[i] == lt, bytes[i + 1] == q, i != keep {
                bytes[i] = 0x20
                bytes[i + 1] = 0x20
            }
            i += 1
        }
        return Data(bytes)
    }

    static func firstInvalidUTF8(_ data: Data) -> Int? {
        data.withUnsafeBytes { raw -> Int? in
            let b = raw.bindMemory(to: UInt8.self)
            let n = b.count
            var i = 0
            while i < n {
                let c = b[i]
                if c < 0x80 { i += 1; continue }
                let length: Int
                var low: UInt8 = 0x80, high: UInt8 = 0xBF  // range of the second byte
                switch c {
                case 0xC2...0xDF: length = 2
                case 0xE0: length = 3; low = 0xA0
                case 0xE1...0xEC, 0xEE...0xEF: length = 3
                case 0xED: length = 3; high = 0x9F
                case 0xF0: length = 4; low = 0x90
                case 0xF1...0xF3: length = 4
                case 0xF4: length = 4; high = 0x8F
                default: return i
                }
                guard i + length <= n else { return i }
                guard b[i + 1] >= low && b[i + 1] <= high else { return i }
                for k in 2..<length where b[i + k] & 0xC0 != 0x80 { return i }
                i += length
            }
            return nil
        }
    }

    /// Words for the libxml2 error codes malformed dumps actually produce.
    /// On Linux the parser's error code is libxml2's own `xmlParserErrors`
    /// value, which is not `XMLParser.ErrorCode`'s numbering (that one is
    /// off by one), so the codes are matched as numbers.
    private static func describe(_ code: Int?) -> String {
        guard let code else { return "unreadable input" }
        switch code {
        case 3: return "no XML document"  // XML_ERR_DOCUMENT_START
        case 4: return "empty document"  // XML_ERR_DOCUMENT_EMPTY
        case 5: return "content after the document element"  // XML_ERR_DOCUMENT_END
        case 6, 7, 8, 9: return "invalid character"  // XML_ERR_INVALID_{HEX_,DEC_,}CHARREF, XML_ERR_INVALID_CHAR
        case 23: return "entity reference without ';'"  // XML_ERR_ENTITYREF_SEMICOL_MISSING
        case 26, 27: return "undeclared entity"  // XML_ERR_UNDECLARED_ENTITY, XML_WAR_UNDECLARED_ENTITY
        case 38: return "'<' in an attribute value"  // XML_ERR_LT_IN_ATTRIBUTE
        case 39, 40, 41, 43, 44: return "broken attribute"  // XML_ERR_ATTRIBUTE_*, XML_ERR_LITERAL_*
        case 42: return "attribute given twice"  // XML_ERR_ATTRIBUTE_REDEFINED
        case 45: return "unterminated comment"  // XML_ERR_COMMENT_NOT_FINISHED
        case 68: return "a name was expected"  // XML_ERR_NAME_REQUIRED
        case 65, 72, 73, 74, 75: return "broken tag"  // XML_ERR_{SPACE,LT,GT,LTSLASH,EQUAL}_REQUIRED
        case 76: return "mismatched closing tag"  // XML_ERR_TAG_NAME_MISMATCH
        case 77: return "unexpected end of input (an element is not closed)"  // XML_ERR_TAG_NOT_FINISHED
        default: return "XML error \(code)"
        }
    }
}
