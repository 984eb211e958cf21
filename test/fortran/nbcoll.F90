! The rest of test/mpi/collectives.c through the Fortran bindings, one
! source for three interfaces (binding.h), on any number of ranks (the
! inter-communicator part on 2 or more): every non-blocking collective,
! blocks of 0 bytes, Fortran's MPI_BOTTOM, and the collectives on an
! inter-communicator that coll.F90 leaves out.  test/fortran/nbcoll.py
! asserts the exact messages on 4, 3, 2 and 1 ranks.  Every rank prints a
! checksum of what it received.  With the argument
! no-uneven-inter-alltoallw the inter-communicator's Alltoallw is left out
! when the groups differ in size: MPICH 4.0's mpi_f08 binding sizes its
! datatype arrays with the local group's size (nbcoll.py).
#include "binding.h"
module nbcoll
#include "module_head.h"
    integer, parameter :: BUF = 1024, MAXN = 8
    integer :: root
    logical :: uneven_inter_w = .true.
    integer, asynchronous :: ints_a(BUF), ints_b(BUF), i_b(64 * MAXN, 10)
    double precision, asynchronous :: dbl_a(BUF), dbl_b(BUF), d_b(64 * MAXN, 6)
contains
#include "checksum.h"
#include "buffers.h"

    ! counts(i) = f(rank, i - 1) for every peer, displacements packed.
    subroutine layout(kind, counts, displs)
        character(len=*), intent(in) :: kind
        integer, intent(out) :: counts(:), displs(:)
        integer :: p, at
        at = 0
        do p = 0, nranks - 1
            select case (kind)
            case ('gatherv')
                counts(p + 1) = p + 1
            case ('scatterv')
                counts(p + 1) = 2 * p + 1
            case ('allgatherv')
                counts(p + 1) = p + 2
            case ('alltoallv')
                counts(p + 1) = rank + p + 1
            case default   ! reduce_scatter
                counts(p + 1) = p + 1
            end select
            displs(p + 1) = at
            at = at + counts(p + 1)
        end do
    end subroutine

    ! Every non-blocking collective, counts as in collectives.c (root = the
    ! last rank), all 17 requests completed by one MPI_Waitall (more than
    ! the wrappers keep on their stack):
    !   Ibarrier; Ibcast 6 ints; Igather 2 ints; Igatherv r+1 ints;
    !   Iscatter 3 doubles; Iscatterv 2r+1 ints to r; Ireduce 4 doubles;
    !   Iallgather 2 ints; Iallgatherv r+2 ints; Ialltoall 3 ints;
    !   Ialltoallv me+peer+1 ints; Ialltoallw (me+peer)%3+1 doubles when
    !   me+peer is even, ints otherwise; Iallreduce 5 doubles;
    !   Ireduce_scatter i+1 ints to i; Ireduce_scatter_block 2 doubles;
    !   Iscan 3 ints; Iexscan 2 doubles.
    subroutine nonblocking()
        HANDLE(MPI_Request) :: req(17)
        HANDLE(MPI_Datatype) :: wtypes(MAXN)
        integer :: c(MAXN, 5), d(MAXN, 5), rc(MAXN), rd(MAXN), wc(MAXN), wd(MAXN), i, ierr
        call fill()
        i_b = 0
        d_b = 0
        i_b(1:6, 1) = ints_a(1:6)
        call layout('gatherv', c(:, 1), d(:, 1))
        call layout('scatterv', c(:, 2), d(:, 2))
        call layout('allgatherv', c(:, 3), d(:, 3))
        call layout('alltoallv', c(:, 4), d(:, 4))
        call layout('alltoallv', rc, rd)
        call layout('reduce_scatter', c(:, 5), d(:, 5))
        call alltoallw_layout(wc, wd, wtypes)
        call MPI_Ibarrier(MPI_COMM_WORLD, req(1), ierr)
        call MPI_Ibcast(i_b(:, 1), 6, MPI_INTEGER, root, MPI_COMM_WORLD, req(2), ierr)
        call MPI_Igather(ints_a, 2, MPI_INTEGER, i_b(:, 2), 2, MPI_INTEGER, root, MPI_COMM_WORLD, req(3), ierr)
        call MPI_Igatherv(ints_a, rank + 1, MPI_INTEGER, i_b(:, 3), c(:, 1), d(:, 1), MPI_INTEGER, root, &
                          MPI_COMM_WORLD, req(4), ierr)
        call MPI_Iscatter(dbl_a, 3, MPI_DOUBLE_PRECISION, d_b(:, 1), 3, MPI_DOUBLE_PRECISION, root, &
                          MPI_COMM_WORLD, req(5), ierr)
        call MPI_Iscatterv(ints_a, c(:, 2), d(:, 2), MPI_INTEGER, i_b(:, 4), 2 * rank + 1, MPI_INTEGER, &
                           root, MPI_COMM_WORLD, req(6), ierr)
        call MPI_Ireduce(dbl_a, d_b(:, 2), 4, MPI_DOUBLE_PRECISION, MPI_SUM, root, MPI_COMM_WORLD, &
                         req(7), ierr)
        call MPI_Iallgather(ints_a, 2, MPI_INTEGER, i_b(:, 5), 2, MPI_INTEGER, MPI_COMM_WORLD, req(8), ierr)
        call MPI_Iallgatherv(ints_a, rank + 2, MPI_INTEGER, i_b(:, 6), c(:, 3), d(:, 3), MPI_INTEGER, &
                             MPI_COMM_WORLD, req(9), ierr)
        call MPI_Ialltoall(ints_a, 3, MPI_INTEGER, i_b(:, 7), 3, MPI_INTEGER, MPI_COMM_WORLD, req(10), ierr)
        call MPI_Ialltoallv(ints_a, c(:, 4), d(:, 4), MPI_INTEGER, i_b(:, 8), rc, rd, MPI_INTEGER, &
                            MPI_COMM_WORLD, req(11), ierr)
        call MPI_Ialltoallw(dbl_a, wc, wd, wtypes, d_b(:, 3), wc, wd, wtypes, MPI_COMM_WORLD, req(12), ierr)
        call MPI_Iallreduce(dbl_a, d_b(:, 4), 5, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, req(13), ierr)
        call MPI_Ireduce_scatter(ints_a, i_b(:, 9), c(:, 5), MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, &
                                 req(14), ierr)
        call MPI_Ireduce_scatter_block(dbl_a, d_b(:, 5), 2, MPI_DOUBLE_PRECISION, MPI_SUM, &
                                       MPI_COMM_WORLD, req(15), ierr)
        call MPI_Iscan(ints_a, i_b(:, 10), 3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req(16), ierr)
        call MPI_Iexscan(dbl_a, d_b(:, 6), 2, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, req(17), ierr)
        call MPI_Waitall(17, req, MPI_STATUSES_IGNORE, ierr)
        if (i_b(1, 1) /= root * 1000 + 1) stop 61
        if (rank == 0) d_b(1:2, 6) = 0   ! undefined on rank 0
        do i = 1, 10
            call add_ints(i_b(:, i))
        end do
        do i = 1, 6
            call add_dbls(d_b(:, i))
        end do
    end subroutine

    ! Blocks of 0 bytes are no messages: a Bcast of 0 ints from rank 0; an
    ! Alltoallv with 1 int between ranks of different parity and 0 between
    ! ranks of the same parity; a Gatherv to rank 0 in which only odd ranks
    ! send (1 int).
    subroutine empty_blocks()
        integer :: counts(MAXN), displs(MAXN), p, ierr
        call fill()
        call MPI_Bcast(ints_a, 0, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
        do p = 0, nranks - 1
            counts(p + 1) = mod(rank + p, 2)
            displs(p + 1) = p
        end do
        call MPI_Alltoallv(ints_a, counts, displs, MPI_INTEGER, ints_b, counts, displs, MPI_INTEGER, &
                           MPI_COMM_WORLD, ierr)
        do p = 0, nranks - 1
            counts(p + 1) = mod(p, 2)
            displs(p + 1) = 100 + p
        end do
        call MPI_Gatherv(ints_a, mod(rank, 2), MPI_INTEGER, ints_b, counts, displs, MPI_INTEGER, 0, &
                         MPI_COMM_WORLD, ierr)
        call take()
    end subroutine

    ! Fortran's MPI_BOTTOM as the send buffer, where taking it for
    ! MPI_IN_PLACE would change what is sent: an Alltoallv of me+2 peer+1
    ! ints to each peer (peer+2 me+1 back), its elements of a type holding
    ! one int at an absolute address, resized to the extent of one int, so
    ! that sdispls count ints from there.
    subroutine bottom()
        HANDLE(MPI_Datatype) :: one, abs_int
        integer :: counts(MAXN), displs(MAXN), rcounts(MAXN), rdispls(MAXN), p, at, rat, ierr
        integer :: blocklen(1)
        integer(kind=MPI_ADDRESS_KIND) :: address(1), extent
        HANDLE(MPI_Datatype) :: types(1)
        call fill()
        call MPI_Get_address(ints_a, address(1), ierr)
        blocklen(1) = 1
        types(1) = MPI_INTEGER
        call MPI_Type_create_struct(1, blocklen, address, types, one, ierr)
        extent = 4
        call MPI_Type_create_resized(one, 0_MPI_ADDRESS_KIND, extent, abs_int, ierr)
        call MPI_Type_commit(abs_int, ierr)
        at = 0
        rat = 0
        do p = 0, nranks - 1
            counts(p + 1) = rank + 2 * p + 1
            displs(p + 1) = at
            at = at + counts(p + 1)
            rcounts(p + 1) = p + 2 * rank + 1
            rdispls(p + 1) = rat
            rat = rat + rcounts(p + 1)
        end do
        call MPI_Alltoallv(MPI_BOTTOM, counts, displs, abs_int, ints_b, rcounts, rdispls, MPI_INTEGER, &
                           MPI_COMM_WORLD, ierr)
        if (nranks > 1 .and. ints_b(1) /= rank * rank + 1) stop 62   ! rank 0's ints_a(rank**2 + 1)
        call take()
        call MPI_Type_free(abs_int, ierr)
        call MPI_Type_free(one, ierr)
    end subroutine

    ! An inter-communicator between ranks < n/2 (group A) and the others (B),
    ! as in collectives.c: Gather to B's rank 0 (2 ints from each A rank);
    ! Allgather 3 ints and Alltoall 1 int, every rank to every remote rank;
    ! Reduce_scatter_block with vectors of 2 nA nB ints; Scatter from A's
    ! rank 0 (2 ints to each B rank); Scatterv from B's rank 0 (i+1 ints to
    ! A's rank i); Reduce to B's rank 0 (3 ints from each A rank);
    ! Allgatherv (world rank + 1 ints to each remote rank); Alltoallv (i+1
    ! ints to remote rank i); Ibcast from B's rank 0 (5 ints to each A rank,
    ! MPI_Wait); and Alltoallw, one datatype per remote rank (remote rank i
    ! gets i+1 ints).
    subroutine inter()
        HANDLE(MPI_Comm) :: local, ic
        HANDLE(MPI_Request) :: req
        HANDLE(MPI_Datatype) :: types(MAXN)
        integer :: me, nlocal, nremote, base, a_root, b_root, i, ierr
        integer :: counts(MAXN), displs(MAXN), rcounts(MAXN), rdispls(MAXN)
        logical :: low
        low = rank < nranks / 2
        call MPI_Comm_split(MPI_COMM_WORLD, merge(1, 0, low), rank, local, ierr)
        if (low) then
            call MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, nranks / 2, 77, ic, ierr)
        else
            call MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 0, 77, ic, ierr)
        end if
        call MPI_Comm_rank(local, me, ierr)
        call MPI_Comm_size(ic, nlocal, ierr)
        call MPI_Comm_remote_size(ic, nremote, ierr)
        ! the roots: A's rank 0 (a_root) and B's rank 0 (b_root), as each
        ! rank passes them
        if (low) then
            a_root = MPI_PROC_NULL
            if (me == 0) a_root = MPI_ROOT
            b_root = 0
            base = nranks / 2
        else
            a_root = 0
            b_root = MPI_PROC_NULL
            if (me == 0) b_root = MPI_ROOT
            base = 0
        end if
        call fill()
        call MPI_Gather(ints_a, 2, MPI_INTEGER, ints_b(101:), 2, MPI_INTEGER, b_root, ic, ierr)
        call MPI_Allgather(ints_a, 3, MPI_INTEGER, ints_b(301:), 3, MPI_INTEGER, ic, ierr)
        call MPI_Alltoall(ints_a, 1, MPI_INTEGER, ints_b(401:), 1, MPI_INTEGER, ic, ierr)
        call MPI_Reduce_scatter_block(ints_a, ints_b(501:), 2 * nremote, MPI_INTEGER, MPI_SUM, ic, ierr)
        call MPI_Scatter(ints_a, 2, MPI_INTEGER, ints_b(601:), 2, MPI_INTEGER, a_root, ic, ierr)
        do i = 1, nremote
            counts(i) = i
            displs(i) = 8 * (i - 1)
        end do
        call MPI_Scatterv(ints_a, counts, displs, MPI_INTEGER, ints_b(651:), me + 1, MPI_INTEGER, b_root, &
                          ic, ierr)
        call MPI_Reduce(ints_a, ints_b(701:), 3, MPI_INTEGER, MPI_SUM, b_root, ic, ierr)
        do i = 1, nremote
            rcounts(i) = base + i
            rdispls(i) = 8 * (i - 1)
        end do
        call MPI_Allgatherv(ints_a, rank + 1, MPI_INTEGER, ints_b(751:), rcounts, rdispls, MPI_INTEGER, &
                            ic, ierr)
        rcounts(1:nremote) = me + 1
        call MPI_Alltoallv(ints_a, counts, displs, MPI_INTEGER, ints_b(801:), rcounts, rdispls, &
                           MPI_INTEGER, ic, ierr)
        call MPI_Ibcast(ints_b(851:), 5, MPI_INTEGER, b_root, ic, req, ierr)
        call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
        do i = 1, nremote
            displs(i) = 32 * (i - 1)
            types(i) = MPI_INTEGER
        end do
        if (uneven_inter_w .or. nlocal == nremote) &
            call MPI_Alltoallw(ints_a, counts, displs, types, ints_b(901:), rcounts, displs, types, ic, ierr)
        if (nlocal /= merge(nranks / 2, nranks - nranks / 2, low)) stop 63
        call take()
        call MPI_Comm_free(ic, ierr)
        call MPI_Comm_free(local, ierr)
    end subroutine
end module

program fnbcoll
    use nbcoll
    implicit none
    integer :: ierr
    character(len=32) :: arg
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
    if (nranks > MAXN) stop 2
    call get_command_argument(1, arg)
    uneven_inter_w = arg /= 'no-uneven-inter-alltoallw'
    root = nranks - 1
    call nonblocking()
    call empty_blocks()
    call bottom()
    if (nranks >= 2) call inter()
    print '(a,i0,a,i0)', 'fnbcoll rank ', rank, ': ', checksum
    call MPI_Finalize(ierr)
end program
