#!/usr/bin/env python3
"""Reads a screenshot for the browser tests (browser.pixels): run by an
interpreter that imports PIL, it takes the PNG's path as its argument and
{"points": [[x, y], ...], "boxes": [[left, top, width, height], ...]} on
stdin, and prints {"size": [width, height], "points": [[r, g, b], ...],
"dark": [pixels of each box darker than mid-grey, ...]}."""
import json
import sys

from PIL import Image

image = Image.open(sys.argv[1]).convert("RGB")
asked = json.load(sys.stdin)
dark = []
for left, top, width, height in asked["boxes"]:
    box = image.crop((int(left), int(top), int(left + width), int(top + height)))
    dark.append(sum(1 for r, g, b in box.getdata() if r + g + b < 3 * 128))
json.dump({"size": list(image.size), "points": [list(image.getpixel((int(x), int(y))))
                                                for x, y in asked["points"]], "dark": dark},
          sys.stdout)
