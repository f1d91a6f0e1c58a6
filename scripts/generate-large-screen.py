#!/usr/bin/env python3
"""A large axhit/1 screen for timing whole-screen passes (activate, audit).

usage: scripts/generate-large-screen.py CELLS > screen.json

A square grid of CELLS cells, four exposed elements each (an icon view, a
label element node, a caption view overlapping the label, a 30x30 button),
so 4 x CELLS exposed elements. Every tenth cell has a touchable badge in
front of its button (a cover: GEOS difference), every hundredth cell is
rotated by 5 degrees (polygonal regions). Deterministic: no randomness.
"""
import json
import math
import sys

cells = int(sys.argv[1]) if len(sys.argv) > 1 else 25000
side = math.ceil(math.sqrt(cells))
size = 80
extent = side * size
children = []
for k in range(cells):
    x, y = (k % side) * size, (k // side) * size
    cell = {"id": f"cell{k}", "frame": [x, y, size, size], "children": [
        {"id": f"icon{k}", "frame": [4, 4, 32, 32], "isAccessibilityElement": True,
         "accessibilityTraits": ["image"]},
        {"id": f"label{k}", "kind": "element", "accessibilityFrameInContainerSpace": [40, 4, 36, 20],
         "accessibilityTraits": ["staticText"]},
        {"id": f"caption{k}", "frame": [40, 16, 36, 16], "isAccessibilityElement": True,
         "accessibilityTraits": ["staticText"]},
        {"id": f"button{k}", "frame": [44, 44, 30, 30], "isAccessibilityElement": True,
         "accessibilityTraits": ["button"]},
    ]}
    if k % 10 == 0:
        cell["children"].append({"id": f"badge{k}", "frame": [64, 40, 14, 14]})
    if k % 100 == 0:
        a = math.radians(5)
        cell["transform"] = [math.cos(a), math.sin(a), -math.sin(a), math.cos(a), 0, 0]
    children.append(cell)
tree = {"format": "axhit/1", "screen": {"bounds": [0, 0, extent, extent], "scale": 1},
        "root": {"id": "window", "frame": [0, 0, extent, extent], "children": children}}
json.dump(tree, sys.stdout, separators=(",", ":"))
