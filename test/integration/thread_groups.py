"""Threads that end are merged by start routine: 10,000 short threads of
worker and 100 of helper (50 at a time, joined) make two groups with the
summed figures, not 10,100 threads; their states are reused, so the peak
memory stays near that of the plain program; a start routine with only 3
threads (up to 16) keeps them as threads of their own, as before; a thread
still running at exit is its own thread.  Before, every thread kept its state until exit
(157 MB for 10,000 threads) and had a table of its own in the logfile."""
import re

from htlib import *


def peak_kib(stdout):
    m = re.search(r"peak RSS (\d+) KiB", stdout)
    return int(m.group(1)) if m else None


plain = run(program("many_threads_plain"))
check_eq(plain.returncode, 0, "plain exit status")
# Throttling off: tick's 70,000 calls pass min_calls, and whether a
# few-ns function that threads start and end around is throttled depends
# on the timing (docs/throttle.md); the calls are what this test counts.
r = run(program("many_threads"), config={"throttle": {"enabled": False}})
check_eq(r.returncode, 0, "exit status")
check(r.stdout.startswith("many_threads: 10104 threads"), "the program computes the same")
p = r.profile()
groups = {g["start_routine"]: g for g in p.doc.get("thread_groups", [])}
check_eq(sorted(groups), ["helper", "worker"], "a group per start routine")
if sorted(groups) != ["helper", "worker"]:
    finish()
check_eq(groups["worker"]["threads"], 10000, "threads in the worker group")
check_eq(groups["helper"]["threads"], 100, "threads in the helper group")
check_eq(groups["worker"]["running"], 0, "no worker still running")
check_eq(p.doc["threads"], 7, "threads: main, spinner, 3 of few and the two groups")
worker, helper = groups["worker"]["thread"], groups["helper"]["thread"]
check_eq(p.thread_calls("worker"), {worker: 10000}, "worker calls, all in its group")
check_eq(p.thread_calls("worker;tick"), {worker: 70000}, "tick calls of the workers, summed")
check_eq(p.thread_calls("helper"), {helper: 100}, "helper calls, all in its group")
check_eq(p.thread_calls("helper;tick"), {helper: 300}, "tick calls of the helpers, summed")
check_eq(p.doc["thread_tids"][worker], 0, "a group has no tid")
few = p.thread_calls("few;tick")
check_eq(sorted(few.values()), [5, 5, 5], "few: 3 threads of their own")
check(not set(few) & {worker, helper}, "few: not in a group")
check(all(p.doc["thread_tids"][t] > 0 for t in few), "few: each with its tid")
# The spinner still runs at exit: a thread of its own, with its tid.
spinner = list(p.thread_calls("spinner"))
check_eq(len(spinner), 1, "the running spinner on one thread")
check(spinner[0] not in (worker, helper), "the running spinner is not in a group")
check(p.doc["thread_tids"][spinner[0]] > 0, "the running spinner has its tid")
check_eq(p.calls("spinner;tick"), 1, "the running spinner's calls")
log = r.text(".log")
tables = re.findall(r"^Runtime profile, thread .*$", log, re.M)
check_eq(len(tables), 7, "a table per thread or group in the logfile, not 10,104")
check("Runtime profile, thread %d: threads started at worker (10000 threads, merged)" % worker
      in tables, "the worker group's table")
check(len(log) < 64 << 10, "logfile of %d bytes, under 64 KiB" % len(log))
# Memory: the states of finished threads are reused, so the peak RSS grows
# by far less than the 150 MB it took when each thread kept its own.
grown = peak_kib(r.stdout) - peak_kib(plain.stdout)
check(grown < 40 << 10, "peak RSS grew by %d KiB over the plain program, under 40 MiB" % grown)
finish()
