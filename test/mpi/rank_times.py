"""Every rank's inclusive time on the top stacks of the summary
(mpi.rank_times_top, docs/output_mpi.md), on test/mpi/rank_times.c, 4 ranks:
rank r calls work r + 1 times and only rank 2 calls only_on_rank2.

Times are not exact, so the checks are about structure and consistency,
exactly: rank_time_stacks lists min(K, stacks) IDs, most imbalance.max_s
first (lower ID on a tie); each listed stack has one time per rank; the
largest is imbalance.max_s at imbalance.max_rank, the least is
imbalance.min_s, a rank that never entered the stack has 0; and each time
is the one the rank's own file gives for the same path.  The JSON prints 9
significant digits (each number within 5e-9 of the double, relative) and
the logfile 6 decimals (within 5e-7 s), so printed times are compared
with tolerances well above those (REL, LOG_ABS), never at the rounding
edge itself: the printed mean of the ranks' times is avg_s within REL of
it, a logfile cell is the JSON's time within LOG_ABS.  rank_times_top 0
leaves everything out; 2 gives 2."""
import math

from mpilib import *

require_launcher()
N = 4
EXE = mpi_program("rank_times")
WORK, ONLY2 = "main;work", "main;only_on_rank2"
TITLE = "Inclusive time per rank, top stacks"


# 20 times the relative error of 9 printed significant digits (5e-9), and
# twice the error of 6 printed decimals (5e-7 s) plus the JSON's.
REL = 1e-7
LOG_ABS = 1e-6


reference = mpirun(mpi_program("rank_times_plain"), N)
check_status(reference, 0, "rank_times_plain")


def ranked(summary):
    """Every stack's ID, the largest imbalance.max_s first, lower ID on a tie."""
    stacks = summary.doc["stacks"]
    return [s["id"] for s in sorted(stacks, key=lambda s: (-s["imbalance"]["max_s"], s["id"]))]


def check_times(summary, k, what):
    """The fields as K = k makes them; returns {path: times}."""
    stacks = summary.doc["stacks"]
    by_id = {s["id"]: s for s in stacks}
    paths = {i: p for p, s in summary.by_path.items() for i in (s["id"],)}
    listed = summary.doc.get("rank_time_stacks")
    expected = ranked(summary)[:min(k, len(stacks))]
    check_eq(listed, expected, what + ": rank_time_stacks: the top %d by imbalance.max_s" % k)
    check_eq(sorted(s["id"] for s in stacks if "rank_time_incl_s" in s), sorted(expected),
             what + ": exactly the listed stacks carry rank_time_incl_s")
    times = {}
    for i in listed or []:
        s = by_id[i]
        t, imb = s.get("rank_time_incl_s"), s["imbalance"]
        tag = "%s: %s" % (what, paths[i])
        if not check(isinstance(t, list) and len(t) == N, tag + ": %d times, got %r" % (N, t)):
            continue
        times[paths[i]] = t
        check_eq(max(t), imb["max_s"], tag + ": the largest time is imbalance.max_s")
        check_eq(t[imb["max_rank"]], imb["max_s"], tag + ": imbalance.max_rank has it")
        # the lowest rank with the largest time, unless the 9 printed digits
        # tie ranks that differ further down
        tied = [r for r in range(N) if t[r] == max(t)]
        check(imb["max_rank"] == tied[0] or len(tied) > 1,
              tag + ": max_rank %r, the largest time is on rank %r" % (imb["max_rank"], tied))
        check_eq(min(t), imb["min_s"], tag + ": the least time is imbalance.min_s")
        check_eq(t[imb["min_rank"]], imb["min_s"], tag + ": imbalance.min_rank has it")
        mean = sum(t) / N
        # the times are >= 0, so each one's printing error (relative to it)
        # adds up to at most that relative error of the mean
        check(math.isclose(mean, imb["avg_s"], rel_tol=REL, abs_tol=1e-15),
              tag + ": mean %r, avg_s %r (relative tolerance %g)" % (mean, imb["avg_s"], REL))
    return times


