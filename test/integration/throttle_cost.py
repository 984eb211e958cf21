#!/usr/bin/env python3
"""Throttling decides by cost (docs/throttle.md, "The rule"), on
test/programs/throttle_cost.c.  The threshold is the hook pair cost over
throttle.budget; here HOOKTRACE_HOOK_NS_TEST fixes the cost at 20 ns (what
it measures on the development machine), so the threshold is exactly 1 us
with the default budget of 2%, whatever this machine measures.

- A kernel of 10,000 dependent multiply-adds (about 25 us a call here, so
  still 2.5 us on a machine 10 times faster) is called past min_calls: every
  call is counted and it is not throttled; a leaf of a few nanoseconds
  called as often is throttled at exactly min_calls + 1 calls.
- max_ns_per_call set in the config wins: at 1 ms (50 times the kernel)
  the kernel is throttled at min_calls + 1 too, as under a fixed threshold.
- The budget moves the threshold: at 0.0001 it is 200 us and the kernel is
  throttled.
- A hook cost out of [5, 200] ns is clamped, and the profile says so; a
  malformed HOOKTRACE_HOOK_NS_TEST is reported and ignored.
- The shape of an NPB LU solver (issue 35): a sweep of a few us called
  200,000 times, each followed by 100 calls of the leaf (20 million): with
  the default min_calls the sweep and the kernel it calls keep all their
  calls, and the leaf alone is throttled at 1,001.
- The later looks at 10 x and 100 x min_calls + 1: a function slow only in
  its first call (a 10 ms sleep) is kept at min_calls + 1 and throttled at
  10 x min_calls + 1; with a 100 ms sleep it is kept at both and throttled
  at 100 x min_calls + 1.

No assertion depends on a time: noise only lengthens calls, and every
function asserted kept is at least 2.5 times the threshold even on a much
faster machine, every one asserted throttled at least 5 times under it."""
import os
import subprocess

from htlib import check, check_eq, finish, program, run

EXE = program("throttle_cost")
MIN_CALLS = 20000
TINIES, KERNELS, ITERATIONS = MIN_CALLS + 5000, MIN_CALLS + 100, 10000
NEAR = ["near", str(TINIES), str(KERNELS), str(ITERATIONS)]
# LU's shape: SWEEPS sweeps of SWEEP_ITERATIONS (a few us here), TINY_CALLS
# calls of the leaf between them, min_calls at its default.
SWEEPS, TINY_CALLS, SWEEP_ITERATIONS = 200000, 20000000, 2000
SHAPE = ["shape", str(SWEEPS), str(TINY_CALLS), str(SWEEP_ITERATIONS)]
DEFAULT_MIN_CALLS = 1000
HOOK_20NS = {"HOOKTRACE_HOOK_NS_TEST": "20"}
# The runs' stderr must stay empty: no shut-down progress lines however
# slow the machine is.
OUTPUTS = {"progress_after_ms": 3600000}


def config(**throttle):
    return {"throttle": dict({"min_calls": MIN_CALLS}, **throttle), "outputs": OUTPUTS}


def plain_stdout(args):
    return subprocess.run([EXE] + args, env=dict(os.environ, HOOKTRACE_OFF="1"),
                          stdout=subprocess.PIPE, universal_newlines=True, timeout=300).stdout


def check_rule(p, what, threshold, source, budget=0.02, hook=20.0, measured=20.0, fixed=True,
               min_calls=MIN_CALLS):
    th = p.doc["throttle"]
    check_eq((th["enabled"], th["min_calls"], th["max_ns_per_call"], th["threshold_source"],
              th["budget"], th["hook_pair_ns"], th["hook_pair_ns_measured"], th["hook_pair_fixed"]),
             (True, min_calls, threshold, source, budget, hook, measured, fixed),
             what + ": the rule in the JSON (enabled, min_calls, max_ns_per_call, threshold_source, "
             "budget, hook_pair_ns, hook_pair_ns_measured, hook_pair_fixed)")


