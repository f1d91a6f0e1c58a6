import Foundation
import Testing

@testable import AXHit

/// What one element says: description and hint.
struct Said: Equatable, CustomStringConvertible {
    var speech: String
    var hint: String?
    init(_ speech: String, _ hint: String? = nil) {
        self.speech = speech
        self.hint = hint
    }
    var description: String { "\(speech) | \(hint ?? "nil")" }
}

/// The transcript of `source` (any format the importers read), by id, and
/// the ids in the order spoken.
func transcript(_ source: String) throws -> (said: [String: Said], order: [String]) {
    var engine = HitTester(try ElementTree(contentsOf: Data(source.utf8)))
    var said: [String: Said] = [:]
    var order: [String] = []
    for s in try engine.transcript() {
        let id = engine.tree.id(of: s.element)
        said[id] = Said(s.description, s.hint)
        order.append(id)
        // One element alone says what the transcript says of it.
        #expect(try engine.speech(of: s.element) == s, "\(id)")
    }
    return (said, order)
}

/// VoiceOver's words (tree-format.md, "What the screen reader says", iOS),
/// each written out by hand from AccessibilitySnapshot's rules.
@Suite struct VoiceOverSpeechTests {
    /// A window of view elements, one per entry: id, then the rest of its JSON.
    static func screen(_ elements: [(String, String)]) -> String {
        let children = elements.enumerated().map { k, e in
            "{\"id\": \"\(e.0)\", \"frame\": [0, \(k * 50), 300, 44], \"isAccessibilityElement\": true\(e.1)}"
        }
        return """
            {"format": "axhit/1", "root": {"id": "window", "frame": [0, 0, 390, 844], "children": [
            \(children.joined(separator: ",\n"))]}}
            """
    }

    static func say(_ rest: String) throws -> Said? {
        try transcript(screen([("e", rest)])).said["e"]
    }

