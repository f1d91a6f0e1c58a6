import Foundation
import Testing

@testable import AXHit

/// The element events and decoded attributes of `xml`, as text
/// (`<name a=v ...>` per start, `</>` per end), or the error.
private func events(_ xml: String) -> Result<[String], TreeError> {
    let data = Data(xml.utf8)
    do {
        return .success(
            try withBytes(of: data) { bytes throws(TreeError) -> [String] in
                var scanner = XMLScanner(bytes, file: "x.xml")
                var out: [String] = []
                while true {
                    switch try scanner.next() {
                    case .start:
                        let attributes = scanner.attributes.map {
                            String(decoding: scanner.name(of: $0), as: UTF8.self) + "=" + scanner.string($0)
                        }
                        out.append(
                            "<" + ([String(decoding: scanner.name, as: UTF8.self)] + attributes).joined(separator: " ")
                                + ">")
                    case .end: out.append("</>")
                    case .finish: return out
                    }
                }
            })
    } catch {
        return .failure(error)
    }
}

private func error(_ xml: String) -> TreeError? {
    if case let .failure(e) = events(xml) { return e }
    return nil
}

@Suite struct ImportXMLScannerTests {
    @Test func eventsAndValues() throws {
        let xml = """
            \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
            <!-- a comment with <tags> & stuff -->
            <!DOCTYPE hierarchy>
            <hierarchy rotation='0'>
              <node text="a &amp; b &lt;&gt; &quot;q&quot; &apos;s&apos; &#65;&#x42;&#x1F600;" t2="line
            break	tab\r\nend"/><?pi data?><![CDATA[<node/> ignored]]>
              text &amp; more
              <n-o.d_e:x b="é中"></n-o.d_e:x>
            </hierarchy>
            """
        let got = try events(xml).get()
        #expect(
            got == [
                "<hierarchy rotation=0>",
                "<node text=a & b <> \"q\" 's' AB\u{1F600} t2=line break tab end>", "</>",
                "<n-o.d_e:x b=é中>", "</>",
                "</>",
            ])
    }

    /// Entities are XML's five and character references; nothing a DOCTYPE
    /// declares is ever expanded (no XXE, no billion laughs).
    @Test(arguments: [
        "<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><x a='&e;'/>",
        "<!DOCTYPE x [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">]><x>&b;</x>",
        "<!DOCTYPE x [<!-- ]> --><!ENTITY e \"v\">]><x>&e;</x>",
    ])
    func declaredEntitiesAreNeverExpanded(_ xml: String) {
        #expect(error(xml)?.message == "malformed XML: undeclared entity")
    }

    @Test(arguments: [
        ("<x a='1' a='2'/>", "attribute given twice", 1),
        ("<x>\n</y>", "mismatched closing tag", 2),
        ("<x a='<'/>", "'<' in an attribute value", 1),
        ("<x a='&amp'/>", "entity reference without ';'", 1),
        ("<x a='&#0;'/>", "invalid character", 1),
        ("<x a='&#xD800;'/>", "invalid character", 1),
        ("<x a='&#x110000;'/>", "invalid character", 1),
        ("<x a='&#12a;'/>", "invalid character reference", 1),
        ("<x a='\u{1}'/>", "invalid character", 1),
        ("<x a=1/>", "broken attribute", 1),
        ("<x a='1'b='2'/>", "broken tag", 1),
        ("<x/>\n<y/>", "content after the document element", 2),
        ("hello <x/>", "text before the document element", 1),
        ("<!-- only a comment -->", "no XML document (no element)", 1),
        ("<x>\n<![CDATA[ never closed", "unexpected end of input (truncated?)", 2),
        ("<x><!ELEMENT y ANY></x>", "broken markup declaration", 1),
        ("<1x/>", "a name was expected", 1),
    ])
    func malformedInputNamesTheLine(_ xml: String, _ words: String, _ line: Int) {
        let e = error(xml)
        #expect(e?.message == "malformed XML: \(words)", "\(xml)")
        #expect(e?.line == line && e?.file == "x.xml" && e?.kind == .input)
    }

    @Test func invalidUTF8IsRefused() {
        var bytes = Array("<x a='".utf8)
        bytes += [0xC3, 0x28]
        bytes += Array("'/>".utf8)
        let data = Data(bytes)
        #expect(error("<x a='\u{FFFF}'/>")?.message == "malformed XML: invalid character")
        let e = try? #require(throws: TreeError.self) { try ElementTree(appiumPageSource: data) }
        #expect(e?.message == "not UTF-8 (byte 6)" && e?.line == 1)
        let overlong = Data(Array("<x a='".utf8) + [0xC0, 0xAF] + Array("'/>".utf8))
        let error = try? #require(throws: TreeError.self) { try ElementTree(uiautomatorDump: overlong) }
        #expect(error?.message.hasPrefix("not UTF-8") == true)
    }

    /// Depth costs no native stack.
    @Test func deepDocuments() throws {
        let depth = 100_000
        let xml = String(repeating: "<n>", count: depth) + String(repeating: "</n>", count: depth)
        #expect(try events(xml).get().count == 2 * depth)
    }
}

