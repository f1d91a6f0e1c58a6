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
            throw TreeError("not UTF-8 (byte \(bad))", file: file, line: line)
        }
        // Under 4 bytes XMLParser never creates its context, and asking it
        // for a line number then would dereference null.
        guard data.count >= 4 else { throw TreeError("malformed XML: unexpected end of input", file: file, line: 1) }
        let parser = XMLParser(stream: InputStream(data: data))
        let reader = PageSourceXMLReader()
        parser.delegate = reader
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        if parser.parse() { return reader.records }
        let code = (parser.parserError as NSError?)?.code
        throw TreeError("malformed XML: \(describe(code))", file: file, line: max(1, parser.lineNumber))
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
    private static func describe(_ code: Int?) -> String {
        guard let code else { return "unreadable input" }
        switch XMLParser.ErrorCode(rawValue: code) {
        case .tagNameMismatchError?: return "mismatched closing tag"
        case .prematureDocumentEndError?: return "unexpected end of input"
        case .attributeRedefinedError?: return "attribute given twice"
        case .undeclaredEntityError?: return "undeclared entity"
        case .emptyDocumentError?: return "empty document"
        case .ltRequiredError?, .gtRequiredError?: return "broken tag"
        case .attributeNotStartedError?, .attributeNotFinishedError?,
             .literalNotStartedError?, .literalNotFinishedError?:
            return "broken attribute"
        case .documentStartError?: return "no XML document"
        case .extraContentError?: return "content after the document element"
        case .invalidCharacterError?: return "invalid character"
        default: return "XML error \(code)"
        }
    }
}
