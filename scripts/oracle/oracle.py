#!/usr/bin/env python3
"""An independent oracle for AXHit's answers on real screens.

Written from the specification alone (tree-format.md: "Hit-testing",
"Touch delivery", "Activation", "Platforms and snapshots", "Node ids of
imported trees", and for Android the TalkBack order of "Navigation order"),
without reading the engine. Standard library only.

It reads the dumps of the corpus (Appium iOS XML, `idb ui describe-all`
JSON flat and nested, Android uiautomator dumps classic / UiAutomator2 /
`/dev/tty`-prefixed, DroidBot state JSON of the 2017 and 2016 schemas) and
writes, per screen, Tests/Fixtures/expectations/<name>.json with the exposed
elements, every exposed element's activation, on Android the navigation
order (`order`), and hand-checked hit points.

Usage:
    python3 scripts/oracle/oracle.py --all          # regenerate every file
    python3 scripts/oracle/oracle.py FILE...        # corpus-relative names
    python3 scripts/oracle/oracle.py --show FILE    # print the tree, for reading
    python3 scripts/oracle/oracle.py --hit FILE X Y # one answer, with the path

Readings chosen where the spec is silent are listed in scripts/oracle/NOTES.md.
"""

import json
import os
import re
import sys
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
EXPECTATIONS = os.path.join(REPO, "Tests", "Fixtures", "expectations")
POINTS = os.path.join(HERE, "points")
# Where corpus files are looked for, in this order (the repository's copy
# first, then the project's shared corpus, which has the newer files).
CORPUS_ROOTS = [
    os.path.join(REPO, "Tests", "Fixtures", "corpus"),
    "/work/shared/corpus",
]


# --------------------------------------------------------------------------
# The tree
# --------------------------------------------------------------------------

class Node:
    """One element of a dump.

    rect is (x1, y1, x2, y2) in screen coordinates (points on iOS, pixels on
    Android); a region is closed-open: x1 <= x < x2 and y1 <= y < y2.
    children are in the dump's document order.
    """

    def __init__(self, kind, n, rect, attrs):
        self.kind = kind
        self.n = n                       # 0-based source pre-order number
        self.id = "%s#%d" % (kind, n)
        self.rect = rect
        self.attrs = attrs
        self.parent = None
        self.children = []
        # iOS
        self.is_element = False
        # Android
        self.visible = True
        self.actions = set()
        self.label = ""                  # content-desc, else text
        self.cls = ""
        self.drawing_order = None
        self.hint = ""
        self.has_words = False
        self.enabled = True
        self.checked = False
        self.package = ""
        self.important = None            # as the dump says; None: not said
        # the tree TalkBack sees (set by talkback_tree)
        self.tb_parent = None
        self.tb_children = []
        self.in_tb = False

    def contains(self, p):
        x1, y1, x2, y2 = self.rect
        return x1 <= p[0] < x2 and y1 <= p[1] < y2

    def ancestors(self):
        a = self.parent
        while a is not None:
            yield a
            a = a.parent

    def __repr__(self):
        return self.id


class Screen:
    def __init__(self, platform, roots, nodes, path):
        self.platform = platform         # "ios" or "android"
        self.roots = roots               # top-level nodes, document order
        self.nodes = nodes               # every node, by source number n
        self.path = path


def rect_xywh(x, y, w, h):
    w = max(0.0, w)
    h = max(0.0, h)
    return (x, y, x + w, y + h)


def num(s, default=0.0):
    if s is None or s == "":
        return default
    v = float(s)
    if v == int(v):
        return int(v)
    return v


# --------------------------------------------------------------------------
# Readers
# --------------------------------------------------------------------------

def read_any(path):
    with open(path, "rb") as f:
        data = f.read()
    return read_text(data.decode("utf-8"), path)


def read_text(text, path="<text>"):
    """Detect the dump's kind from its content and read it."""
    stripped = text.lstrip("\ufeff \t\r\n")
    if stripped.startswith("{") or stripped.startswith("["):
        doc = json.loads(text)
        if isinstance(doc, dict) and "views" in doc:
            return read_droidbot(doc, path)
        if isinstance(doc, list) or (isinstance(doc, dict) and ("AXFrame" in doc or "frame" in doc)):
            return read_idb(doc, path)
        raise ValueError("%s: JSON of a kind the oracle does not read" % path)
    if "<hierarchy" in text:
        return read_uiautomator(text, path)
    return read_appium_ios(text, path)


# ---- iOS: Appium / XCUITest XML ------------------------------------------

