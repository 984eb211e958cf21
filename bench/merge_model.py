#!/usr/bin/env python3
"""The cross-rank merge's traffic at 1,024 to 65,536 ranks, computed from
its algorithm (src/merge/merge.c, merge_tree.c; docs/output_mpi.md, "How the
ranks are merged"), since this machine cannot run such jobs.

A model, not a measurement: for each step it counts the rounds, the bytes
on the critical path (what the busiest rank, rank 0, sends or receives
one after another), and what rank 0 must hold.  Collectives that MPI
implements (Bcast, Reduce, Gather(v)) are counted as binomial trees, the
usual choice for large messages being no better than that in rounds.

Workload knobs (defaults: an SPMD code, every rank the same 2,000 stacks):
  --stacks S        stacks per rank
  --unique U        stacks each rank has that no other has (load-dependent
                    paths); the union is then S + U x (P - 1)
  --name-bytes B    average length of a function name plus its file name
  --threads T       the most threads of any rank
  --message-stacks M  stacks per rank that move messages
  --pattern halo|alltoall   nonzero matrix cells: 2 per rank, or P - 1

Usage: python3 bench/merge_model.py [--ranks 1024,4096,16384,65536] [knobs]
Stdlib only.
"""
import argparse
import math

# Sizes of what travels (sizeof on x86-64, checked against the C structs:
# struct ht_merge_rank_info, ht_mpi_rank_figures, ht_mpi_cell, ht_double_int).
RANK_RECORD = 152
FIGURE = 80
CELL = 24
DOUBLE_INT = 16
NODE_FIXED = 9  # parent, line, has-file flag (merge_paths.c wire format)
RECORD_HEAD = 48  # struct record_head in merge_reduce.c


def u64_stride(threads):
    return 2 * threads + 5  # HT_MERGE_U64_STRIDE


def f64_stride(threads):
    return 2 * threads + 2  # HT_MERGE_F64_STRIDE


def mib(n):
    return "%.1f MiB" % (n / 2**20) if n >= 2**20 else "%.0f KiB" % (n / 2**10)


def model(p, a):
    rounds = math.ceil(math.log2(p)) if p > 1 else 0
    node = NODE_FIXED + a.name_bytes + 2  # two terminating NULs
    union = a.stacks + a.unique * (p - 1)
    # Step 2: up the binomial tree.  In round k a sender holds the union of
    # 2^k ranks; rank 0 receives one set per round.
    tree_path = sum(8 + node * (a.stacks + a.unique * (2**k - 1)) for k in range(rounds))
    tree_total = sum((p >> (k + 1)) * (8 + node * (a.stacks + a.unique * (2**k - 1)))
                     for k in range(rounds))
    table = 8 + node * union
    # Step 2, down: each rank receives the global IDs of its subtree's
    # union from its parent (4 bytes a node); on the critical path, one
    # message per round, the largest first.
    ids_path = sum(8 + 4 * (a.stacks + a.unique * (2**k - 1)) for k in range(rounds))
    # Step 3: sparse lists up the same tree (merge_reduce.c): a rank's own
    # list holds the stacks it visited; in round k a sender's list holds the
    # union of its 2^k ranks.  Only rank 0 makes dense arrays over the union.
    record = RECORD_HEAD + 8 * u64_stride(a.threads) + 8 * f64_stride(a.threads)
    own_list = record * (a.stacks + a.unique)
    reduce_path = sum(8 + record * (a.stacks + a.unique * (2**k - 1)) for k in range(rounds))
    dense = union * (8 * u64_stride(a.threads) + 8 * f64_stride(a.threads)) + 2 * union * DOUBLE_INT
    # Steps 1 and 4: gathers at rank 0.
    cells = 2 * p if a.pattern == "halo" else p * (p - 1)
    gathered = RANK_RECORD * p + FIGURE * a.message_stacks * p + CELL * cells * 2
    return {
        "rounds": rounds,
        "union": union,
        "tree_path": tree_path,
        "tree_total": tree_total,
        "table": table,
        "ids_path": ids_path,
        "own_list": own_list,
        "reduce_path": reduce_path,
        "dense": dense,
        "gathered": gathered,
        # Critical path: the paths up, the table down, the figures up, the
        # gathers into rank 0.
        "critical": tree_path + ids_path + reduce_path + gathered,
        # The union and the table in ID order, the dense arrays, its own
        # list and the largest list merged in (twice: the merged copy), the
        # gathers.
        "rank0_memory": 2 * table + dense + own_list + 2 * record * union + gathered,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ranks", default="1024,4096,16384,65536")
    ap.add_argument("--stacks", type=int, default=2000)
    ap.add_argument("--unique", type=int, default=0)
    ap.add_argument("--name-bytes", type=int, default=60)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--message-stacks", type=int, default=40)
    ap.add_argument("--pattern", choices=("halo", "alltoall"), default="halo")
    a = ap.parse_args()
    print("Merge traffic model: %d stacks per rank, %d unique per rank, %d-byte names, "
          "%d thread(s), %d stacks with messages, %s matrix" %
          (a.stacks, a.unique, a.name_bytes, a.threads, a.message_stacks, a.pattern))
    print()
    print("| ranks | rounds (tree) | union of stacks | step 2: rank 0 receives | step 2: all "
          "ranks send | the whole table (rank 0 only) | step 3: a rank's own list | step 3: rank 0 receives | "
          "rank 0 gathers | critical path bytes | rank 0 holds |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for p in [int(x) for x in a.ranks.split(",")]:
        m = model(p, a)
        print("| %d | %d | %d | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            p, m["rounds"], m["union"], mib(m["tree_path"]), mib(m["tree_total"]),
            mib(m["table"]), mib(m["own_list"]), mib(m["reduce_path"]), mib(m["gathered"]),
            mib(m["critical"]), mib(m["rank0_memory"])))


if __name__ == "__main__":
    main()
