"""The MPI routines hooktrace wraps: one row per routine.

    R(name, parameters, kind, **options)

- parameters: the C parameter list exactly as in the MPI-3.1 standard (and
  Open MPI 4.1 / MPICH 4.0 mpi.h); the generator derives the argument list
  and the Fortran bindings from it.
- kind: what the wrapper records (see KINDS in generate.py):
    send, recv, sendrecv, sendrecv_replace    blocking point-to-point
    isend, irecv, imrecv, mrecv                non-blocking / matched
    send_init, recv_init, start, startall      persistent requests
    wait, test, waitany, testany, waitall, testall, waitsome, testsome
    request_free, cancel
    probe, mprobe, improbe                     no message, just the node (matched
                                               probes remember the communicator)
    coll                                       collective: pattern function ht_coll_<coll>
    rma                                        one-sided: pattern function ht_rma_<rma>
    init, init_thread, finalize, pcontrol      environment
- coll= / rma=: the pattern function's suffix, shared by a routine and its
  non-blocking form (which passes its request, the blocking form NULL).

Adding a routine is adding a row here (and, for a new collective pattern,
its ht_coll_ function in collectives.c).
"""

ROUTINES = []


def R(name, params, kind, **options):
    ROUTINES.append(dict(name=name, params=params, kind=kind, **options))


P2P = "const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm"
P2P_REQ = P2P + ", MPI_Request *request"
RECV_REQ = "void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request"

# --- point-to-point -----------------------------------------------------------
R("MPI_Send", P2P, "send")
R("MPI_Bsend", P2P, "send")
R("MPI_Ssend", P2P, "send")
R("MPI_Rsend", P2P, "send")
R("MPI_Recv", "void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status", "recv")
R("MPI_Sendrecv", "const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, "
  "void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status",
  "sendrecv")
R("MPI_Sendrecv_replace", "void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, "
  "MPI_Comm comm, MPI_Status *status", "sendrecv_replace")
R("MPI_Isend", P2P_REQ, "isend")
R("MPI_Ibsend", P2P_REQ, "isend")
R("MPI_Issend", P2P_REQ, "isend")
R("MPI_Irsend", P2P_REQ, "isend")
R("MPI_Irecv", RECV_REQ, "irecv")
R("MPI_Mrecv", "void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status", "mrecv")
R("MPI_Imrecv", "void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request", "imrecv")

# --- probes: a node in the profile, no message --------------------------------
R("MPI_Probe", "int source, int tag, MPI_Comm comm, MPI_Status *status", "probe")
R("MPI_Iprobe", "int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status", "probe")
R("MPI_Mprobe", "int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status", "mprobe")
R("MPI_Improbe", "int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status", "improbe")

# --- persistent requests ------------------------------------------------------
R("MPI_Send_init", P2P_REQ, "send_init")
R("MPI_Bsend_init", P2P_REQ, "send_init")
R("MPI_Ssend_init", P2P_REQ, "send_init")
R("MPI_Rsend_init", P2P_REQ, "send_init")
R("MPI_Recv_init", RECV_REQ, "recv_init")
R("MPI_Start", "MPI_Request *request", "start")
R("MPI_Startall", "int count, MPI_Request array_of_requests[]", "startall")

# --- completion ---------------------------------------------------------------
R("MPI_Wait", "MPI_Request *request, MPI_Status *status", "wait")
R("MPI_Test", "MPI_Request *request, int *flag, MPI_Status *status", "test")
R("MPI_Waitany", "int count, MPI_Request array_of_requests[], int *index, MPI_Status *status", "waitany")
R("MPI_Testany", "int count, MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status", "testany")
R("MPI_Waitall", "int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]", "waitall")
R("MPI_Testall", "int count, MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[]", "testall")
R("MPI_Waitsome", "int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], "
  "MPI_Status array_of_statuses[]", "waitsome")
R("MPI_Testsome", "int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], "
  "MPI_Status array_of_statuses[]", "testsome")
R("MPI_Request_free", "MPI_Request *request", "request_free")
R("MPI_Cancel", "MPI_Request *request", "cancel")

# --- environment --------------------------------------------------------------
R("MPI_Init", "int *argc, char ***argv", "init")
R("MPI_Init_thread", "int *argc, char ***argv, int required, int *provided", "init")
R("MPI_Finalize", "void", "finalize")
R("MPI_Pcontrol", "const int level, ...", "pcontrol")

# --- collectives (ht_coll_<coll> in collectives.c) ----------------------------
# (rows added with the collective patterns)

# --- one-sided (ht_rma_<rma> in rma.c) ----------------------------------------
# (rows added with the one-sided patterns)