IOS_DEFAULT_ELEMENTS = {
    "Button", "Cell", "StaticText", "TextField", "SecureTextField",
    "SearchField", "TextView", "Switch", "Toggle", "Slider", "Stepper",
    "Link", "Key", "Tab", "PickerWheel", "PageIndicator",
}


def ios_kind(type_name):
    if type_name.startswith("XCUIElementType"):
        return type_name[len("XCUIElementType"):]
    return type_name


def ios_is_element(kind, accessible, label):
    """isAccessibilityElement: `accessible` when the dump has it, else the
    types VoiceOver focuses by default (Image only with a label)."""
    if accessible is not None and accessible != "":
        return accessible == "true"
    if kind in IOS_DEFAULT_ELEMENTS:
        return True
    if kind == "Image":
        return bool(label)
    return False


def read_appium_ios(text, path):
    root = ET.fromstring(text.encode("utf-8"))
    if root.tag == "AppiumAUT":
        tops = list(root)
    else:
        tops = [root]
    nodes = []

    def visit(el, parent):
        a = el.attrib
        kind = ios_kind(a.get("type") or el.tag)
        if "x" in a or "y" in a or "width" in a or "height" in a:
            rect = rect_xywh(num(a.get("x")), num(a.get("y")),
                             num(a.get("width")), num(a.get("height")))
        else:
            rect = (0, 0, 0, 0)
        node = Node(kind, len(nodes), rect, dict(a))
        node.is_element = ios_is_element(kind, a.get("accessible"), a.get("label"))
        nodes.append(node)
        node.parent = parent
        for c in el:
            node.children.append(visit(c, node))
        return node

    roots = [visit(t, None) for t in tops]
    return Screen("ios", roots, nodes, path)


# ---- iOS: idb ui describe-all JSON, flat list or nested --------------------

AXFRAME = re.compile(r"\{\{\s*([-0-9.eE+]+)\s*,\s*([-0-9.eE+]+)\s*\}\s*,\s*\{\s*([-0-9.eE+]+)\s*,\s*([-0-9.eE+]+)\s*\}\}")


def idb_rect(d):
    f = d.get("frame")
    if isinstance(f, dict):
        return rect_xywh(num(f.get("x")), num(f.get("y")),
                         num(f.get("width")), num(f.get("height")))
    s = d.get("AXFrame")
    if isinstance(s, str):
        m = AXFRAME.match(s.strip())
        if m:
            return rect_xywh(*[num(g) for g in m.groups()])
    return (0, 0, 0, 0)


def read_idb(doc, path):
    items = doc if isinstance(doc, list) else [doc]
    nodes = []

    def visit(d, parent):
        kind = d.get("type") or "Element"
        label = d.get("AXLabel")
        node = Node(kind, len(nodes), idb_rect(d), d)
        # idb has no `accessible`: the default types decide.
        node.is_element = ios_is_element(kind, None, label)
        nodes.append(node)
        node.parent = parent
        for c in d.get("children") or []:
            node.children.append(visit(c, node))
        return node

    roots = [visit(d, None) for d in items]
    return Screen("ios", roots, nodes, path)


# ---- Android: uiautomator XML (classic, UiAutomator2, /dev/tty) ------------

BOUNDS = re.compile(r"\[\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*\]\s*\[\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*\]")


def android_rect(x1, y1, x2, y2):
    # An inverted or empty box contains no point.
    return (x1, y1, max(x1, x2), max(y1, y2))


def parse_bounds(s):
    if not s:
        return (0, 0, 0, 0)
    m = BOUNDS.search(s)
    if not m:
        return (0, 0, 0, 0)
    return android_rect(*[num(g) for g in m.groups()])


def truthy(v):
    return v is True or v == "true"


def android_setup(node, cls, clickable, long_clickable, checkable, focusable,
                  sr_focusable, content_desc, text, visible, drawing_order,
                  scrollable=None, enabled=None, checked=None, hint=None,
                  package=None, important=None):
    node.cls = cls or ""
    if truthy(clickable):
        node.actions.add("click")
    if truthy(long_clickable):
        node.actions.add("longClick")
    if truthy(checkable):
        node.actions.add("check")
    if truthy(focusable):
        node.actions.add("focus")
    if truthy(sr_focusable):
        node.actions.add("screenReaderFocus")
    if truthy(scrollable):
        node.actions.add("scroll")
    # TalkBack speaks content-desc, else text.
    node.label = content_desc or text or ""
    node.hint = hint or ""
    # label, value or hint: any of content-desc, text, hint non-empty
    node.has_words = bool(content_desc or text or hint)
    node.visible = visible               # the node's own flag (not hidden)
    node.drawing_order = drawing_order
    node.enabled = not (enabled is False or enabled == "false")
    node.checked = truthy(checked)
    node.package = package or ""
    # importance as the dump says where it says: True / False / None
    if important is None or important == "":
        node.important = None
    else:
        node.important = truthy(important)


