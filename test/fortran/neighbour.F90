! Every neighbourhood collective through the Fortran bindings, one source for
! three interfaces (binding.h), on any number of ranks: the neighbour parts of
! test/mpi/collectives.c, and the topologies whose neighbour counts size the
! datatype arrays of Neighbor_alltoallw (a Cartesian ring and line, a graph,
! distributed graphs with in-degree /= out-degree).  test/fortran/
! neighbour.py asserts the exact messages on 4, 3, 2 and 1 ranks.  Every
! rank prints a checksum of what it received.  Arguments, for bindings that
! fail without hooktrace too (neighbour.py): no-cart-alltoallw leaves out
! the (I)Neighbor_alltoallw calls on the Cartesian and graph topologies
! (MPICH 4.0's mpi_f08 binding sizes the datatype arrays with
! MPI_Dist_graph_neighbors_count, Open MPI 4.1's with the size of the
! communicator, too small on 1 rank); unchecked-stars leaves what the
! stars of dist_graph() received out of the checksum (MPICH 4.0 delivers
! wrong data there, in C too); dense adds dense(), which Open MPI 4.1's
! bindings cannot run (see there).
#include "binding.h"
module topo
#include "module_head.h"
    integer, parameter :: BUF = 1024
    logical :: cart_w = .true., star_data = .true., run_dense = .false.
    integer, asynchronous :: ints_a(BUF), ints_b(BUF)
    double precision, asynchronous :: dbl_a(BUF), dbl_b(BUF)
    ! The topologies, all freed at the end: MPICH 4.0 (without hooktrace
    ! too) now and then hangs in a neighbourhood collective on a
    ! distributed graph created after other topologies were freed.
    HANDLE(MPI_Comm) :: topologies(8)
    integer :: ntopologies = 0