/// Start tags with many attributes: the duplicate check stays linear in
/// their count (a node of 400,000 attributes took minutes when each was
/// compared with those before it), and says the same as with a few.
@Suite struct ImportXMLManyAttributesTests {
    /// ` a0="v" a1="v" ...`: `count` distinct names with a common prefix
    /// and length classes, so that many share the quick signature.
    static func attributes(_ count: Int, prefix: String = "extra-") -> String {
        var out = ""
        out.reserveCapacity(count * 16)
        for k in 0 ..< count {
            out += " \(prefix)\(k)=\"v\(k % 100)\""
        }
        return out
    }

    /// 400,000 attributes on one uiautomator node: the dump reads, and the
    /// attributes the reader knows still count wherever they stand.
    @Test func aNodeWithFourHundredThousandAttributesReads() throws {
        let xml =
            "<?xml version=\"1.0\"?>\n<hierarchy rotation=\"0\"><node index=\"0\" text=\"Hi\""
            + " class=\"android.widget.Button\"" + Self.attributes(400_000)
            + " clickable=\"true\" bounds=\"[10,20][110,70]\" /></hierarchy>\n"
        let tree = try ElementTree(uiautomatorDump: Data(xml.utf8), file: "many.xml")
        #expect(tree.count == 1)
        let button = tree[try #require(tree.node(withID: "Button#0"))]
        #expect(button?.accessibilityLabel == "Hi")
        #expect(button?.frame == CGRect(x: 10, y: 20, width: 100, height: 50))
        #expect(button?.actions.contains(.click) == true)
    }

    /// A name given twice among many is refused as among a few, at its
    /// second occurrence's line, whether it repeats the first name, the
    /// last, or one near where the check changes strategy.
    @Test(arguments: [
        0, 1, XMLScanner.linearAttributeLimit - 2, XMLScanner.linearAttributeLimit - 1,
        XMLScanner.linearAttributeLimit, XMLScanner.linearAttributeLimit + 1, 2 * XMLScanner.linearAttributeLimit,
        49_998,
    ])
    func aDuplicateAmongManyIsRefused(_ repeated: Int) {
        let xml =
            "<hierarchy>\n<node" + Self.attributes(49_999) + "\n extra-\(repeated)=\"again\"" + Self.attributes(3)
            + " /></hierarchy>"
        let e = try? #require(throws: TreeError.self) {
            try ElementTree(uiautomatorDump: Data(xml.utf8), file: "dup.xml")
        }
        #expect(e?.message == "malformed XML: attribute given twice")
        #expect(e?.line == 3 && e?.file == "dup.xml" && e?.kind == .input)
    }

    /// Every count around where the check changes strategy: all names
    /// distinct read; a repeat of any earlier name is found.
    @Test func everyCountAroundTheSwitch() {
        for count in 1 ... XMLScanner.linearAttributeLimit + 20 {
            #expect(error("<x" + Self.attributes(count) + "/>") == nil, "\(count)")
            for repeated in [0, count / 2, count - 1] {
                let xml = "<x" + Self.attributes(count) + " extra-\(repeated)='2'/>"
                #expect(error(xml)?.message == "malformed XML: attribute given twice", "\(count), \(repeated)")
            }
        }
    }

    /// The names of one tag are forgotten at the next: a tag after a large
    /// one may use the same names (whether the large one's table is kept
    /// or dropped), and a duplicate there is still found.
    @Test(arguments: [1_000, 10_000])
    func eachTagStartsAfresh(_ count: Int) throws {
        let large = "<x" + Self.attributes(count) + ">"
        let got = try events(large + "<y" + Self.attributes(2) + "/><z" + Self.attributes(100) + "/></x>").get()
        #expect(got.count == 6)
        #expect(got[1] == "<y extra-0=v0 extra-1=v1>")
        for (size, repeated) in [(40, 39), (100, 99), (100, 0)] {
            #expect(
                error(large + "<y" + Self.attributes(size) + " extra-\(repeated)='1'/></x>")?.message
                    == "malformed XML: attribute given twice", "\(size), \(repeated)")
        }
    }
}