def android_kind(cls, fallback):
    name = cls or fallback or "node"
    return name.rsplit(".", 1)[-1]


def read_uiautomator(text, path):
    start = text.find("<?xml")
    if start < 0:
        start = text.find("<hierarchy")
    end = text.rfind("</hierarchy>")
    if end < 0:
        raise ValueError("%s: no </hierarchy>" % path)
    body = text[start:end + len("</hierarchy>")]
    root = ET.fromstring(body.encode("utf-8"))
    nodes = []

    def visit(el, parent):
        a = el.attrib
        cls = a.get("class") or (el.tag if el.tag != "node" else "")
        node = Node(android_kind(cls, el.tag), len(nodes), parse_bounds(a.get("bounds")), dict(a))
        vis = a.get("visible-to-user")
        disp = a.get("displayed")          # UiAutomator2's isVisibleToUser
        do = a.get("drawing-order")
        imp = a.get("important-for-accessibility")
        if imp in (None, ""):
            imp = a.get("a11y-important")
        android_setup(node, cls, a.get("clickable"), a.get("long-clickable"),
                      a.get("checkable"), a.get("focusable"),
                      a.get("screen-reader-focusable"),
                      a.get("content-desc"), a.get("text"),
                      vis != "false" and disp != "false",
                      int(do) if do not in (None, "") else None,
                      scrollable=a.get("scrollable"), enabled=a.get("enabled"),
                      checked=a.get("checked"), hint=a.get("hint"),
                      package=a.get("package"), important=imp)
        nodes.append(node)
        node.parent = parent
        for c in el:
            node.children.append(visit(c, node))
        return node

    roots = [visit(t, None) for t in root]
    return Screen("android", roots, nodes, path)


# ---- Android: DroidBot state JSON (2017 `views`, 2016 device_state) --------

def read_droidbot(doc, path):
    views = doc["views"]
    nodes = []
    for i, v in enumerate(views):
        b = v.get("bounds")
        if b and len(b) == 2:
            rect = android_rect(num(b[0][0]), num(b[0][1]), num(b[1][0]), num(b[1][1]))
        else:
            rect = (0, 0, 0, 0)
        cls = v.get("class") or ""
        node = Node(android_kind(cls, "View"), i, rect, v)
        if "content_description" in v or "long_clickable" in v:      # 2017
            android_setup(node, cls, v.get("clickable"), v.get("long_clickable"),
                          v.get("checkable"), v.get("focusable"), None,
                          v.get("content_description"), v.get("text"),
                          v.get("visible", True) is not False, None,
                          scrollable=v.get("scrollable"), enabled=v.get("enabled"),
                          checked=v.get("checked"), hint=v.get("hint"),
                          package=v.get("package"),
                          important=v.get("important_for_accessibility"))
        else:                                                          # 2016
            android_setup(node, cls, v.get("clickable"), v.get("long-clickable"),
                          v.get("checkable"), v.get("focusable"), None,
                          v.get("content-desc"), v.get("text"),
                          v.get("visible", "true") not in (False, "false"), None,
                          scrollable=v.get("scrollable"), enabled=v.get("enabled"),
                          checked=v.get("checked"), hint=v.get("hint"),
                          package=v.get("package"),
                          important=v.get("important-for-accessibility"))
        nodes.append(node)
    roots = []
    for i, v in enumerate(views):
        p = v.get("parent")
        if p is None or p == -1:
            roots.append(nodes[i])
        else:
            nodes[i].parent = nodes[p]
    for i, v in enumerate(views):
        nodes[i].children = [nodes[c] for c in v.get("children") or []]
    return Screen("android", roots, nodes, path)


# --------------------------------------------------------------------------
# Tree order helpers
# --------------------------------------------------------------------------

def preorder(roots):
    out = []
    stack = list(reversed(roots))
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(reversed(n.children))
    return out


def tree_roots(screen):
    """Top-level nodes back to front. Android: uiautomator lists windows
    topmost first, so they are reversed."""
    if screen.platform == "android":
        return list(reversed(screen.roots))
    return list(screen.roots)


def front_to_back(children):
    """Android siblings from the frontmost. Drawn in `drawing-order` when
    every sibling gives it (ties keep document order: a stable sort), else in
    document order; the frontmost is the last drawn."""
    ordered = list(children)
    if ordered and all(c.drawing_order is not None for c in ordered):
        ordered.sort(key=lambda c: c.drawing_order)      # stable
    return list(reversed(ordered))


