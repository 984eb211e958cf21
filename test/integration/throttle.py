#!/usr/bin/env python3
"""Throttling (docs/throttle.md) on test/programs/throttle.c, with
min_calls 1000: each cheap function is throttled exactly when one of its
stacks completes its 1001st call, every other count is what it is without
throttling, the calls made after throttling no longer reach the hooks
(counted by hooktrace itself and, independently, by callgrind), and threads,
OpenMP workers and a refused mprotect are safe."""
import os
import shutil
import subprocess

from htlib import BUILDDIR, check, check_eq, finish, program, run

EXE = program("throttle")
N = 5000
MIN_CALLS = 1000
THROTTLED = {  # path: stacks of the throttled functions, and their calls in the program
    "main;hot;tiny": N,
    "main;hot;pick": 2 * N,
    "main;hot;touch": N,
    "main;hot;shared_loop;shared_scaled": N,
    "main;hot;depth": N,
    "main;hot;depth;depth": N,
    "main;hot;depth;depth;depth": N,
}
UNTHROTTLED = {"main": 1, "main;hot": 1, "main;hot;kept": N, "main;hot;slow": 30,
               "main;hot;after": 1, "main;hot;shared_loop": 1}
# slow sleeps 200 us a call, far above 20 us; the others take well under 1 us.
# max_ns_per_call fixes the threshold at 20 us, whatever the hooks cost on
# this machine (test/integration/throttle_cost.py tests the rule by cost).
# The runs whose stderr must stay empty keep shut-down's progress lines
# (outputs.progress_after_ms) out of it however slow the machine is.
CONFIG = {"throttle": {"min_calls": MIN_CALLS, "max_ns_per_call": 20000, "never": ["^kept$"]},
          "outputs": {"progress_after_ms": 3600000}}


def with_throttle(**extra):
    config = {"throttle": dict(CONFIG["throttle"])}
    config["throttle"].update(extra)
    return config


def stdout_of(mode, n):
    plain = subprocess.run([EXE, mode, str(n)], env=dict(os.environ, HOOKTRACE_OFF="1"),
                           stdout=subprocess.PIPE, universal_newlines=True, timeout=120)
    return plain.stdout


def check_exact(p, what):
    for path, calls in UNTHROTTLED.items():
        check_eq(p.calls(path), calls, "%s: calls of %s (never throttled)" % (what, path))
        check(not p.stack(path).get("throttled"), "%s: %s is not marked throttled" % (what, path))
    for path in THROTTLED:
        check_eq(p.calls(path), MIN_CALLS + 1, "%s: calls of %s up to its throttling" % (what, path))
        check_eq(p.stack(path).get("throttled"), True, "%s: %s marked throttled" % (what, path))
    check_eq(p.doc["throttle"]["functions"], 5,
             "%s: tiny, pick, touch, depth and shared_scaled throttled" % what)
    check_eq(p.doc["mismatched_exits"], 0, "%s: no exit out of step" % what)


def calls_after(path):
    return THROTTLED[path] - (MIN_CALLS + 1)


# 1. Without throttling: every call counted (the reference for the others).
r = run(EXE, ["serial", str(N)], config={"throttle": {"enabled": False}})
check_eq(r.returncode, 0, "exit status without throttling")
reference_stdout = r.stdout
p = r.profile()
for path, calls in dict(THROTTLED, **UNTHROTTLED).items():
    check_eq(p.calls(path), calls, "throttling off: calls of " + path)
check_eq(p.doc["throttle"]["enabled"], False, "throttling off: said so in the JSON")
check("throttling:      off" in r.text(".log"), "throttling off: said so in the logfile")

# 2. Throttled, calls rewritten: each throttled function's calls reach a
# hook once more at most per call site, to be rewritten (tiny 1, pick 3 of
# its 4, touch 1, depth 1, shared_scaled 1 in the library), and no more.
r = run(EXE, ["serial", str(N)], config=CONFIG)
check_eq(r.returncode, 0, "exit status with throttling")
check_eq(r.stdout, reference_stdout, "the program's output is unchanged")
check_eq(r.stderr, "", "nothing on stderr")
p = r.profile()
check_exact(p, "patched")
th = p.doc["throttle"]
check_eq((th["enabled"], th["min_calls"], th["max_ns_per_call"], th["threshold_source"],
          th["code_patching"]),
         (True, MIN_CALLS, 20000, "config", "on"),
         "the settings in the JSON: max_ns_per_call set, so it is the threshold")
check_eq(th["sites_unpatched"], 0, "every hook call could be rewritten")
check_eq(th["exclude_function_list"], "depth,pick,shared_scaled,tiny,touch",
         "the compile-time exclude list names the throttled functions")
check_eq(th["sites_patched"], 12, "hook calls rewritten: 2 tiny, 4 pick, 2 touch (a jump), 2 depth, "
         "2 shared_scaled")