    @Test func labelValueAndSelected() throws {
        #expect(try Self.say(", \"accessibilityLabel\": \"Play\"") == Said("Play"))
        #expect(
            try Self.say(", \"accessibilityLabel\": \"Volume\", \"accessibilityValue\": \"50%\"")
                == Said("Volume: 50%"))
        #expect(try Self.say(", \"accessibilityValue\": \"50%\"") == Said("50%"))
        #expect(
            try Self.say(", \"accessibilityLabel\": \"Home\", \"accessibilityTraits\": [\"selected\"]")
                == Said("Selected: Home"))
        #expect(try Self.say(", \"accessibilityTraits\": [\"selected\"]") == Said("Selected."))
        #expect(try Self.say("") == Said(""))
    }

    @Test func everyTraitWordInOrder() throws {
        func traits(_ names: String, label: String = "X") throws -> Said? {
            try Self.say(", \"accessibilityLabel\": \"\(label)\", \"accessibilityTraits\": [\(names)]")
        }
        #expect(try traits("\"notEnabled\"") == Said("X. Dimmed."))
        #expect(try traits("\"button\"") == Said("X. Button."))
        #expect(try traits("\"header\"") == Said("X. Heading."))
        #expect(try traits("\"link\"") == Said("X. Link."))
        #expect(
            try traits("\"adjustable\"")
                == Said("X. Adjustable.", "Swipe up or down with one finger to adjust the value."))
        #expect(try traits("\"image\"") == Said("X. Image."))
        #expect(try traits("\"searchField\"") == Said("X. Search Field."))
        // Unspoken traits.
        for quiet in [
            "staticText", "playsSound", "summaryElement", "updatesFrequently", "startsMediaSession",
            "allowsDirectInteraction", "causesPageTurn", "supportsZoom", "tabBar",
        ] {
            #expect(try traits("\"\(quiet)\"") == Said("X"), "\(quiet)")
        }
        // AccessibilitySnapshot's order, whatever the bits' order.
        #expect(
            try traits("\"searchField\", \"image\", \"link\", \"header\", \"button\", \"notEnabled\"")
                == Said("X. Dimmed. Button. Heading. Link. Image. Search Field."))
        // A description ending with a period gets no second one.
        #expect(try traits("\"button\"", label: "Done.") == Said("Done. Button."))
        // No description: the words alone.
        #expect(try Self.say(", \"accessibilityTraits\": [\"button\", \"image\"]") == Said("Button. Image."))
    }

    @Test func buttonWordSuppressions() throws {
        // A key, a switch and a tab do not say Button.
        #expect(
            try Self.say(", \"accessibilityLabel\": \"A\", \"accessibilityTraits\": [\"button\", \"keyboardKey\"]")
                == Said("A"))
        // tabBarItem (1 << 28) + button.
        #expect(
            try Self.say(", \"accessibilityLabel\": \"Home\", \"accessibilityTraits\": \(1 << 28 | 1)")
                == Said("Home. Tab."))
        // backButton (1 << 27) + button: the label "Back" is not read twice.
        #expect(
            try Self.say(", \"accessibilityLabel\": \"Back\", \"accessibilityTraits\": \(1 << 27 | 1)")
                == Said("Back Button."))
        #expect(
            try Self.say(", \"accessibilityLabel\": \"Inbox\", \"accessibilityTraits\": \(1 << 27 | 1)")
                == Said("Inbox. Back Button."))
    }

    @Test func switchesStatesAndHints() throws {
        func toggle(
            _ value: String?, traits: String = "\"button\", \"toggleButton\"", hint: String? = nil
        ) throws
            -> Said?
        {
            var rest = ", \"accessibilityLabel\": \"Wi-Fi\", \"accessibilityTraits\": [\(traits)]"
            if let value { rest += ", \"accessibilityValue\": \"\(value)\"" }
            if let hint { rest += ", \"accessibilityHint\": \"\(hint)\"" }
            return try Self.say(rest)
        }
        let toggleHint = "Double tap to toggle setting."
        #expect(try toggle("1") == Said("Wi-Fi. Switch Button. On.", toggleHint))
        #expect(try toggle("0") == Said("Wi-Fi. Switch Button. Off.", toggleHint))
        #expect(try toggle("2") == Said("Wi-Fi. Switch Button. Mixed.", toggleHint))
        // Any other value is said as it is (iOS 17), not as "label: value".
        #expect(try toggle("Half") == Said("Wi-Fi. Switch Button. Half", toggleHint))
        #expect(try toggle(nil) == Said("Wi-Fi. Switch Button.", toggleHint))
        // Without the button trait: no "Switch Button." word.
        #expect(try toggle("1", traits: "\"toggleButton\"") == Said("Wi-Fi. On.", toggleHint))
        // The authored hint comes first, its period kept once.
        #expect(
            try toggle("1", hint: "Joins networks.")
                == Said("Wi-Fi. Switch Button. On.", "Joins networks. \(toggleHint)"))
        // Disabled: dimmed, and no hint.
        #expect(
            try toggle("1", traits: "\"button\", \"toggleButton\", \"notEnabled\"")
                == Said("Wi-Fi. Dimmed. Switch Button. On."))
    }

    @Test func hints() throws {
        #expect(
            try Self.say(", \"accessibilityLabel\": \"Play\", \"accessibilityHint\": \"Plays the song.\"")
                == Said("Play", "Plays the song."))
        // The hint stands in for an empty description, before the trait words.
        #expect(
            try Self.say(", \"accessibilityHint\": \"Opens the menu\", \"accessibilityTraits\": [\"button\"]")
                == Said("Opens the menu. Button."))
        // Adjustable: the usage hint after the authored one...
        #expect(
            try Self.say(
                ", \"accessibilityLabel\": \"Volume\", \"accessibilityHint\": \"Changes the volume.\", "
                    + "\"accessibilityTraits\": [\"adjustable\"]")
                == Said(
                    "Volume. Adjustable.", "Changes the volume. Swipe up or down with one finger to adjust the value."))
        // ... but not with a hint alone, nor disabled.
        #expect(
            try Self.say(", \"accessibilityHint\": \"Drag\", \"accessibilityTraits\": [\"adjustable\"]")
                == Said("Drag. Adjustable."))
        #expect(
            try Self.say(", \"accessibilityLabel\": \"V\", \"accessibilityTraits\": [\"adjustable\", \"notEnabled\"]")
                == Said("V. Dimmed. Adjustable."))
    }

    @Test func textEntryFromPrivateTraits() throws {
        let edit = "Double tap to edit."
        let area = "Double tap to edit., Use the rotor to access Misspelled Words"
        func entry(_ bits: Int, value: String? = nil) throws -> Said? {
            try Self.say(
                ", \"accessibilityLabel\": \"Name\", \"accessibilityTraits\": \(bits)"
                    + (value.map { ", \"accessibilityValue\": \"\($0)\"" } ?? ""))
        }
        #expect(try entry(1 << 18) == Said("Name. Text Field.", edit))
        #expect(try entry(1 << 18, value: "Ann") == Said("Name: Ann. Text Field.", edit))
        #expect(try entry(1 << 18 | 1 << 24) == Said("Name. Secure Text Field.", edit))
        #expect(try entry(1 << 18 | 1 << 47) == Said("Name. Text Field.", area))
        #expect(
            try entry(1 << 18 | 1 << 21)
                == Said("Name. Text Field. Is editing.", "Use the rotor to access Misspelled Words"))
        #expect(try entry(1 << 18 | 1 << 8) == Said("Name. Dimmed. Text Field."))
    }

    // MARK: Contexts

    @Test func tabsOfATabBarContainer() throws {
        let json = """
            {"format": "axhit/1", "root": {"id": "window", "frame": [0, 0, 390, 844], "children": [
              {"id": "bar", "frame": [0, 780, 390, 64], "accessibilityTraits": ["tabBar"], "children": [
                {"id": "t3", "frame": [260, 0, 130, 64], "isAccessibilityElement": true, "accessibilityLabel": "Me", "accessibilityTraits": ["button"]},
                {"id": "t1", "frame": [0, 0, 130, 64], "isAccessibilityElement": true, "accessibilityLabel": "Home", "accessibilityTraits": ["button", "selected"]},
                {"id": "t2", "frame": [130, 0, 130, 64], "isAccessibilityElement": true}
              ]}
            ]}}
            """
        let (said, order) = try transcript(json)
        #expect(order == ["t1", "t2", "t3"])
        // Numbered in navigation order; the button word gives way to "Tab.".
        #expect(said["t1"] == Said("Selected: Home. Tab. 1 of 3."))
        #expect(said["t2"] == Said("Tab. 2 of 3."))
        #expect(said["t3"] == Said("Me. Tab. 3 of 3."))
    }

    static func container(type: String, list: String, inner: String = "") -> String {
        """
        {"format": "axhit/1", "root": {"id": "window", "frame": [0, 0, 390, 844], "children": [
          {"id": "box", "frame": [0, 0, 390, 300], "accessibilityContainerType": "\(type)",
           "accessibilityElements": \(list), "children": [
            {"id": "a", "frame": [0, 0, 100, 44], "isAccessibilityElement": true, "accessibilityLabel": "A"},
            {"id": "b", "frame": [0, 50, 100, 44], "isAccessibilityElement": true, "accessibilityLabel": "B."},
            {"id": "c", "frame": [0, 100, 100, 44], "isAccessibilityElement": true, "accessibilityTraits": ["button"]}\(inner)
          ]}
        ]}}
        """
    }

    @Test func listAndLandmarkEnds() throws {
        let list = try transcript(Self.container(type: "list", list: "[\"a\", \"b\", \"c\"]")).said
        #expect(list["a"] == Said("A. List Start."))
        #expect(list["b"] == Said("B."))
        #expect(list["c"] == Said("Button. List End."))
        // A list of one: its start only.
        let one = try transcript(Self.container(type: "list", list: "[\"b\"]")).said
        #expect(one["b"] == Said("B. List Start."))
        let landmark = try transcript(Self.container(type: "landmark", list: "[\"c\", \"a\"]")).said
        #expect(landmark["c"] == Said("Button. Landmark."))
        #expect(landmark["a"] == Said("A. End."))
        // A list without accessibilityElements gives no context.
        let plain = """
            {"format": "axhit/1", "root": {"id": "window", "frame": [0, 0, 390, 844], "children": [
              {"id": "box", "frame": [0, 0, 390, 300], "accessibilityContainerType": "list", "children": [
                {"id": "a", "frame": [0, 0, 100, 44], "isAccessibilityElement": true, "accessibilityLabel": "A"}]}]}}
            """
        #expect(try transcript(plain).said["a"] == Said("A"))
    }

    @Test func theOutermostContainerThatGivesOneWins() throws {
        // A list inside a tab bar: the tab bar numbers its elements.
        let inTabBar = """
            {"format": "axhit/1", "root": {"id": "window", "frame": [0, 0, 390, 844], "children": [
              {"id": "bar", "frame": [0, 700, 390, 100], "accessibilityTraits": ["tabBar"], "children": [
                {"id": "list", "frame": [0, 0, 390, 100], "accessibilityContainerType": "list",
                 "accessibilityElements": ["x", "y"], "children": [
                  {"id": "x", "frame": [0, 0, 100, 44], "isAccessibilityElement": true, "accessibilityLabel": "X"},
                  {"id": "y", "frame": [200, 0, 100, 44], "isAccessibilityElement": true, "accessibilityLabel": "Y"}]}]}]}}
            """
        let tabs = try transcript(inTabBar).said
        #expect(tabs["x"] == Said("X. Tab. 1 of 2."))
        #expect(tabs["y"] == Said("Y. Tab. 2 of 2."))
        // A tab bar listed by a list: the list names the bar, not its
        // elements, so it gives them nothing and the tab bar's context holds.
        let inList = """
            {"format": "axhit/1", "root": {"id": "window", "frame": [0, 0, 390, 844], "children": [
              {"id": "list", "frame": [0, 0, 390, 300], "accessibilityContainerType": "list",
               "accessibilityElements": ["bar", "z"], "children": [
                {"id": "bar", "frame": [0, 0, 390, 100], "accessibilityTraits": ["tabBar"], "children": [
                  {"id": "x", "frame": [0, 0, 100, 44], "isAccessibilityElement": true, "accessibilityLabel": "X"}]},
                {"id": "z", "frame": [0, 200, 100, 44], "isAccessibilityElement": true, "accessibilityLabel": "Z"}]}]}}
            """
        let listed = try transcript(inList).said
        #expect(listed["x"] == Said("X. Tab. 1 of 1."))
        #expect(listed["z"] == Said("Z. List End."))
    }

    // MARK: Snapshots

    static func page(_ elements: String) -> String {
        """
        <AppiumAUT><XCUIElementTypeApplication type="XCUIElementTypeApplication" x="0" y="0" width="390" height="844">
        \(elements)
        </XCUIElementTypeApplication></AppiumAUT>
        """
    }

    @Test func snapshotTypesImplyTraits() throws {
        let xml = Self.page(
            """
            <XCUIElementTypeSwitch type="XCUIElementTypeSwitch" label="Wi-Fi" value="1" x="0" y="0" width="50" height="30"/>
            <XCUIElementTypeToggle type="XCUIElementTypeToggle" label="Bold" value="0" x="0" y="40" width="50" height="30"/>
            <XCUIElementTypeTextField type="XCUIElementTypeTextField" label="Name" value="Ann" x="0" y="80" width="50" height="30"/>
            <XCUIElementTypeSecureTextField type="XCUIElementTypeSecureTextField" label="Password" x="0" y="120" width="50" height="30"/>
            <XCUIElementTypeSearchField type="XCUIElementTypeSearchField" label="Search" x="0" y="160" width="50" height="30"/>
            <XCUIElementTypeTextView type="XCUIElementTypeTextView" label="Notes" x="0" y="200" width="50" height="30"/>
            <XCUIElementTypeTab type="XCUIElementTypeTab" label="Recents" x="0" y="240" width="50" height="30"/>
            <XCUIElementTypeSlider type="XCUIElementTypeSlider" label="Volume" value="50%" x="0" y="280" width="50" height="30"/>
            <XCUIElementTypePickerWheel type="XCUIElementTypePickerWheel" value="March" x="0" y="320" width="50" height="30"/>
            <XCUIElementTypePageIndicator type="XCUIElementTypePageIndicator" value="page 1 of 3" x="0" y="360" width="50" height="30"/>
            <XCUIElementTypeKey type="XCUIElementTypeKey" label="q" x="0" y="400" width="50" height="30"/>
            <XCUIElementTypeLink type="XCUIElementTypeLink" label="Terms" x="0" y="440" width="50" height="30"/>
            <XCUIElementTypeImage type="XCUIElementTypeImage" label="Logo" x="0" y="480" width="50" height="30"/>
            <XCUIElementTypeButton type="XCUIElementTypeButton" label="Buy" enabled="false" x="0" y="520" width="50" height="30"/>
            <XCUIElementTypeButton type="XCUIElementTypeButton" label="News" traits="Header" x="0" y="560" width="50" height="30"/>
            <XCUIElementTypeStaticText type="XCUIElementTypeStaticText" label="Hello" value="Hello" x="0" y="600" width="50" height="30"/>
            <XCUIElementTypeStaticText type="XCUIElementTypeStaticText" label="Title" value="Sub" x="0" y="640" width="50" height="30"/>
            <XCUIElementTypeButton type="XCUIElementTypeButton" label="Grid" value="1" selected="true" x="0" y="680" width="50" height="30"/>
            <XCUIElementTypeButton type="XCUIElementTypeButton" label="List" value="1" x="0" y="720" width="50" height="30"/>
            """)
        let said = try transcript(xml).said
        let adjust = "Swipe up or down with one finger to adjust the value."
        let edit = "Double tap to edit."
        #expect(said["Switch#1"] == Said("Wi-Fi. Switch Button. On.", "Double tap to toggle setting."))
        #expect(said["Toggle#2"] == Said("Bold. Switch Button. Off.", "Double tap to toggle setting."))
        #expect(said["TextField#3"] == Said("Name: Ann. Text Field.", edit))
        #expect(said["SecureTextField#4"] == Said("Password. Secure Text Field.", edit))
        #expect(said["SearchField#5"] == Said("Search. Text Field. Search Field.", edit))
        #expect(
            said["TextView#6"]
                == Said("Notes. Text Field.", "Double tap to edit., Use the rotor to access Misspelled Words"))
        #expect(said["Tab#7"] == Said("Recents. Tab."))
        #expect(said["Slider#8"] == Said("Volume: 50%. Adjustable.", adjust))
        #expect(said["PickerWheel#9"] == Said("March. Adjustable.", adjust))
        #expect(said["PageIndicator#10"] == Said("page 1 of 3. Adjustable.", adjust))
        #expect(said["Key#11"] == Said("q"))
        #expect(said["Link#12"] == Said("Terms. Link."))
        #expect(said["Image#13"] == Said("Logo. Image."))
        #expect(said["Button#14"] == Said("Buy. Dimmed. Button."))
        // A newer source's traits come on top of the type's.
        #expect(said["Button#15"] == Said("News. Button. Heading."))
        // WebDriverAgent's copies are not spoken; other values are.
        #expect(said["StaticText#16"] == Said("Hello"))
        #expect(said["StaticText#17"] == Said("Title: Sub"))
        #expect(said["Button#18"] == Said("Selected: Grid. Button."))
        #expect(said["Button#19"] == Said("List: 1. Button."))
    }

    @Test func snapshotTabBarsAndSegmentedControls() throws {
        let xml = Self.page(
            """
            <XCUIElementTypeSegmentedControl type="XCUIElementTypeSegmentedControl" x="0" y="100" width="390" height="30">
              <XCUIElementTypeButton type="XCUIElementTypeButton" label="Week" x="130" y="100" width="130" height="30"/>
              <XCUIElementTypeButton type="XCUIElementTypeButton" label="Day" value="1" selected="true" x="0" y="100" width="130" height="30"/>
              <XCUIElementTypeButton type="XCUIElementTypeButton" label="Month" x="260" y="100" width="130" height="30"/>
            </XCUIElementTypeSegmentedControl>
            <XCUIElementTypeTabBar type="XCUIElementTypeTabBar" x="0" y="780" width="390" height="64">
              <XCUIElementTypeButton type="XCUIElementTypeButton" label="Home" x="0" y="780" width="195" height="64"/>
              <XCUIElementTypeButton type="XCUIElementTypeButton" label="Search" x="195" y="780" width="195" height="64"/>
            </XCUIElementTypeTabBar>
            """)
        let (said, order) = try transcript(xml)
        #expect(order == ["Button#3", "Button#2", "Button#4", "Button#6", "Button#7"])
        #expect(said["Button#3"] == Said("Selected: Day. Button. 1 of 3."))
        #expect(said["Button#2"] == Said("Week. Button. 2 of 3."))
        #expect(said["Button#4"] == Said("Month. Button. 3 of 3."))
        #expect(said["Button#6"] == Said("Home. Tab. 1 of 2."))
        #expect(said["Button#7"] == Said("Search. Tab. 2 of 2."))
    }

    /// On random trees with tab bars, lists and landmarks, groups, explicit
    /// lists that place an element twice, and empty groups: the transcript
    /// (spoken in slot order, each speech put in its place) follows the
    /// order place by place, and each speech is the element's own
    /// `speech(of:)` (which numbers along the order itself).
    @Test func transcriptAgreesWithEachElementsSpeechOnRandomTrees() throws {
        var contexts = 0, repeated = 0, spoken = 0
        for seed in 1 ... 60 as ClosedRange<UInt64> {
            let tree = try RandomOrderTrees.make(seed: seed, nodes: 200, wide: seed % 3 == 0)
            var engine = HitTester(tree)
            guard let order = try? engine.navigationOrder() else { continue }
            let transcript = try engine.transcript()
            #expect(transcript.map(\.element) == order, "seed \(seed)")
            for s in transcript {
                let alone = try engine.speech(of: s.element)
                #expect(alone == s, "seed \(seed): \(tree.id(of: s.element))")
                if [" of ", "List Start.", "List End.", "Landmark.", " End."].contains(where: s.description.contains) {
                    contexts += 1
                }
            }
            spoken += transcript.count
            repeated += order.count - Set(order).count
        }
        // Guards against a vacuous pass.
        #expect(spoken > 1000 && contexts > 20 && repeated > 5, "\(spoken) \(contexts) \(repeated)")
    }
}