def check_near(r, what, kernel_throttled):
    check_eq(r.returncode, 0, what + ": exit status")
    check_eq(r.stdout, near_stdout, what + ": the program's output is unchanged")
    check_eq(r.stderr, "", what + ": nothing on stderr")
    p = r.profile()
    check_eq(p.calls("main;near;tiny"), MIN_CALLS + 1, what + ": tiny's calls up to its throttling")
    check_eq(p.stack("main;near;tiny").get("throttled"), True, what + ": tiny throttled")
    check_eq(p.calls("main;near;kernel"), MIN_CALLS + 1 if kernel_throttled else KERNELS,
             what + ": kernel's calls")
    check_eq(bool(p.stack("main;near;kernel").get("throttled")), kernel_throttled,
             what + ": kernel throttled")
    check_eq(p.doc["throttle"]["functions"], 2 if kernel_throttled else 1,
             what + ": functions throttled")
    check_eq((p.calls("main"), p.calls("main;near")), (1, 1), what + ": main and near")
    return p


near_stdout = plain_stdout(NEAR)
check(near_stdout.startswith("checksum "), "the program runs without hooktrace: %r" % near_stdout)

# 1. The rule: 20 ns / 2% = 1 us.  The kernel, some 25 times that, keeps
# every call; tiny, a few ns, is throttled.
r = run(EXE, NEAR, config=config(), env=HOOK_20NS)
p = check_near(r, "cost, 20 ns, 2%", kernel_throttled=False)
check_rule(p, "cost, 20 ns, 2%", 1000, "cost")
check_eq((p.doc["metadata"]["config"]["throttle"]["max_ns_per_call"],
          p.doc["metadata"]["config"]["throttle"]["budget"]), (None, 0.02),
         "the effective config: max_ns_per_call not set, budget 0.02")
log = r.text(".log")
check("throttling:      after %d calls at under 1.000 us per call; 1 function throttled (marked *)\n"
      "                 threshold: hook pair 20.0 ns (fixed by HOOKTRACE_HOOK_NS_TEST) / budget 2%%\n"
      % MIN_CALLS in log, "logfile: the threshold and what it came from:\n" + log[:1500])

# 2. max_ns_per_call wins over the cost: at 1 ms the kernel is throttled
# at min_calls + 1, as under TAU's fixed threshold.
r = run(EXE, NEAR, config=config(max_ns_per_call=1000000), env=HOOK_20NS)
p = check_near(r, "max_ns_per_call 1 ms", kernel_throttled=True)
check_rule(p, "max_ns_per_call 1 ms", 1000000, "config")
check_eq(p.doc["metadata"]["config"]["throttle"]["max_ns_per_call"], 1000000,
         "the effective config: max_ns_per_call")
log = r.text(".log")
check("throttling:      after %d calls at under 1000.000 us per call; 2 functions throttled (marked *)\n"
      "                 threshold: max_ns_per_call from the config; hook pair 20.0 ns (fixed by "
      "HOOKTRACE_HOOK_NS_TEST), 0.002%% of a call at the threshold\n" % MIN_CALLS in log,
      "logfile: the threshold from the config:\n" + log[:1500])

# 3. The budget moves the threshold: 20 ns / 0.01% = 200 us, 8 times the
# kernel.
r = run(EXE, NEAR, config=config(budget=0.0001), env=HOOK_20NS)
p = check_near(r, "budget 0.0001", kernel_throttled=True)
check_rule(p, "budget 0.0001", 200000, "cost", budget=0.0001)
check("threshold: hook pair 20.0 ns (fixed by HOOKTRACE_HOOK_NS_TEST) / budget 0.01%\n"
      in r.text(".log"), "logfile: budget 0.01%")

# 4. A hook cost outside [5, 200] ns is clamped (tiny alone is called: the
# kernel would be near the 10 us of the upper bound).
TINY_ONLY = ["near", str(TINIES), "0", "0"]
for value, hook, threshold in (("1", 5.0, 250), ("100000", 200.0, 10000)):
    r = run(EXE, TINY_ONLY, config=config(), env={"HOOKTRACE_HOOK_NS_TEST": value})
    what = "HOOKTRACE_HOOK_NS_TEST=%s" % value
    check_eq((r.returncode, r.stderr), (0, ""), what + ": exit status and stderr")
    p = r.profile()
    check_rule(p, what, threshold, "cost", hook=hook, measured=float(value))
    check_eq(p.calls("main;near;tiny"), MIN_CALLS + 1, what + ": tiny throttled at min_calls + 1")
    check("threshold: hook pair %.1f ns (fixed by HOOKTRACE_HOOK_NS_TEST: %.1f ns, clamped to "
          "5-200 ns) / budget 2%%\n" % (hook, float(value)) in r.text(".log"),
          what + ": the logfile says it was clamped")

