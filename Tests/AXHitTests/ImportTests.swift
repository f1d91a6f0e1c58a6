import Foundation
import Testing

@testable import AXHit

/// The corpus copy in Tests/Fixtures/corpus.
private let corpus: URL = Corpus.directory

private func load(_ name: String) throws -> Data {
    try Data(contentsOf: corpus.appendingPathComponent(name))
}

/// The screen rect of a node: importers make no transforms or scroll offsets,
/// so it is the sum of frame origins up the parent chain.
private func screenFrame(_ tree: ElementTree, _ name: String) -> CGRect? {
    guard let id = tree.node(withID: name) else { return nil }
    var origin = tree[id]!.frame.origin
    var p = tree.parent(of: id)
    while !p.isNone {
        let f = tree[p]!.frame
        origin.x += f.minX
        origin.y += f.minY
        p = tree.parent(of: p)
    }
    return CGRect(origin: origin, size: tree[id]!.frame.size)
}

private func rect(_ x: CGFloat, _ y: CGFloat, _ w: CGFloat, _ h: CGFloat) -> CGRect {
    CGRect(x: x, y: y, width: w, height: h)
}

/// One corpus file and what it must import as: `count` is the number of
/// elements below the wrapper counted in the source (plus 1 for a synthetic
/// root), frames checked by hand against the source (screen space; Android
/// in pixels).
struct CorpusCase: CustomTestStringConvertible, Sendable {
    var file: String
    var format: TreeFormat
    var count: Int
    var root: String
    var screen: CGRect
    var frames: [(String, CGRect)]
    /// The root's frame when it is not the screen (a synthetic root).
    var rootFrame: CGRect?
    var testDescription: String { file }
}