contains
#include "checksum.h"
#include "buffers.h"

    subroutine keep(comm)
        HANDLE(MPI_Comm), intent(in) :: comm
        ntopologies = ntopologies + 1
        topologies(ntopologies) = comm
    end subroutine

    ! A periodic 1-D Cartesian ring (not reordered): neighbours r-1 (source
    ! and destination 1) and r+1 (2).  Every routine, blocking, then
    ! non-blocking (each completed by MPI_Wait):
    !   allgather   2 ints to each neighbour
    !   allgatherv  r+1 ints to each neighbour
    !   alltoall    3 doubles to each neighbour
    !   alltoallv   1 int to r-1, 2 ints to r+1 (non-blocking: 2 ints to each)
    !   alltoallw   1 double to r-1, 3 ints to r+1 (non-blocking: 3 ints to
    !               each), INTEGER(KIND=MPI_ADDRESS_KIND) byte displacements
    ! The non-blocking v/w forms send the same to both sides, as in
    ! collectives.c (Open MPI 4.1's libnbc mismatches the blocks when both
    ! neighbours are one rank).
    subroutine ring()
        HANDLE(MPI_Comm) :: cart
        HANDLE(MPI_Request) :: req(5)
        HANDLE(MPI_Datatype) :: wst(2), wrt(2), iwt(2)
        integer :: dims(1), gc(2), gd(2), sc(2), sd(2), rc(2), rd(2), wsc(2), wrc(2), ierr, i, left, right
        integer :: isc(2), iwc(2)
        integer(kind=MPI_ADDRESS_KIND) :: wsd(2), wrd(2)
        logical :: periods(1)
        dims(1) = nranks
        periods(1) = .true.
        call MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, .false., cart, ierr)
        left = mod(rank + nranks - 1, nranks)
        right = mod(rank + 1, nranks)
        gc = (/left + 1, right + 1/)
        gd = (/0, 16/)
        sc = (/1, 2/)
        sd = (/0, 8/)
        rc = (/2, 1/)
        rd = (/0, 8/)
        wsc = (/1, 3/)
        wrc = (/3, 1/)
        wsd = (/0_MPI_ADDRESS_KIND, 64_MPI_ADDRESS_KIND/)
        wrd = wsd
        wst(1) = MPI_DOUBLE_PRECISION
        wst(2) = MPI_INTEGER
        wrt(1) = MPI_INTEGER
        wrt(2) = MPI_DOUBLE_PRECISION
        isc = 2
        iwc = 3
        iwt(1) = MPI_INTEGER
        iwt(2) = MPI_INTEGER
        call fill()
        call MPI_Neighbor_allgather(ints_a, 2, MPI_INTEGER, ints_b, 2, MPI_INTEGER, cart, ierr)
        if (nranks > 1 .and. ints_b(1) /= left * 1000 + 1) stop 51
        call MPI_Neighbor_allgatherv(ints_a, rank + 1, MPI_INTEGER, ints_b(101:), gc, gd, MPI_INTEGER, &
                                     cart, ierr)
        call MPI_Neighbor_alltoall(dbl_a, 3, MPI_DOUBLE_PRECISION, dbl_b, 3, MPI_DOUBLE_PRECISION, cart, ierr)
        call MPI_Neighbor_alltoallv(ints_a, sc, sd, MPI_INTEGER, ints_b(201:), rc, rd, MPI_INTEGER, cart, ierr)
        if (cart_w) call MPI_Neighbor_alltoallw(dbl_a, wsc, wsd, wst, dbl_b(101:), wrc, wrd, wrt, cart, ierr)
        call take()
        call fill()
        call MPI_Ineighbor_allgather(ints_a, 2, MPI_INTEGER, ints_b, 2, MPI_INTEGER, cart, req(1), ierr)
        call MPI_Ineighbor_allgatherv(ints_a, rank + 1, MPI_INTEGER, ints_b(101:), gc, gd, MPI_INTEGER, &
                                      cart, req(2), ierr)
        call MPI_Ineighbor_alltoall(dbl_a, 3, MPI_DOUBLE_PRECISION, dbl_b, 3, MPI_DOUBLE_PRECISION, cart, &
                                    req(3), ierr)
        call MPI_Ineighbor_alltoallv(ints_a, isc, sd, MPI_INTEGER, ints_b(201:), isc, rd, MPI_INTEGER, cart, &
                                     req(4), ierr)
        req(5) = MPI_REQUEST_NULL
        if (cart_w) call MPI_Ineighbor_alltoallw(dbl_a, iwc, wsd, iwt, dbl_b(101:), iwc, wrd, iwt, cart, &
                                                 req(5), ierr)
        do i = 1, 5
            call MPI_Wait(req(i), MPI_STATUS_IGNORE, ierr)
        end do
        call take()
        call keep(cart)
    end subroutine

    ! A non-periodic line: the ends have an MPI_PROC_NULL neighbour, which
    ! gets nothing.  Neighbor_alltoall: 2 ints to each real neighbour;
    ! Neighbor_alltoallw: 1 int to each.
    subroutine line()
        HANDLE(MPI_Comm) :: cart
        HANDLE(MPI_Datatype) :: types(2)
        integer :: dims(1), counts(2), ierr
        integer(kind=MPI_ADDRESS_KIND) :: displs(2)
        logical :: periods(1)
        dims(1) = nranks
        periods(1) = .false.
        call MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, .false., cart, ierr)
        counts = 1
        displs = (/0_MPI_ADDRESS_KIND, 4_MPI_ADDRESS_KIND/)
        types(1) = MPI_INTEGER
        types(2) = MPI_INTEGER
        call fill()
        call MPI_Neighbor_alltoall(ints_a, 2, MPI_INTEGER, ints_b, 2, MPI_INTEGER, cart, ierr)
        if (cart_w) call MPI_Neighbor_alltoallw(ints_a, counts, displs, types, ints_b(101:), counts, displs, &
                                                types, cart, ierr)
        call take()
        call keep(cart)
    end subroutine

    ! Distributed graphs.  r sends to r+1 and r+2, receives from r-1 and
    ! r-2 (mod n): Neighbor_alltoallv, 1 int to r+1, 3 ints to r+2.  A star
    ! out of rank 0 (out-degree n-1, every other rank in-degree 1):
    ! Neighbor_alltoallw, j ints to rank j if j is odd, j doubles if even.
    ! A star into rank 0 (in-degree n-1): Ineighbor_alltoallw, j ints from
    ! rank j, MPI_Wait.
    subroutine dist_graph()
        HANDLE(MPI_Comm) :: g, star
        HANDLE(MPI_Datatype) :: stypes(nranks), rtypes(nranks)
        HANDLE(MPI_Request) :: req
        integer :: src(2), dst(2), c(2), d(2), nodes(nranks), counts(nranks), rcounts(nranks), ierr, j, deg
        integer(kind=MPI_ADDRESS_KIND) :: displs(nranks)
        src = (/mod(rank + nranks - 1, nranks), mod(rank + 2 * nranks - 2, nranks)/)
        dst = (/mod(rank + 1, nranks), mod(rank + 2, nranks)/)
        call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, src, MPI_UNWEIGHTED, 2, dst, MPI_UNWEIGHTED, &
                                            MPI_INFO_NULL, .false., g, ierr)
        c = (/1, 3/)
        d = (/0, 8/)
        call fill()
        call MPI_Neighbor_alltoallv(ints_a, c, d, MPI_INTEGER, ints_b, c, d, MPI_INTEGER, g, ierr)
        call take()
        call keep(g)
        ! out of rank 0: destination j is world rank j
        stypes = MPI_INTEGER
        rtypes = MPI_INTEGER
        deg = 0
        if (rank == 0) deg = nranks - 1
        do j = 1, nranks - 1
            nodes(j) = j
            counts(j) = j
            displs(j) = 128 * (j - 1)
            if (mod(j, 2) == 1) then
                stypes(j) = MPI_INTEGER
            else
                stypes(j) = MPI_DOUBLE_PRECISION
            end if
        end do
        rcounts(1) = rank
        rtypes(1) = MPI_INTEGER
        if (mod(rank, 2) == 0) rtypes(1) = MPI_DOUBLE_PRECISION
        if (rank == 0) then
            call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, nodes, MPI_UNWEIGHTED, deg, nodes, &
                                                MPI_UNWEIGHTED, MPI_INFO_NULL, .false., star, ierr)
        else
            call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, (/0/), MPI_UNWEIGHTED, 0, nodes, &
                                                MPI_UNWEIGHTED, MPI_INFO_NULL, .false., star, ierr)
        end if
        call fill()
        call MPI_Neighbor_alltoallw(dbl_a, counts, displs, stypes, dbl_b, rcounts, displs, rtypes, star, ierr)
        if (star_data) call take()
        call keep(star)
        ! into rank 0: source j is world rank j, j ints from each
        if (rank == 0) then
            call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, deg, nodes, MPI_UNWEIGHTED, 0, nodes, &
                                                MPI_UNWEIGHTED, MPI_INFO_NULL, .false., star, ierr)
        else
            call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, nodes, MPI_UNWEIGHTED, 1, (/0/), &
                                                MPI_UNWEIGHTED, MPI_INFO_NULL, .false., star, ierr)
        end if
        rtypes = MPI_INTEGER
        stypes(1) = MPI_INTEGER
        counts(1) = rank
        call fill()
        call MPI_Ineighbor_alltoallw(ints_a, counts, displs, stypes, ints_b, nodes, displs, rtypes, star, &
                                     req, ierr)
        call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
        if (star_data) call take()
        call keep(star)
    end subroutine

    ! A graph (MPI_Graph_create) on 3 or more ranks, a ring: node r's
    ! neighbours are r-1 and r+1, in that order.  Neighbor_alltoallw: 1
    ! double to r-1, 2 ints to r+1.
    subroutine graph()
        HANDLE(MPI_Comm) :: g
        HANDLE(MPI_Datatype) :: stypes(2), rtypes(2)
        integer :: ends(nranks), edges(2 * nranks), counts(2), rcounts(2), i, ierr
        integer(kind=MPI_ADDRESS_KIND) :: displs(2)
        do i = 1, nranks
            ends(i) = 2 * i
            edges(2 * i - 1) = mod(i - 2 + nranks, nranks)
            edges(2 * i) = mod(i, nranks)
        end do
        call MPI_Graph_create(MPI_COMM_WORLD, nranks, ends, edges, .false., g, ierr)
        counts = (/1, 2/)
        rcounts = (/2, 1/)
        displs = (/0_MPI_ADDRESS_KIND, 64_MPI_ADDRESS_KIND/)
        stypes(1) = MPI_DOUBLE_PRECISION
        stypes(2) = MPI_INTEGER
        rtypes(1) = MPI_INTEGER
        rtypes(2) = MPI_DOUBLE_PRECISION
        call fill()
        call MPI_Neighbor_alltoallw(dbl_a, counts, displs, stypes, dbl_b, rcounts, displs, rtypes, g, ierr)
        call take()
        call keep(g)
    end subroutine

    ! A distributed graph with every edge twice, to every rank: out-degree
    ! and in-degree 2n, more than the communicator's ranks.
    ! Neighbor_alltoallw: 1 int along the first copy of each edge, 1 double
    ! along the second (none of it to the rank itself counts).  Open MPI
    ! 4.1's bindings convert only as many datatypes as the communicator has
    ! ranks, so only with the dense argument (MPICH).
    subroutine dense()
        HANDLE(MPI_Comm) :: g
        HANDLE(MPI_Datatype) :: types(2 * nranks)
        integer :: nodes(2 * nranks), counts(2 * nranks), i, ierr
        integer(kind=MPI_ADDRESS_KIND) :: displs(2 * nranks)
        do i = 1, 2 * nranks
            nodes(i) = (i - 1) / 2
            counts(i) = 1
            displs(i) = 16 * (i - 1)
            if (mod(i, 2) == 1) then
                types(i) = MPI_INTEGER
            else
                types(i) = MPI_DOUBLE_PRECISION
            end if
        end do
        call MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2 * nranks, nodes, MPI_UNWEIGHTED, 2 * nranks, &
                                            nodes, MPI_UNWEIGHTED, MPI_INFO_NULL, .false., g, ierr)
        call fill()
        call MPI_Neighbor_alltoallw(dbl_a, counts, displs, types, dbl_b, counts, displs, types, g, ierr)
        call take()
        call keep(g)
    end subroutine
end module

program fneighbour
    use topo
    implicit none
    integer :: ierr, i
    character(len=32) :: arg
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
    do i = 1, command_argument_count()
        call get_command_argument(i, arg)
        if (arg == 'no-cart-alltoallw') cart_w = .false.
        if (arg == 'unchecked-stars') star_data = .false.
        if (arg == 'dense') run_dense = .true.
    end do
    call ring()
    call line()
    call dist_graph()
    if (cart_w .and. nranks >= 3) call graph()
    if (run_dense) call dense()
    print '(a,i0,a,i0)', 'fneighbour rank ', rank, ': ', checksum
    do i = 1, ntopologies
        call MPI_Comm_free(topologies(i), ierr)
    end do
    call MPI_Finalize(ierr)
end program