# --------------------------------------------------------------------------
# iOS snapshot rules
# --------------------------------------------------------------------------

def ios_exposed(screen):
    """isAccessibilityElement and no proper ancestor is an element.
    (A snapshot carries no isHidden/alpha/accessibilityElementsHidden/modal,
    and visible="false" hides nothing.)"""
    out = []
    for n in preorder(tree_roots(screen)):
        if n.is_element and not any(a.is_element for a in n.ancestors()):
            out.append(n)
    return out


def ios_region_contains(node, p):
    """Frame policy: the node's frame, closed-open, cut to the frame of every
    ancestor (each snapshot node is treated as a view whose frame is its
    rect)."""
    if not node.contains(p):
        return False
    return all(a.contains(p) for a in node.ancestors())


def ios_hit(screen, p, exposed=None):
    if exposed is None:
        exposed = ios_exposed(screen)
    answer = None
    for n in exposed:                    # pre-order: the last one wins
        if ios_region_contains(n, p):
            answer = n
    return answer


def ios_activation(screen, node, exposed):
    x1, y1, x2, y2 = node.rect
    a = ((x1 + x2) / 2, (y1 + y2) / 2)
    r = ios_hit(screen, a, exposed)      # isHittable: touch(p) = hit(p)
    if r is None:
        return "lost", None, a
    if r is node:
        return "ok", r, a
    return "obstructed", r, a


# --------------------------------------------------------------------------
# Android rules
# --------------------------------------------------------------------------
#
# tree-format.md, "Platforms and snapshots" / "Android": the tree TalkBack
# sees, exposure (TalkBack's shouldFocusNode), hit(p) (the hover dispatch),
# touch(p), activation; "Navigation order": TalkBack's linear order.

def window_of(node):
    """The dump's top-level node holding `node` (the node's window)."""
    w = node
    while w.parent is not None:
        w = w.parent
    return w


def simple_class(node):
    return node.cls.rsplit(".", 1)[-1]


def class_is(node, *bases):
    """By class, subclasses included: the simple name (after the last '.')
    ends with the framework class's name (AppCompatTextView is a TextView,
    ExpandableListView a ListView). ImageButton and FloatingActionButton
    are ImageViews, not Buttons, so they are never a `Button`."""
    s = simple_class(node)
    for b in bases:
        if not s.endswith(b):
            continue
        if b == "Button" and (s.endswith("ImageButton") or s == "FloatingActionButton"):
            continue
        return True
    return False


# TextView and its subclasses (the spec's list and the like)
TEXTVIEW_CLASSES = ("TextView", "Button", "EditText", "CheckBox", "RadioButton",
                    "Switch", "SwitchCompat", "ToggleButton", "Chip",
                    "TextClock", "Chronometer")
SELF_IMPORTANT_CLASSES = TEXTVIEW_CLASSES + (
    "ProgressBar", "SeekBar", "RatingBar",
    "ListView", "GridView", "Spinner", "RecyclerView", "ViewPager")
COLLECTION_CLASSES = ("ListView", "GridView", "ExpandableListView", "RecyclerView")
SCROLL_VIEW_CLASSES = ("ScrollView", "HorizontalScrollView", "NestedScrollView")
RANGE_CLASSES = ("ProgressBar", "SeekBar", "RatingBar", "Slider")
CLICKS = {"click", "longClick"}
ACTIONABLE = {"click", "longClick", "focus", "screenReaderFocus"}
IMPORTANT_ACTIONS = {"click", "longClick", "focus", "check", "scroll"}


def hidden(node):
    """visibleInSnapshot false (visible-to-user / displayed / DroidBot's
    visible) on the node or an ancestor of the dump."""
    return not node.visible or any(not a.visible for a in node.ancestors())


def has_area(node):
    x1, y1, x2, y2 = node.rect
    return x2 > x1 and y2 > y1


def android_visible(node):
    """Android's isVisibleToUser: not hidden and bounds with area."""
    return not hidden(node) and has_area(node)


def below_webview(node):
    return any(class_is(a, "WebView") for a in node.ancestors())


def is_important(node):
    if node.important is not None:       # as the dump says
        return node.important
    if node.parent is None:              # a window's top-level node
        return True
    if node.actions & IMPORTANT_ACTIONS:
        return True
    if node.has_words:                   # label, value or hint
        return True
    if class_is(node, *SELF_IMPORTANT_CLASSES):
        return True
    return below_webview(node)


