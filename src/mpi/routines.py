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
    session_init, session_finalize             MPI 4 sessions: the first session a
                                               program opens may start the job, the
                                               last one it closes may end it (job.c)
    abort                                      MPI_Abort: the calling rank's partial
                                               profile is written before PMPI_Abort
    isendrecv, isendrecv_replace               MPI 4: one request, a sent and a
                                               received message at its completion
    psend_init, precv_init                     MPI 4 partitioned: a persistent send /
                                               receive of partitions x count elements
- coll= / rma=: the pattern function's suffix, shared by a routine and its
  non-blocking form (which passes its request, the blocking form NULL).
- persistent: an MPI 4 persistent collective (MPI_Bcast_init, ...): its
  pattern's request is registered inactive, like MPI_Send_init's, and
  each MPI_Start records the blocking form's messages at completion.

- large_count: an MPI 4 large-count routine (MPI_Send_c, ...), derived
  from its row at the end of this file: counts as MPI_Count, arrays of
  displacements as MPI_Aint; its wrapper is compiled only where the
  library has these routines (configure's HT_MPI_LARGE_COUNT), and it has
  no Fortran binding.
- mpi4: one of MPI 4's other new communication routines (Isendrecv,
  persistent collectives, partitioned communication), compiled only where
  the library has them (configure's HT_MPI4_COMM), Fortran bindings
  included.
- sessions: an MPI 4 sessions routine, compiled only where the library
  has them (configure's HT_MPI_SESSIONS); no Fortran binding of its own
  (MPICH's Fortran MPI_Session_init calls the C routine, which is
  wrapped).

Adding a routine is adding a row here (and, for a new collective pattern,
its ht_coll_ function in collectives.c).
"""

import re

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
R("MPI_Isendrecv", "const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, "
  "void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, "
  "MPI_Request *request", "isendrecv", mpi4=True)
R("MPI_Isendrecv_replace", "void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, "
  "int recvtag, MPI_Comm comm, MPI_Request *request", "isendrecv_replace", mpi4=True)

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

# --- MPI 4 partitioned communication ------------------------------------------
# A started partitioned send or receive is one message of all its
# partitions; marking or asking partitions is a node.
R("MPI_Psend_init", "const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int dest, "
  "int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request", "psend_init", mpi4=True)
R("MPI_Precv_init", "void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int source, "
  "int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request", "precv_init", mpi4=True)
R("MPI_Pready", "int partition, MPI_Request request", "probe", mpi4=True)
R("MPI_Pready_range", "int partition_low, int partition_high, MPI_Request request", "probe", mpi4=True)
# MPI 4.0 says const int array_of_partitions[]; MPICH 4.0's PMPI_Pready_list
# takes int[], which a const-declaring library's accepts too.
R("MPI_Pready_list", "int length, int array_of_partitions[], MPI_Request request", "probe", mpi4=True)
R("MPI_Parrived", "MPI_Request request, int partition, int *flag", "probe", mpi4=True)

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
R("MPI_Abort", "MPI_Comm comm, int errorcode", "abort")
R("MPI_Session_init", "MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session", "session_init",
  sessions=True)
R("MPI_Session_finalize", "MPI_Session *session", "session_finalize", sessions=True)

# --- collectives (ht_coll_<coll> in collectives.c) ----------------------------
# Each blocking routine, its non-blocking form (the I-prefixed name, the
# same parameters plus the request) and its MPI 4 persistent form (the
# _init name, plus an info and the request) share one pattern function.
REQ = ", MPI_Request *request"


def C(name, params, coll):
    R("MPI_" + name, params, "coll", coll=coll)
    R("MPI_I" + name[0].lower() + name[1:], params + REQ, "coll", coll=coll)
    R("MPI_" + name + "_init", params + ", MPI_Info info" + REQ, "coll", coll=coll, persistent=True, mpi4=True)


SEND_RECV = ("const void *sendbuf, int sendcount, MPI_Datatype sendtype, "
             "void *recvbuf, int recvcount, MPI_Datatype recvtype")
SEND_RECVV = ("const void *sendbuf, int sendcount, MPI_Datatype sendtype, "
              "void *recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype")
SENDV_RECV = ("const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, "
              "void *recvbuf, int recvcount, MPI_Datatype recvtype")
SENDV_RECVV = ("const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, "
               "void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype")
SENDW_RECVW = ("const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[], "
               "void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[]")
# Neighbor_alltoallw takes byte displacements as MPI_Aint, unlike Alltoallw.
NSENDW_RECVW = ("const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[], "
                "const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], "
                "const MPI_Aint rdispls[], const MPI_Datatype recvtypes[]")
REDUCE = "const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op"

C("Barrier", "MPI_Comm comm", "Barrier")
C("Bcast", "void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm", "Bcast")
C("Gather", SEND_RECV + ", int root, MPI_Comm comm", "Gather")
C("Gatherv", SEND_RECVV + ", int root, MPI_Comm comm", "Gatherv")
C("Scatter", SEND_RECV + ", int root, MPI_Comm comm", "Scatter")
C("Scatterv", SENDV_RECV + ", int root, MPI_Comm comm", "Scatterv")
C("Allgather", SEND_RECV + ", MPI_Comm comm", "Allgather")
C("Allgatherv", SEND_RECVV + ", MPI_Comm comm", "Allgatherv")
C("Alltoall", SEND_RECV + ", MPI_Comm comm", "Alltoall")
C("Alltoallv", SENDV_RECVV + ", MPI_Comm comm", "Alltoallv")
C("Alltoallw", SENDW_RECVW + ", MPI_Comm comm", "Alltoallw")
C("Reduce", REDUCE + ", int root, MPI_Comm comm", "Reduce")
C("Allreduce", REDUCE + ", MPI_Comm comm", "Allreduce")
C("Reduce_scatter", "const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, "
  "MPI_Op op, MPI_Comm comm", "Reduce_scatter")
C("Reduce_scatter_block", "const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, "
  "MPI_Op op, MPI_Comm comm", "Reduce_scatter_block")
C("Scan", REDUCE + ", MPI_Comm comm", "Scan")
C("Exscan", REDUCE + ", MPI_Comm comm", "Exscan")

# Neighbourhood collectives (collectives_neighbor.c): peers from the topology.
C("Neighbor_allgather", SEND_RECV + ", MPI_Comm comm", "Neighbor_allgather")
C("Neighbor_allgatherv", SEND_RECVV + ", MPI_Comm comm", "Neighbor_allgatherv")
C("Neighbor_alltoall", SEND_RECV + ", MPI_Comm comm", "Neighbor_alltoall")
C("Neighbor_alltoallv", SENDV_RECVV + ", MPI_Comm comm", "Neighbor_alltoallv")
C("Neighbor_alltoallw", NSENDW_RECVW + ", MPI_Comm comm", "Neighbor_alltoallw")

# --- one-sided (ht_rma_<rma> in rma.c) ----------------------------------------
# The request-based forms (MPI_R...) share the pattern of the plain ones.
RMA = ("int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, "
       "int target_count, MPI_Datatype target_datatype")
R("MPI_Put", "const void *origin_addr, " + RMA + ", MPI_Win win", "rma", rma="Put")
R("MPI_Rput", "const void *origin_addr, " + RMA + ", MPI_Win win" + REQ, "rma", rma="Put")
R("MPI_Get", "void *origin_addr, " + RMA + ", MPI_Win win", "rma", rma="Get")
R("MPI_Rget", "void *origin_addr, " + RMA + ", MPI_Win win" + REQ, "rma", rma="Get")
R("MPI_Accumulate", "const void *origin_addr, " + RMA + ", MPI_Op op, MPI_Win win", "rma", rma="Accumulate")
R("MPI_Raccumulate", "const void *origin_addr, " + RMA + ", MPI_Op op, MPI_Win win" + REQ, "rma",
  rma="Accumulate")
GET_ACC = ("const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, "
           "void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank, "
           "MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win")
R("MPI_Get_accumulate", GET_ACC, "rma", rma="Get_accumulate")
R("MPI_Rget_accumulate", GET_ACC + REQ, "rma", rma="Get_accumulate")
R("MPI_Fetch_and_op", "const void *origin_addr, void *result_addr, MPI_Datatype datatype, int target_rank, "
  "MPI_Aint target_disp, MPI_Op op, MPI_Win win", "rma", rma="Fetch_and_op")
R("MPI_Compare_and_swap", "const void *origin_addr, const void *compare_addr, void *result_addr, "
  "MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win", "rma", rma="Compare_and_swap")


# --- MPI 4 large counts (MPI_Send_c, ...) -------------------------------------
# Every routine with a count gets a _c form in MPI 4 (MPICH 4.0 has them all,
# Open MPI 4.1 none): the same row with MPI_Count counts and MPI_Aint
# displacements.  MPI_Barrier (and its I and _init forms) has no count;
# MPI_Fetch_and_op and MPI_Compare_and_swap move one element and have no
# _c form; MPI_Psend_init and MPI_Precv_init count in MPI_Count already.
LARGE_COUNT_KINDS = ("send", "recv", "sendrecv", "sendrecv_replace", "isend", "irecv", "mrecv",
                     "imrecv", "send_init", "recv_init", "coll", "rma", "isendrecv", "isendrecv_replace")
NO_LARGE_COUNT = ("MPI_Barrier", "MPI_Ibarrier", "MPI_Barrier_init", "MPI_Fetch_and_op",
                  "MPI_Compare_and_swap")


def large_count_params(params):
    params = re.sub(r"\bint (\w*count)\b", r"MPI_Count \1", params)
    params = re.sub(r"\bconst int (\w*counts)\[\]", r"const MPI_Count \1[]", params)
    return re.sub(r"\bconst (?:int|MPI_Aint) (\w*displs)\[\]", r"const MPI_Aint \1[]", params)


for _row in list(ROUTINES):
    if _row["kind"] in LARGE_COUNT_KINDS and _row["name"] not in NO_LARGE_COUNT:
        ROUTINES.append(dict(_row, name=_row["name"] + "_c", params=large_count_params(_row["params"]),
                             large_count=True))