# 5. A malformed value is reported in one line and ignored: the measured
# cost is used, clamped into [5, 200] ns, and the threshold follows it.
r = run(EXE, TINY_ONLY, config=config(), env={"HOOKTRACE_HOOK_NS_TEST": "20ns"})
check_eq(r.returncode, 0, "HOOKTRACE_HOOK_NS_TEST=20ns: exit status")
check_eq(r.stderr, "hooktrace: HOOKTRACE_HOOK_NS_TEST=\"20ns\": not a hook pair cost in nanoseconds "
         "(a number > 0); ignored, the measured cost is used\n", "HOOKTRACE_HOOK_NS_TEST=20ns: stderr")
th = r.profile().doc["throttle"]
check_eq((th["hook_pair_fixed"], th["threshold_source"], th["budget"]), (False, "cost", 0.02),
         "measured: not fixed, from the cost, the default budget")
check(5.0 <= th["hook_pair_ns"] <= 200.0, "measured: the cost used is within the clamp: %r" % th)
check_eq(th["max_ns_per_call"], int(th["hook_pair_ns"] / 0.02 + 0.5),
         "measured: the threshold is the cost used over the budget")

# 6. LU's shape with the default min_calls: the sweep and its kernel, a few
# us a call, keep all 200,000 calls; the leaf called 20 million times is
# throttled at 1,001.
shape_stdout = plain_stdout(SHAPE)
r = run(EXE, SHAPE, config={"outputs": OUTPUTS}, env=HOOK_20NS)
check_eq((r.returncode, r.stdout, r.stderr), (0, shape_stdout, ""),
         "LU shape: exit status, the program's output unchanged, nothing on stderr")
p = r.profile()
check_rule(p, "LU shape", 1000, "cost", min_calls=DEFAULT_MIN_CALLS)
for path, calls, throttled in (("main", 1, False), ("main;shape", 1, False),
                               ("main;shape;sweep", SWEEPS, False),
                               ("main;shape;sweep;kernel", SWEEPS, False),
                               ("main;shape;tiny", DEFAULT_MIN_CALLS + 1, True)):
    check_eq((p.calls(path), bool(p.stack(path).get("throttled"))), (calls, throttled),
             "LU shape: calls of %s and whether it was throttled" % path)
check_eq(p.doc["throttle"]["functions"], 1, "LU shape: tiny alone throttled")

# 7. The later looks.  settle's first call sleeps and the others do
# nothing; min_calls 10 and a 500 us threshold.
def late_look(sleep_ms, throttled_at, what):
    args = ["late", "5000", str(sleep_ms), "0"]
    expected_stdout = plain_stdout(args)
    r = run(EXE, args, config={"outputs": OUTPUTS,
                               "throttle": {"min_calls": 10, "max_ns_per_call": 500000}})
    check_eq((r.returncode, r.stdout, r.stderr), (0, expected_stdout, ""),
             what + ": exit status, the program's output unchanged, nothing on stderr")
    stack = r.profile().stack("main;late;settle")
    check_eq((stack["calls"], bool(stack.get("throttled"))), (throttled_at, True),
             what + ": settle throttled at its call %d, kept at the looks before" % throttled_at)


# At 10 x min_calls + 1: a 10 ms sleep keeps the average at call 11 at least
# 909 us (kept), and at call 101 under 500 us unless the sleep overran by
# 40 ms: throttled there.  (With a 2 ms sleep and a 100 us threshold, an
# 8 ms overrun on a machine at load 12 kept it.)
late_look(10, 101, "second look")
# At 100 x min_calls + 1: a 100 ms sleep keeps it at least 9 ms at call 11
# and 990 us at call 101 (kept), and under 500 us at call 1001 unless the
# sleep overran by 400 ms.
late_look(100, 1001, "third look")
finish()
