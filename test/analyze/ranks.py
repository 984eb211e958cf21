"""Rank mapping (seed 003): communicators whose local ranks map to world
ranks differently, an inter-communicator, MPI_COMM_SELF, a GLOBAL_MEMBERS
group, a second thread of a process, and traces whose ranks cannot be
mapped.  Expected figures: test/analyze/scenarios_ranks.c."""

from analyzelib import analyze, check_eq, check_in, check_warnings, finish, run, write

a = analyze(write("communicators"))
check_eq(a.matrix(), [(0, 2, 1, 7), (0, 3, 1, 300), (1, 2, 1, 11), (1, 3, 1, 200),
                      (2, 2, 1, 5), (3, 1, 1, 100)], "communicators: matrix")
# (sender, receiver, communicator, bytes) of each message, in send order.
check_eq([(m[0], m[1], m[2], m[4]) for m in a.messages()],
         [(3, 1, 2, 100), (1, 3, 3, 200), (0, 3, 4, 300), (2, 2, 1, 5), (0, 2, 5, 7),
          (1, 2, 0, 11)], "communicators: messages")
check_eq(sorted({m[8] for m in a.messages()}), ["0.000000010"], "communicators: durations")
check_eq(a.doc["communicators"], [
    {"id": 0, "name": "MPI_COMM_WORLD", "kind": "intra", "size": 4},
    {"id": 1, "name": "MPI_COMM_SELF", "kind": "intra", "size": 1},
    {"id": 2, "name": "pair_a", "kind": "intra", "size": 2},
    {"id": 3, "name": "pair_b", "kind": "intra", "size": 2},
    {"id": 4, "name": "inter", "kind": "inter", "size": 3},
    {"id": 5, "name": "global", "kind": "intra", "size": 2},
], "communicators: definitions")
check_eq((a.doc["trace"]["locations"], a.doc["trace"]["ranks"]), (5, 4),
         "communicators: 5 locations, 4 ranks")
check_warnings(a, {}, "communicators")

a = analyze(write("no_world_group"))
check_eq(a.matrix(), [], "no_world_group: matrix")
check_eq(a.doc["trace"]["ranks"], 0, "no_world_group: ranks")
check_warnings(a, {"unmapped_rank": 2}, "no_world_group")
text = run([write("no_world_group", "no_world_group_text")]).stdout
check_in("none defined (no MPI COMM_LOCATIONS group)", text, "no_world_group: text report")

a = analyze(write("rank_out_of_range"))
check_eq(a.matrix(), [(0, 1, 1, 4)], "rank_out_of_range: the good message")
check_warnings(a, {"unmapped_rank": 2}, "rank_out_of_range")
examples = a.doc["warning_examples"]["unmapped_rank"]
check_eq(len(examples), 2, "rank_out_of_range: examples")
check_in("receiver rank 2 of communicator 2", examples[0] if examples else "",
         "rank_out_of_range: first example")
check_in("sender rank 5 of communicator 0", examples[1] if len(examples) > 1 else "",
         "rank_out_of_range: second example")

a = analyze(write("duplicate_definition"))
check_eq(a.matrix(), [(0, 1, 1, 8)], "duplicate_definition: the first definition counts")
check_eq(a.doc["trace"]["duplicate_definitions"], 1, "duplicate_definition: reported")
check_warnings(a, {}, "duplicate_definition")
check_in("duplicate definitions    1 (the first of each kept)",
         run([write("duplicate_definition", "duplicate_text")]).stdout,
         "duplicate_definition: text report")

finish()
