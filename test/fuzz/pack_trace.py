#!/usr/bin/env python3
"""pack_trace.py ARCHIVE_DIR OUT: packs an OTF2 archive written as
traces.otf2, traces.def and traces/<n>.evt|.def into one fuzz input for
test/fuzz/fuzz_trace.c (each file as "@@HT:<name>\\n" then its bytes)."""
import os
import sys

src, out = sys.argv[1], sys.argv[2]
names = ["traces.otf2", "traces.def"] + sorted(
    "traces/" + n for n in os.listdir(os.path.join(src, "traces")))
with open(out, "wb") as f:
    for name in names:
        with open(os.path.join(src, name), "rb") as part:
            f.write(b"@@HT:" + name.encode() + b"\n" + part.read())
