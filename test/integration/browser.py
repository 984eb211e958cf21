"""Loading hooktrace's HTML report in a real browser for the tests
(test/integration/report.py, test/mpi/report.py): Debian's chromium,
headless, runs the page's scripts and prints the DOM they built, which
parse_dom() turns into a list of elements with their attributes and text.
Errors are read twice: the page's own <pre id="ht-errors"> (uncaught
errors, rejected promises and console.error, caught by the page) and
chromium's log on stderr.  Standard library only, but for reading a
screenshot: pixels.py, run by an interpreter that imports PIL."""

import html.parser
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile

from htlib import check, check_eq  # noqa: F401

TIMEOUT = 90


def chromium():
    """chromium's path; skips the test (status 77) when it is absent."""
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    print("SKIP: chromium is not installed (apt-get install chromium; scripts/install-deps.sh)")
    sys.exit(77)


class Element:
    def __init__(self, tag, attrs, parent):
        self.tag = tag
        self.attrs = dict(attrs)
        self.parent = parent
        self.children = []
        self.parts = []

    @property
    def text(self):
        return "".join(p if isinstance(p, str) else p.text for p in self.parts)

    def get(self, name):
        return self.attrs.get(name)

    def find_all(self, tag=None, **attrs):
        """Descendants with this tag (None: any) whose attributes have these
        values (None: present); attribute names with _ for -."""
        out = []
        want = {k.replace("_", "-"): v for k, v in attrs.items()}
        for c in self.children:
            if (tag is None or c.tag == tag) and all(
                    (k in c.attrs) if v is None else c.attrs.get(k) == v for k, v in want.items()):
                out.append(c)
            out.extend(c.find_all(tag, **attrs))
        return out

    def by_id(self, ident):
        found = self.find_all(id=ident)
        return found[0] if found else None


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


class _Parser(html.parser.HTMLParser):
    def __init__(self):
        html.parser.HTMLParser.__init__(self, convert_charrefs=True)
        self.root = Element("#document", [], None)
        self.current = self.root

    def handle_starttag(self, tag, attrs):
        e = Element(tag, [(k, v if v is not None else "") for k, v in attrs], self.current)
        self.current.children.append(e)
        self.current.parts.append(e)
        if tag not in VOID:
            self.current = e

    def handle_startendtag(self, tag, attrs):
        e = Element(tag, [(k, v if v is not None else "") for k, v in attrs], self.current)
        self.current.children.append(e)
        self.current.parts.append(e)

    def handle_endtag(self, tag):
        e = self.current
        while e is not self.root and e.tag != tag:
            e = e.parent
        if e is not self.root:
            self.current = e.parent

    def handle_data(self, data):
        self.current.parts.append(data)


def parse_dom(text):
    p = _Parser()
    p.feed(text)
    p.close()
    return p.root


# What a page holds at its load event, written into <body data-probe-*>
# attributes by a script load(probe=True) adds to a copy of the page (the
# dumped DOM is the one after chromium's virtual time budget, when every
# transition has ended): the frames of the flame graph and how many of them
# are drawn (a width), and the page's width against the window's.
PROBE = """<script>
window.addEventListener("load", function () {
  var b = document.body, se = document.scrollingElement;
  var rects = document.querySelectorAll("#ht-flame svg g rect"), drawn = 0;
  rects.forEach(function (r) { if (parseFloat(r.getAttribute("width")) > 0) drawn++; });
  b.setAttribute("data-probe-rects", rects.length);
  b.setAttribute("data-probe-drawn", drawn);
  b.setAttribute("data-probe-scroll-width", se.scrollWidth);
  b.setAttribute("data-probe-client-width", se.clientWidth);
});
</script>
"""


