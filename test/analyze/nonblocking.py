"""Non-blocking translation (seed 004): blocked sends behind a pending
Isend, Isends and Irecvs completed out of order, cancelled requests,
wildcard receives and request records that do not fit.  The expected
figures are derived in test/analyze/scenarios_requests.c."""

from analyzelib import (analyze, check_eq, check_warnings, finish, write)

NO_RECORDS = {"MpiSend": 0, "MpiIsend": 0, "MpiIsendComplete": 0, "MpiRecv": 0,
              "MpiIrecvRequest": 0, "MpiIrecv": 0, "MpiRequestCancelled": 0}


def records(**counts):
    r = dict(NO_RECORDS)
    r.update(counts)
    return r


# A blocking Send while an Isend is pending: the Isend goes first.
a = analyze(write("blocking_behind_isend"))
check_eq(a.messages(), [
    (0, 1, 0, 1, 100, 100, "0.000000010", "0.000000040", "0.000000030"),
    (0, 1, 0, 1, 200, 200, "0.000000020", "0.000000050", "0.000000030"),
], "blocking_behind_isend: messages")
check_eq(a.matrix(), [(0, 1, 2, 300)], "blocking_behind_isend: matrix")
check_eq(a.doc["trace"]["records"], records(MpiSend=1, MpiIsend=1, MpiIsendComplete=1, MpiRecv=2),
         "blocking_behind_isend: records")
check_eq(a.doc["trace"]["events"], 5, "blocking_behind_isend: events")
check_warnings(a, {}, "blocking_behind_isend")

# Isends completed C, A, B; Irecvs completed q2, q1 with a Recv behind them.
a = analyze(write("out_of_order"))
check_eq(a.messages(), [
    (0, 1, 0, 5, 10, 10, "0.000000010", "0.000000041", "0.000000031"),
    (0, 1, 0, 5, 20, 20, "0.000000011", "0.000000040", "0.000000029"),
    (0, 1, 0, 5, 30, 30, "0.000000012", "0.000000035", "0.000000023"),
], "out_of_order: messages")
check_eq((a.summary["messages"], a.summary["bytes"]), (3, 60), "out_of_order: totals")
check_eq(a.doc["trace"]["records"],
         records(MpiIsend=3, MpiIsendComplete=3, MpiRecv=1, MpiIrecvRequest=2, MpiIrecv=2),
         "out_of_order: records")
check_warnings(a, {}, "out_of_order")

# A cancelled Isend, a cancelled IrecvRequest, a cancel that matches nothing.
a = analyze(write("cancelled"))
check_eq(a.messages(), [(0, 1, 0, 3, 60, 60, "0.000000011", "0.000000021", "0.000000010")],
         "cancelled: messages")
check_eq((a.summary["unmatched_sends"], a.summary["unmatched_receives"]), (0, 0),
         "cancelled: nothing unmatched")
check_eq(a.doc["trace"]["records"]["MpiRequestCancelled"], 3, "cancelled: cancel records")
check_warnings(a, {"unmatched_cancel": 1}, "cancelled")
check_eq(len(a.doc["warning_examples"]["unmatched_cancel"]), 1, "cancelled: one example")
check_eq("request 99" in a.doc["warning_examples"]["unmatched_cancel"][0], True,
         "cancelled: the example names request 99")

# Wildcard receives: the source and tag come with the completion.
a = analyze(write("wildcard"))
check_eq(a.messages(), [
    (0, 2, 0, 9, 8, 8, "0.000000010", "0.000000021", "0.000000011"),
    (1, 2, 0, 4, 16, 16, "0.000000011", "0.000000020", "0.000000009"),
    (0, 2, 0, 2, 4, 4, "0.000000030", "0.000000035", "0.000000005"),
], "wildcard: messages")
check_eq(a.matrix(), [(0, 2, 2, 12), (1, 2, 1, 16)], "wildcard: matrix")
check_warnings(a, {}, "wildcard")

# Request records that do not fit: counted, worked around, never fatal.
a = analyze(write("request_errors"))
check_eq(a.messages(), [
    (1, 0, 0, 6, 8, 8, "0.000000025", "0.000000030", "0.000000005"),
    (0, 1, 0, 7, 16, 16, "0.000000040", "0.000000050", "0.000000010"),
    (0, 1, 0, 7, 32, 32, "0.000000041", "0.000000051", "0.000000010"),
    (0, 1, 0, 8, 64, 64, "0.000000060", "0.000000070", "0.000000010"),
], "request_errors: messages")
check_eq(a.matrix(), [(0, 1, 3, 112), (1, 0, 1, 8)], "request_errors: matrix")
check_eq((a.summary["unmatched_sends"], a.summary["unmatched_receives"]), (0, 0),
         "request_errors: nothing unmatched")
check_warnings(a, {"unknown_request": 2, "request_reused": 1, "isend_not_completed": 1,
                   "irecv_not_completed": 1, "unmapped_rank": 1}, "request_errors")

finish()