def talkback_tree(screen):
    """Builds the tree TalkBack sees: an unimportant node is left out and its
    children take its place, in order. Returns, per dump window (top-level
    node, dump order), the window's top-level nodes of that tree. Cached."""
    if getattr(screen, "_tb_windows", None) is not None:
        return screen._tb_windows

    def take(n, parent):
        """What `n` gives to its parent's children list."""
        if is_important(n):
            n.in_tb = True
            n.tb_parent = parent
            n.tb_children = []
            for c in n.children:
                n.tb_children.extend(take(c, n))
            return [n]
        out = []
        for c in n.children:
            out.extend(take(c, parent))
        return out

    screen._tb_windows = [(w, take(w, None)) for w in screen.roots]
    return screen._tb_windows


def tb_ancestors(node):
    a = node.tb_parent
    while a is not None:
        yield a
        a = a.tb_parent


class Exposure:
    """The terms of the spec's exposure rule, memoised per node."""

    def __init__(self, screen):
        self.screen = screen
        talkback_tree(screen)
        self._speaks = {}
        self._vis = {}

    def visible(self, n):
        v = self._vis.get(n.n)
        if v is None:
            v = self._vis[n.n] = android_visible(n)
        return v

    def actionable(self, n):
        return self.visible(n) and bool(n.actions & ACTIONABLE)

    def collection(self, n):
        return class_is(n, *COLLECTION_CLASSES)

    def has_text(self, n):
        return n.has_words and not self.collection(n)

    def has_state(self, n):
        return "check" in n.actions or class_is(n, *RANGE_CLASSES)

    def scroll_container(self, n):
        if class_is(n, "Spinner"):
            return False
        return ("scroll" in n.actions or self.collection(n)
                or class_is(n, *SCROLL_VIEW_CLASSES))

    def scroll_item(self, n):
        return (self.visible(n) and n.tb_parent is not None
                and self.scroll_container(n.tb_parent))

    def auto_scrolls(self, n):
        return "scroll" in n.actions and (self.collection(n)
                                          or class_is(n, *SCROLL_VIEW_CLASSES)
                                          or class_is(n, "Spinner"))

    def speaks(self, n):
        r = self._speaks.get(n.n)
        if r is None:
            r = self._speaks[n.n] = self._compute_speaks(n)
        return r

    def _compute_speaks(self, n):
        if self.has_text(n) or self.has_state(n):
            return True
        clicks = bool(n.actions & CLICKS)
        for c in n.tb_children:
            if not self.visible(c) or self.actionable(c):
                continue
            if self.scroll_item(c) and self.speaks(c) and not clicks:
                continue
            if self.speaks(c):
                return True
        if not self.auto_scrolls(n):
            for c in n.tb_children:
                if (not self.visible(c) and self.has_text(c)
                        and not (c.actions & ACTIONABLE)):
                    return True
        return False

    def focusable(self, n):
        return self.actionable(n) or (self.scroll_item(n) and self.speaks(n))

    def window_sized(self, n):
        return (n.rect == window_of(n).rect and bool(n.tb_children)
                and not self.actionable(n))

    def exposed(self, n):
        if not n.in_tb or not self.visible(n) or self.window_sized(n):
            return False
        if self.focusable(n):
            return not n.tb_children or self.speaks(n)
        if not (self.has_text(n) or self.has_state(n)):
            return False
        return not any(self.visible(a) and not self.window_sized(a) and self.focusable(a)
                       for a in tb_ancestors(n))


def android_exposed(screen):
    ex = Exposure(screen)
    return [n for n in preorder(tree_roots(screen)) if ex.exposed(n)]


def front_to_back_windows(screen):
    """uiautomator lists the topmost window first."""
    return list(reversed(tree_roots(screen)))


def takes_clicks(node):
    return node.enabled and bool(node.actions & CLICKS)


def android_hover_reports(screen, p):
    """The hover dispatch: the list of reporting nodes, in the order offered
    (every node of the dump is walked, not only the tree TalkBack sees)."""
    reports = []

    def offer(v):
        kids = [c for c in front_to_back(v.children)
                if android_visible(c) and c.contains(p)]
        if not kids:
            reports.append(v)
        for c in kids:
            if offer(c):                 # c takes the hover: none behind it
                return True
        return takes_clicks(v)

    for w in front_to_back_windows(screen):
        if w.contains(p):                # the topmost window decides
            offer(w)
            break
    return reports


def android_hit(screen, p, exposed_set=None):
    if exposed_set is None:
        exposed_set = set(android_exposed(screen))
    answer = None
    for v in android_hover_reports(screen, p):
        for a in [v] + list(v.ancestors()):
            if a in exposed_set:
                answer = a               # the last report with an answer wins
                break
    return answer