def load(path, fragment="", width=1200, probe=False, script=None):
    """Loads the page at path (with #fragment) in headless chromium, in a
    window `width` pixels wide; with probe, a copy with PROBE added; with
    script (JavaScript text), a copy that runs it after the page's own
    scripts (it clicks, types, and writes what it saw into the DOM).
    Returns (document, chromium's error lines, the page's #ht-errors text);
    document is None if chromium failed."""
    exe = chromium()
    if probe or script:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        added = (PROBE if probe else "") + ("<script>\n%s\n</script>\n" % script if script else "")
        path = path + ".probe.html"
        with open(path, "w", encoding="utf-8") as f:
            f.write(text.replace("</body>", added + "</body>"))
    profile_dir = tempfile.mkdtemp(prefix="hooktrace-chromium-")
    url = "file://" + os.path.abspath(path) + (("#" + fragment) if fragment else "")
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
           "--user-data-dir=" + profile_dir, "--virtual-time-budget=5000",
           "--window-size=%d,900" % width, "--enable-logging=stderr", "--v=0", "--dump-dom", url]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            universal_newlines=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        check(False, "chromium loaded %s within %d s" % (url, TIMEOUT))
        return None, [], ""
    finally:
        shutil.rmtree(profile_dir, ignore_errors=True)
    if not check_eq(proc.returncode, 0, "chromium's exit status on %s (stderr: %s)"
                    % (url, err.strip()[-2000:])):
        return None, [], ""
    # The page's console lands in the log as INFO:CONSOLE lines; an error
    # of the page's scripts says "Uncaught".
    errors = [line for line in err.splitlines()
              if "Uncaught" in line or ("CONSOLE" in line and "rror" in line)]
    doc = parse_dom(out)
    box = doc.by_id("ht-errors")
    check(box is not None, "the page has #ht-errors")
    check(doc.find_all("body", data_ht_ready="1") != [], "the page's script ran to its end")
    return doc, errors, box.text if box is not None else ""


WIDTH_PROBE = """<script>
window.addEventListener("load", function () {
  var d = document.documentElement;
  d.setAttribute("data-probe-scroll-width", d.scrollWidth);
  d.setAttribute("data-probe-client-width", d.clientWidth);
});
</script>
"""


def page_width(path, width=1280, fragment=""):
    """Any page of hooktrace's (the report, --compare's and --scaling's,
    the analyzer's, which has no script of its own) in a window `width`
    pixels wide: (document.documentElement's scrollWidth, its clientWidth),
    or None if chromium failed."""
    exe = chromium()
    with open(path, encoding="utf-8") as f:
        text = f.read()
    probed = path + ".width.html"
    with open(probed, "w", encoding="utf-8") as f:
        f.write(text.replace("</body>", WIDTH_PROBE + "</body>", 1))
    url = "file://" + os.path.abspath(probed) + (("#" + fragment) if fragment else "")
    drawn = _draw(exe, url, width, 900, "--dump-dom")
    if drawn is None or not check_eq(drawn[0], 0, "chromium's exit status on %s" % url):
        return None
    html = parse_dom(drawn[1]).find_all("html")
    if not check(html != [] and html[0].get("data-probe-scroll-width") is not None,
                 "the width probe ran on %s" % url):
        return None
    return int(html[0].get("data-probe-scroll-width")), int(html[0].get("data-probe-client-width"))


def _draw(exe, url, width, height, *output):
    """chromium with the flags a picture and its layout both need (the same
    window, no scrollbars, one device pixel per CSS pixel); `output` is
    --dump-dom or --screenshot=FILE.  (status, stdout) or None on a
    timeout."""
    profile_dir = tempfile.mkdtemp(prefix="hooktrace-chromium-")
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
           "--user-data-dir=" + profile_dir, "--virtual-time-budget=5000",
           "--window-size=%d,%d" % (width, height), "--hide-scrollbars",
           "--force-device-scale-factor=1"] + list(output) + [url]
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, timeout=TIMEOUT, start_new_session=True)
    except subprocess.TimeoutExpired:
        check(False, "chromium drew %s within %d s" % (url, TIMEOUT))
        return None
    finally:
        shutil.rmtree(profile_dir, ignore_errors=True)
    return proc.returncode, proc.stdout


