"""Reading a trace back with otf2-print (the reference reader of the OTF2
library), for the trace-mode tests."""
import collections
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.environ.get("HT_TOP_SRCDIR", "."), "test", "integration"))
from htlib import check  # noqa: E402

EVENT = re.compile(r"^(\w+)\s+(\d+)\s+(\d+)\s*(.*)$")
REGION = re.compile(r'Region: "([^"]*)"')
# "Receiver: 1 ("rank 1 thread 0" <1>)": the peer as a reader maps it, through
# the communicator's group and the COMM_LOCATIONS group, to a location.
PEER = re.compile(r'(?:Receiver|Sender): \d+ \("[^"]*" <(\d+)>\)')
REQUEST = re.compile(r"Request: (\d+)")


class Trace:
    def __init__(self, anchor):
        self.anchor = anchor
        proc = subprocess.run(["otf2-print", anchor], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True, timeout=300)
        self.print_status = proc.returncode
        self.print_stderr = proc.stderr
        self.events = []  # (kind, location, timestamp, attributes)
        for line in proc.stdout.splitlines():
            m = EVENT.match(line)
            if m and m.group(1) != "Event":
                self.events.append((m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)))
            elif line.strip().startswith("ADDITIONAL ATTRIBUTES:") and self.events:
                # an event's attributes, on the line after it
                k, loc, ts, attrs = self.events[-1]
                self.events[-1] = (k, loc, ts, attrs + " " + line.strip())
        defs = subprocess.run(["otf2-print", "-G", anchor], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True, timeout=300)
        self.defs_status = defs.returncode
        self.definitions = defs.stdout

    def enters(self):
        """{region name: Enter events}"""
        return collections.Counter(REGION.search(a).group(1) for k, _, _, a in self.events
                                   if k == "ENTER")

    def locations(self):
        return sorted({loc for _, loc, _, _ in self.events})

    def check_nesting(self):
        """Per location: time never goes back, and every Leave closes the
        innermost open Enter of the same region; all closed at the end."""
        stacks = collections.defaultdict(list)
        last = {}
        ok = True
        for kind, loc, ts, attrs in self.events:
            if ts < last.get(loc, 0):
                ok = check(False, "location %d: time goes back to %d after %d" % (loc, ts, last[loc]))
            last[loc] = ts
            if kind == "ENTER":
                stacks[loc].append(REGION.search(attrs).group(1))
            elif kind == "LEAVE":
                region = REGION.search(attrs).group(1)
                top = stacks[loc].pop() if stacks[loc] else None
                if top != region:
                    ok = check(False, "location %d: Leave %s closes %s" % (loc, region, top))
        for loc, stack in stacks.items():
            if stack:
                ok = check(False, "location %d: still open at the end: %r" % (loc, stack))
        return ok

    def sends(self):
        """{(sender rank, receiver rank): messages}: MpiSend and MpiIsend events,
        minus Isends whose request was cancelled."""
        cancelled = {(loc, int(REQUEST.search(a).group(1)))
                     for k, loc, _, a in self.events if k == "MPI_REQUEST_CANCELLED"}
        cells = collections.Counter()
        for kind, loc, _, attrs in self.events:
            if kind not in ("MPI_SEND", "MPI_ISEND"):
                continue
            if kind == "MPI_ISEND" and (loc, int(REQUEST.search(attrs).group(1))) in cancelled:
                continue
            receiver = int(PEER.search(attrs).group(1))
            cells[(loc & 0xffffffff, receiver & 0xffffffff)] += 1
        return cells

    def count(self, kind):
        return sum(1 for k, _, _, _ in self.events if k == kind)


def profile_calls_by_name(profile):
    """{function name: calls over every stack, thread and rank}"""
    calls = collections.Counter()
    for s in profile.doc["stacks"]:
        calls[s["path"][-1]] += s["calls"]
    return calls
