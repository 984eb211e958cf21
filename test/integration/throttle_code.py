#!/usr/bin/env python3
"""Rewriting hook calls touches only what it may (docs/rewriting.md, "Which
calls are rewritten"), on test/programs/throttle_code.c with min_calls 1000:
a call instruction that GCC made serve two inlined functions is not
rewritten when one of them is throttled (the other, in "never", keeps every
call); a library closed and opened again at the same address is recorded
afresh; a child forked while a page is being rewritten has no writable code,
and neither has the program afterwards; without membarrier, code is
rewritten only in a single-threaded program; a hand-over of counted calls
whose id comes from a stack slot is rewritten by its scope."""
import os
import re
import shutil
import subprocess

from htlib import check, check_eq, finish, program, run, BUILDDIR

EXE = program("throttle_code")
LIBRARY = os.path.join(BUILDDIR, "test", "programs", ".libs", "libdlclosefix.so")
N = 5000
MIN_CALLS = 1000
CONFIG = {"throttle": {"min_calls": MIN_CALLS, "max_ns_per_call": 20000,
                       "never": ["^beta$"]},
          "outputs": {"progress_after_ms": 3600000}}


def plain_stdout(args):
    return subprocess.run([EXE] + args, env=dict(os.environ, HOOKTRACE_OFF="1"),
                          stdout=subprocess.PIPE, universal_newlines=True, timeout=120).stdout


def run_rewriting(args, what):
    """Runs EXE args instrumented; checks that the exit status is 0, that
    the output is the plain run's and that no code is left writable, and
    returns the run."""
    r = run(EXE, args, config=CONFIG)
    check_eq(r.returncode, 0, what + ": exit status")
    check_eq(r.stdout, plain_stdout(args), what + ": output unchanged")
    check("writable code mappings: 0\n" in r.stdout, what + ": no writable code after patching")
    return r


def check_sites(p, what, patched, unpatched, after, sites_why, after_why):
    """The profile's count of call sites rewritten and not, and of hook
    calls that reached the hooks after throttling."""
    th = p.doc["throttle"]
    check_eq((th["sites_patched"], th["sites_unpatched"]), (patched, unpatched),
             what + ": " + sites_why)
    check_eq(th["hook_calls_after_throttling"], after, what + ": " + after_why)


def uses_asan(exe):
    out = subprocess.run(["ldd", exe], stdout=subprocess.PIPE, universal_newlines=True).stdout
    return "libasan" in out


# 0. The shape under test: in run_shared(), compiled at -Os, alpha's and
# beta's exit hooks are one call instruction (two exit-hook calls in all,
# the other being run_shared's own).
objdump = shutil.which("objdump")
if objdump and not uses_asan(EXE):
    binary = os.path.join(os.path.dirname(EXE), ".libs", os.path.basename(EXE))
    if not os.path.exists(binary):
        binary = EXE
    text = subprocess.run([objdump, "-d", "--no-show-raw-insn", binary], stdout=subprocess.PIPE,
                          universal_newlines=True).stdout
    body = text.split("<run_shared>:", 1)[1].split("\n\n", 1)[0] if "<run_shared>:" in text else ""
    check_eq(len(re.findall(r"call\s+\S+ <__cyg_profile_func_exit", body)), 2,
             "run_shared(): alpha's and beta's exit hooks share one call instruction")
else:
    print("SKIP: the objdump check of the shared call (no objdump, or an AddressSanitizer build)")

