"""Loading hooktrace's HTML report in a real browser for the tests
(test/integration/report.py, test/mpi/report.py): Debian's chromium,
headless, runs the page's scripts and prints the DOM they built, which
parse_dom() turns into a list of elements with their attributes and text.
Errors are read twice: the page's own <pre id="ht-errors"> (uncaught
errors, rejected promises and console.error, caught by the page) and
chromium's log on stderr.  Standard library only."""

import html.parser
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


def load(path, fragment=""):
    """Loads the page at path (with #fragment) in headless chromium.
    Returns (document, chromium's error lines, the page's #ht-errors text);
    document is None if chromium failed."""
    exe = chromium()
    profile_dir = tempfile.mkdtemp(prefix="hooktrace-chromium-")
    url = "file://" + os.path.abspath(path) + (("#" + fragment) if fragment else "")
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
           "--user-data-dir=" + profile_dir, "--virtual-time-budget=5000",
           "--window-size=1200,900", "--enable-logging=stderr", "--v=0", "--dump-dom", url]
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


def expect_no_errors(errors, page_errors, what):
    check_eq(page_errors, "", "%s: errors caught by the page (#ht-errors)" % what)
    check_eq(errors, [], "%s: error lines in chromium's log" % what)
