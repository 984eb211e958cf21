#!/usr/bin/env python3
"""No page of hooktrace's scrolls sideways in a window 1,280 pixels wide
(issue 38): the report of a run with long C++ names, --compare's page of
two runs with their whole metadata (the config of every option), --scaling's
page, and the analyzer's page of an archive under a long path.  Each is
loaded in headless chromium, which gives document.documentElement's
scrollWidth: at most its clientWidth (1,280, scrollbars hidden).
Skipped (77) without chromium."""
import json
import os
import subprocess
import sys

import browser
from htlib import BUILDDIR, HAVE_OTF2, check, check_eq, finish, program, run, run_directory

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "analyze"))
import analyzelib  # noqa: E402
from comparelib import write_profile  # noqa: E402

browser.chromium()
TOOL = os.path.join(BUILDDIR, "hooktrace-report")
WIDTH = 1280


def tool(*args):
    return subprocess.run([TOOL] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True).returncode


def fits(path, what, fragment=""):
    got = browser.page_width(path, WIDTH, fragment)
    if got is not None:
        check(got[0] <= got[1] <= WIDTH, "%s: no horizontal overflow at %d px (scrollWidth %d, "
              "clientWidth %d)" % (what, WIDTH, got[0], got[1]))


# the report: a run's C++ names, the longest over 150 characters
r = run(program("cxx_long_names"))
check_eq(r.returncode, 0, "cxx_long_names: exit status")
doc = json.loads(r.text(".json"))
longest = max(len(f["name"]) for f in doc["functions"])
check(longest > 150, "cxx_long_names has a name of %d characters" % longest)
fits(r.path(".html"), "the report")
fits(r.path(".html"), "the report, its call tree expanded", "tree=all")

# --compare: two runs, their metadata whole (every option of the config)
a = run(program("basic"))
b = run(program("basic"))
meta = json.loads(a.text(".json")).get("metadata")
check(isinstance(meta, dict) and isinstance(meta.get("config"), dict),
      "a run's metadata holds its config")
out = os.path.join(a.directory, "compare.html")
check_eq(tool("--compare", a.path(".json"), b.path(".json"), "-o", out), 0, "--compare: exit status")
fits(out, "--compare's page")
page, errors, page_errors = browser.load(out)
if page is not None:
    browser.expect_no_errors(errors, page_errors, "--compare's page")
    meta_row = page.find_all("tr", data_field="metadata")
    folded = meta_row[0].find_all("details", data_key="config") if meta_row else []
    check_eq(len(folded), 2, "--compare's page: each run's config folded in a <details>")
    check(folded != [] and folded[0].find_all("summary")[0].text.startswith("config ("),
          "--compare's page: the folded config's summary gives its key and length")

# --scaling: summaries at 1, 2 and 4 ranks with the same metadata
d = run_directory("hooktrace-width-")
name = "ns::Solver<std::vector<double,std::allocator<double>>,ns::Policy<4>>::run(" + "x" * 200 + ")"
profiles = [write_profile(d, "p%d" % n, [(["main"], n, 10.0 / n, 1.0 / n, {}),
                                          (["main", name], n, 9.0 / n, 9.0 / n, {})],
                          ranks=n, metadata=meta) for n in (1, 2, 4)]
out = os.path.join(d, "scaling.html")
check_eq(tool("--scaling", *profiles, "-o", out), 0, "--scaling: exit status")
fits(out, "--scaling's page")

# the analyzer's page of an archive under a path of 400 characters
if HAVE_OTF2:
    scenario = analyzelib.write("late_sender")
    deep = os.path.join(d, *(["a" * 100] * 4))
    os.makedirs(os.path.dirname(deep))
    os.rename(scenario, deep)
    out = os.path.join(d, "analyze.html")
    res = analyzelib.run(["-q", "--html", out, deep])
    check_eq((res.returncode, res.stderr), (0, ""), "hooktrace-analyze --html: exit status and stderr")
    fits(out, "the analyzer's page")
else:
    print("configure --without-otf2: the trace's checks skipped", file=sys.stderr)
finish()
