import Foundation
import Testing

@testable import AXHit

private func load(_ name: String) throws -> Data {
    try Data(contentsOf: Corpus.directory.appendingPathComponent(name))
}

private func read(_ text: String, file: String = "in", options: ImportOptions = .init()) throws -> ElementTree {
    try ElementTree(contentsOf: Data(text.utf8), file: file, options: options)
}

private func failure(_ text: String, file: String = "in") -> TreeError? {
    do {
        _ = try ElementTree(contentsOf: Data(text.utf8), file: file)
        return nil
    } catch {
        return error
    }
}

/// The screen rect of a node (importers make no transforms or scroll
/// offsets: the sum of frame origins up the chain).
private func screenFrame(_ tree: ElementTree, _ id: NodeID) -> CGRect {
    var origin = tree[id]!.frame.origin
    var p = tree.parent(of: id)
    while !p.isNone {
        origin.x += tree[p]!.frame.minX
        origin.y += tree[p]!.frame.minY
        p = tree.parent(of: p)
    }
    return CGRect(origin: origin, size: tree[id]!.frame.size)
}

/// The kinds cli.md says are read, as the errors must list them.
private let everyKind = [
    "axhit/1", "Appium iOS page source", "idb ui describe-all", "uiautomator dump",
    "adb exec-out uiautomator dump /dev/tty", "DroidBot state", "WebDriverAgent",
]

@Suite struct ImportFormatTests {
    // MARK: The /dev/tty form

    /// WebDriverAgent JSON nested 100,000 deep reads as a chain of 100,000
    /// nodes, and the parsed document is freed without recursion (it once
    /// freed itself value by value and overflowed the stack).
    @Test func deepWebDriverAgentJSONReads() throws {
        let depth = 100_000
        let node =
            #"{"type": "Other", "rect": {"origin": {"x": 0, "y": 0}, "size": {"width": 10, "height": 10}}, "#
            + #""children": ["#
        let json =
            #"{"value": {"tree": "# + String(repeating: node, count: depth)
            + String(repeating: "]}", count: depth) + "}}"
        let tree = try read(json)
        #expect(tree.count == depth)
        var deepest = tree.root, levels = 1
        while let c = tree.children(of: deepest).first {
            deepest = c
            levels += 1
        }
        #expect(levels == depth)
    }

    @Test func devTTYFormReads() throws {
        let tree = try ElementTree(contentsOf: load("android/autonom_devtty_prefixed_dump_1080x2400_classic.xml"))
        // Hand-counted: a FrameLayout with five children.
        #expect(
            tree.preOrder.map { tree.id(of: $0) }
                == ["FrameLayout#0", "TextView#1", "TextView#2", "View#3", "EditText#4", "ScrollView#5"])
        let open = tree[try #require(tree.node(withID: "TextView#1"))]!
        #expect(open.accessibilityLabel == "Open settings" && open.accessibilityValue == "Settings")
        #expect(open.actions == [.click, .focus])
        // adb prints the banner after the XML too, glued to it.
        let after =
            "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">"
            + "<node class=\"a.B\" bounds=\"[0,0][10,10]\"/></hierarchy>UI hierchary dumped to: /dev/tty\n"
        #expect(try read(after).count == 1)
        // Without a banner, text after the document is still an error.
        let junk = failure("<hierarchy><node bounds=\"[0,0][1,1]\"/></hierarchy>\ntrailing noise")
        #expect(junk?.message == "malformed XML: content after the document element" && junk?.line == 2)
    }

    // MARK: DroidBot 2016

