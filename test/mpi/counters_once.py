"""PAPI's messages once per job (test/mpi/library_version.c on 4 ranks with
counters a machine lacks): a preset PAPI knows but this machine cannot
count is "exists but is not available on this machine (see papi_avail)"
(or, with PAPI's perf_event component off, that component's reason), an
unknown name is "unknown event (PAPI: ...)"; each is said once for the
whole job, by rank 0, and every rank's profile lists both as unavailable.

With the real PAPI as the machine has it (PAPI_L1_DCM needs a hardware PMU:
where one exists it is counted, and those runs say so and check no more),
then with test/papi_stub's stand-in for libpapi (htlib.papi_stub), which
finds the same on every machine: no PMU, the exact reasons; and the
perf_event component disabled."""
import os
from mpilib import *
from htlib import papi_stub

require_launcher()
if os.environ.get("HT_PAPI") != "yes":
    print("SKIP: built without PAPI")
    finish()

N = 4
UNKNOWN = "NOPE_EVENT"
AVAILABLE_NOT = "exists but is not available on this machine (see papi_avail)"
DISABLED = "the perf_event component is disabled: "
RUNS = [  # what, environment, the preset, {event: the reasons it may have}
    ("", {}, "PAPI_L1_DCM",
     {"PAPI_L1_DCM": (AVAILABLE_NOT, DISABLED), UNKNOWN: ("unknown event (PAPI: ",)}),
    ("perf_event off: ", {"HOOKTRACE_PAPI_DISABLE": "perf_event"}, "PAPI_L1_DCM",
     {"PAPI_L1_DCM": (AVAILABLE_NOT, DISABLED), UNKNOWN: ("unknown event (PAPI: ",)}),
    ("stub PAPI, no PMU: ", papi_stub(""), "PAPI_TOT_INS",
     {"PAPI_TOT_INS": (AVAILABLE_NOT,), UNKNOWN: ("unknown event (PAPI: Not supported by component)",)}),
    ("stub PAPI, perf_event disabled: ", papi_stub("perf_disabled"), "PAPI_TOT_INS",
     {"PAPI_TOT_INS": (DISABLED + "stub: perf_event_paranoid is 4",),
      UNKNOWN: ("unknown event (PAPI: Not supported by component)",)}),
]
for what, env, preset, expected in RUNS:
    stub = "HT_PAPI_STUB" in env
    r = mpirun(mpi_program("library_version"), N, config={"counters": [preset, UNKNOWN],
                                                             "mpi": {"rank_files": "all"}},
               env=env)
    check_status(r, 0, what + "library_version")
    summary = r.summary()
    unavailable = dict((u["event"], u["reason"])
                       for u in summary.doc.get("counters", {}).get("unavailable", []))
    if preset not in unavailable and not stub:
        print("note: %sthis machine counts %s (it has a hardware PMU)" % (what, preset))
        continue
    for event, reasons in expected.items():
        reason = unavailable.get(event, "")
        if stub:  # exactly
            check_eq(reason, reasons[0], what + event)
        else:
            check(any(reason.startswith(p) for p in reasons), what + "%s: %s" % (event, reason))
        # A machine whose PAPI finds no PMU at all disables perf_event by
        # itself ("libpfm4 no default PMU found"): that reason is the one.
        if not stub and event == preset and not reason.startswith(DISABLED):
            check_eq(reason, AVAILABLE_NOT, what + "the preset's reason")
        line = "hooktrace: counter %s: %s; not counted" % (event, reason)
        check_eq(r.stderr.split("\n").count(line), 1, what + "said once in the job: " + line)
    check_eq(sum(1 for l in r.stderr.split("\n") if l.startswith("hooktrace: counter")), 2,
             what + "two lines about counters in all")
    for rank in range(N):
        p = r.rank_profile(rank)
        listed = dict((u["event"], u["reason"])
                      for u in (p.doc.get("counters", {}).get("unavailable", []) if p else []))
        check_eq(listed, unavailable, what + "rank %d lists the same events" % rank)
finish()
