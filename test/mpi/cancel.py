"""Cancelled requests (test/mpi/cancel.c) on 2 ranks, both outcomes,
exactly: an MPI_Issend that rank 1 received before rank 0 cancelled it is
one message of 400 bytes on both sides, whether rank 0 then waits (and
MPI_Test_cancelled says 0) or frees it with MPI_Request_free (before, the
sender dropped it: 0 sent, 1 received); an MPI_Irecv that nothing matches,
cancelled, is no message whether waited for or freed.  The same with
polling from every hook, one request at a time, and with none before
MPI_Finalize."""
from mpilib import *

require_launcher()
N = 2


m = Messages()
for function in ("failed_cancel_freed", "failed_cancel_waited"):
    m.p2p(0, 1, 100 * INT, "main;%s;issend_received_then_cancelled;MPI_Issend" % function,
          "main;%s;issend_received_then_cancelled;MPI_Recv" % function)
report_messages(m, N, times=4)

expected_stdout = "".join("%s rank %d: %d\n" % (name, r, value)
                          for name, values in (("failed cancel, freed", (-1, -1)),
                                               ("failed cancel, waited: cancelled", (0, -1)),
                                               ("cancel, freed", (-1, -1)),
                                               ("cancel, waited: cancelled", (-1, 1)))
                          for r, value in enumerate(values))

# Polling every 10 s at most: the run is over before the first interval, so
# the freed request's completion is seen only at MPI_Finalize (the case
# that was dropped); then the defaults; then polling from every hook.
for what, config in (("polls 10 s apart", {"mpi": {"poll_interval_us": 10000000,
                                                   "poll_max_interval_us": 10000000}}),
                     ("defaults", None),
                     ("poll_interval_us 0", {"mpi": {"poll_interval_us": 0, "poll_batch": 1}})):
    r = mpirun(mpi_program("cancel"), N, config=config)
    check_status(r, 0, what)
    check_eq(r.stdout, expected_stdout, what + ": stdout")
    p = r.summary()
    expect_messages(p, m, N, what)
    expect_total_calls(p, {
        "main;failed_cancel_freed;issend_received_then_cancelled;MPI_Cancel": 1,
        "main;failed_cancel_freed;issend_received_then_cancelled;MPI_Request_free": 1,
        "main;failed_cancel_waited;issend_received_then_cancelled;MPI_Wait": 1,
        "main;cancel_freed;irecv_cancelled;MPI_Irecv": 1,
        "main;cancel_freed;irecv_cancelled;MPI_Request_free": 1,
        "main;cancel_waited;irecv_cancelled;MPI_Wait": 1,
    }, what)
finish()
