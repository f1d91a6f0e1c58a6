#!/usr/bin/env python3
"""Self-checks of the oracle on tiny hand-made dumps whose answers were
worked out by hand from the spec. Run: python3 scripts/oracle/test_oracle.py"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402


def node(cls, bounds, children="", **attrs):
    a = {"class": cls, "bounds": bounds, "text": "", "content-desc": "",
         "clickable": "false", "long-clickable": "false", "checkable": "false",
         "focusable": "false"}
    a.update({k.replace("_", "-"): v for k, v in attrs.items()})
    s = " ".join('%s="%s"' % kv for kv in a.items())
    if children:
        return "<node %s>%s</node>" % (s, children)
    return "<node %s/>" % s


def hierarchy(*windows):
    return "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">%s</hierarchy>" % "".join(windows)


def ids(nodes):
    return [n.id for n in nodes]


def hit(screen, x, y):
    h = oracle.hit_of(screen, [x, y])
    return h.id if h else None


def touch(screen, x, y):
    t = oracle.android_touch(screen, (x, y))
    return t.id if t else None


class AndroidNestedClickable(unittest.TestCase):
    # Window 0..100 x 0..200; a clickable row [0,0][100,100] holding a
    # clickable star [60,20][90,50] and a label text [10,20][50,50].
    DUMP = hierarchy(
        node("android.widget.FrameLayout", "[0,0][100,200]",
             node("android.widget.LinearLayout", "[0,0][100,100]",
                  node("android.widget.TextView", "[10,20][50,50]", text="Title")
                  + node("android.widget.ImageButton", "[60,20][90,50]", clickable="true", content_desc="Star"),
                  clickable="true")
             + node("android.widget.TextView", "[0,150][100,200]", text="Footer")))

    def setUp(self):
        self.s = oracle.read_text(self.DUMP)

    def test_ids_are_preorder_kinds(self):
        self.assertEqual(ids(self.s.nodes), ["FrameLayout#0", "LinearLayout#1", "TextView#2", "ImageButton#3", "TextView#4"])

    def test_exposed(self):
        # The row (clickable) and the star (clickable) are exposed; the title
        # has a label but an actionable ancestor; the footer has a label and
        # no actionable ancestor; the window is not actionable.
        self.assertEqual(ids(oracle.exposed_of(self.s)), ["LinearLayout#1", "ImageButton#3", "TextView#4"])

    def test_hit_deepest_exposed(self):
        self.assertEqual(hit(self.s, 70, 30), "ImageButton#3")
        self.assertEqual(hit(self.s, 20, 30), "LinearLayout#1")   # title not exposed
        self.assertEqual(hit(self.s, 50, 120), None)              # between row and footer

    def test_closed_open_edges(self):
        self.assertEqual(hit(self.s, 60, 20), "ImageButton#3")    # min edges closed
        self.assertEqual(hit(self.s, 90, 30), "LinearLayout#1")   # max x open
        self.assertEqual(hit(self.s, 70, 50), "LinearLayout#1")   # max y open
        self.assertEqual(hit(self.s, 50, 100), None)              # row's max y open
        self.assertEqual(hit(self.s, 100, 10), None)              # window's max x open

    def test_activations(self):
        acts = {a["element"]: a for a in oracle.activations_of(self.s)}
        self.assertEqual(acts["LinearLayout#1"], {"element": "LinearLayout#1", "status": "ok", "receiver": "LinearLayout#1"})
        self.assertEqual(acts["ImageButton#3"]["status"], "ok")
        # Footer: centre (50,175), nothing consumes a tap there.
        self.assertEqual(acts["TextView#4"], {"element": "TextView#4", "status": "lost", "receiver": None})


class AndroidActivationThroughTouch(unittest.TestCase):
    # A focusable-only container whose centre lands on a clickable child
    # (ok: descendant), a label whose centre lands in a clickable ancestor
    # (not exposed, so use a focusable child), and one obstructed by a
    # clickable sibling drawn in front.
    DUMP = hierarchy(
        node("android.widget.FrameLayout", "[0,0][200,200]",
             node("android.view.ViewGroup", "[0,0][100,100]",
                  node("android.widget.Button", "[25,25][75,75]", clickable="true"),
                  focusable="true")
             + node("android.widget.TextView", "[100,0][200,100]", text="Under")
             + node("android.view.View", "[100,0][200,100]", clickable="true")
             + node("android.widget.SeekBar", "[0,150][200,200]", focusable="true")))

    def test(self):
        s = oracle.read_text(self.DUMP)
        acts = {a["element"]: (a["status"], a["receiver"]) for a in oracle.activations_of(s)}
        self.assertEqual(acts["ViewGroup#1"], ("ok", "Button#2"))          # descendant receives
        self.assertEqual(acts["TextView#3"], ("obstructed", "View#4"))     # later sibling in front
        self.assertEqual(acts["SeekBar#5"], ("ok", "SeekBar#5"))           # adjustable consumes
        self.assertEqual(hit(s, 150, 50), "View#4")


class AndroidWindows(unittest.TestCase):
    # uiautomator lists the topmost window first: an overlay [0,0][100,50]
    # with nothing exposed and nothing clickable, over an app window whose
    # clickable button [0,0][100,100] lies under it.
    DUMP = hierarchy(
        node("android.widget.FrameLayout", "[0,0][100,50]",
             node("android.view.View", "[0,0][100,50]")),
        node("android.widget.FrameLayout", "[0,0][100,200]",
             node("android.widget.Button", "[0,0][100,100]", clickable="true", text="Go")))

    def setUp(self):
        self.s = oracle.read_text(self.DUMP)

    def test_ids_keep_source_order(self):
        self.assertEqual(ids(self.s.nodes), ["FrameLayout#0", "View#1", "FrameLayout#2", "Button#3"])

    def test_exposed_back_to_front(self):
        self.assertEqual(ids(oracle.exposed_of(self.s)), ["Button#3"])

    def test_hit_topmost_window_decides(self):
        self.assertEqual(hit(self.s, 50, 25), None)       # overlay window answers none
        self.assertEqual(hit(self.s, 50, 50), "Button#3") # overlay ends at y=50 (open)

    def test_touch_passes_windows_literally(self):
        # The spec's touch text has no window rule: an unconsumed tap in the
        # overlay goes on to the window behind.
        self.assertEqual(touch(self.s, 50, 25), "Button#3")
        self.assertEqual(oracle.android_touch_one_window(self.s, (50, 25)), None)


class AndroidDrawingOrder(unittest.TestCase):
    # Two overlapping clickable siblings; the first in the document is drawn
    # last (drawing-order 2), so it is in front. A tie keeps document order.
    DUMP = hierarchy(
        node("android.widget.FrameLayout", "[0,0][100,100]",
             node("android.widget.Button", "[0,0][60,100]", clickable="true", drawing_order="2")
             + node("android.widget.Button", "[40,0][100,100]", clickable="true", drawing_order="1")
             + node("android.view.ViewGroup", "[0,0][100,100]",
                    node("android.view.View", "[0,0][100,10]", focusable="true", drawing_order="0")
                    + node("android.view.View", "[0,0][100,10]", focusable="true", drawing_order="0"),
                    drawing_order="0"),
             drawing_order="0"))

    def test(self):
        s = oracle.read_text(self.DUMP)
        self.assertEqual(hit(s, 50, 50), "Button#1")     # drawing-order 2 beats 1
        self.assertEqual(hit(s, 70, 50), "Button#2")
        self.assertEqual(touch(s, 50, 50), "Button#1")
        # ViewGroup#3 (order 0) is drawn first, behind both buttons; its two
        # tied children keep document order: View#5 is in front of View#4.
        self.assertEqual(hit(s, 50, 5), "Button#1")
        self.assertEqual([c.id for c in oracle.front_to_back(s.nodes[3].children)], ["View#5", "View#4"])


class AndroidWholeWindow(unittest.TestCase):
    DUMP = hierarchy(
        node("android.widget.FrameLayout", "[0,0][100,100]",
             node("android.widget.FrameLayout", "[0,0][100,100]",
                  node("android.widget.TextView", "[0,0][50,50]", text="A"),
                  content_desc="Whole")
             + node("android.view.View", "[0,0][100,100]", content_desc="Leaf"),
             content_desc="Window"))

    def test(self):
        s = oracle.read_text(self.DUMP)
        # The window and its same-size labelled container with children are
        # "whole window"; the same-size leaf has no children, so it counts.
        self.assertEqual(ids(oracle.exposed_of(s)), ["TextView#2", "View#3"])
        self.assertEqual(hit(s, 10, 10), "View#3")       # later sibling in front


class IOSSnapshot(unittest.TestCase):
    DUMP = """<?xml version="1.0" encoding="UTF-8"?><AppiumAUT>