ADJUSTABLE_SUFFIXES = ("SeekBar", "RatingBar", "Slider")


def adjustable(node):
    return simple_class(node).endswith(ADJUSTABLE_SUFFIXES)


def touch_scroll_container(node):
    """A scroll container (the spec's term) with at least one child of the
    dump: a list or scroll view takes every touch that reaches it."""
    if class_is(node, "Spinner") or not node.children:
        return False
    return ("scroll" in node.actions or class_is(node, *COLLECTION_CLASSES)
            or class_is(node, *SCROLL_VIEW_CLASSES))


def consumes(node):
    return bool(node.actions & CLICKS) or adjustable(node) or touch_scroll_container(node)


def android_touch_node(node, p):
    for c in front_to_back(node.children):
        if android_visible(c) and c.contains(p):
            r = android_touch_node(c, p)
            if r is not None:
                return r
    return node if consumes(node) else None


def android_touch(screen, p):
    """Literal reading: windows are tried like children of a virtual root,
    from the topmost; a window whose subtree does not consume the tap passes
    it on to the window behind (see NOTES.md)."""
    for w in front_to_back_windows(screen):
        if android_visible(w) and w.contains(p):
            r = android_touch_node(w, p)
            if r is not None:
                return r
    return None


def android_touch_one_window(screen, p):
    """The alternative reading: the topmost window containing p decides."""
    for w in front_to_back_windows(screen):
        if android_visible(w) and w.contains(p):
            return android_touch_node(w, p)
    return None


def centre(node):
    x1, y1, x2, y2 = node.rect
    c = ((x1 + x2) / 2, (y1 + y2) / 2)
    return tuple(int(v) if v == int(v) else v for v in c)


def android_activation(screen, node, touch=None):
    if touch is None:
        touch = android_touch
    if "click" in node.actions and node.enabled:
        return "ok", node, None
    a = centre(node)
    r = touch(screen, a)
    if r is None:
        return "lost", None, a
    if r is node or node in set(r.ancestors()) or r in set(node.ancestors()):
        return "ok", r, a
    return "obstructed", r, a


# ---- order(): TalkBack's linear order --------------------------------------

def stripe_before(a, b):
    """compare(a, b), the framework's stripe order: True when a comes first
    (a tie puts a first)."""
    ax1, ay1, ax2, ay2 = a
    bx1, by1, bx2, by2 = b
    if ay2 <= by1:
        return True
    if ay1 >= by2:
        return False
    if ax1 != bx1:
        return ax1 < bx1
    if ay1 != by1:
        return ay1 < by1
    ah, bh = ay2 - ay1, by2 - by1
    if ah != bh:
        return ah > bh                   # the taller first
    aw, bw = ax2 - ax1, bx2 - bx1
    if aw != bw:
        return aw > bw                   # the wider first
    return True


def rect_intersect(a, b):
    """android.graphics.Rect.intersect: the overlap when the two overlap with
    area, else `a` unchanged."""
    if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
        return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))
    return a


def rect_union(a, b):
    if a is None:
        return b
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


class Order:
    def __init__(self, screen, exposed_set=None):
        self.screen = screen
        self.ex = Exposure(screen)
        self.exposed = exposed_set if exposed_set is not None else set(android_exposed(screen))
        self._useful = {}

    def useful(self, n):
        """A node's useful bounds (None: it has none)."""
        if n.n in self._useful:
            return self._useful[n.n]
        if n in self.exposed:
            r = n.rect
        elif not self.ex.visible(n):
            r = None
        else:
            box = None
            for c in n.tb_children:
                u = self.useful(c)
                if u is not None:
                    box = rect_union(box, u)
            r = n.rect if box is None else rect_intersect(n.rect, box)
        self._useful[n.n] = r
        return r

    def uses_children_bounds(self, n):
        u = self.useful(n)
        return u is not None and u != n.rect

    def reordered(self, children):
        kids = list(children)
        if not any(self.uses_children_bounds(c) for c in kids):
            return kids
        for i in range(len(kids) - 2, -1, -1):
            cur = kids[i]
            if not self.uses_children_bounds(cur):
                continue
            j = i + 1
            while j < len(kids) and self.passes(cur, kids[j]):
                kids[j - 1], kids[j] = kids[j], cur
                j += 1
        return kids

    def passes(self, cur, nxt):
        cu, nu = self.useful(cur), self.useful(nxt)
        if cu is None or nu is None:
            return False
        if stripe_before(cu, nu):        # compare keeps cur first: no move
            return False
        return stripe_before(cur.rect, nxt.rect)   # own bounds keep the dump's order

    def walk(self, roots, out):
        for n in self.reordered(roots):
            if n in self.exposed:
                out.append(n)
            self.walk(n.tb_children, out)


