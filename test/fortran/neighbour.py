"""Every neighbourhood collective through the Fortran bindings
(test/fortran/neighbour.F90) on 4, 3, 2 and 1 ranks, as `use mpi`
(fneighbour_f90) and `use mpi_f08` (fneighbour_f08): block i of the send
arguments goes to destination i, block i of the receive arguments comes
from source i (docs/mpi.md), exactly, per stack, per rank and in
coll_matrix:

  a periodic Cartesian ring: all ten routines (Neighbor_* and Ineighbor_*);
      on 2 ranks both neighbours are the other rank, on 1 rank itself (no
      message)
  a line: no message to the MPI_PROC_NULL neighbours at the ends
  distributed graphs: Neighbor_alltoallv on r -> r+1, r+2; the datatype
      arrays of Neighbor_alltoallw / Ineighbor_alltoallw sized by the
      out-degree and in-degree (stars out of and into rank 0)
  a graph (MPI_Graph_create, 3 ranks or more): Neighbor_alltoallw
  with MPICH, a distributed graph with every edge twice (degrees 2n, more
      than the ranks; Open MPI 4.1's bindings cannot run it):
      Neighbor_alltoallw

Where the binding itself fails, with or without hooktrace (docs/fortran.md),
the program leaves out:
- the (I)Neighbor_alltoallw calls on the Cartesian and graph topologies:
  MPICH 4.0's mpi_f08 binding sizes the datatype arrays with
  MPI_Dist_graph_neighbors_count (an error on any other topology), Open
  MPI 4.1's bindings with the size of the communicator (on 1 rank smaller
  than the 2 neighbours of the ring and the line);
- with MPICH, what the stars out of and into rank 0 received, from its
  checksum: MPICH 4.0 delivers wrong data there (in C too: nothing, or
  only the first element from each source).  What hooktrace records comes
  from the arguments and is checked as everywhere else."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from flib import *  # noqa: E402,F403
from models import neighbour_collectives  # noqa: E402

require_launcher()


def at(function, routine):
    return "main;fneighbour;topo::%s;%s" % (function, routine)


def model(n, cart_w, dense):
    """cart_w: whether the (I)Neighbor_alltoallw calls on the Cartesian and
    graph topologies ran; dense: whether dense() ran."""
    m = Messages()
    neighbour_collectives(m, n, at, "ring", "line", "dist_graph", alltoallw=cart_w)
    # more than collectives.c: Neighbor_alltoallw on the line and on a graph
    for r in range(n):
        for to in (r - 1, r + 1):   # the line
            if cart_w and 0 <= to < n:
                m.coll(r, to, INT, at("line", "MPI_Neighbor_alltoallw"))
        if cart_w and n >= 3:
            m.coll(r, (r - 1) % n, DOUBLE, at("graph", "MPI_Neighbor_alltoallw"))
            m.coll(r, (r + 1) % n, 2 * INT, at("graph", "MPI_Neighbor_alltoallw"))
    for r in range(n):
        for d in range(n):
            if dense:   # every edge twice: an int, then a double
                m.coll(r, d, INT, at("dense", "MPI_Neighbor_alltoallw"))
                m.coll(r, d, DOUBLE, at("dense", "MPI_Neighbor_alltoallw"))
    for j in range(1, n):   # the stars out of and into rank 0
        m.coll(0, j, j * (INT if j % 2 else DOUBLE), at("dist_graph", "MPI_Neighbor_alltoallw"))
        m.coll(j, 0, j * INT, at("dist_graph", "MPI_Ineighbor_alltoallw"))
    return m


def calls(n, cart_w, dense):
    c = {"main;fneighbour;MPI_Init": n, "main;fneighbour;MPI_Finalize": n,
         at("ring", "MPI_Neighbor_allgather"): n, at("ring", "MPI_Ineighbor_alltoallv"): n,
         at("ring", "MPI_Wait"): 5 * n, at("line", "MPI_Neighbor_alltoall"): n,
         at("dist_graph", "MPI_Neighbor_alltoallw"): n, at("dist_graph", "MPI_Ineighbor_alltoallw"): n,
         at("dist_graph", "MPI_Wait"): n}
    if cart_w:
        c.update({at("ring", "MPI_Neighbor_alltoallw"): n, at("ring", "MPI_Ineighbor_alltoallw"): n,
                  at("line", "MPI_Neighbor_alltoallw"): n})
        if n >= 3:
            c[at("graph", "MPI_Neighbor_alltoallw")] = n
    if dense:
        c[at("dense", "MPI_Neighbor_alltoallw")] = n
    return c


references = {}   # stdout without hooktrace, compared on 4 ranks
for variant in ("f90", "f08"):
    mpich_f08 = MPICH and variant == "f08"
    for n in (4, 3, 2, 1):
        cart_w = not (mpich_f08 or not MPICH and n == 1)
        args = ([] if cart_w else ["no-cart-alltoallw"]) + (["unchecked-stars", "dense"] if MPICH else [])
        what = "fneighbour_%s on %d rank%s" % (variant, n, "s" if n > 1 else "")
        if n == 4 and tuple(args) not in references:
            references[tuple(args)] = mpirun(fortran_program("fneighbour_plain"), n, args)
            check_status(references[tuple(args)], 0, "fneighbour_plain on %d ranks %s" % (n, args))
        r = mpirun(fortran_program("fneighbour_" + variant), n, args)
        p = expect_run(r, references.get(tuple(args)) if n == 4 else None, model(n, cart_w, MPICH),
                       calls(n, cart_w, MPICH), n, what)
        if p and n == 1:
            check_eq(p.doc.get("coll_matrix"), [], what + ": coll_matrix is empty")
finish()