check_eq(th["hook_calls_after_throttling"], 7, "hook calls reached after throttling, one per "
         "call site rewritten then")
check(th["hook_calls_saved"] > 0, "hook calls saved estimated: %r" % th["hook_calls_saved"])
log = r.text(".log")
check("5 functions throttled (marked *)" in log, "logfile summary line")
check_eq(th["exclude_symbols"], ["depth", "pick", "shared_scaled", "tiny", "touch"],
         "JSON: the throttled functions' symbols, for the GCC plugin's exclude-file")
check_eq(th["plugin_used"], False, "JSON: built without the GCC plugin")
check_eq(th["exclude_file"], os.path.realpath(r.path(".exclude")), "JSON: the .exclude file beside the profile")
with open(r.path(".exclude")) as f:
    check_eq([l.strip() for l in f if not l.startswith("#")], th["exclude_symbols"],
             "the .exclude file lists exactly the throttled functions")
check("-finstrument-functions-exclude-function-list=" not in log,
      "logfile: no GCC substring list suggested (it would exclude other functions)")
if os.path.exists(os.path.join(BUILDDIR, "hooktrace_gcc.so")):
    check("compile with GCC and hooktrace's plugin\n" in log and
          "`pkg-config --variable=instrument_flags hooktrace`" in log and
          "-fplugin-arg-hooktrace_gcc-exclude-file=" + th["exclude_file"] + "\n" in log,
          "logfile: built without the GCC plugin, the suggestion names it and the file:\n" + log)
else:
    check("hooktrace was built without its GCC plugin, so no exact exclusion" in log,
          "logfile: no plugin installed, no suggestion:\n" + log)
check_eq(r.profile().doc["uninstrumented"],
         {"functions": 0, "names": [], "inlined": {"functions": 0, "sites": 0, "names": []}},
         "JSON: built without the GCC plugin, nothing uninstrumented")
check(any(l.split()[:1] == ["1001*"] and "tiny" in l for l in log.splitlines()),
      "logfile marks tiny's row with *")
check("> tiny (" in log and log.count("[throttled]") == 7, "stack list marks the 7 throttled stacks")

# 3. The flag alone (patch_code false): every call after throttling still
# reaches its two hooks, which skip it; the counts are the same.
r = run(EXE, ["serial", str(N)], config=with_throttle(patch_code=False))
check_eq(r.stdout, reference_stdout, "flag only: output unchanged")
p = r.profile()
check_exact(p, "flag only")
th = p.doc["throttle"]
check_eq(th["code_patching"], "off", "flag only: code_patching off")
check_eq(r.profile().doc["throttle"]["exclude_function_list"], "depth,pick,shared_scaled,tiny,touch",
         "flag only: the same exclude list")
check_eq(th["sites_patched"], 0, "flag only: nothing rewritten")
check_eq(th["hook_calls_after_throttling"], sum(2 * calls_after(path) for path in THROTTLED),
         "flag only: both hooks of every later call were reached")
check_eq(th["hook_calls_saved"], 0, "flag only: no hook call saved")

# 4. mprotect refused (a seccomp filter in the program): one line on stderr,
# the flag takes over, the figures are those of the flag.
r = run(EXE, ["seccomp", str(N)], config=CONFIG)
check_eq(r.returncode, 0, "mprotect refused: exit status")
check_eq(r.stdout.replace("seccomp", "serial"), reference_stdout, "mprotect refused: output unchanged")
lines = [l for l in r.stderr.splitlines() if l.strip()]
check_eq(lines, ["hooktrace: cannot rewrite the calls of throttled functions (mprotect: "
                 "Operation not permitted); their hooks skip them by a check instead"],
         "mprotect refused: said once on stderr")
p = r.profile()
check_exact(p, "mprotect refused")
th = p.doc["throttle"]
check_eq(th["code_patching"], "refused: mprotect: Operation not permitted",
         "mprotect refused: in the JSON")
check_eq(th["hook_calls_after_throttling"], sum(2 * calls_after(path) for path in THROTTLED),
         "mprotect refused: every later call skipped by the flag")

# 5. Threads: four threads run the loops at once.  One stack per function
# crosses the threshold first; the others stop where they were.  The
# functions called after the loops sit under hot on every thread.
NT = 4
r = run(EXE, ["threads", "20000"], config=CONFIG)
check_eq(r.returncode, 0, "threads: exit status")
check_eq(r.stdout, stdout_of("threads", 20000), "threads: output unchanged")
p = r.profile()
for path, calls in {"thread_main;hot": NT, "thread_main;hot;after": NT, "thread_main;hot;shared_loop": NT,
                    "thread_main;hot;kept": NT * 20000, "thread_main;hot;slow": NT * 30}.items():
    check_eq(p.calls(path), calls, "threads: calls of " + path)
    check_eq(len(p.thread_calls(path)), NT, "threads: %s on every thread" % path)