def log_table(run):
    """The logfile's table: (stack IDs, {rank: [seconds]}), or None."""
    with open(run.path(".log")) as f:
        lines = f.read().splitlines()
    at = [i for i, line in enumerate(lines) if line.startswith(TITLE)]
    if not at:
        return None
    ids, rows, i = [], {}, at[0] + 3
    while i < len(lines) and lines[i].startswith("stack ID"):
        ids += [int(x) for x in lines[i].split()[2:]]
        i += 3  # the IDs, the names, "rank"
        while i < len(lines) and lines[i].strip():
            cells = lines[i].split()
            rows.setdefault(int(cells[0]), []).extend(float(x) for x in cells[1:])
            i += 1
        i += 1
    return ids, rows


# K = 16 (the default), every rank writing its own file too.
r = mpirun(EXE, N, config={"mpi": {"rank_files": "all"}})
check_status(r, 0, "default")
expect_same_stdout(r, reference, "default")
p = r.summary()
if p is not None:
    check(len(p.doc["stacks"]) < 16, "fewer stacks than K: %d" % len(p.doc["stacks"]))
    times = check_times(p, 16, "default")
    check_eq(p.calls(WORK), N * (N + 1) // 2, "work: 1 + 2 + 3 + 4 calls")
    check(WORK in times and ONLY2 in times, "work and only_on_rank2 listed: %r" % sorted(times))
    if ONLY2 in times:
        t = times[ONLY2]
        check(t[2] > 0.0 and [t[0], t[1], t[3]] == [0.0, 0.0, 0.0],
              "only_on_rank2: [0, 0, x, 0], got %r" % t)
    if WORK in times:
        check(all(x > 0.0 for x in times[WORK]), "work: every rank has time: %r" % times[WORK])
    # each rank's time is the one its own file gives for the same path
    for rank in range(N):
        own = r.rank_profile(rank)
        if own is None:
            continue
        check("rank_time_stacks" not in own.doc, "rank %d's file has no rank_time_stacks" % rank)
        for path, t in sorted(times.items()):
            s = own.by_path.get(path)
            check_eq(t[rank], s["time_incl_s"] if s else 0.0,
                     "%s: rank %d's time as in its own file" % (path, rank))
            check(s is None or "rank_time_incl_s" not in s,
                  "rank %d's file: no rank_time_incl_s on %s" % (rank, path))
    table = log_table(r)
    if check(table is not None, "the logfile has the table %r" % TITLE):
        ids, rows = table
        check_eq(ids, p.doc["rank_time_stacks"], "the logfile's table: its stacks in order")
        check_eq(sorted(rows), list(range(N)), "the logfile's table: one row per rank")
        by_id = {s["id"]: s for s in p.doc["stacks"]}
        for rank, row in sorted(rows.items()):
            want = [by_id[i]["rank_time_incl_s"][rank] for i in ids]
            check(len(row) == len(want) and
                  all(abs(a - b) <= LOG_ABS + REL * abs(b) for a, b in zip(row, want)),
                  "the logfile's table, rank %d: %r, the JSON's %r" % (rank, row, want))

# K = 2: exactly the two stacks with the most time on one rank.
r = mpirun(EXE, N, config={"mpi": {"rank_times_top": 2}})
check_status(r, 0, "rank_times_top 2")
p = r.summary()
if p is not None:
    check_times(p, 2, "rank_times_top 2")
    check_eq(len(p.doc.get("rank_time_stacks", [])), 2, "rank_times_top 2: 2 stacks")
    table = log_table(r)
    check_eq(table[0] if table else None, p.doc.get("rank_time_stacks"),
             "rank_times_top 2: the logfile's table lists the 2")

# K = 0: nothing.
r = mpirun(EXE, N, config={"mpi": {"rank_times_top": 0}})
check_status(r, 0, "rank_times_top 0")
p = r.summary()
if p is not None:
    check("rank_time_stacks" not in p.doc, "rank_times_top 0: no rank_time_stacks")
    check_eq([s["id"] for s in p.doc["stacks"] if "rank_time_incl_s" in s], [],
             "rank_times_top 0: no stack has rank_time_incl_s")
    check(log_table(r) is None, "rank_times_top 0: no table in the logfile")
    check_eq(p.calls(WORK), N * (N + 1) // 2, "rank_times_top 0: the profile is unchanged")

finish()