/// TalkBack's words (tree-format.md, "What the screen reader says",
/// Android), each written out by hand from the spec's parts.
@Suite struct TalkBackSpeechTests {
    /// A uiautomator dump: one window holding `nodes`.
    static func dump(_ nodes: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?><hierarchy rotation="0">
        <node class="android.widget.FrameLayout" package="app" bounds="[0,0][1080,2400]">
        \(nodes)
        </node></hierarchy>
        """
    }

    /// What the one node `attributes` (no bounds) says, placed alone.
    static func say(_ attributes: String) throws -> Said? {
        let said = try transcript(dump("<node \(attributes) bounds=\"[0,100][500,300]\"/>")).said
        return said.first { $0.key.hasSuffix("#1") }?.value
    }

    @Test func rolesByClass() throws {
        func role(_ cls: String, _ more: String = "") throws -> Said? {
            try Self.say("class=\"\(cls)\" content-desc=\"N\" focusable=\"true\" \(more)")
        }
        let activate = "Double-tap to activate"
        #expect(try role("android.widget.ImageView") == Said("N, Image"))
        #expect(try role("android.widget.ImageView", "clickable=\"true\"") == Said("N, Button", activate))
        #expect(try role("android.widget.ImageButton", "clickable=\"true\"") == Said("N, Button", activate))
        #expect(try role("android.widget.Switch") == Said("off, N, Switch"))
        #expect(try role("android.widget.ToggleButton") == Said("off, N, Switch"))
        #expect(try role("androidx.appcompat.widget.SwitchCompat") == Said("off, N, Switch"))
        #expect(try role("android.widget.RadioButton") == Said("N, Radio button"))
        #expect(try role("android.widget.CheckBox") == Said("N, Check box"))
        #expect(try role("android.widget.Button") == Said("N, Button"))
        #expect(try role("com.google.android.material.button.MaterialButton") == Said("N, Button"))
        #expect(try role("android.widget.EditText") == Said("N, Edit box"))
        #expect(try role("android.widget.SeekBar") == Said("N, Slider"))
        #expect(try role("android.widget.RatingBar") == Said("N, Slider"))
        #expect(try role("android.widget.ProgressBar") == Said("N, Progress bar"))
        #expect(
            try role("android.widget.Spinner", "clickable=\"true\"")
                == Said("N, Drop down list", "Double-tap to change"))
        #expect(try role("android.widget.GridView") == Said("N, Grid"))
        #expect(try role("android.widget.ListView") == Said("N, List"))
        #expect(try role("android.widget.ExpandableListView") == Said("N, List"))
        #expect(try role("androidx.viewpager.widget.ViewPager") == Said("N, Multi-page view"))
        #expect(try role("android.widget.TabWidget") == Said("N, Tab bar"))
        #expect(try role("android.webkit.WebView") == Said("N, Webview"))
        // No role word.
        #expect(try role("android.widget.TextView") == Said("N"))
        #expect(try role("androidx.recyclerview.widget.RecyclerView") == Said("N"))
        #expect(try role("android.view.View") == Said("N"))
    }

    @Test func statesAndChecks() throws {
        #expect(
            try Self.say(
                "class=\"android.widget.Switch\" text=\"Wi-Fi\" checkable=\"true\" checked=\"true\" clickable=\"true\"")
                == Said("on, Wi-Fi, Switch", "Double-tap to toggle"))
        #expect(
            try Self.say("class=\"android.widget.CheckBox\" text=\"Agree\" checkable=\"true\" clickable=\"true\"")
                == Said("not checked, Agree, Check box", "Double-tap to toggle"))
        #expect(
            try Self.say(
                "class=\"android.widget.RadioButton\" text=\"Small\" checkable=\"true\" checked=\"true\" clickable=\"true\""
            )
                == Said("checked, Small, Radio button", "Double-tap to toggle"))
        // A CheckedTextView says "checked" only when it is.
        #expect(
            try Self.say(
                "class=\"android.widget.CheckedTextView\" text=\"Opt\" checkable=\"true\" checked=\"true\" clickable=\"true\""
            )
                == Said("checked, Opt", "Double-tap to toggle"))
        #expect(
            try Self.say("class=\"android.widget.CheckedTextView\" text=\"Opt\" checkable=\"true\" clickable=\"true\"")
                == Said("Opt", "Double-tap to toggle"))
        // Selected first; checked is its own fact.
        #expect(
            try Self.say(
                "class=\"android.widget.CheckBox\" text=\"A\" checkable=\"true\" checked=\"true\" selected=\"true\"")
                == Said("selected, checked, A, Check box"))
        #expect(
            try Self.say("class=\"android.widget.TextView\" text=\"Inbox\" selected=\"true\"")
                == Said("selected, Inbox"))
        // An ImageView with no name.
        #expect(
            try Self.say("class=\"android.widget.ImageButton\" clickable=\"true\"")
                == Said("Unlabelled, Button", "Double-tap to activate"))
        // Disabled: last, and no usage hint.
        #expect(
            try Self.say("class=\"android.widget.Button\" text=\"OK\" clickable=\"true\" enabled=\"false\"")
                == Said("OK, Button, disabled"))
    }

    @Test func nameFallbackAndHint() throws {
        // The content description wins over the text.
        #expect(
            try Self.say("class=\"android.widget.Button\" text=\"OK\" content-desc=\"Confirm\" clickable=\"true\"")
                == Said("Confirm, Button", "Double-tap to activate"))
        // The hint after the role; an EditText's not when its text is the hint.
        #expect(
            try Self.say("class=\"android.widget.EditText\" hint=\"Email\" clickable=\"true\"")
                == Said("Edit box, Email", "Double-tap to edit text"))
        #expect(
            try Self.say("class=\"android.widget.EditText\" text=\"Email\" hint=\"Email\" clickable=\"true\"")
                == Said("Email, Edit box", "Double-tap to edit text"))
        #expect(
            try Self.say(
                "class=\"android.widget.EditText\" text=\"Bob\" hint=\"Name\" clickable=\"true\" enabled=\"false\"")
                == Said("Bob, Edit box, Name, disabled"))
        #expect(
            try Self.say("class=\"android.view.View\" text=\"Go\" hint=\"Starts\" clickable=\"true\"")
                == Said("Go, Starts", "Double-tap to activate"))
    }

    @Test func usageHints() throws {
        #expect(
            try Self.say("class=\"android.widget.TextView\" text=\"Row\" clickable=\"true\" long-clickable=\"true\"")
                == Said("Row", "Double-tap to activate, Double-tap and hold to long press"))
        #expect(
            try Self.say("class=\"android.widget.TextView\" text=\"Row\" long-clickable=\"true\"")
                == Said("Row", "Double-tap and hold to long press"))
        #expect(try Self.say("class=\"android.widget.TextView\" text=\"Row\" focusable=\"true\"") == Said("Row"))
    }

    @Test func childrenSpeakForANodeWithoutContentDescription() throws {
        let row = """
            <node class="android.widget.LinearLayout" clickable="true" bounds="[0,100][1080,300]">
              <node class="android.widget.TextView" text="Title" bounds="[0,100][500,200]"/>
              <node class="android.widget.CheckBox" text="Notify" checkable="true" bounds="[0,200][500,300]"/>
              <node class="android.widget.Button" text="Go" clickable="true" bounds="[600,100][1080,300]"/>
              <node class="android.widget.LinearLayout" bounds="[500,100][600,300]">
                <node class="android.widget.TextView" text="title" bounds="[500,100][600,200]"/>
                <node class="android.widget.TextView" text="Deep" bounds="[500,200][600,300]"/>
              </node>
            </node>
            """
        let said = try transcript(Self.dump(row)).said
        // Title and the check box say theirs; the button is focused by
        // itself; the inner layout is left out (not important) and its texts
        // speak in its place, a repeat ("title") dropped.
        #expect(said["LinearLayout#1"] == Said("Title, not checked, Notify, Check box, Deep", "Double-tap to activate"))
        #expect(said["Button#4"] == Said("Go, Button", "Double-tap to activate"))
        // With a content description, the children say nothing.
        let described = row.replacingOccurrences(
            of: "clickable=\"true\" bounds=\"[0,100][1080,300]\"",
            with: "clickable=\"true\" content-desc=\"Card\" bounds=\"[0,100][1080,300]\"")
        #expect(try transcript(Self.dump(described)).said["LinearLayout#1"] == Said("Card", "Double-tap to activate"))
    }

    @Test func contentDescriptionTextAndPassword() throws {
        // A button named by its content description: its children say nothing.
        let described = """
            <node class="android.widget.Button" content-desc="Home" clickable="true" bounds="[0,100][500,300]">
              <node class="android.widget.TextView" text="Start" bounds="[0,100][500,200]"/>
            </node>
            """
        #expect(try transcript(Self.dump(described)).said["Button#1"] == Said("Home, Button", "Double-tap to activate"))
        // Named by its text (no content description): its children speak too.
        let texted = described.replacingOccurrences(of: "content-desc=\"Home\"", with: "text=\"Home\"")
        #expect(
            try transcript(Self.dump(texted)).said["Button#1"] == Said("Home, Button, Start", "Double-tap to activate"))
        // A password field: its content description, else "password", never its text.
        #expect(
            try Self.say("class=\"android.widget.EditText\" text=\"•••\" password=\"true\" clickable=\"true\"")
                == Said("password, Edit box", "Double-tap to edit text"))
        #expect(
            try Self.say(
                "class=\"android.widget.EditText\" text=\"•••\" content-desc=\"PIN\" password=\"true\" focusable=\"true\""
            )
                == Said("PIN, Edit box"))
        // The facts survive export.
        let tree = try ElementTree(contentsOf: Data(Self.dump(texted).utf8))
        let back = try ElementTree(contentsOf: tree.axhitJSON())
        let button = try #require(back.node(withID: "Button#1"))
        #expect(back[button]?.labelIsText == true && back[button]?.isPassword == false)
    }

    @Test func dedupJoinIgnoresCaseAndEmptyParts() {
        #expect(TalkBackSpeech.dedupJoin(["OK", "", "ok", "Button", "button", "Ok."]) == "OK, Button, Ok.")
    }
}