for name in ("tiny", "pick", "touch", "depth", "shared_loop;shared_scaled"):
    path = "thread_main;hot;" + name
    per_thread = p.thread_calls(path)
    check_eq(p.stack(path).get("throttled"), True, "threads: %s throttled" % name)
    check(max(per_thread.values()) == MIN_CALLS + 1 and
          all(c <= MIN_CALLS + 1 for c in per_thread.values()),
          "threads: %s stopped on every thread by the first to cross: %r" % (name, per_thread))
check_eq({q for q in p.paths() if ";after" in q}, {"thread_main;hot;after"},
         "threads: after() never nested under a throttled function")
check_eq(p.doc["mismatched_exits"], 0, "threads: no exit out of step")
th = p.doc["throttle"]
check(th["hook_calls_after_throttling"] <= NT * th["sites_patched"],
      "threads: at most one hook call per thread and rewritten call after throttling (%d, %d)"
      % (th["hook_calls_after_throttling"], th["sites_patched"]))

# 6. OpenMP: 4 workers share the loop over tiny.
r = run(EXE, ["openmp", "20000"], config=CONFIG)
check_eq(r.returncode, 0, "openmp: exit status")
check_eq(r.stdout, stdout_of("openmp", 20000), "openmp: output unchanged")
p = r.profile()
tiny = [s for s in p.doc["stacks"] if s["function"] == "tiny"]
check(tiny and all(s.get("throttled") for s in tiny), "openmp: tiny throttled")
per_thread = [t["calls"] for s in tiny for t in s["threads"]]
check(max(per_thread) == MIN_CALLS + 1,
      "openmp: tiny stopped at %d calls on the thread that crossed first: %r"
      % (MIN_CALLS + 1, per_thread))
check(all(c <= MIN_CALLS + 1 for c in per_thread),
      "openmp: no thread recorded tiny past the threshold: %r" % per_thread)
check_eq(p.doc["mismatched_exits"], 0, "openmp: no exit out of step")
th = p.doc["throttle"]
check(th["hook_calls_after_throttling"] <= NT * th["sites_patched"],
      "openmp: at most one hook call per thread and rewritten call after throttling")


# 7. Callgrind, independently of hooktrace's own counts: the calls into the
# enter hook from each function.  (Valgrind needs --smc-check=all to see
# code the program rewrites.)
def callgrind_calls(path):
    """{(caller, callee): calls} from a callgrind output file."""
    names, calls = {}, {}
    fn = cfn = None
    with open(path) as f:
        for line in f:
            for key in ("fn=", "cfn="):
                if line.startswith(key):
                    ident, _, name = line[len(key):].strip().partition(" ")
                    if name:
                        names[ident] = name
                    if key == "fn=":
                        fn = names.get(ident)
                    else:
                        cfn = names.get(ident)
            if line.startswith("calls=") and fn and cfn:
                calls[(fn, cfn)] = calls.get((fn, cfn), 0) + int(line.split("=")[1].split()[0])
    return calls


def uses_asan(exe):
    out = subprocess.run(["ldd", exe], stdout=subprocess.PIPE, universal_newlines=True).stdout
    return "libasan" in out


if shutil.which("valgrind") and not uses_asan(EXE):
    # Under callgrind a cheap function's first calls also pay for translating
    # the hooks' code: on a loaded machine tiny averaged 0.6 to 12 us over its
    # 1001 calls, and touch once crossed the 20 us above.  What is checked
    # here is which calls reach the hooks, so the threshold is set out of
    # the way (1 s: every function called 1001 times is cheap).
    r = run("valgrind", ["--tool=callgrind", "--smc-check=all", "--callgrind-out-file=cg.out",
                         EXE, "serial", str(N)],
            config=dict(CONFIG, throttle=dict(CONFIG["throttle"], max_ns_per_call=1000000000)),
            basename="throttle")
    check_eq(r.returncode, 0, "callgrind: exit status")
    p = r.profile()
    check_exact(p, "under callgrind")
    calls = callgrind_calls(os.path.join(r.directory, "cg.out"))
    enter = "__cyg_profile_func_enter"
    check_eq(calls.get(("tiny", enter)), MIN_CALLS + 2,
             "callgrind: tiny's enter hook ran for its 1001 recorded calls and one more")
    check_eq(calls.get(("kept", enter)), N, "callgrind: kept's enter hook ran for all its calls")
    check_eq(calls.get(("shared_scaled", enter)), MIN_CALLS + 2,
             "callgrind: the shared library's call to the enter hook was rewritten too")
    check_eq(calls.get(("tiny", "__cyg_profile_func_exit")), MIN_CALLS + 1,
             "callgrind: tiny's exit hook ran for its recorded calls only")
else:
    print("SKIP: callgrind check (no valgrind, or an AddressSanitizer build)")

finish()