def screen_box(screen):
    """The screen: the box from the origin to the far corner of every
    top-level node (a dump gives no screen size)."""
    w = max([r.rect[2] for r in screen.roots] or [0])
    h = max([r.rect[3] for r in screen.roots] or [0])
    return (0, 0, w, h)


SYSTEMUI = "com.android.systemui"


def system_bar(screen, w):
    """The status bar or the navigation bar: a com.android.systemui window
    as wide as the screen that touches its top edge and ends above a fifth of
    its height, or touches its bottom edge and starts below three quarters."""
    if w.package != SYSTEMUI:
        return False
    sx1, sy1, sx2, sy2 = screen_box(screen)
    x1, y1, x2, y2 = w.rect
    if not (x1 <= sx1 and x2 >= sx2):
        return False
    H = sy2 - sy1
    if y1 <= sy1 and y2 < sy1 + H / 5:
        return True
    if y2 >= sy2 and y1 > sy1 + 3 * H / 4:
        return True
    return False


def android_windows_in_order(screen):
    """TalkBack's window order: by the top edge, then the left edge, of the
    window's top-level node; com.android.systemui windows after all others;
    ties in the dump's order (a stable sort). System bars left out."""
    wins = [w for w in screen.roots if not system_bar(screen, w)]
    return sorted(wins, key=lambda w: (w.package == SYSTEMUI, w.rect[1], w.rect[0]))


def android_order(screen, exposed=None):
    tb = dict((id(w), roots) for w, roots in talkback_tree(screen))
    o = Order(screen, set(exposed) if exposed is not None else None)
    out = []
    for w in android_windows_in_order(screen):
        o.walk(tb[id(w)], out)
    return out


# --------------------------------------------------------------------------
# One screen's answers
# --------------------------------------------------------------------------

def exposed_of(screen):
    return ios_exposed(screen) if screen.platform == "ios" else android_exposed(screen)


def hit_of(screen, p, exposed=None):
    if exposed is None:
        exposed = exposed_of(screen)
    if screen.platform == "ios":
        return ios_hit(screen, p, exposed)
    return android_hit(screen, p, set(exposed))


def activations_of(screen, exposed=None):
    if exposed is None:
        exposed = exposed_of(screen)
    out = []
    for n in exposed:
        if screen.platform == "ios":
            status, r, _ = ios_activation(screen, n, exposed)
        else:
            status, r, _ = android_activation(screen, n)
        out.append({"element": n.id, "status": status, "receiver": r.id if r else None})
    return out


def corpus_path(rel):
    for root in CORPUS_ROOTS:
        p = os.path.join(root, rel)
        if os.path.exists(p):
            return p
    raise FileNotFoundError(rel)


def stem(rel):
    return os.path.splitext(os.path.basename(rel))[0]


def load_points(rel):
    """scripts/oracle/points/<stem>.json: the hand-chosen points, each with
    the answer worked out by hand from the dump and the note saying why."""
    p = os.path.join(POINTS, stem(rel) + ".json")
    if not os.path.exists(p):
        return []
    with open(p, encoding="utf-8") as f:
        return json.load(f)["hits"]


def build(rel):
    screen = read_any(corpus_path(rel))
    exposed = exposed_of(screen)
    hits = []
    mismatches = []
    for h in load_points(rel):
        p = h["point"]
        got = hit_of(screen, p, exposed)
        got_id = got.id if got else None
        if got_id != h["element"]:
            mismatches.append("%s %s: by hand %s, script %s" % (rel, p, h["element"], got_id))
        hits.append({"point": p, "element": h["element"], "note": h["note"]})
    doc = {
        "file": rel,
        "platform": screen.platform,
        "exposed": [n.id for n in exposed],
        "activations": activations_of(screen, exposed),
    }
    if screen.platform == "android":
        doc["order"] = [n.id for n in android_order(screen, exposed)]
    doc["hits"] = hits
    return doc, mismatches


def write_json(path, doc):
    # one activation / hit per line, for readable diffs
    with open(path, "w", encoding="utf-8") as f:
        f.write(compact(doc) + "\n")