    @Test func droidBot2016LabelsAndFlags() throws {
        let tree = try ElementTree(
            contentsOf: load("android/droidbot2016_paypal_license_agreement_1080x1776_devicestate.json"))
        let title = tree[try #require(tree.node(withID: "View#4"))]!
        #expect(title.accessibilityLabel?.hasPrefix("PayPal Mobile Application License Agreement") == true)
        #expect(title.actions == .click)
        // "focusable": "true" on the WebView, as a string.
        let web = tree[try #require(tree.node(withID: "WebView#3"))]!
        #expect(web.actions == [.focus, .scroll])  // "scrollable": "true"
        #expect(web.className == "android.webkit.WebView" && web.packageName == "com.paypal.android.p2pmobile")
        #expect(web.checked == false)  // "checked": "false", as written
        #expect(tree[tree.root]!.visibleInSnapshot == nil)  // the 2016 schema has no flag
        let state = """
            {"views": [
              {"class": "android.widget.FrameLayout", "parent": null, "bounds": [[0, 0], [100, 100]], "children": [1]},
              {"class": "android.widget.TextView", "parent": 0, "bounds": [[0, 0], [50, 50]], "text": "Hi",
               "content-desc": "Greeting", "resource-id": "app:id/hi", "long-clickable": "true", "clickable": "false",
               "checkable": "true", "checked": "true", "enabled": "false"}
            ]}
            """
        let t = try read(state)
        let hi = t[try #require(t.node(withID: "TextView#1"))]!
        #expect(hi.accessibilityLabel == "Greeting" && hi.accessibilityValue == "Hi")
        #expect(hi.accessibilityIdentifier == "app:id/hi")
        #expect(hi.actions == [.longClick, .check])
        #expect(hi.accessibilityTraits == [.staticText, .button, .toggleButton, .notEnabled])
        #expect(hi.checked == true && hi.className == "android.widget.TextView" && hi.packageName == nil)
        #expect(t.platform == .android && t[t.root]!.isWindow)
    }

    // MARK: idb

    @Test func idbFlatAndNestedAgree() throws {
        let flat = try ElementTree(contentsOf: load("ios/autonom_settings_idb_describe_all_flat_iphone402x874.json"))
        let nested = try ElementTree(
            contentsOf: load("ios/autonom_settings_idb_describe_all_nested_iphone402x874.json"))
        // The flat list: 15 entries side by side under the synthetic root.
        #expect(flat.id(of: flat.root) == "screen" && flat.children(of: flat.root).count == 15)
        #expect(nested.id(of: nested.root) == "Application#0" && nested.count == 15)
        // The same elements, ids, screen frames and facts.
        for id in nested.preOrder {
            let name = nested.id(of: id)
            let other = try #require(flat.node(withID: name), "\(name)")
            #expect(screenFrame(flat, other) == screenFrame(nested, id), "\(name)")
            var a = flat[other]!, b = nested[id]!
            a.frame = .zero
            b.frame = .zero
            #expect(a == b, "\(name)")
        }
        let account = flat[try #require(flat.node(withID: "Button#3"))]!
        #expect(account.accessibilityIdentifier == "com.apple.settings.primaryAppleAccount")
        #expect(account.accessibilityLabel?.hasPrefix("Apple Account") == true)
        #expect(account.isAccessibilityElement && account.accessibilityTraits == .button)
        let heading = flat[try #require(flat.node(withID: "Heading#1"))]!
        #expect(!heading.isAccessibilityElement && heading.accessibilityTraits == .header)
        #expect(flat.screenBounds == CGRect(x: 0, y: 0, width: 402, height: 874))
    }

    @Test func idbFieldsMap() throws {
        let json = """
            [{"type": "Application", "AXFrame": "{{0, 0}, {100, 200}}", "children": [
              {"role": "AXButton", "AXFrame": "{{10, 20}, {30, 40}}", "AXLabel": "Go", "AXValue": 3, "enabled": false,
               "help": "Starts", "custom_actions": ["Delete"]},
              {"type": "Image", "AXLabel": "", "frame": {"x": 1, "y": 2, "width": 3, "height": 4}},
              {"type": "Image", "AXLabel": "Logo"}
            ]}]
            """
        let t = try read(json)
        #expect(
            t.platform == .ios && t.source == .snapshot && t.screenBounds == CGRect(x: 0, y: 0, width: 100, height: 200)
        )
        let go = t[try #require(t.node(withID: "Button#1"))]!
        #expect(go.frame == CGRect(x: 10, y: 20, width: 30, height: 40))
        #expect(go.accessibilityValue == "3" && go.accessibilityHint == "Starts")
        #expect(go.accessibilityTraits == [.button, .notEnabled] && go.isAccessibilityElement)
        // Image: an element only with a label.
        #expect(!t[try #require(t.node(withID: "Image#2"))]!.isAccessibilityElement)
        let logo = t[try #require(t.node(withID: "Image#3"))]!
        #expect(logo.isAccessibilityElement && logo.frame == .zero)
    }

    // MARK: iOS defaults

    @Test func iOSDefaultElementTypes() throws {
        var xml = "<AppiumAUT><XCUIElementTypeApplication x='0' y='0' width='10' height='10'>"
        let elements = [
            "Button", "Cell", "StaticText", "TextField", "SecureTextField", "SearchField", "TextView", "Switch",
            "Toggle", "Slider", "Stepper", "Link", "Key", "Tab", "PickerWheel", "PageIndicator",
        ]
        let containers = [
            "Other", "Window", "Table", "CollectionView", "ScrollView", "NavigationBar", "TabBar", "Toolbar",
            "StatusBar", "Keyboard", "Image", "Icon", "ProgressIndicator",
        ]
        for type in elements + containers { xml += "<XCUIElementType\(type)/>" }
        xml += "<XCUIElementTypeImage label='Logo'/><XCUIElementTypeImage label=''/>"
        xml += "<XCUIElementTypeButton accessible=''/><XCUIElementTypeButton accessible='false'/>"
        xml += "<XCUIElementTypeOther accessible='true'/></XCUIElementTypeApplication></AppiumAUT>"
        let t = try read(xml)
        var n = 1
        for type in elements + containers {
            let node = t[try #require(t.node(withID: "\(type)#\(n)"))]!
            #expect(node.isAccessibilityElement == elements.contains(type), "\(type)")
            #expect(node.frame == .zero)  // no coordinates: empty at the origin
            n += 1
        }
        let rest = [
            "Image#\(n)": true, "Image#\(n + 1)": false, "Button#\(n + 2)": true, "Button#\(n + 3)": false,
            "Other#\(n + 4)": true,
        ]
        for (id, element) in rest {
            #expect(t[try #require(t.node(withID: id))]!.isAccessibilityElement == element, "\(id)")
        }
    }

    // MARK: Options

    @Test func platformOverrideAppliesToEveryFormat() throws {
        let dump = try load("android/mobileenv_gmail_newfeatures_overlay_1080x1794_classic.xml")
        let android = try ElementTree(contentsOf: dump)
        #expect(android.platform == .android)
        let forced = try ElementTree(contentsOf: dump, options: ImportOptions(platform: .ios))
        #expect(forced.platform == .ios && forced.source == .snapshot)
        // axhit/1 too.
        let exported = android.axhitJSON()
        #expect(try ElementTree(contentsOf: exported).platform == .android)
        #expect(try ElementTree(contentsOf: exported, options: ImportOptions(platform: .ios)).platform == .ios)
        let ios = try ElementTree(
            contentsOf: load("ios/appium_theapp_login_iphone414x896.xml"), options: ImportOptions(platform: .android))
        #expect(ios.platform == .android)
    }

    @Test func densityForAXHitJSON() throws {
        var tree = try ElementTree(
            contentsOf: load("android/mobileenv_gmail_newfeatures_overlay_1080x1794_classic.xml"))
        // No scale in the file: the caller's density.
        #expect(
            try ElementTree(contentsOf: tree.axhitJSON(), options: ImportOptions(density: 2.625)).screenScale == 2.625)
        // The file's own scale wins (tree-format.md: "from screen.scale when known").
        tree.screenScale = 3
        #expect(try ElementTree(contentsOf: tree.axhitJSON(), options: ImportOptions(density: 2.625)).screenScale == 3)
        let bad = try #require(throws: TreeError.self) {
            try ElementTree(contentsOf: tree.axhitJSON(), options: ImportOptions(density: -2))
        }
        #expect(bad.kind == .validation && bad.key == "density")
    }

    @Test func trustedVisibilityForAXHitJSON() throws {
        let source = try ElementTree(contentsOf: load("ios/appiuminspector_lockscreen_springboard_iphone375x812.xml"))
        let exported = source.axhitJSON()
        let kept = try ElementTree(contentsOf: exported)
        #expect(kept.preOrder.allSatisfy { !kept[$0]!.isHidden })
        let trusted = try ElementTree(contentsOf: exported, options: ImportOptions(trustsVisibilityFlags: true))
        // 61 of the 84 elements say visible="false" (SOURCES.md).
        #expect(trusted.preOrder.filter { trusted[$0]!.isHidden }.count == 61)
    }

    // MARK: Detection and refusals

    @Test func knownFormatsAreRefusedByName() throws {
        let maestro = "other/maestrostudio_pixel_launcher_allapps_normalized_devicescreen.json"
        let m = try #require(throws: TreeError.self) { try ElementTree(contentsOf: load(maestro), file: "m.json") }
        #expect(m.kind == .input && m.file == "m.json")
        #expect(m.message.hasPrefix("this is a Maestro Studio screen JSON, which AXHit does not read; AXHit reads "))
        let universal = "other/appium_theapp_login_1080x1920_universalxml.xml"
        let u = try #require(throws: TreeError.self) { try ElementTree(contentsOf: load(universal), file: "u.xml") }
        #expect(u.kind == .input && u.message.hasPrefix("this is an Appium universal-xml page source"))
        for e in [m, u] {
            for kind in everyKind { #expect(e.message.contains(kind), "\(kind)") }
        }
    }

    @Test(arguments: [
        #"{"name": "not a tree", "children": []}"#, "[1, 2, 3]", #"{"tree": {}}"#, "<html><body/></html>",
        "<?xml version='1.0'?>\n<svg/>", "plain text",
    ])
    func unknownInputListsEveryKindRead(_ text: String) throws {
        let e = try #require(failure(text))
        #expect(e.kind == .input && e.message.hasPrefix("unrecognized input: AXHit reads "))
        // Not the axhit/1 reader's complaint about a missing "format".
        #expect(!e.message.contains("format"))
        for kind in everyKind { #expect(e.message.contains(kind), "\(kind)") }
        for format in TreeFormat.allCases { #expect(e.message.contains(format.displayName)) }
    }

    // MARK: Broken fields

    @Test func brokenFieldsNameFileLineNodeAndKey() throws {
        // uiautomator, pretty-printed: the line of the attribute, not of the tag.
        let dump = """
            <?xml version="1.0"?>
            <hierarchy rotation="0">
              <node class="android.widget.FrameLayout"
                    bounds="[0,0][100,100]">
                <node class="android.widget.Button"
                      text="OK"
                      bounds="[1,2][three,4]"/>
              </node>
            </hierarchy>
            """
        let e1 = try #require(failure(dump, file: "dump.xml"))
        #expect(
            e1.file == "dump.xml" && e1.line == 7 && e1.node == "Button#1" && e1.key == "bounds" && e1.kind == .input)
        #expect(
            e1.description
                == "dump.xml: line 7: node \"Button#1\": key \"bounds\": \"[1,2][three,4]\" is not \"[x1,y1][x2,y2]\"")
        let e2 = try #require(failure("<hierarchy>\n<node class='a.B' bounds='[0,0][1e999,1]'/></hierarchy>"))
        #expect(e2.line == 2 && e2.node == "B#0" && e2.key == "bounds" && e2.kind == .validation)
        // Appium: a coordinate.
        let e3 = try #require(
            failure(
                "<AppiumAUT>\n<XCUIElementTypeApplication x='0' y='0' width='10' height='10'>\n"
                    + "<XCUIElementTypeButton x='0' y='nan' width='1' height='1'/></XCUIElementTypeApplication></AppiumAUT>"
            ))
        #expect(e3.line == 3 && e3.node == "Button#1" && e3.key == "y" && e3.kind == .validation)
        // idb: the line of the value.
        let idb =
            "[\n{\"type\": \"Application\", \"AXFrame\": \"{{0, 0}, {10, 10}}\"},\n{\"type\": \"Button\",\n \"AXFrame\": \"{{0, 0}, {ten}}\"}\n]"
        let e4 = try #require(failure(idb, file: "idb.json"))
        #expect(
            e4.file == "idb.json" && e4.line == 4 && e4.node == "Button#1" && e4.key == "AXFrame" && e4.kind == .input)
        let e5 = try #require(
            failure("[{\"type\": \"Button\", \"frame\": {\"x\": 0, \"y\": 0, \"width\": -1, \"height\": 1}}]"))
        #expect(e5.node == "Button#0" && e5.key == "frame" && e5.kind == .validation)
        // DroidBot.
        let state = "{\"views\": [\n{\"class\": \"a.B\", \"parent\": -1,\n \"bounds\": [[0, 0], [1]]}]}"
        let e6 = try #require(failure(state))
        #expect(e6.line == 3 && e6.node == "B#0" && e6.key == "bounds" && e6.kind == .input)
        let e7 = try #require(failure("{\"views\": [{\"class\": \"a.B\", \"parent\": 7}]}"))
        #expect(e7.node == "B#0" && e7.key == "parent" && e7.kind == .validation)
        // WebDriverAgent.
        let wda = "{\"value\": {\"tree\": {\"type\": \"UIAApplication\",\n\"rect\": {\"origin\": {\"x\": 0}}}}}"
        let e8 = try #require(failure(wda))
        #expect(e8.line == 2 && e8.node == "Application#0" && e8.key == "rect" && e8.kind == .input)
        // Malformed JSON of a known kind: the line, from the JSON scanner.
        let e9 = try #require(failure("{\"views\": [\n{\"class\": }]}", file: "s.json"))
        #expect(e9.file == "s.json" && e9.line == 2 && e9.kind == .input)
    }

    @Test func echoedValuesAreCut() throws {
        let long = String(repeating: "x", count: 100)
        let e = try #require(failure("<hierarchy><node bounds='\(long)'/></hierarchy>"))
        #expect(e.message == "\"" + String(repeating: "x", count: 40) + "…\" is not \"[x1,y1][x2,y2]\"")
    }
}