private let cases: [CorpusCase] = [
    CorpusCase(
        file: "ios/appium_theapp_login_iphone414x896.xml", format: .appiumIOS, count: 30,
        root: "Application#0", screen: rect(0, 0, 414, 896),
        frames: [("Button#4", rect(0, 48, 96, 44)), ("NavigationBar#3", rect(0, 48, 414, 44))]),
    CorpusCase(
        file: "ios/appiuminspector_lockscreen_springboard_iphone375x812.xml", format: .appiumIOS, count: 84,
        root: "Application#0", screen: rect(0, 0, 375, 812),
        frames: [("StaticText#41", rect(90, 98, 196, 97)), ("Window#1", rect(0, 0, 1125, 2436))]),
    CorpusCase(
        file: "ios/shirates_appdev_onboarding_iphone375x667.xml", format: .appiumIOS, count: 70,
        root: "Application#0", screen: rect(0, 0, 375, 667),
        frames: [("SecureTextField#26", rect(16, 284, 343, 44)), ("Button#54", rect(16, 1007, 343, 56))]),
    CorpusCase(
        file: "ios/shirates_calendar_ja_iphone390x844.xml", format: .appiumIOS, count: 95,
        root: "Application#0", screen: rect(0, 0, 390, 844),
        frames: [("Button#22", rect(0, 47, 65, 44)), ("Button#90", rect(221, 108, 53, 40))]),
    CorpusCase(
        file: "ios/shirates_settings_accessibility_iphone375x667.xml", format: .appiumIOS, count: 60,
        root: "Application#0", screen: rect(0, 0, 375, 667),
        frames: [("Button#7", rect(0, 20, 92, 44)), ("Button#56", rect(348, 529, 11, 14))]),
    CorpusCase(
        file: "ios/shirates_settings_keyboard_iphone390x844.xml", format: .appiumIOS, count: 93,
        root: "Application#0", screen: rect(0, 0, 390, 844),
        frames: [("Switch#39", rect(319, 399, 51, 31)), ("StaticText#65", rect(20, 782, 99, 21))]),
    CorpusCase(
        file: "ios/shirates_settings_top_iphone390x844.xml", format: .appiumIOS, count: 93,
        root: "Application#0", screen: rect(0, 0, 390, 844),
        frames: [("StaticText#7", rect(15, 94, 135, 42)), ("Button#80", rect(358, 817, 12, 15))]),
    CorpusCase(
        file: "ios/uiautodev_settings_zh_iphone414x896.xml", format: .appiumIOS, count: 327,
        root: "Application#0", screen: rect(0, 0, 414, 896),
        frames: [("StaticText#7", rect(189, 60, 36, 21)), ("StaticText#39", rect(0, -527, 126, 21))]),
    CorpusCase(
        file: "ios/xpathqs_appium_test_app_iphone414x896.xml", format: .appiumIOS, count: 71,
        root: "Application#0", screen: rect(0, 0, 414, 896),
        frames: [("Button#65", rect(0, 817, 138, 49))]),
    CorpusCase(
        file: "ios/idb_springboard_wda_json_iphone375x667.json", format: .webDriverAgentJSON, count: 45,
        root: "Application#0", screen: rect(0, 0, 375, 667),
        frames: [
            ("Button#7", rect(-375, 0, 375, 667)), ("Button#35", rect(155, 583, 64, 85.5)),
            ("Other#43", rect(164, 0, 51, 20)),
        ]),
    CorpusCase(
        file: "android/androidmcp_youtube_home_1344x2992_classic.xml", format: .uiautomator, count: 63,
        root: "FrameLayout#0", screen: rect(0, 0, 1344, 2992),
        frames: [("ImageView#17", rect(0, 151, 366, 144)), ("TextView#54", rect(746, 2798, 189, 35))]),
    CorpusCase(
        file: "android/macyolo_tplink_deco_home_1080x2340_classic.xml", format: .uiautomator, count: 95,
        root: "FrameLayout#0", screen: rect(0, 0, 1080, 2340),
        frames: [("Button#44", rect(429, 1462, 222, 305)), ("TextView#84", rect(351, 2227, 108, 41))]),
    CorpusCase(
        file: "android/seniorshield_systemui_quick_settings_1080x2400_classic.xml", format: .uiautomator,
        count: 109, root: "FrameLayout#0", screen: rect(0, 0, 1080, 2400),
        frames: [("FrameLayout#13", rect(42, 357, 996, 126)), ("ViewGroup#74", rect(506, 1480, 67, 21))]),
    CorpusCase(
        file: "android/shirates_playstore_games_1080x2088_uia2.xml", format: .uiautomator, count: 93,
        root: "FrameLayout#0", screen: rect(0, 0, 1080, 2088),
        frames: [("TextView#16", rect(66, 220, 276, 132)), ("TextView#78", rect(829, 2019, 231, 49))]),
    CorpusCase(
        file: "android/tronai_twitter_home_timeline_1440x3120_uia2.xml", format: .uiautomator, count: 156,
        root: "FrameLayout#0", screen: rect(0, 0, 1440, 3120),
        frames: [("ImageButton#9", rect(0, 145, 182, 196)), ("FrameLayout#114", rect(42, 3023, 140, 97))]),
    // 50 nodes and the synthetic root over the two windows.
    CorpusCase(
        file: "android/visiontest_homee_multiwindow_1080x2400_classic.xml", format: .uiautomator, count: 51,
        root: "screen", screen: rect(0, 0, 1080, 2400),
        frames: [("TextView#8", rect(42, 45, 104, 43)), ("View#49", rect(431, 2205, 217, 60))]),
    CorpusCase(
        file: "android/droidbot_yelp_search_list_1440x2560_state.json", format: .droidBot, count: 119,
        root: "FrameLayout#0", screen: rect(0, 0, 1440, 2560),
        frames: [("TextView#98", rect(315, 1882, 1023, 66)), ("TextView#112", rect(0, 2196, 288, 196))]),
    // Added 2026-12-06: the eight newer Android screens (counts, screens and
    // frames read off the dumps: the pre-order number of each element below
    // <hierarchy>, its bounds as [x1,y1][x2,y2]).
    CorpusCase(
        file: "android/avc_systemui_lockscreen-zh_800x1216_classic.xml", format: .uiautomator, count: 21,
        root: "FrameLayout#0", screen: rect(0, 0, 800, 1216),
        frames: [("LinearLayout#10", rect(401, 304, 275, 47)), ("View#20", rect(157, 670, 485, 501))]),
    CorpusCase(
        file: "android/carassistant_vivolauncher_home-widgets-zh_2800x1840_classic.xml", format: .uiautomator,
        count: 61, root: "FrameLayout#0", screen: rect(0, 0, 2800, 1840),
        frames: [("TextView#30", rect(306, 1076, 596, 57)), ("View#60", rect(1579, 1660, 5, 55))]),
    CorpusCase(
        file: "android/fractalforge_flutterfractals_controls-sheet_1080x2400_classic.xml", format: .uiautomator,
        count: 35, root: "FrameLayout#0", screen: rect(0, 0, 1080, 2400),
        frames: [("View#17", rect(42, 1463, 917, 47)), ("View#34", rect(0, 2337, 1080, 63))]),
    CorpusCase(
        file: "android/hazel_firetvlauncher_home_1920x1080_classic.xml", format: .uiautomator, count: 80,
        root: "FrameLayout#0", screen: rect(0, 0, 1920, 1080),
        frames: [("FrameLayout#40", rect(1500, 540, 144, 80)), ("ImageView#79", rect(1480, 1023, 336, 57))]),
    CorpusCase(
        file: "android/keydroidx_systemui_quicksettings-zh_320x439_classic.xml", format: .uiautomator, count: 104,
        root: "FrameLayout#0", screen: rect(0, 0, 320, 439),
        frames: [("ImageView#52", rect(177, 263, 17, 17)), ("LinearLayout#103", rect(0, 31, 320, 408))]),
    // A dialog's window: the root's frame is the screen the dump gives.
    CorpusCase(
        file: "android/shieldapp_permissioncontroller_notification-permission-dialog_1080x2400_classic.xml",
        format: .uiautomator, count: 13, root: "FrameLayout#0", screen: rect(28, 784, 1024, 831),
        frames: [("LinearLayout#6", rect(70, 826, 940, 375)), ("Button#12", rect(133, 1363, 814, 147))]),
    CorpusCase(
        file: "android/ultranavbar_novalauncher_home-widgets_2000x1128_classic.xml", format: .uiautomator,
        count: 89, root: "FrameLayout#0", screen: rect(0, 0, 2000, 1128),
        frames: [("LinearLayout#44", rect(809, 620, 158, 11)), ("ImageView#88", rect(1911, 9, 53, 66))]),
    CorpusCase(
        file: "android/uia2server_anonymized-maps_offline-maps-settings_1080x1794_uia2.xml", format: .uiautomator,
        count: 64, root: "FrameLayout#0", screen: rect(0, 0, 1080, 1794),
        frames: [("LinearLayout#32", rect(933, 677, 105, 184)), ("ImageButton#63", rect(933, 1651, 105, 105))]),
    // Added 2026-12-01. The edge case: 8 XCUIElementType elements and 2
    // <SomeRandoElement type="blah"> without a frame.
    CorpusCase(
        file: "ios/appium_theapp_login_edgecase_iphone414x896.xml", format: .appiumIOS, count: 10,
        root: "Application#0", screen: rect(0, 0, 414, 896),
        frames: [
            ("blah#1", rect(0, 0, 0, 0)), ("blah#2", rect(0, 0, 0, 0)), ("TextField#4", rect(50, 185, 314, 51)),
            ("Other#8", rect(1, 2, 3, 4)),
        ]),
    // 15 entries, each top-level under the synthetic root, which covers the
    // Screen Time row below the 874-pt screen (y 831.33 + 52).
    CorpusCase(
        file: "ios/autonom_settings_idb_describe_all_flat_iphone402x874.json", format: .idbJSON, count: 16,
        root: "screen", screen: rect(0, 0, 402, 874),
        frames: [
            ("Heading#1", rect(16, 119.66666666666667, 133, 40.66666666666667)),
            ("Button#13", rect(16, 831.3333333333334, 370, 52)),
        ],
        rootFrame: rect(0, 0, 402, 883.3333333333334)),
    CorpusCase(
        file: "ios/autonom_settings_idb_describe_all_nested_iphone402x874.json", format: .idbJSON, count: 15,
        root: "Application#0", screen: rect(0, 0, 402, 874),
        frames: [("Heading#1", rect(16, 119.66666666666667, 133, 40.66666666666667))]),
    CorpusCase(
        file: "android/appium_theapp_login_1080x1920_uia2.xml", format: .uiautomator, count: 21,
        root: "FrameLayout#0", screen: rect(0, 0, 1080, 1920),
        frames: [("RelativeLayout#5", rect(0, 72, 1080, 1848))]),
    CorpusCase(
        file: "android/autonom_devtty_prefixed_dump_1080x2400_classic.xml", format: .uiautomator, count: 6,
        root: "FrameLayout#0", screen: rect(0, 0, 1080, 2400),
        frames: [("TextView#1", rect(40, 100, 400, 120)), ("ScrollView#5", rect(0, 700, 1080, 1500))]),
    CorpusCase(
        file: "android/droidbot2016_paypal_license_agreement_1080x1776_devicestate.json", format: .droidBot,
        count: 57, root: "FrameLayout#0", screen: rect(0, 0, 1080, 1776),
        frames: [("View#5", rect(24, 345, 1032, 387)), ("View#51", rect(0, 0, 0, 0))]),
    CorpusCase(
        file: "android/droidbot_samsung_easylauncher_home_1440x2560_state.json", format: .droidBot, count: 205,
        root: "FrameLayout#0", screen: rect(0, 0, 1440, 2560),
        frames: [("TextView#5", rect(1114, 132, 238, 166)), ("LinearLayout#6", rect(1440, 40, 0, 224))]),
    CorpusCase(
        file: "android/macyolo_google_messages_conversations_1080x2340_classic.xml", format: .uiautomator,
        count: 84, root: "FrameLayout#0", screen: rect(0, 0, 1080, 2340),
        frames: [("ViewGroup#5", rect(0, 0, 1080, 2340))]),
    CorpusCase(
        file: "android/mobileenv_gmail_newfeatures_overlay_1080x1794_classic.xml", format: .uiautomator,
        count: 20, root: "FrameLayout#0", screen: rect(0, 0, 1080, 1794),
        frames: [("ViewPager#6", rect(0, 63, 1080, 1581))]),
    // The window is not at the screen's origin; with no hierarchy size,
    // the screen is the window.
    CorpusCase(
        file: "android/uifinder_facebook_bottomsheet_1080x2414_classic.xml", format: .uiautomator, count: 46,
        root: "FrameLayout#0", screen: rect(0, 483, 1080, 1931),
        frames: [("FrameLayout#5", rect(0, 483, 1080, 493))]),
    CorpusCase(
        file: "android/uifinder_whereismytrain_home_1080x2414_classic.xml", format: .uiautomator, count: 77,
        root: "FrameLayout#0", screen: rect(0, 0, 1080, 2414),
        frames: [("DrawerLayout#5", rect(0, 121, 1080, 2161))]),
]

