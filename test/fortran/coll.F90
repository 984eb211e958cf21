! Collectives, matched probes, a cancelled receive and MPI_Testsome through
! the Fortran bindings, one source for three interfaces (preprocessor, as
! p2p.F90): HT_F08 `use mpi_f08`, HT_MPIF_H `include 'mpif.h'`, otherwise
! `use mpi`.  Runs on 2 or more ranks; test/fortran/coll.py asserts the
! exact messages of every routine from rank 0's JSON profile on 4 and 3
! ranks, the model of test/mpi/collectives.py and requests.py.  Every rank
! prints a checksum of what it received (compared with the run without
! hooktrace).  The routines live in module `coll`: the profile names them
! coll::rooted etc.
#include "binding.h"
module coll
#include "module_head.h"
    integer, parameter :: BUF = 1024
    integer :: root
    integer :: ints_a(BUF), ints_b(BUF)
    double precision :: dbl_a(BUF), dbl_b(BUF)
contains
#include "checksum.h"
#include "buffers.h"

    ! Rooted collectives, root = last rank: Bcast of 6 ints; Gather of 2
    ! ints; Gatherv of r+1 ints from rank r; Scatter of 3 doubles; Scatterv
    ! of 2r+1 ints to rank r; Reduce of 4 doubles.
    subroutine rooted()
        integer :: counts(nranks), displs(nranks), i, at, ierr
        call fill()
        call MPI_Bcast(ints_a, 6, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
        if (ints_a(1) /= root * 1000 + 1) stop 11
        call add_ints(ints_a(1:6))
        call fill()
        call MPI_Gather(ints_a, 2, MPI_INTEGER, ints_b, 2, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
        at = 0
        do i = 1, nranks
            counts(i) = i
            displs(i) = at
            at = at + counts(i)
        end do
        call MPI_Gatherv(ints_a, rank + 1, MPI_INTEGER, ints_b(101:), counts, displs, MPI_INTEGER, &
                         root, MPI_COMM_WORLD, ierr)
        call MPI_Scatter(dbl_a, 3, MPI_DOUBLE_PRECISION, dbl_b, 3, MPI_DOUBLE_PRECISION, root, &
                         MPI_COMM_WORLD, ierr)
        at = 0
        do i = 1, nranks
            counts(i) = 2 * (i - 1) + 1
            displs(i) = at
            at = at + counts(i)
        end do
        call MPI_Scatterv(ints_a, counts, displs, MPI_INTEGER, ints_b(301:), 2 * rank + 1, &
                          MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
        call MPI_Reduce(dbl_a, dbl_b(101:), 4, MPI_DOUBLE_PRECISION, MPI_SUM, root, &
                        MPI_COMM_WORLD, ierr)
        call take()
    end subroutine

    ! Everybody sends: Allgather of 2 ints; Allgatherv of r+2 ints;
    ! Alltoallv of me+peer+1 ints; Allreduce of 5 doubles; Reduce_scatter
    ! (i+1 ints to rank i); Reduce_scatter_block of 2 doubles; Scan of 3
    ! ints; Exscan of 2 doubles.
    subroutine everyone()
        integer :: counts(nranks), displs(nranks), rcounts(nranks), rdispls(nranks)
        integer :: i, at, rat, ierr
        call fill()
        call MPI_Allgather(ints_a, 2, MPI_INTEGER, ints_b, 2, MPI_INTEGER, MPI_COMM_WORLD, ierr)
        if (ints_b(2 * nranks - 1) /= (nranks - 1) * 1000 + 1) stop 12
        call take()
        call fill()
        at = 0
        do i = 1, nranks
            rcounts(i) = i + 1
            rdispls(i) = at
            at = at + rcounts(i)
        end do
        call MPI_Allgatherv(ints_a, rank + 2, MPI_INTEGER, ints_b, rcounts, rdispls, MPI_INTEGER, &
                            MPI_COMM_WORLD, ierr)
        call take()
        call fill()
        at = 0
        rat = 0
        do i = 1, nranks
            counts(i) = rank + (i - 1) + 1
            displs(i) = at
            at = at + counts(i)
            rcounts(i) = (i - 1) + rank + 1
            rdispls(i) = rat
            rat = rat + rcounts(i)
        end do
        call MPI_Alltoallv(ints_a, counts, displs, MPI_INTEGER, ints_b, rcounts, rdispls, &
                           MPI_INTEGER, MPI_COMM_WORLD, ierr)
        call take()
        call fill()
        call MPI_Allreduce(dbl_a, dbl_b, 5, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
        do i = 1, nranks
            rcounts(i) = i
        end do
        call MPI_Reduce_scatter(ints_a, ints_b, rcounts, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
        call MPI_Reduce_scatter_block(dbl_a, dbl_b(201:), 2, MPI_DOUBLE_PRECISION, MPI_SUM, &
                                      MPI_COMM_WORLD, ierr)
        call MPI_Scan(ints_a, ints_b(201:), 3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
        call MPI_Exscan(dbl_a, dbl_b(301:), 2, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
        if (rank == 0) dbl_b(301:302) = 0   ! undefined on rank 0
        call take()
    end subroutine

    ! MPI_IN_PLACE: Allreduce of 7 ints; Gather of 4 doubles to rank 0,
    ! whose send arguments are MPI_IN_PLACE, 0, MPI_DATATYPE_NULL (the other
    ! ranks' receive arguments 0, MPI_DATATYPE_NULL).
    subroutine in_place()
        integer :: ierr
        call fill()
        ints_b(1:7) = ints_a(1:7)
        call MPI_Allreduce(MPI_IN_PLACE, ints_b, 7, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
        call take()
        call fill()
        if (rank == 0) then
            dbl_b(1:4) = dbl_a(1:4)
            call MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, dbl_b, 4, MPI_DOUBLE_PRECISION, 0, &
                            MPI_COMM_WORLD, ierr)
        else
            call MPI_Gather(dbl_a, 4, MPI_DOUBLE_PRECISION, dbl_b, 0, MPI_DATATYPE_NULL, 0, &
                            MPI_COMM_WORLD, ierr)
        end if
        call take()
    end subroutine

    ! Non-blocking: Ibcast of 6 ints from the root, Iallreduce of 5 doubles,
    ! Igatherv of r+1 ints to the root, one MPI_Waitall (MPI_STATUSES_IGNORE).
    subroutine nonblocking()
        integer, asynchronous :: ib(8), ig(64)
        double precision, asynchronous :: da(8), db(8)
        integer :: counts(nranks), displs(nranks), i, at, ierr
        HANDLE(MPI_Request) :: req(3)
        ib = rank
        ig = 0
        do i = 1, 8
            da(i) = rank + i * 0.25d0
        end do
        db = 0
        at = 0
        do i = 1, nranks
            counts(i) = i
            displs(i) = at
            at = at + counts(i)
        end do
        call MPI_Ibcast(ib, 6, MPI_INTEGER, root, MPI_COMM_WORLD, req(1), ierr)
        call MPI_Iallreduce(da, db, 5, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, req(2), ierr)
        call MPI_Igatherv(ints_a, rank + 1, MPI_INTEGER, ig, counts, displs, MPI_INTEGER, root, &
                          MPI_COMM_WORLD, req(3), ierr)
        call MPI_Waitall(3, req, MPI_STATUSES_IGNORE, ierr)
        if (ib(1) /= root) stop 13
        call add_ints(ib)
        call add_ints(ig)
        call add_dbls(db)
    end subroutine

    ! A sub-communicator: split by parity, keys reversed (sub-rank 0 = the
    ! highest world rank of each half).  Bcast of 2 ints from sub-rank 0;
    ! Allreduce of 1 int; Scan of 1 double.
    subroutine sub_colls()
        HANDLE(MPI_Comm) :: half
        integer :: ierr
        call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), -rank, half, ierr)
        call fill()
        call MPI_Bcast(ints_a, 2, MPI_INTEGER, 0, half, ierr)
        call MPI_Allreduce(ints_a, ints_b, 1, MPI_INTEGER, MPI_SUM, half, ierr)
        call MPI_Scan(dbl_a, dbl_b, 1, MPI_DOUBLE_PRECISION, MPI_SUM, half, ierr)
        call add_ints(ints_a(1:2))
        call take()
        call MPI_Comm_free(half, ierr)
    end subroutine

    ! Matched probes.  In MPI_COMM_WORLD, rank n-2 -> n-1: 10 ints (tag 51,
    ! Mprobe + Mrecv) and 20 ints (tag 52, Improbe + Imrecv + Wait).  In a
    ! communicator with the ranks reversed, world 0 -> 1: 3 doubles
    ! (Improbe + Imrecv) and 1 -> 0: 5 ints (Mprobe + Mrecv): the peers are
    ! world ranks.  Then every rank probes and receives MPI_PROC_NULL with
    ! both pairs: no message.
    subroutine matched_probe()
        HANDLE(MPI_Comm) :: rev
        HANDLE(MPI_Message) :: msg
        HANDLE(MPI_Request) :: req
        integer :: ierr, count, rev_of_0, rev_of_1, ten(10), twenty(20), five(5), nothing(2)
        double precision :: three(3)
        logical :: flag
        STATUS_DECL(st)
        call MPI_Comm_split(MPI_COMM_WORLD, 0, nranks - rank, rev, ierr)
        rev_of_0 = nranks - 1
        rev_of_1 = nranks - 2
        ten = rank
        twenty = rank
        five = rank
        three = rank
        nothing = 0
        if (rank == nranks - 2) then
            call MPI_Send(ten, 10, MPI_INTEGER, nranks - 1, 51, MPI_COMM_WORLD, ierr)
            call MPI_Send(twenty, 20, MPI_INTEGER, nranks - 1, 52, MPI_COMM_WORLD, ierr)
        else if (rank == nranks - 1) then
            call MPI_Mprobe(MPI_ANY_SOURCE, 51, MPI_COMM_WORLD, msg, st, ierr)
            call MPI_Get_count(st, MPI_INTEGER, count, ierr)
            if (count /= 10 .or. STATUS_SOURCE(st) /= nranks - 2) stop 21
            call MPI_Mrecv(ten, count, MPI_INTEGER, msg, MPI_STATUS_IGNORE, ierr)
            flag = .false.
            do while (.not. flag)
                call MPI_Improbe(MPI_ANY_SOURCE, 52, MPI_COMM_WORLD, flag, msg, st, ierr)
            end do
            call MPI_Get_count(st, MPI_INTEGER, count, ierr)
            if (count /= 20) stop 22
            call MPI_Imrecv(twenty, count, MPI_INTEGER, msg, req, ierr)
            call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
            if (ten(1) /= nranks - 2 .or. twenty(20) /= nranks - 2) stop 23
        end if
        if (rank == 0) then
            call MPI_Send(three, 3, MPI_DOUBLE_PRECISION, rev_of_1, 53, rev, ierr)
            call MPI_Mprobe(MPI_ANY_SOURCE, 54, rev, msg, st, ierr)
            if (STATUS_SOURCE(st) /= rev_of_1) stop 24
            call MPI_Mrecv(five, 5, MPI_INTEGER, msg, st, ierr)
            if (five(5) /= 1) stop 25
        else if (rank == 1) then
            flag = .false.
            do while (.not. flag)
                call MPI_Improbe(MPI_ANY_SOURCE, 53, rev, flag, msg, st, ierr)
            end do
            if (STATUS_SOURCE(st) /= rev_of_0) stop 26
            call MPI_Imrecv(three, 3, MPI_DOUBLE_PRECISION, msg, req, ierr)
            call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
            if (nint(three(3)) /= 0) stop 27
            call MPI_Send(five, 5, MPI_INTEGER, rev_of_0, 54, rev, ierr)
        end if
        ! MPI_PROC_NULL: the handle is MPI_MESSAGE_NO_PROC, no message
        call MPI_Mprobe(MPI_PROC_NULL, 55, MPI_COMM_WORLD, msg, st, ierr)
        call MPI_Mrecv(nothing, 2, MPI_INTEGER, msg, MPI_STATUS_IGNORE, ierr)
        flag = .false.
        call MPI_Improbe(MPI_PROC_NULL, 55, MPI_COMM_WORLD, flag, msg, st, ierr)
        if (.not. flag) stop 28
        call MPI_Imrecv(nothing, 2, MPI_INTEGER, msg, req, ierr)
        call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
        call add_ints(ten)
        call add_ints(twenty)
        call add_ints(five)
        call add_dbls(three)
        call MPI_Comm_free(rev, ierr)
    end subroutine

    ! Rank 0 posts a receive nobody sends to (8 characters from rank 1,
    ! tag 31) and cancels it, and one that rank 1 sends 10 characters to
    ! (tag 32): only the second is a message.  Rank 0 prints
    ! MPI_Test_cancelled of the first.
    subroutine cancel()
        character, asynchronous :: never(8), got(10)
        HANDLE(MPI_Request) :: req(2)
        logical :: cancelled
        integer :: ierr
        STATUS_DECL(st)
        got = 'x'
        if (rank == 0) then
            call MPI_Irecv(never, 8, MPI_CHARACTER, 1, 31, MPI_COMM_WORLD, req(1), ierr)
            call MPI_Irecv(got, 10, MPI_CHARACTER, 1, 32, MPI_COMM_WORLD, req(2), ierr)
            call MPI_Cancel(req(1), ierr)
            call MPI_Wait(req(1), st, ierr)
            call MPI_Test_cancelled(st, cancelled, ierr)
            call MPI_Wait(req(2), MPI_STATUS_IGNORE, ierr)
            print '(a,l1)', 'fcoll cancelled: ', cancelled
        else if (rank == 1) then
            call MPI_Send(got, 10, MPI_CHARACTER, 0, 32, MPI_COMM_WORLD, ierr)
        end if
    end subroutine

    ! Every rank s sends 4s+d+1 ints to every other rank d (Isend/Irecv),
    ! all completed by MPI_Testsome (1-based indices, MPI_STATUSES_IGNORE).
    subroutine test_some()
        integer, asynchronous :: s(64), r(64, nranks)
        HANDLE(MPI_Request) :: req(2 * nranks)
        integer :: indices(2 * nranks), n, d, done, outcount, i, ierr
        s = rank
        r = -1
        n = 0
        do d = 0, nranks - 1
            if (d == rank) cycle
            n = n + 1
            call MPI_Irecv(r(:, d + 1), 4 * d + rank + 1, MPI_INTEGER, d, 61, MPI_COMM_WORLD, &
                           req(n), ierr)
        end do
        do d = 0, nranks - 1
            if (d == rank) cycle
            n = n + 1
            call MPI_Isend(s, 4 * rank + d + 1, MPI_INTEGER, d, 61, MPI_COMM_WORLD, req(n), ierr)
        end do
        done = 0
        do while (done < n)
            call MPI_Testsome(n, req, outcount, indices, MPI_STATUSES_IGNORE, ierr)
            if (outcount == MPI_UNDEFINED) stop 31
            do i = 1, outcount
                if (indices(i) < FIRST_INDEX .or. indices(i) > n - 1 + FIRST_INDEX) stop 32
                if (req(indices(i) - FIRST_INDEX + 1) /= MPI_REQUEST_NULL) stop 32
            end do
            done = done + outcount
        end do
        do d = 0, nranks - 1
            if (d /= rank .and. r(4 * d + rank + 1, d + 1) /= d) stop 33
        end do
    end subroutine
    ! MPI_IN_PLACE as the send buffer where it decides what is sent:
    ! Allgather of 3 ints (send arguments MPI_IN_PLACE, 0, MPI_DATATYPE_NULL:
    ! recvcount x recvtype is sent); Alltoallv of r+peer+1 ints (send counts
    ! and type ignored: recvcounts(i) x recvtype is sent).
    subroutine in_place_sends()
        integer :: rcounts(nranks), rdispls(nranks), i, at, ierr
        call fill()
        ints_b(3 * rank + 1:3 * rank + 3) = ints_a(1:3)
        call MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ints_b, 3, MPI_INTEGER, &
                           MPI_COMM_WORLD, ierr)
        call take()
        call fill()
        at = 0
        do i = 1, nranks
            rcounts(i) = rank + (i - 1) + 1
            rdispls(i) = at
            at = at + rcounts(i)
        end do
        ints_b = ints_a
        call MPI_Alltoallv(MPI_IN_PLACE, rcounts, rdispls, MPI_DATATYPE_NULL, ints_b, rcounts, &
                           rdispls, MPI_INTEGER, MPI_COMM_WORLD, ierr)
        call take()
    end subroutine

    ! More MPI_IN_PLACE: Reduce of 6 doubles to rank 0 (MPI_IN_PLACE at the
    ! root); Scatter of 2 ints from the root, whose receive buffer is
    ! MPI_IN_PLACE.
    subroutine more_in_place()
        integer :: ierr
        call fill()
        if (rank == 0) then
            dbl_b(1:6) = dbl_a(1:6)
            call MPI_Reduce(MPI_IN_PLACE, dbl_b, 6, MPI_DOUBLE_PRECISION, MPI_MAX, 0, &
                            MPI_COMM_WORLD, ierr)
        else
            call MPI_Reduce(dbl_a, dbl_b, 6, MPI_DOUBLE_PRECISION, MPI_MAX, 0, MPI_COMM_WORLD, ierr)
        end if
        if (rank == root) then
            call MPI_Scatter(ints_a, 2, MPI_INTEGER, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, root, &
                             MPI_COMM_WORLD, ierr)
        else
            call MPI_Scatter(ints_a, 2, MPI_INTEGER, ints_b, 2, MPI_INTEGER, root, &
                             MPI_COMM_WORLD, ierr)
        end if
        call take()
    end subroutine

    ! Ialltoallw: me -> peer carries (me + peer) % 3 + 1 elements, doubles
    ! when me + peer is even, integers otherwise (INTEGER byte
    ! displacements, one datatype per peer), completed by MPI_Wait.
    subroutine ialltoallw()
        double precision, asynchronous :: sa(64), rb(64)
        integer :: counts(nranks), displs(nranks), i, ierr
        HANDLE(MPI_Datatype) :: types(nranks)
        HANDLE(MPI_Request) :: req
        do i = 1, 64
            sa(i) = rank + i * 0.25d0
        end do
        rb = 0
        call alltoallw_layout(counts, displs, types)
        call MPI_Ialltoallw(sa, counts, displs, types, rb, counts, displs, types, MPI_COMM_WORLD, &
                            req, ierr)
        call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
    end subroutine

    ! An inter-communicator between ranks < n/2 (group A) and the others
    ! (B): Bcast of 4 ints from A's rank 0 (MPI_ROOT; the rest of A pass
    ! MPI_PROC_NULL) to every B rank; Allreduce of 2 ints, every rank to
    ! every rank of the other group; Barrier.
    subroutine inter()
        HANDLE(MPI_Comm) :: local, ic
        integer :: me, bcast_root, leader, ierr
        logical :: low
        low = rank < nranks / 2
        call MPI_Comm_split(MPI_COMM_WORLD, merge(1, 0, low), rank, local, ierr)
        leader = 0
        if (low) leader = nranks / 2
        call MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, leader, 77, ic, ierr)
        call MPI_Comm_rank(local, me, ierr)
        call fill()
        if (low) then
            bcast_root = MPI_PROC_NULL
            if (me == 0) bcast_root = MPI_ROOT
        else
            bcast_root = 0
        end if
        call MPI_Bcast(ints_b, 4, MPI_INTEGER, bcast_root, ic, ierr)
        call MPI_Allreduce(ints_a, ints_b(101:), 2, MPI_INTEGER, MPI_SUM, ic, ierr)
        call MPI_Barrier(ic, ierr)
        call take()
        call MPI_Comm_free(ic, ierr)
        call MPI_Comm_free(local, ierr)
    end subroutine
end module

program fcoll
    use coll
    implicit none
    integer :: ierr
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
    if (nranks < 2) stop 2
    root = nranks - 1
    call rooted()
    call everyone()
    call in_place()
    call nonblocking()
    call sub_colls()
    call matched_probe()
    call cancel()
    call test_some()
    call in_place_sends()
    call more_in_place()
    call ialltoallw()
    call inter()
    print '(a,i0,a,i0)', 'fcoll rank ', rank, ': ', checksum
    call MPI_Finalize(ierr)
end program