def compact(doc):
    lines = ["{"]
    keys = list(doc.keys())
    for i, k in enumerate(keys):
        v = doc[k]
        end = "," if i < len(keys) - 1 else ""
        if isinstance(v, list) and v and isinstance(v[0], dict):
            lines.append("  %s: [" % json.dumps(k))
            for j, item in enumerate(v):
                lines.append("    %s%s" % (json.dumps(item, ensure_ascii=False),
                                          "," if j < len(v) - 1 else ""))
            lines.append("  ]%s" % end)
        else:
            lines.append("  %s: %s%s" % (json.dumps(k), json.dumps(v, ensure_ascii=False), end))
    lines.append("}")
    return "\n".join(lines)


def all_screens():
    """Every corpus file the oracle reads (ios/ and android/; other/ holds
    formats that are not inputs, and the 2016 WebDriverAgent JSON is a
    schema the spec does not name)."""
    out = []
    seen = set()
    for root in CORPUS_ROOTS:
        for sub in ("ios", "android"):
            d = os.path.join(root, sub)
            if not os.path.isdir(d):
                continue
            for name in sorted(os.listdir(d)):
                rel = sub + "/" + name
                if rel in seen or name in SKIPPED:
                    continue
                seen.add(rel)
                out.append(rel)
    return sorted(out)


SKIPPED = {
    # old WebDriverAgent /source?format=json (UIAutomation types): not one of
    # the formats cli.md names; see NOTES.md
    "idb_springboard_wda_json_iphone375x667.json",
}


# --------------------------------------------------------------------------
# Reading aids
# --------------------------------------------------------------------------

def show(rel):
    screen = read_any(corpus_path(rel))
    exposed = set(exposed_of(screen))
    acts = {a["element"]: a for a in activations_of(screen)}

    def line(n, depth):
        x1, y1, x2, y2 = n.rect
        flags = []
        if screen.platform == "ios":
            if n.is_element:
                flags.append("EL")
            lab = n.attrs.get("label") or n.attrs.get("AXLabel") or ""
            name = n.attrs.get("name") or n.attrs.get("AXUniqueId") or ""
            vis = n.attrs.get("visible")
            extra = "name=%r label=%r%s" % (name, lab, " vis=false" if vis == "false" else "")
        else:
            if not n.visible:
                flags.append("HIDDEN")
            if not n.in_tb:
                flags.append("unimp")
            if not n.enabled:
                flags.append("DISABLED")
            flags.extend(sorted(n.actions))
            if adjustable(n):
                flags.append("ADJ")
            rid = n.attrs.get("resource-id") or n.attrs.get("resource_id") or ""
            extra = "label=%r rid=%s%s" % (n.label[:50], rid.split("/")[-1] if rid else "",
                                           " do=%s" % n.drawing_order if n.drawing_order is not None else "")
        mark = ""
        if n in exposed:
            a = acts[n.id]
            mark = " <<EXPOSED %s%s>>" % (a["status"], "" if a["status"] == "ok" else " " + str(a["receiver"]))
        print("%s%s [%s,%s][%s,%s] %s %s%s" % ("  " * depth, n.id, x1, y1, x2, y2,
                                              " ".join(flags), extra, mark))

    if screen.platform == "android":
        talkback_tree(screen)
        order = {n.id: i for i, n in enumerate(android_order(screen))}
    else:
        order = {}

    def rec(n, depth):
        if n.id in order:
            print("%5d " % order[n.id], end="")
        elif screen.platform == "android":
            print("      ", end="")
        line(n, depth)
        for c in n.children:
            rec(c, depth + 1)

    for r in tree_roots(screen):
        rec(r, 0)


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    if argv[0] == "--show":
        for rel in argv[1:]:
            show(rel)
        return 0
    if argv[0] == "--hit":
        screen = read_any(corpus_path(argv[1]))
        p = [float(argv[2]), float(argv[3])]
        h = hit_of(screen, p)
        print("hit", h.id if h else None)
        if screen.platform == "android":
            t = android_touch(screen, p)
            print("touch", t.id if t else None)
        return 0
    rels = all_screens() if argv[0] == "--all" else argv
    os.makedirs(EXPECTATIONS, exist_ok=True)
    problems = []
    for rel in rels:
        if not os.path.exists(os.path.join(POINTS, stem(rel) + ".json")):
            print("%-75s no hand-checked points yet: skipped" % rel)
            continue
        doc, mism = build(rel)
        problems.extend(mism)
        write_json(os.path.join(EXPECTATIONS, stem(rel) + ".json"), doc)
        counts = {}
        for a in doc["activations"]:
            counts[a["status"]] = counts.get(a["status"], 0) + 1
        print("%-75s exposed %3d  %s  hits %d" % (rel, len(doc["exposed"]),
              " ".join("%s %d" % (k, counts[k]) for k in sorted(counts)), len(doc["hits"])))
    for m in problems:
        print("MISMATCH " + m, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