# 1. One call for two functions: alpha is throttled at its 1001st call, the
# shared call is left alone, and beta (in "never") keeps every call and
# every exit: no bogus recursion under it.
r = run_rewriting(["shared", str(N)], "shared")
p = r.profile()
check_eq(p.calls("main;run_shared"), 1, "shared: run_shared once")
check_eq(p.calls("main;run_shared;beta"), N // 2, "shared: beta, in never, keeps every call")
check(not p.stack("main;run_shared;beta").get("throttled"), "shared: beta not throttled")
check_eq(p.calls("main;run_shared;alpha"), MIN_CALLS + 1, "shared: alpha throttled at 1001")
check_eq(p.stack("main;run_shared;alpha").get("throttled"), True, "shared: alpha marked")
check_eq(sorted(q for q in p.paths() if "run_shared;" in q),
         ["main;run_shared;alpha", "main;run_shared;beta"],
         "shared: alpha and beta under run_shared, nothing nested under them (no bogus recursion)")
check_eq(p.doc["mismatched_exits"], 0, "shared: no exit out of step")
th = p.doc["throttle"]
check_eq(th["sites_patched"], 1, "shared: alpha's enter hook call rewritten, no other")
check_eq(th["sites_unpatched"], 2, "shared: the shared exit call not rewritten (and alpha's own "
         "code searched for a sibling-call jump in vain)")
check_eq(th["hook_calls_after_throttling"], 1 + (N // 2 - (MIN_CALLS + 1)),
         "shared: alpha's enter once more, its exit at every later call (the check)")

# 2. A library closed and opened again at the same address: its function is
# throttled at 1001 calls in each load (2002 in all), and its hook calls
# rewritten in each.
r = run_rewriting(["reload", str(N), LIBRARY], "reload")
check("same address: yes\n" in r.stdout, "reload: the library came back at the same address")
p = r.profile()
check_eq(p.calls("main;reload_cycle;reload_round"), 2, "reload: reload_round twice")
check_eq(p.calls("main;reload_cycle;reload_round;dlc_alpha"), 2 * (MIN_CALLS + 1),
         "reload: dlc_alpha recorded to its throttling in each load")
check_eq(p.stack("main;reload_cycle;reload_round;dlc_alpha").get("throttled"), True, "reload: dlc_alpha marked")
check_sites(p, "reload", 4, 0, 2,
            "dlc_alpha's enter and exit calls rewritten in each load",
            "one more enter per load, no more")
check_eq(p.doc["mismatched_exits"], 0, "reload: no exit out of step")

# 3. fork while a page is writable: the child is forked only once the page
# is restored; the program's code is not writable after either.
r = run(EXE, ["fork", str(N)], config=CONFIG)
check_eq(r.returncode, 0, "fork: exit status")
check("child's writable code mappings: 0\n" in r.stdout,
      "fork: the child has no writable code: %r" % r.stdout)
check("writable code mappings: 0\n" in r.stdout.splitlines(True)[-1],
      "fork: no writable code after patching")
p = r.profile()
check_eq(p.calls("main;leaf"), MIN_CALLS + 1, "fork: leaf throttled at 1001")
check_eq(p.doc["throttle"]["sites_patched"], 2, "fork: leaf's enter and exit calls rewritten")

# 4. membarrier refused (a seccomp filter): with a second thread of the
# program running, nothing is rewritten and the check declines every later
# call; alone (hooktrace's signal watcher runs none of the program's code),
# the calls are rewritten.
r = run(EXE, ["nobarrier", str(N)], config=CONFIG)
check_eq(r.returncode, 0, "no membarrier, two threads: exit status")
p = r.profile()
check_eq(p.calls("main;leaf"), MIN_CALLS + 1, "no membarrier, two threads: leaf throttled at 1001")
check_sites(p, "no membarrier, two threads", 0, 3, 2 * (N - (MIN_CALLS + 1)),
            "leaf's enter and exit calls not rewritten (and its code searched for a "
            "sibling-call jump in vain)",
            "both hooks of every later call declined by the check")
r = run(EXE, ["nobarrier1", str(N)], config=CONFIG)
check_eq(r.returncode, 0, "no membarrier, one thread: exit status")
p = r.profile()
check_eq(p.calls("main;leaf"), MIN_CALLS + 1, "no membarrier, one thread: leaf throttled at 1001")
check_sites(p, "no membarrier, one thread", 2, 0, 1,
            "leaf's enter and exit calls rewritten",
            "one enter more")

# 5. A hand-over whose copy's id the compiler reloads from a stack slot (as
# GCC does with an id several hand-overs share): once scoped, its scope, is
# throttled, the hand-over's call is rewritten like scoped's hooks, proven
# by its scope in %rdx alone (docs/rewriting.md).
r = run_rewriting(["handover", str(N)], "handover")
p = r.profile()
check_eq(p.calls("main;scoped"), MIN_CALLS + 1, "handover: scoped throttled at 1001")
check_eq(p.calls("main;scoped;handed_over_copy"), MIN_CALLS + 1,
         "handover: one count per recorded call of scoped, none after")
check_eq(p.stack("main;scoped;handed_over_copy").get("inlined"), True, "handover: a counted stack")
check_sites(p, "handover", 3, 0, 1,
            "scoped's enter and exit calls and the hand-over's call rewritten",
            "one enter more, no hand-over declined")

# 6. A kept inlined copy whose exit hook is its function's last call, a
# jump (a sibling call): the hook gets the copy's id, which is no code, and
# returns to copy_tail's caller.  Once the copy is throttled the jump is
# found in copy_tail, the function main's call there calls, and becomes a
# return (docs/rewriting.md); before, every later exit reached the hook
# (273,000 calls in bench/fem_proxy.cpp's std::map destructor).
# The copy ends two functions (copy_tail_b too), each jump found.
if objdump and not uses_asan(EXE):
    for name in ("copy_tail", "copy_tail_b"):
        body = text.split("<%s>:" % name, 1)[1].split("\n\n", 1)[0] if "<%s>:" % name in text else ""
        check(re.search(r"jmp\s+\S+ <__cyg_profile_func_exit", body) is not None,
              "%s(): the exit hook is a sibling call (a jump)" % name)
r = run_rewriting(["copytail", str(N)], "copytail")
p = r.profile()
check_eq(p.calls("main;tail_copy"), MIN_CALLS + 1, "copytail: the copy throttled at 1001")
check_sites(p, "copytail", 4, 0, 3,
            "each function's enter call and exit jump of the copy rewritten",
            "one enter more in each function, and copy_tail_b's first exit (copy_tail's "
            "1001st call throttled the copy and had its own jump rewritten)")
finish()
