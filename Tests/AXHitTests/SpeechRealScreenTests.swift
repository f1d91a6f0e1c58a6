import Foundation
import Testing

@testable import AXHit

/// Every element of six real screens, what the screen reader says there,
/// worked out by hand from the dump and the rules (tree-format.md, "What the
/// screen reader says"), in navigation order.
@Suite struct SpeechRealScreenTests {
    static func spoken(_ path: String) throws -> [(String, Said)] {
        let data = try Data(contentsOf: Corpus.directory.appendingPathComponent(path))
        var engine = HitTester(try ElementTree(contentsOf: data, file: path))
        return try engine.transcript().map { (engine.tree.id(of: $0.element), Said($0.description, $0.hint)) }
    }

    static func check(_ path: String, _ expected: [(String, Said)]) throws {
        let got = try spoken(path)
        #expect(got.map(\.0) == expected.map(\.0), "\(path): order")
        for ((id, said), (_, want)) in zip(got, expected) { #expect(said == want, "\(path): \(id)") }
    }

    // MARK: iOS

    /// Three buttons in plain containers (no TabBar type): their labels
    /// already say "tab", and they are Buttons.
    @Test func xpathqsTabButtons() throws {
        try Self.check(
            "ios/xpathqs_appium_test_app_iphone414x896.xml",
            [
                ("Button#65", Said("Home, tab, 1 of 3. Button.")),
                ("Button#66", Said("Settings, tab, 2 of 3. Button.")),
                ("Button#67", Said("Claims, tab, 3 of 3. Button.")),
            ])
    }

    /// The login screen: a text field with its value, a Tab and a Key with
    /// empty labels, a secure field, and a StaticText whose value is
    /// WebDriverAgent's copy of its label.
    @Test func theAppLoginIOS() throws {
        let edit = "Double tap to edit."
        try Self.check(
            "ios/appium_theapp_login_iphone414x896.xml",
            [
                ("Button#4", Said("The App. Button.")),
                ("StaticText#12", Said("Login")),
                ("TextField#16", Said("username: alice. Text Field.", edit)),
                ("Tab#17", Said("Tab.")),
                ("Key#18", Said("")),
                ("SecureTextField#22", Said("password: •••••••••. Secure Text Field.", edit)),
            ])
    }

    /// Settings > Keyboards: cells carry their switches' values ("0", "1")
    /// and are spoken "label: value"; the footers' StaticText values are
    /// copies; a link.
    @Test func settingsKeyboards() throws {
        try Self.check(
            "ios/shirates_settings_keyboard_iphone390x844.xml",
            [
                ("Button#7", Said("General. Button.")),
                ("StaticText#8", Said("Keyboards")),
                ("Cell#16", Said("Keyboards: 3")),
                ("Cell#22", Said("Text Replacement")),
                ("Cell#27", Said("One-Handed Keyboard: Off")),
                ("Cell#34", Said("Auto-Correction: 0")),
                ("Cell#37", Said("Smart Punctuation: 1")),
                ("Cell#40", Said("Character Preview: 1")),
                ("Cell#43", Said("Enable Dictation: 0")),
                ("Link#47", Said("About Dictation and Privacy…. Link.")),
                ("Cell#52", Said("Auto-Capitalization: 1")),
                ("Cell#55", Said("Check Spelling: 1")),
                ("Cell#58", Said("Enable Caps Lock: 1")),
                ("Cell#61", Said("Predictive: 0")),
                ("Cell#64", Said("Slide to Type: 1")),
                ("StaticText#74", Said("Double tapping the space bar will insert a period followed by a space.")),
                ("Cell#67", Said("Delete Slide-to-Type by Word: 1")),
                ("Cell#70", Said("Period shortcut")),
                ("StaticText#76", Said("Emoji")),
                ("Cell#77", Said("Memoji Stickers")),
                ("StaticText#81", Said("Send Memoji and Animoji stickers from your emoji keyboard.")),
                ("StaticText#83", Said("Kana")),
                ("Cell#84", Said("Flick Only")),
                ("Cell#87", Said("Smart Fullwidth Space")),
            ])
    }

    // MARK: Android

    /// Gmail's overlay: a ViewPager with no description speaks its role and
    /// its texts; "GOT IT" is a clickable TextView (no role).
    @Test func gmailOverlay() throws {
        try Self.check(
            "android/mobileenv_gmail_newfeatures_overlay_1080x1794_classic.xml",
            [
                ("ViewPager#6", Said("Multi-page view, New in Gmail, All the features you love with a fresh new look")),
                ("TextView#17", Said("GOT IT", "Double-tap to activate")),
            ])
    }

    /// A permission dialog: the clickable panel speaks its text (the icon
    /// has no description and is not seen); the buttons are focused apart.
    @Test func permissionDialog() throws {
        let activate = "Double-tap to activate"
        try Self.check(
            "android/shieldapp_permissioncontroller_notification-permission-dialog_1080x2400_classic.xml",
            [
                ("LinearLayout#5", Said("Allow Deepfake Shield to send you notifications?", activate)),
                ("Button#11", Said("Allow, Button", activate)),
                ("Button#12", Said("Don’t allow, Button", activate)),
            ])
    }

    /// The login screen on Android: an undescribed image button, edit
    /// boxes named by their content descriptions (the password field's
    /// too), and a focusable group named "loginBtn" whose text is not read.
    @Test func theAppLoginAndroid() throws {
        let edit = "Double-tap to edit text, Double-tap and hold to long press"
        try Self.check(
            "android/appium_theapp_login_1080x1920_uia2.xml",
            [
                ("ImageButton#11", Said("Unlabelled, Button", "Double-tap to activate")),
                ("TextView#13", Said("Login")),
                ("EditText#15", Said("username, Edit box", edit)),
                ("EditText#17", Said("password, Edit box", edit)),
                ("ViewGroup#19", Said("loginBtn")),
            ])
    }

    /// Text views named by their content descriptions, a Flutter view, and
    /// a disabled edit box (no usage hint).
    @Test func devttyDump() throws {
        let activate = "Double-tap to activate"
        try Self.check(
            "android/autonom_devtty_prefixed_dump_1080x2400_classic.xml",
            [
                ("TextView#1", Said("Open settings", activate)),
                ("TextView#2", Said("Secondary settings", activate)),
                ("View#3", Said("Flutter Save Button", activate)),
                ("EditText#4", Said("Search input, Edit box, disabled")),
            ])
    }

    /// Every corpus screen: one speech per exposed element, in navigation
    /// order, each the same as the element's own `speech(of:)`.
    @Test func everyCorpusScreenSpeaksEachElementInOrder() throws {
        for url in Corpus.files {
            var engine = HitTester(try ElementTree(contentsOf: try Data(contentsOf: url), file: url.lastPathComponent))
            let order = try engine.navigationOrder()
            let spoken = try engine.transcript()
            #expect(spoken.map(\.element) == order, "\(url.lastPathComponent)")
            for s in spoken { #expect(try engine.speech(of: s.element) == s, "\(url.lastPathComponent)") }
        }
    }
}
