#!/usr/bin/env python3
"""The HTML report as a user sees it (issue 38: a screenshot in CI).
Chromium draws the page of a 5-thread run (test/programs/threads.c) with
its call tree expanded (#tree=all) in a 1,280 x 1,600 window and saves a
PNG; a second load in the same window says where things were laid out,
and the picture must show them there:

- the summary, then the thread selector, then the call tree, then the
  flame graph, each inside the picture and none past its right edge;
- a tree row per call stack of the JSON, each with its text drawn (dark
  pixels in the row's box);
- each flame-graph frame wide enough to hold a pixel of its own painted
  in its fill colour, as its opacity blends it over the background.

The PNG stays in the run's directory when a check fails, for a look.
Skipped (77) without chromium, or without a python3 that imports PIL."""
import json
import os

import browser
from htlib import check, check_eq, finish, program, run

browser.chromium()
browser.image_python()
WIDTH, HEIGHT = 1280, 1600

# Each box is [left, top, width, height] in CSS pixels, one per device
# pixel (browser._draw); a frame's colour is its computed fill, opacity
# (fill-opacity x opacity) and the first opaque background behind it.
LAYOUT = """
function box(e) { var r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; }
function behind(e) {
  for (; e; e = e.parentElement) {
    var c = getComputedStyle(e).backgroundColor;
    if (c !== "rgba(0, 0, 0, 0)" && c !== "transparent") return c;
  }
  return "rgb(255, 255, 255)";
}
var parts = {};
["ht-summary", "ht-thread-view", "ht-tree", "ht-flame"].forEach(function (id) {
  parts[id] = box(document.getElementById(id));
});
var svg = document.querySelector("#ht-flame svg");
return {
  parts: parts,
  rows: Array.prototype.map.call(document.querySelectorAll("#ht-tree tr[data-stack]"), function (r) {
    return [Number(r.getAttribute("data-stack")), box(r)];
  }),
  frames: Array.prototype.map.call(document.querySelectorAll("#ht-flame svg g rect"), function (r) {
    var s = getComputedStyle(r);
    return [box(r), s.fill, parseFloat(s.fillOpacity) * parseFloat(s.opacity)];
  }),
  background: svg ? behind(svg) : null
};
"""


def rgb(text):
    """[r, g, b] of a computed colour 'rgb(r, g, b)'."""
    return [int(v) for v in text[text.index("(") + 1:text.index(")")].split(",")[:3]]


r = run(program("threads"))
check_eq(r.returncode, 0, "threads: exit status")
doc = json.loads(r.text(".json"))
check(doc["threads"] > 1, "threads.c records several threads (%d)" % doc["threads"])
png = os.path.join(r.directory, "threads.png")
layout = browser.picture(r.path(".html"), png, WIDTH, HEIGHT, LAYOUT, "tree=all")
if layout is not None:
    parts = layout["parts"]
    order = ["ht-summary", "ht-thread-view", "ht-tree", "ht-flame"]
    tops = [parts[p][1] for p in order]
    check_eq(tops, sorted(tops), "from the top: the summary, the thread selector, the call tree, "
             "the flame graph: %r" % tops)
    for p in order:
        left, top, width, height = parts[p]
        check(height > 0 and left >= 0 and left + width <= WIDTH and top + height <= HEIGHT,
              "%s drawn inside the %d x %d picture: %r" % (p, WIDTH, HEIGHT, parts[p]))
    check_eq(sorted(sid for sid, _ in layout["rows"]), sorted(s["id"] for s in doc["stacks"]),
             "#tree=all: a tree row per call stack of the JSON")
    frames = [(b, rgb(fill), alpha) for b, fill, alpha in layout["frames"] if b[2] >= 4 and b[3] >= 4]
    check(len(frames) >= 3, "the flame graph draws frames of 4 px or more: %d" % len(frames))
    shot = browser.pixels(png, [[b[0] + 2, b[1] + 2] for b, _, _ in frames],
                          [parts["ht-summary"], parts["ht-thread-view"]] + [b for _, b in layout["rows"]])
    if shot is not None:
        check_eq(shot["size"], [WIDTH, HEIGHT], "the screenshot's size")
        summary, selector, rows = shot["dark"][0], shot["dark"][1], shot["dark"][2:]
        check(summary >= 500, "the summary's text is drawn: %d dark pixels" % summary)
        check(selector >= 50, "the thread selector's text is drawn: %d dark pixels" % selector)
        for (sid, b), dark in zip(layout["rows"], rows):
            check(dark >= 40, "tree row of stack %d: its text drawn, %d dark pixels" % (sid, dark))
        background = rgb(layout["background"])
        for (b, fill, alpha), got in zip(frames, shot["points"]):
            want = [round(alpha * f + (1 - alpha) * g) for f, g in zip(fill, background)]
            check(all(abs(x - y) <= 6 for x, y in zip(got, want)),
                  "the frame at (%d, %d) is painted %r: its fill %r at opacity %.2f over %r"
                  % (b[0], b[1], got, fill, alpha, background))
        print("screenshot: %s" % png)
finish()
