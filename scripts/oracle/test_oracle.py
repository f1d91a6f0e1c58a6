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
    # A focusable-only, described container (it speaks: exposed) whose centre
    # lands on a clickable child (ok: descendant), a label obstructed by a
    # clickable sibling drawn in front, and an adjustable control.
    DUMP = hierarchy(
        node("android.widget.FrameLayout", "[0,0][200,200]",
             node("android.view.ViewGroup", "[0,0][100,100]",
                  node("android.widget.Button", "[25,25][75,75]", clickable="true"),
                  focusable="true", content_desc="Box")
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
        # The hover: View#3 (in front, a leaf) reports itself and takes
        # nothing (not clickable); FrameLayout#1 is then offered and its
        # TextView#2 reports last: the last report wins.
        self.assertEqual(hit(s, 10, 10), "TextView#2")
        self.assertEqual(hit(s, 60, 60), "View#3")


def order(screen):
    return [n.id for n in oracle.android_order(screen)]


def acts(screen):
    return {a["element"]: (a["status"], a["receiver"]) for a in oracle.activations_of(screen)}


class AndroidTalkBackRules(unittest.TestCase):
    """The new Android rules (tree TalkBack sees, shouldFocusNode, hover,
    touch, activation, order), each on a tiny dump worked out by hand."""

    def test_viewpager_with_clickable_pages(self):
        # A focusable, scrollable ViewPager whose two pages are clickable and
        # labelled: the pager has nothing to say (every child actionable), so
        # it is passed over; each page is exposed.
        s = oracle.read_text(hierarchy(
            node("android.widget.FrameLayout", "[0,0][200,100]",
                 node("androidx.viewpager.widget.ViewPager", "[0,0][200,100]",
                      node("android.widget.LinearLayout", "[0,0][100,100]",
                           node("android.widget.TextView", "[10,10][90,50]", text="Page 1"),
                           clickable="true")
                      + node("android.widget.LinearLayout", "[100,0][200,100]",
                             node("android.widget.TextView", "[110,10][190,50]", text="Page 2"),
                             clickable="true"),
                      focusable="true", scrollable="true"))))
        self.assertEqual(ids(oracle.exposed_of(s)), ["LinearLayout#2", "LinearLayout#4"])
        self.assertEqual(hit(s, 50, 30), "LinearLayout#2")    # text reports, page answers
        self.assertEqual(hit(s, 150, 80), "LinearLayout#4")
        self.assertEqual(order(s), ["LinearLayout#2", "LinearLayout#4"])

    def test_clickable_row_with_two_texts(self):
        s = oracle.read_text(hierarchy(
            node("android.widget.FrameLayout", "[0,0][100,200]",
                 node("android.widget.LinearLayout", "[0,0][100,60]",
                      node("android.widget.TextView", "[0,0][100,30]", text="Wi-Fi")
                      + node("android.widget.TextView", "[0,30][100,60]", text="Connected"),
                      clickable="true"))))
        # The row speaks through its texts; the texts have a focusable ancestor.
        self.assertEqual(ids(oracle.exposed_of(s)), ["LinearLayout#1"])
        self.assertEqual(hit(s, 50, 10), "LinearLayout#1")
        self.assertEqual(hit(s, 50, 45), "LinearLayout#1")
        self.assertEqual(acts(s)["LinearLayout#1"], ("ok", "LinearLayout#1"))

    def test_plain_layout_between_scroll_view_and_items(self):
        # ScrollView > LinearLayout (not important: left out) > two texts and
        # a plain layout holding a text. In the tree TalkBack sees the texts
        # are the scroll view's children: scroll items that speak, so
        # focusable and exposed; the scroll view (scrollable, not actionable)
        # is not. Touch: the scroll view consumes a tap on its items.
        s = oracle.read_text(hierarchy(
            node("android.widget.FrameLayout", "[0,0][100,300]",
                 node("android.widget.ScrollView", "[0,0][100,300]",
                      node("android.widget.LinearLayout", "[0,0][100,300]",
                           node("android.widget.TextView", "[0,0][100,50]", text="One")
                           + node("android.widget.TextView", "[0,50][100,100]", text="Two")
                           + node("android.widget.FrameLayout", "[0,100][100,150]",
                                  node("android.widget.TextView", "[0,100][100,150]", text="Three"))),
                      scrollable="true"))))
        n = s.nodes
        oracle.talkback_tree(s)
        self.assertFalse(n[2].in_tb)
        self.assertEqual([c.id for c in n[1].tb_children], ["TextView#3", "TextView#4", "TextView#6"])
        self.assertEqual(ids(oracle.exposed_of(s)), ["TextView#3", "TextView#4", "TextView#6"])
        self.assertEqual(touch(s, 50, 25), "ScrollView#1")
        self.assertEqual(acts(s)["TextView#3"], ("ok", "ScrollView#1"))    # an ancestor receives
        self.assertEqual(hit(s, 50, 125), "TextView#6")

    def test_label_over_clickable_card(self):
        # A clickable card [0,0][100,100] with its own title, and a badge text
        # drawn over it (a later sibling, not the card's child). The badge is
        # exposed (text, no focusable ancestor) and reports first, but takes
        # no click: the card behind reports last and wins.
        s = oracle.read_text(hierarchy(
            node("android.widget.FrameLayout", "[0,0][200,200]",
                 node("android.widget.LinearLayout", "[0,0][100,100]",
                      node("android.widget.TextView", "[0,0][100,40]", text="Card title"),
                      clickable="true")
                 + node("android.widget.TextView", "[50,50][150,80]", text="Badge"))))
        self.assertEqual(ids(oracle.exposed_of(s)), ["LinearLayout#1", "TextView#3"])
        self.assertEqual(hit(s, 60, 60), "LinearLayout#1")
        self.assertEqual(hit(s, 120, 60), "TextView#3")     # outside the card
        reps = [v.id for v in oracle.android_hover_reports(s, (60, 60))]
        self.assertEqual(reps, ["TextView#3", "LinearLayout#1"])

    def test_progress_bar(self):
        # A range control has state: exposed without text or actions. Its tap
        # reaches nothing that consumes (a ProgressBar is not adjustable).
        s = oracle.read_text(hierarchy(
            node("android.widget.FrameLayout", "[0,0][100,100]",
                 node("android.widget.ProgressBar", "[10,10][90,30]"))))
        self.assertEqual(ids(oracle.exposed_of(s)), ["ProgressBar#1"])
        self.assertEqual(acts(s)["ProgressBar#1"], ("lost", None))
        self.assertEqual(hit(s, 50, 20), "ProgressBar#1")

    def test_checkbox_neither_clickable_nor_focusable(self):
        # checkable only: not actionable (check does not count), but it has
        # text and state: exposed as a non-focusable node; inside a clickable
        # row it is not exposed and the row speaks through it.
        s = oracle.read_text(hierarchy(
            node("android.widget.FrameLayout", "[0,0][100,200]",
                 node("android.widget.CheckBox", "[0,0][100,50]", checkable="true", text="Remember")
                 + node("android.widget.LinearLayout", "[0,100][100,150]",
                        node("android.widget.CheckBox", "[0,100][50,150]", checkable="true"),
                        clickable="true"))))
        self.assertEqual(ids(oracle.exposed_of(s)), ["CheckBox#1", "LinearLayout#2"])
        self.assertEqual(acts(s)["CheckBox#1"], ("lost", None))

    def test_recyclerview_with_content_description(self):
        # A collection has no text: its description does not make it speak,
        # so a focusable RecyclerView whose items are clickable is passed
        # over, and a non-focusable described one is not exposed either.
        s = oracle.read_text(hierarchy(
            node("android.widget.FrameLayout", "[0,0][100,300]",
                 node("androidx.recyclerview.widget.RecyclerView", "[0,0][100,100]",
                      node("android.widget.TextView", "[0,0][100,50]", text="A", clickable="true"),
                      focusable="true", content_desc="Results")
                 + node("androidx.recyclerview.widget.RecyclerView", "[0,100][100,200]",
                        content_desc="Empty list"))))
        self.assertEqual(ids(oracle.exposed_of(s)), ["TextView#2"])
        self.assertEqual(hit(s, 50, 75), None)
        # The second list has no child: it does not consume a tap.
        self.assertEqual(touch(s, 50, 150), None)
        self.assertEqual(touch(s, 50, 75), "RecyclerView#1")   # with a child: it scrolls

    def test_scroll_item_that_speaks(self):
        # RecyclerView > item LinearLayout (not clickable) > two texts: the
        # item is a scroll item that speaks, so it is focusable and exposed;
        # its texts have a focusable ancestor. The list does not speak: its
        # speaking child is a scroll item and the list declares no click.
        s = oracle.read_text(hierarchy(
            node("android.widget.FrameLayout", "[0,0][100,300]",
                 node("androidx.recyclerview.widget.RecyclerView", "[0,0][100,200]",
                      node("android.widget.LinearLayout", "[0,0][100,100]",
                           node("android.widget.TextView", "[0,0][100,50]", text="Title")
                           + node("android.widget.TextView", "[0,50][100,100]", text="Subtitle"),
                           important_for_accessibility="true"),
                      focusable="true", scrollable="true"))))
        self.assertEqual(ids(oracle.exposed_of(s)), ["LinearLayout#2"])
        self.assertEqual(hit(s, 50, 75), "LinearLayout#2")
        self.assertEqual(hit(s, 50, 150), None)           # the list reports, not exposed
        self.assertEqual(acts(s)["LinearLayout#2"], ("ok", "RecyclerView#1"))
        # Without the dump's importance the plain item layout is left out:
        # the two texts are then the list's scroll items, each focusable.
        s2 = oracle.read_text(self.DUMP_PLAIN)
        self.assertEqual(ids(oracle.exposed_of(s2)), ["TextView#3", "TextView#4"])

    DUMP_PLAIN = hierarchy(
        node("android.widget.FrameLayout", "[0,0][100,300]",
             node("androidx.recyclerview.widget.RecyclerView", "[0,0][100,200]",
                  node("android.widget.LinearLayout", "[0,0][100,100]",
                       node("android.widget.TextView", "[0,0][100,50]", text="Title")
                       + node("android.widget.TextView", "[0,50][100,100]", text="Subtitle")),
                  focusable="true", scrollable="true")))

    def test_app_bar_over_list_reorder(self):
        # Dump order: the list [0,0][100,300] (its items from y=100), then the
        # app bar's button [0,0][100,80] drawn over the list's top. The list
        # uses its children's bounds ([0,100][100,300]); compare puts the
        # button first by useful bounds, and by own bounds the list comes
        # first (same left and top, taller): the list moves after the button.
        s = oracle.read_text(hierarchy(
            node("android.widget.FrameLayout", "[0,0][100,300]",
                 node("androidx.recyclerview.widget.RecyclerView", "[0,0][100,300]",
                      node("android.widget.TextView", "[0,100][100,200]", text="Item 1", clickable="true")
                      + node("android.widget.TextView", "[0,200][100,300]", text="Item 2", clickable="true"),
                      scrollable="true")
                 + node("android.widget.FrameLayout", "[0,0][100,80]",
                        node("android.widget.ImageButton", "[0,0][80,80]", clickable="true", content_desc="Back")))))
        self.assertEqual(ids(oracle.exposed_of(s)), ["TextView#2", "TextView#3", "ImageButton#5"])
        self.assertEqual(order(s), ["ImageButton#5", "TextView#2", "TextView#3"])
        o = oracle.Order(s)
        self.assertEqual(o.useful(s.nodes[1]), (0, 100, 100, 300))
        self.assertTrue(o.uses_children_bounds(s.nodes[1]))

    def test_no_reorder_when_content_above(self):
        # The same list whose content lies above the button: no move.
        s = oracle.read_text(hierarchy(
            node("android.widget.FrameLayout", "[0,0][100,300]",
                 node("android.widget.ListView", "[0,0][100,300]",
                      node("android.widget.TextView", "[0,0][100,100]", text="Item", clickable="true"))
                 + node("android.widget.Button", "[0,200][100,300]", text="OK", clickable="true"))))
        self.assertEqual(order(s), ["TextView#2", "Button#3"])

    def test_useful_bounds_without_overlap_keep_own(self):
        # A container important by class (a ViewPager) whose only exposed
        # child lies outside its bounds:
        # Rect.intersect leaves its own bounds, so it does not use its
        # children's bounds.
        s = oracle.read_text(hierarchy(
            node("android.widget.FrameLayout", "[0,0][100,300]",
                 node("androidx.viewpager.widget.ViewPager", "[0,0][100,100]",
                      node("android.widget.Button", "[0,150][100,200]", text="Out", clickable="true")))))
        o = oracle.Order(s)
        self.assertEqual(o.useful(s.nodes[1]), (0, 0, 100, 100))
        self.assertFalse(o.uses_children_bounds(s.nodes[1]))

    def test_window_sized_frame(self):
        # A labelled frame as large as its window, with children, not
        # actionable: window-sized, not exposed; the same frame clickable is
        # exposed (it speaks through its text).
        s = oracle.read_text(hierarchy(
            node("android.widget.FrameLayout", "[0,0][100,100]",
                 node("android.widget.FrameLayout", "[0,0][100,100]",
                      node("android.widget.TextView", "[0,0][50,50]", text="Hello"),
                      content_desc="Frame"))))
        self.assertEqual(ids(oracle.exposed_of(s)), ["TextView#2"])
        s = oracle.read_text(hierarchy(
            node("android.widget.FrameLayout", "[0,0][100,100]",
                 node("android.widget.FrameLayout", "[0,0][100,100]",
                      node("android.widget.TextView", "[0,0][50,50]", text="Hello"),
                      content_desc="Frame", clickable="true"))))
        self.assertEqual(ids(oracle.exposed_of(s)), ["FrameLayout#1"])

    def test_system_bars_left_out_of_order(self):
        # uiautomator lists the topmost window first: the status bar
        # [0,0][100,20] (systemui, full width, top edge, ends above 1/5 of
        # 400), a systemui volume panel [60,100][100,200] (not a bar), the
        # app [0,0][100,400], the navigation bar [0,380][100,400] (systemui,
        # bottom edge, starts below 3/4). Order: the app's window, then the
        # systemui panel; the bars are left out (still exposed and hit).
        sysui = "com.android.systemui"
        s = oracle.read_text(hierarchy(
            node("android.widget.FrameLayout", "[0,0][100,20]",
                 node("android.widget.TextView", "[0,0][50,20]", text="12:00", package=sysui),
                 package=sysui),
            node("android.widget.FrameLayout", "[60,100][100,200]",
                 node("android.widget.SeekBar", "[60,100][100,200]", focusable="true", package=sysui),
                 package=sysui),
            node("android.widget.FrameLayout", "[0,0][100,400]",
                 node("android.widget.Button", "[0,300][50,350]", text="Go", clickable="true", package="app")
                 + node("android.widget.Button", "[0,30][50,80]", text="Top", clickable="true", package="app"),
                 package="app"),
            node("android.widget.FrameLayout", "[0,380][100,400]",
                 node("android.widget.ImageButton", "[0,380][50,400]", content_desc="Back", clickable="true", package=sysui),
                 package=sysui)))
        self.assertEqual(order(s), ["Button#5", "Button#6", "SeekBar#3"])
        self.assertIn("TextView#1", ids(oracle.exposed_of(s)))
        self.assertIn("ImageButton#8", ids(oracle.exposed_of(s)))
        self.assertEqual(hit(s, 10, 10), "TextView#1")

    def test_window_order_by_top_then_left(self):
        s = oracle.read_text(hierarchy(
            node("android.widget.FrameLayout", "[0,100][100,200]",
                 node("android.widget.Button", "[0,100][50,150]", text="Low", clickable="true")),
            node("android.widget.FrameLayout", "[50,0][100,100]",
                 node("android.widget.Button", "[50,0][100,50]", text="Right", clickable="true")),
            node("android.widget.FrameLayout", "[0,0][50,100]",
                 node("android.widget.Button", "[0,0][50,50]", text="Left", clickable="true"))))
        self.assertEqual(order(s), ["Button#5", "Button#3", "Button#1"])

    def test_activation_click_only_when_enabled(self):
        # A disabled clickable button goes through touch (it still consumes:
        # enabled or not); a long-click-only node too; a disabled clickable
        # node does not take the hover.
        s = oracle.read_text(hierarchy(
            node("android.widget.FrameLayout", "[0,0][200,200]",
                 node("android.widget.Button", "[0,0][100,100]", text="Off", clickable="true", enabled="false")
                 + node("android.view.View", "[100,0][200,100]", long_clickable="true", content_desc="Hold")
                 + node("android.widget.Button", "[0,0][50,50]", text="Over", enabled="false", clickable="true"))))
        a = acts(s)
        self.assertEqual(a["Button#1"], ("ok", "Button#1"))
        self.assertEqual(a["View#2"], ("ok", "View#2"))
        self.assertEqual(a["Button#3"], ("ok", "Button#3"))
        # (25,25): Button#3 (disabled) reports but does not take; Button#1
        # behind reports last.
        self.assertEqual(hit(s, 25, 25), "Button#1")
        # Button#3's tap at its centre (25,25) is consumed by itself (it is
        # in front); Button#1's at (50,50) lands on Button#1 (Button#3 ends at 50).

    def test_important_as_the_dump_says(self):
        # a11y-important="false" leaves a clickable, labelled node out of the
        # tree TalkBack sees (not exposed); its hover report answers the
        # nearest exposed ancestor. important-for-accessibility="true" makes a
        # plain layout important.
        s = oracle.read_text(hierarchy(
            node("android.widget.FrameLayout", "[0,0][100,200]",
                 node("android.widget.LinearLayout", "[0,0][100,100]",
                      node("android.widget.Button", "[0,0][50,50]", text="Hidden", clickable="true",
                           a11y_important="false"),
                      clickable="true", content_desc="Row")
                 + node("android.widget.LinearLayout", "[0,100][100,200]",
                        node("android.widget.TextView", "[0,100][50,150]", text="Note"),
                        important_for_accessibility="true"))))
        oracle.talkback_tree(s)
        self.assertFalse(s.nodes[2].in_tb)
        self.assertTrue(s.nodes[3].in_tb)
        self.assertEqual(ids(oracle.exposed_of(s)), ["LinearLayout#1", "TextView#4"])
        self.assertEqual(hit(s, 10, 10), "LinearLayout#1")

    def test_class_tests(self):
        def cls(c):
            n = oracle.Node("X", 0, (0, 0, 1, 1), {})
            n.cls = c
            return n
        self.assertTrue(oracle.class_is(cls("androidx.appcompat.widget.AppCompatTextView"), "TextView"))
        self.assertTrue(oracle.class_is(cls("android.widget.ExpandableListView"), "ListView"))
        self.assertFalse(oracle.class_is(cls("android.widget.ImageButton"), *oracle.TEXTVIEW_CLASSES))
        self.assertTrue(oracle.class_is(cls("com.google.android.material.button.MaterialButton"), *oracle.TEXTVIEW_CLASSES))
        self.assertFalse(oracle.class_is(cls("android.view.TextureView"), *oracle.TEXTVIEW_CLASSES))


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