@Suite struct ImportTests {
    @Test(arguments: cases)
    func corpusFileImports(_ c: CorpusCase) throws {
        let data = try load(c.file)
        #expect(TreeFormat.detect(data) == c.format)
        let tree = try ElementTree(contentsOf: data, file: c.file)
        #expect(tree.count == c.count)
        #expect(tree.id(of: tree.root) == c.root)
        #expect(tree.screenBounds == c.screen)
        #expect(tree[tree.root]!.frame == (c.rootFrame ?? c.screen))
        for (name, expected) in c.frames {
            #expect(screenFrame(tree, name) == expected, "\(name)")
        }
        // Every node is a view; a snapshot of the format's platform, at no
        // density unless one is given.
        for id in tree.preOrder { #expect(tree.kind(of: id) == .view) }
        #expect(tree.source == .snapshot)
        #expect(tree.platform == ([.uiautomator, .droidBot].contains(c.format) ? .android : .ios))
        #expect(tree.screenScale == nil)
    }

    @Test func corpusFilesAreAllCovered() throws {
        let names = try ["ios", "android"].flatMap { dir in
            try FileManager.default.contentsOfDirectory(atPath: corpus.appendingPathComponent(dir).path).map {
                "\(dir)/\($0)"
            }
        }
        #expect(Set(names) == Set(cases.map(\.file)))
    }

    // MARK: iOS mapping

    @Test func appiumAttributesMap() throws {
        let tree = try ElementTree(appiumPageSource: load("ios/appium_theapp_login_iphone414x896.xml"))
        let button = try #require(tree.node(withID: "Button#4"))
        let n = tree[button]!
        #expect(n.accessibilityIdentifier == "The App" && n.accessibilityLabel == "The App")
        #expect(n.isAccessibilityElement && n.accessibilityTraits == .button && !n.isHidden)
        // Parent-relative frame: the navigation bar is at y 48 too.
        #expect(n.frame == rect(0, 0, 96, 44))
        let text = tree[try #require(tree.node(withID: "StaticText#12"))]!
        #expect(text.accessibilityValue == "Login" && text.accessibilityTraits == .staticText)
        // The fixture's hand-added Tab and Key with enabled="": enabled.
        let key = tree[try #require(tree.node(withID: "Key#18"))]!
        #expect(key.accessibilityTraits == .keyboardKey)
        // An `Other` is a container; the second window is invisible, which
        // is evidence only: it stays visible.
        #expect(!tree[try #require(tree.node(withID: "Other#2"))]!.isAccessibilityElement)
        let window = tree[try #require(tree.children(of: tree.root).last)]!
        #expect(window.visibleInSnapshot == false && !window.isHidden)
        // The application says visible="true".
        #expect(tree[tree.root]!.visibleInSnapshot == true)
    }

    @Test func appiumAccessibleAndVisibleAttributes() throws {
        let data = try load("ios/appiuminspector_lockscreen_springboard_iphone375x812.xml")
        let tree = try ElementTree(appiumPageSource: data)
        let clock = tree[try #require(tree.node(withID: "StaticText#41"))]!
        #expect(clock.isAccessibilityElement && clock.accessibilityLabel == "08:09")
        #expect(clock.visibleInSnapshot == false && !clock.isHidden)
        #expect(!tree[tree.root]!.isAccessibilityElement)  // accessible="false" wins over nothing
        #expect(tree.preOrder.allSatisfy { !tree[$0]!.isHidden })
        // Trusted, the flag hides: 61 of the 84 elements say visible="false"
        // (SOURCES.md), and exactly those are hidden.
        let trusted = try ElementTree(appiumPageSource: data, options: ImportOptions(trustsVisibilityFlags: true))
        #expect(trusted[try #require(trusted.node(withID: "StaticText#41"))]!.isHidden)
        #expect(trusted.preOrder.filter { trusted[$0]!.isHidden }.count == 61)
        #expect(trusted.preOrder.allSatisfy { trusted[$0]!.isHidden == (trusted[$0]!.visibleInSnapshot == false) })
    }

    @Test func disabledSwitchAndTraitsAttribute() throws {
        let tree = try ElementTree(appiumPageSource: load("ios/shirates_settings_keyboard_iphone390x844.xml"))
        let flick = tree[try #require(tree.node(withID: "Switch#86"))]!
        #expect(flick.accessibilityTraits == [.button, .toggleButton] && flick.accessibilityValue == "0")
        #expect(flick.visibleInSnapshot == false && !flick.isHidden)
        let settings = try ElementTree(appiumPageSource: load("ios/shirates_settings_accessibility_iphone375x667.xml"))
        let chevron = settings[try #require(settings.node(withID: "Button#56"))]!
        #expect(chevron.accessibilityTraits == [.button, .notEnabled])
        let xml = """
            <XCUIElementTypeApplication type="XCUIElementTypeApplication" x="0" y="0" width="100" height="100">
              <XCUIElementTypeOther type="XCUIElementTypeOther" traits="Button, Selected, Header" x="10" y="20" width="30" height="40" accessible="true"/>
              <XCUIElementTypeButton type="XCUIElementTypeButton" traits="9" selected="true" enabled="false" x="0" y="0" width="1" height="1"/>
            </XCUIElementTypeApplication>
            """
        let t = try ElementTree(contentsOf: Data(xml.utf8))
        let other = t[try #require(t.node(withID: "Other#1"))]!
        #expect(other.accessibilityTraits == [.button, .selected, .header] && other.isAccessibilityElement)
        #expect(t[try #require(t.node(withID: "Button#2"))]!.accessibilityTraits == [.button, .selected, .notEnabled])
    }

    @Test func nestedFramesAreParentRelative() throws {
        let xml = """
            <AppiumAUT><XCUIElementTypeApplication x="5" y="7" width="100" height="100">
              <XCUIElementTypeWindow x="10" y="20" width="50" height="50">
                <XCUIElementTypeButton x="15" y="30" width="5" height="6"/>
              </XCUIElementTypeWindow>
            </XCUIElementTypeApplication></AppiumAUT>
            """
        let t = try ElementTree(contentsOf: Data(xml.utf8))
        #expect(t[t.root]!.frame == rect(5, 7, 100, 100))
        #expect(t[try #require(t.node(withID: "Window#1"))]!.frame == rect(5, 13, 50, 50))
        #expect(t[try #require(t.node(withID: "Button#2"))]!.frame == rect(5, 10, 5, 6))
    }

    // MARK: Android mapping

    @Test func uiautomatorAttributesMap() throws {
        let tree = try ElementTree(uiautomatorDump: load("android/visiontest_homee_multiwindow_1080x2400_classic.xml"))
        let clock = tree[try #require(tree.node(withID: "TextView#8"))]!
        #expect(clock.accessibilityLabel == "6:44\u{202F}PM" && clock.accessibilityValue == "6:44")
        #expect(clock.accessibilityIdentifier == "com.android.systemui:id/clock")
        #expect(clock.isAccessibilityElement && clock.accessibilityTraits == .staticText)
        #expect(clock.visibleInSnapshot == true && clock.actions.isEmpty)
        let privacy = tree[try #require(tree.node(withID: "View#49"))]!
        #expect(privacy.isAccessibilityElement && privacy.accessibilityLabel == "Privacy Policy")
        #expect(privacy.accessibilityValue == nil)
        // Windows are listed topmost first: the status bar ends up frontmost.
        let windows = tree.children(of: tree.root).map { tree.id(of: $0) }
        #expect(windows == ["FrameLayout#27", "FrameLayout#0"])
        #expect(tree.children(of: tree.root).allSatisfy { tree[$0]!.isWindow })
        #expect(tree.preOrder.filter { tree[$0]!.isWindow }.count == 2)
        #expect(tree.screenScale == nil)
    }

    @Test func siblingsFollowDrawingOrder() throws {
        let tree = try ElementTree(uiautomatorDump: load("android/macyolo_tplink_deco_home_1080x2340_classic.xml"))
        let parent = try #require(tree.node(withID: "ViewGroup#8"))
        // drawing-order 1, 4, 3 in the source.
        #expect(
            tree.children(of: parent).map { tree.id(of: $0) } == ["FrameLayout#9", "FrameLayout#73", "ViewGroup#55"])
    }

    /// The density is the screen's scale; coordinates stay in pixels.
    @Test func densityIsTheScaleNotADivisor() throws {
        let data = try load("android/shirates_playstore_games_1080x2088_uia2.xml")
        let tree = try ElementTree(contentsOf: data, options: ImportOptions(density: 2.625))
        #expect(tree.screenBounds == rect(0, 0, 1080, 2088) && tree.screenScale == 2.625)
        #expect(screenFrame(tree, "TextView#16") == rect(66, 220, 276, 132))
        for bad in [0, -1, CGFloat.nan, .infinity] {
            let e = try #require(throws: TreeError.self) {
                try ElementTree(contentsOf: data, file: "d.xml", options: ImportOptions(density: bad))
            }
            #expect(e.kind == .validation && e.key == "density", "\(bad)")
            #expect(throws: TreeError.self) {
                try ElementTree(uiautomatorDump: data, options: ImportOptions(density: bad))
            }
        }
        // An iOS source has no density.
        let ios = try ElementTree(
            contentsOf: load("ios/appium_theapp_login_iphone414x896.xml"), options: ImportOptions(density: 3))
        #expect(ios.screenScale == nil)
    }

    @Test func uiautomatorTraitsAndHidden() throws {
        let xml = """
            <hierarchy rotation="0"><node class="android.widget.FrameLayout" bounds="[0,0][100,200]">
              <node class="android.widget.Switch" checkable="true" checked="true" bounds="[0,0][10,10]"/>
              <node class="android.widget.ImageButton" enabled="false" content-desc="Back" bounds="[10,10][20,20]"/>
              <node class="android.widget.SeekBar" clickable="true" visible-to-user="false" bounds="[20,20][10,30]"/>
              <node class="android.widget.TextView" text="" bounds="[0,0][5,5]"/>
              <node class="android.widget.NumberPicker" long-clickable="true" focusable="true" bounds="[0,0][5,5]"/>
              <node class="com.google.android.material.slider.RangeSlider" screen-reader-focusable="true" bounds="[0,0][5,5]"/>
              <node class="android.widget.RatingBar" displayed="false" bounds="[0,0][5,5]">
                <node class="android.view.View" text="no bounds"/>
              </node>
            </node></hierarchy>
            """
        let t = try ElementTree(contentsOf: Data(xml.utf8))
        let toggle = t[try #require(t.node(withID: "Switch#1"))]!
        // Checked is not selected: TalkBack speaks them apart.
        #expect(toggle.accessibilityTraits == [.button, .toggleButton] && toggle.checked == true)
        #expect(toggle.actions == .check)
        let back = t[try #require(t.node(withID: "ImageButton#2"))]!
        #expect(back.accessibilityTraits == [.button, .notEnabled] && back.accessibilityLabel == "Back")
        let seek = t[try #require(t.node(withID: "SeekBar#3"))]!
        #expect(seek.visibleInSnapshot == false && !seek.isHidden && seek.accessibilityTraits == .adjustable)
        #expect(seek.actions == .click)
        #expect(seek.frame == rect(20, 20, 0, 10))  // inverted x: size 0
        let text = t[try #require(t.node(withID: "TextView#4"))]!
        #expect(!text.isAccessibilityElement && text.visibleInSnapshot == nil)
        // A NumberPicker is no control that consumes touches by itself.
        let picker = t[try #require(t.node(withID: "NumberPicker#5"))]!
        #expect(
            picker.accessibilityTraits == [] && picker.actions == [.longClick, .focus] && picker.isAccessibilityElement)
        let slider = t[try #require(t.node(withID: "RangeSlider#6"))]!
        #expect(slider.accessibilityTraits == .adjustable && slider.actions == .screenReaderFocus)
        // UiAutomator2's `displayed`.
        #expect(t[try #require(t.node(withID: "RatingBar#7"))]!.visibleInSnapshot == false)
        // Every element counts, with or without bounds.
        let loose = try #require(t.node(withID: "View#8"))
        #expect(t[loose]!.frame == rect(0, 0, 0, 0) && t.count == 9)
        #expect(t.id(of: t.parent(of: loose)) == "RatingBar#7")
        // Android's rules hide what the dump calls invisible: the SeekBar and
        // the RatingBar's subtree are not exposed. The RangeSlider declares
        // only screen-reader focus, which does not make a view important
        // (nor does its class): TalkBack does not see it.
        let space = ScreenSpace(t)
        let exposed = Set(t.preOrder.filter { space.isExposed($0) }.map { t.id(of: $0) })
        #expect(exposed == ["Switch#1", "ImageButton#2", "NumberPicker#5"])
    }

    @Test func droidBotMapsAndRejectsCycles() throws {
        let tree = try ElementTree(droidBotState: load("android/droidbot_yelp_search_list_1440x2560_state.json"))
        let nearby = tree[try #require(tree.node(withID: "TextView#112"))]!
        #expect(nearby.accessibilityLabel == "Nearby" && nearby.isAccessibilityElement)
        #expect(tree[try #require(tree.node(withID: "TextView#13"))]!.visibleInSnapshot == false)
        let cycle =
            #"{"views": [{"class": "a", "parent": 1, "bounds": [[0,0],[1,1]]}, {"class": "b", "parent": 0, "bounds": [[0,0],[1,1]]}]}"#
        let error = try #require(throws: TreeError.self) {
            try ElementTree(contentsOf: Data(cycle.utf8), file: "s.json")
        }
        #expect(error.key == "parent" && error.file == "s.json")
        let bad = #"{"views": [{"class": "a.B", "parent": -1, "bounds": [[0,0],[1]]}]}"#
        let e2 = try #require(throws: TreeError.self) { try ElementTree(contentsOf: Data(bad.utf8)) }
        #expect(e2.node == "B#0" && e2.key == "bounds")
    }

    // MARK: Detection and errors

    @Test func detectsByContent() {
        func d(_ s: String) -> TreeFormat? { TreeFormat.detect(Data(s.utf8)) }
        #expect(d("\u{FEFF}  {\"root\": {}, \"format\": \"axhit/1\"}") == .axhitJSON)
        #expect(d(#"{"screen": {"bounds": [0,0,1,1]}, "format": "axhit/1"}"#) == .axhitJSON)
        #expect(d(#"{"x": {"views": 1}, "views": []}"#) == .droidBot)
        #expect(d(#"{"sessionId": "s\"}", "value": {"tree": {}}}"#) == .webDriverAgentJSON)
        #expect(d(#"{"tree": 1}"#) == nil)
        #expect(d(#"{"x": 1, "root": {}}"#) == .axhitJSON)
        #expect(d(#"[{"AXLabel": "a", "frame": {}}]"#) == .idbJSON)
        #expect(d(#"{"AXFrame": "{{0, 0}, {1, 1}}", "children": []}"#) == .idbJSON)
        #expect(d("[]") == nil)
        #expect(d("[1, 2]") == nil)
        #expect(d(#"{"screenshot": "s.png", "elements": []}"#) == nil)
        #expect(d("UI hierchary dumped to: /dev/tty\n<?xml version='1.0'?><hierarchy/>") == .uiautomator)
        #expect(d("UI hierchary dumped to: /dev/tty\n<AppiumAUT/>") == nil)
        #expect(d("<UI width='1'/>") == nil)
        #expect(d("<?xml version='1.0'?>\n<!-- c --><!DOCTYPE x><AppiumAUT/>") == .appiumIOS)
        #expect(d("<XCUIElementTypeApplication x='0'/>") == .appiumIOS)
        #expect(d("<hierarchy rotation='0'/>") == .uiautomator)
        #expect(d("<html/>") == nil)
        #expect(d("") == nil)
        #expect(d("hello") == nil)
        #expect(d("<") == nil)
    }

    @Test func malformedXMLNamesFileAndLine() throws {
        let xml = "<hierarchy>\n<node bounds=\"[0,0][1,1]\">\n</hierarchy>"
        let error = try #require(throws: TreeError.self) {
            try ElementTree(contentsOf: Data(xml.utf8), file: "dump.xml")
        }
        #expect(error.file == "dump.xml" && error.line == 3)
        #expect(error.description.hasPrefix("dump.xml: line 3: malformed XML"))
    }

    @Test func badValuesNameNodeAndKey() throws {
        let xml =
            "<AppiumAUT>\n<XCUIElementTypeApplication x=\"0\" y=\"0\" width=\"10\" height=\"10\">\n<XCUIElementTypeButton x=\"abc\"/></XCUIElementTypeApplication></AppiumAUT>"
        let e = try #require(throws: TreeError.self) { try ElementTree(contentsOf: Data(xml.utf8), file: "f.xml") }
        #expect(e.line == 3 && e.node == "Button#1" && e.key == "x")
        let negative = "<XCUIElementTypeApplication x=\"0\" y=\"0\" width=\"-1\" height=\"10\"/>"
        let e2 = try #require(throws: TreeError.self) { try ElementTree(contentsOf: Data(negative.utf8)) }
        #expect(e2.node == "Application#0" && e2.key == "frame" && e2.kind == .validation)
        #expect(e2.message == "width is negative")
        let bounds = "<hierarchy><node class='x' bounds='[0,0][1,'/></hierarchy>"
        let e3 = try #require(throws: TreeError.self) { try ElementTree(contentsOf: Data(bounds.utf8)) }
        #expect(e3.key == "bounds" && e3.node == "x#0")
        #expect(throws: TreeError.self) { try ElementTree(contentsOf: Data("<hierarchy rotation='0'/>".utf8)) }
        #expect(throws: TreeError.self) { try ElementTree(contentsOf: Data("nonsense".utf8)) }
        #expect(throws: TreeError.self) { try ElementTree(contentsOf: Data(#"{"format": "axhit/1"}"#.utf8)) }
    }

    @Test func deepTreesImport() throws {
        let depth = 3000
        var xml = "<hierarchy>"
        for i in 0 ..< depth { xml += "<node class='v' bounds='[\(i),0][\(i + 10000),10]'>" }
        xml += String(repeating: "</node>", count: depth) + "</hierarchy>"
        let tree = try ElementTree(contentsOf: Data(xml.utf8))
        #expect(tree.count == depth)
        #expect(screenFrame(tree, "v#\(depth - 1)") == rect(CGFloat(depth - 1), 0, 10000, 10))
    }

    /// A dump cut short (inside its document) is refused with a `TreeError`
    /// that says what is wrong; a dump with bytes overwritten (from a fixed seed per file) is
    /// refused the same way or read into a tree the engine answers on.
    @Test(arguments: cases.map(\.file))
    func truncatedAndCorruptedInputsAreRefusedOrRead(_ file: String) throws {
        let data = try load(file)
        // Cuts that end inside the document: before its last `>` or `}`
        // (what follows may be blank lines or a tool's trailing message).
        let end = try #require(data.lastIndex { $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "}") }) - data.startIndex
        for cut in [1, 2, 17, end / 3, end / 2, end] {
            let error = #expect(throws: TreeError.self, "\(file) cut at \(cut)") {
                try ElementTree(contentsOf: data.prefix(cut))
            }
            #expect(error.map { !$0.message.isEmpty } == true, "\(file) cut at \(cut)")
        }
        var rng = SeededRandom(seed: UInt64(truncatingIfNeeded: file.utf8.reduce(5381) { $0 &* 33 &+ Int($1) }))
        var refused = 0, read = 0
        for round in 0 ..< 5 {
            var bytes = [UInt8](data)
            for _ in 0 ..< 8 {
                bytes[Int.random(in: 0 ..< bytes.count, using: &rng)] = UInt8.random(in: 0 ... 255, using: &rng)
            }
            do {
                let tree = try ElementTree(contentsOf: Data(bytes))
                // Whatever was read answers queries over its own screen
                // with elements it exposes.
                let engine = HitTester(tree)
                for id in tree.preOrder.prefix(50) {
                    if let f = screenFrame(tree, tree.id(of: id)), let hit = engine.hit(CGPoint(x: f.midX, y: f.midY)) {
                        #expect(engine.isExposed(hit), "\(file) round \(round)")
                    }
                }
                read += 1
            } catch {  // typed: a TreeError
                #expect(!error.message.isEmpty, "\(file) round \(round)")
                refused += 1
            }
        }
        #expect(refused + read == 5)
    }
}