def picture(path, png, width, height, script, fragment=""):
    """The page at path as chromium draws it in a width x height window:
    a screenshot saved as png, and its layout: `script` (the body of a
    function run once the page has settled, 3 s of virtual time after its
    load) returns a JSON-able value describing it, read from a second load
    in the same window.  Returns that value, or None if chromium failed."""
    exe = chromium()
    url = "file://" + os.path.abspath(path) + (("#" + fragment) if fragment else "")
    drawn = _draw(exe, url, width, height, "--screenshot=" + png)
    if drawn is None or not check_eq(drawn[0], 0, "chromium's screenshot of " + url):
        return None
    with open(path, encoding="utf-8") as f:
        text = f.read()
    probed = path + ".layout.html"
    with open(probed, "w", encoding="utf-8") as f:
        f.write(text.replace("</body>", LAYOUT_PROBE % script + "</body>", 1))
    laid = _draw(exe, "file://" + os.path.abspath(probed) + (("#" + fragment) if fragment else ""),
                 width, height, "--dump-dom")
    if laid is None or not check_eq(laid[0], 0, "chromium's layout of " + url):
        return None
    body = parse_dom(laid[1]).find_all("body")
    value = body[0].get("data-probe-layout") if body else None
    if not check(value is not None, "the layout probe ran on " + url):
        return None
    return json.loads(value)


LAYOUT_PROBE = """<script>
window.addEventListener("load", function () {
  setTimeout(function () {
    document.body.setAttribute("data-probe-layout", JSON.stringify((function () { %s })()));
  }, 3000);
});
</script>
"""


def image_python():
    """An interpreter that imports PIL (python3-pil) to read screenshots:
    this one, or Debian's; skips the test (77) when there is none."""
    for exe in (sys.executable, "/usr/bin/python3"):
        if exe and os.access(exe, os.X_OK) and subprocess.run(
                [exe, "-c", "import PIL.Image"], stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL).returncode == 0:
            return exe
    print("SKIP: no python3 imports PIL (apt-get install python3-pil; scripts/install-deps.sh)")
    sys.exit(77)


def pixels(png, points, boxes):
    """What the screenshot png shows (test/integration/pixels.py, run by an
    interpreter with PIL): {"size": [w, h], "points": the [r, g, b] at
    each [x, y], "dark": per [left, top, width, height] box, its pixels
    darker than mid-grey (text)}."""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pixels.py")
    proc = subprocess.run([image_python(), script, png], input=json.dumps(
        {"points": points, "boxes": boxes}), stdout=subprocess.PIPE, universal_newlines=True)
    check_eq(proc.returncode, 0, "pixels.py on " + png)
    return json.loads(proc.stdout) if proc.returncode == 0 else None


# The members the page leaves out of the profile it embeds (src/output/html.c).
LEFT_OUT = {"": ("mpi_t", "thread_tids", "thread_groups", "uninstrumented"),
            "throttle": ("exclude_symbols", "exclude_function_list"),
            "functions[]": ("file", "line"), "stacks[]": ("threads", "ranks", "pvars")}


def lean(doc):
    """The profile as the page embeds it: stacks[].threads kept when the
    profile has more than one thread (the thread selector reads them)."""
    out = {k: v for k, v in doc.items() if k not in LEFT_OUT[""]}
    several = isinstance(doc.get("threads"), int) and doc["threads"] > 1
    if isinstance(out.get("throttle"), dict):
        out["throttle"] = {k: v for k, v in out["throttle"].items() if k not in LEFT_OUT["throttle"]}
    for field in ("functions", "stacks"):
        if isinstance(out.get(field), list):
            out[field] = [{k: v for k, v in e.items() if k not in LEFT_OUT[field + "[]"]
                           or (several and field == "stacks" and k == "threads")}
                          for e in out[field]]
    return out


def embedded(path):
    """The profile JSON embedded in the page at path, as text."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    start = text.find('<script type="application/json" id="ht-profile">')
    return text[start:].split(">", 1)[1].split("</script>", 1)[0] if start >= 0 else ""


def menu(page):
    """The page's menu: the section ids its links point to, in order."""
    nav = page.by_id("ht-nav")
    return [a.get("href").lstrip("#") for a in nav.find_all("a")] if nav is not None else None


def shown_sections(page):
    """The ids of the page's sections that are not hidden, in order."""
    return [s.get("id") for s in page.find_all("section") if s.get("hidden") is None]


def check_menu(page, expected, what):
    """The menu links exactly the sections expected, which are the ones
    shown (hidden: those with nothing to show)."""
    check_eq(shown_sections(page), expected, "%s: the sections shown" % what)
    check_eq(menu(page), expected, "%s: a menu entry per section shown, none else" % what)


def expect_no_errors(errors, page_errors, what):
    check_eq(page_errors, "", "%s: errors caught by the page (#ht-errors)" % what)
    check_eq(errors, [], "%s: error lines in chromium's log" % what)
