"""PAPI's messages once per job (test/mpi/library_version.c on 4 ranks with
counters a machine lacks): a preset PAPI knows but this machine cannot
count is "exists but is not available on this machine (see papi_avail)"
(or, with PAPI's perf_event component off, that component's reason), an
unknown name is "unknown event (PAPI: ...)"; each is said once for the
whole job, by rank 0, and every rank's profile lists both as unavailable.
PAPI_L1_DCM needs a hardware PMU: run where one exists, it would be
counted, and the test says so and stops."""
import os
from mpilib import *

require_launcher()
if os.environ.get("HT_PAPI") != "yes":
    print("SKIP: built without PAPI")
    finish()

N = 4
PRESET, UNKNOWN = "PAPI_L1_DCM", "NOPE_EVENT"
EXPECTED = {
    PRESET: ("exists but is not available on this machine (see papi_avail)",
             "the perf_event component is disabled: "),
    UNKNOWN: ("unknown event (PAPI: ",),
}
for disable in ("", "perf_event"):
    env = {"HOOKTRACE_PAPI_DISABLE": disable} if disable else {}
    r = mpirun(mpi_program("library_version"), N, config={"counters": [PRESET, UNKNOWN],
                                                             "mpi": {"rank_files": "all"}},
               env=env)
    check_status(r, 0, "library_version")
    what = "perf_event off: " if disable else ""
    summary = r.summary()
    unavailable = dict((u["event"], u["reason"])
                       for u in summary.doc.get("counters", {}).get("unavailable", []))
    if PRESET not in unavailable:
        print("SKIP: this machine counts %s (it has a hardware PMU)" % PRESET)
        finish()
    for event, prefixes in EXPECTED.items():
        reason = unavailable.get(event, "")
        check(any(reason.startswith(p) for p in prefixes), what + "%s: %s" % (event, reason))
        # A machine whose PAPI finds no PMU at all disables perf_event by
        # itself ("libpfm4 no default PMU found"): that reason is the one.
        if not disable and event == PRESET and not reason.startswith(prefixes[1]):
            check_eq(reason, prefixes[0], what + "the preset's reason")
        line = "hooktrace: counter %s: %s; not counted" % (event, reason)
        check_eq(r.stderr.split("\n").count(line), 1, what + "said once in the job: " + line)
    check_eq(sum(1 for l in r.stderr.split("\n") if l.startswith("hooktrace: counter ")), 2,
             what + "two lines about counters in all")
    for rank in range(N):
        p = r.rank_profile(rank)
        listed = dict((u["event"], u["reason"])
                      for u in (p.doc.get("counters", {}).get("unavailable", []) if p else []))
        check_eq(listed, unavailable, what + "rank %d lists the same events" % rank)
finish()