<XCUIElementTypeApplication type="XCUIElementTypeApplication" name="A" label="A" x="0" y="0" width="100" height="200">
  <XCUIElementTypeOther type="XCUIElementTypeOther" x="0" y="0" width="100" height="100">
    <XCUIElementTypeButton type="XCUIElementTypeButton" name="Play" label="Play" visible="false" x="10" y="10" width="40" height="40">
      <XCUIElementTypeStaticText type="XCUIElementTypeStaticText" label="Play" x="10" y="10" width="40" height="40"/>
    </XCUIElementTypeButton>
    <XCUIElementTypeTextField type="XCUIElementTypeTextField" x="0" y="80" width="100" height="40"/>
  </XCUIElementTypeOther>
  <XCUIElementTypeOther type="XCUIElementTypeOther" x="0" y="0" width="100" height="200">
    <XCUIElementTypeImage type="XCUIElementTypeImage" label="" x="0" y="0" width="100" height="100"/>
    <XCUIElementTypeStaticText type="XCUIElementTypeStaticText" label="Banner" x="30" y="30" width="70" height="20"/>
  </XCUIElementTypeOther>
</XCUIElementTypeApplication></AppiumAUT>"""

    def setUp(self):
        self.s = oracle.read_text(self.DUMP)

    def test_exposed(self):
        # Button (visible=false hides nothing; it hides its StaticText),
        # TextField, StaticText "Banner"; the Image has no label; Others and
        # the Application are not elements.
        self.assertEqual(ids(oracle.exposed_of(self.s)), ["Button#2", "TextField#4", "StaticText#7"])

    def test_hit(self):
        self.assertEqual(hit(self.s, 15, 15), "Button#2")
        self.assertEqual(hit(self.s, 35, 35), "StaticText#7")   # later element in front
        self.assertEqual(hit(self.s, 15, 90), "TextField#4")
        self.assertEqual(hit(self.s, 15, 100), None)            # cut by its parent [0,100)
        self.assertEqual(hit(self.s, 50, 10), None)             # button's max x open

    def test_activation_obstructed_by_later_element(self):
        acts = {a["element"]: (a["status"], a["receiver"]) for a in oracle.activations_of(self.s)}
        # Button's midpoint (30,30) lies in the later StaticText [30,100)x[30,50).
        self.assertEqual(acts["Button#2"], ("obstructed", "StaticText#7"))
        # TextField's midpoint (50,100) is outside its parent Other [0,100): lost.
        self.assertEqual(acts["TextField#4"], ("lost", None))
        self.assertEqual(acts["StaticText#7"], ("ok", "StaticText#7"))


class Readers(unittest.TestCase):
    def test_devtty_prefix_and_noise(self):
        text = "UI hierchary dumped to: /dev/tty\n" + hierarchy(
            node("android.widget.FrameLayout", "[0,0][10,10]")) + "\ntrailing noise\n"
        s = oracle.read_text(text)
        self.assertEqual(ids(s.nodes), ["FrameLayout#0"])

    def test_droidbot_2016(self):
        doc = '{"views": [{"class": "android.widget.FrameLayout", "parent": null, "children": [1], "bounds": [[0,0],[10,10]], "clickable": "false", "long-clickable": "false", "checkable": "false", "focusable": "false", "content-desc": "", "text": ""}, {"class": "android.widget.Button", "parent": 0, "children": [], "bounds": [[0,0],[5,5]], "clickable": "true", "long-clickable": "false", "checkable": "false", "focusable": "true", "content-desc": "", "text": "OK"}]}'
        s = oracle.read_text(doc)
        self.assertEqual(ids(oracle.exposed_of(s)), ["Button#1"])
        self.assertEqual(hit(s, 4, 4), "Button#1")
        self.assertEqual(hit(s, 5, 4), None)

    def test_idb_frame_string(self):
        doc = '[{"type": "Button", "AXLabel": "Go", "AXFrame": "{{1.5, 2}, {3, 4}}"}]'
        s = oracle.read_text(doc)
        self.assertEqual(s.nodes[0].rect, (1.5, 2, 4.5, 6))


if __name__ == "__main__":
    unittest.main()
