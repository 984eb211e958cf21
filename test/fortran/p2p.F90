! Point-to-point and collectives through the Fortran bindings, one source
! for three interfaces (preprocessor): HT_F08 `use mpi_f08`, HT_MPIF_H
! `include 'mpif.h'`, otherwise `use mpi`.  test/fortran/fortran.py asserts
! the exact messages of every routine from rank 0's JSON profile, the same
! model for each interface.  The routines live in module `comm` so that the
! profile names them comm::ring etc.
#include "binding.h"
module comm
#include "module_head.h"
contains
    ! 10 integers to the next rank, from the previous one.
    subroutine ring()
        integer :: buf(10), out(10), ierr
        STATUS_DECL(st)
        out = rank
        if (mod(rank, 2) == 0) then
            call MPI_Send(out, 10, MPI_INTEGER, mod(rank + 1, nranks), 1, MPI_COMM_WORLD, ierr)
            call MPI_Recv(buf, 10, MPI_INTEGER, mod(rank + nranks - 1, nranks), 1, MPI_COMM_WORLD, st, ierr)
        else
            call MPI_Recv(buf, 10, MPI_INTEGER, mod(rank + nranks - 1, nranks), 1, MPI_COMM_WORLD, st, ierr)
            call MPI_Send(out, 10, MPI_INTEGER, mod(rank + 1, nranks), 1, MPI_COMM_WORLD, ierr)
        end if
        if (buf(1) /= mod(rank + nranks - 1, nranks) .or. STATUS_SOURCE(st) /= buf(1)) stop 1
    end subroutine

    ! Every rank r > 0 sends 100 r bytes to 0, received with MPI_ANY_SOURCE
    ! and MPI_STATUS_IGNORE.
    subroutine any_source()
        character :: buf(1000)
        integer :: i, ierr
        if (rank == 0) then
            do i = 1, nranks - 1
                call MPI_Recv(buf, 1000, MPI_CHARACTER, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &
                              MPI_STATUS_IGNORE, ierr)
            end do
        else
            call MPI_Send(buf, 100 * rank, MPI_CHARACTER, 0, 2, MPI_COMM_WORLD, ierr)
        end if
    end subroutine

    ! Isend/Irecv of 4 doubles to both neighbours, Waitall with
    ! MPI_STATUSES_IGNORE; then Waitany and Waitsome (1-based indices).
    subroutine nonblocking()
        double precision :: s(4), r(4, 2)
        HANDLE(MPI_Request) :: req(4)
        integer :: ierr, idx, outcount, done, indices(4), left, right, one
        STATUS_DECL(st)
        left = mod(rank + nranks - 1, nranks)
        right = mod(rank + 1, nranks)
        s = rank
        call MPI_Irecv(r(:, 1), 4, MPI_DOUBLE_PRECISION, left, 3, MPI_COMM_WORLD, req(1), ierr)
        call MPI_Irecv(r(:, 2), 4, MPI_DOUBLE_PRECISION, right, 3, MPI_COMM_WORLD, req(2), ierr)
        call MPI_Isend(s, 4, MPI_DOUBLE_PRECISION, right, 3, MPI_COMM_WORLD, req(3), ierr)
        call MPI_Isend(s, 4, MPI_DOUBLE_PRECISION, left, 3, MPI_COMM_WORLD, req(4), ierr)
        call MPI_Waitall(4, req, MPI_STATUSES_IGNORE, ierr)
        ! Whole numbers, exact in REAL(8); compared as integers for -Wcompare-reals.
        if (nint(r(1, 1)) /= left .or. nint(r(1, 2)) /= right) stop 2
        ! one int to the right: Waitany on {recv, send}, then Waitsome
        call MPI_Irecv(one, 1, MPI_INTEGER, left, 4, MPI_COMM_WORLD, req(1), ierr)
        call MPI_Isend(rank, 1, MPI_INTEGER, right, 4, MPI_COMM_WORLD, req(2), ierr)
        call MPI_Waitany(2, req, idx, st, ierr)
        idx = idx - FIRST_INDEX + 1
        if (idx < 1 .or. idx > 2) stop 3
        if (req(idx) /= MPI_REQUEST_NULL) stop 3
        done = 1
        do while (done < 2)
            call MPI_Waitsome(2, req, outcount, indices, MPI_STATUSES_IGNORE, ierr)
            if (outcount == MPI_UNDEFINED) exit
            done = done + outcount
        end do
    end subroutine

    ! MPI_PROC_NULL: nodes, no messages.
    subroutine proc_null()
        integer :: buf(2), ierr
        HANDLE(MPI_Request) :: req
        STATUS_DECL(st)
        call MPI_Send(buf, 2, MPI_INTEGER, MPI_PROC_NULL, 5, MPI_COMM_WORLD, ierr)
        call MPI_Recv(buf, 2, MPI_INTEGER, MPI_PROC_NULL, 5, MPI_COMM_WORLD, st, ierr)
        call MPI_Isend(buf, 2, MPI_INTEGER, MPI_PROC_NULL, 5, MPI_COMM_WORLD, req, ierr)
        call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
    end subroutine

    ! Persistent: 3 rounds of 6 ints to the right, Startall + Waitall.
    subroutine persistent()
        integer :: s(6), r(6), i, ierr
        HANDLE(MPI_Request) :: req(2)
        s = rank
        call MPI_Recv_init(r, 6, MPI_INTEGER, mod(rank + nranks - 1, nranks), 6, MPI_COMM_WORLD, req(1), ierr)
        call MPI_Send_init(s, 6, MPI_INTEGER, mod(rank + 1, nranks), 6, MPI_COMM_WORLD, req(2), ierr)
        do i = 1, 3
            call MPI_Startall(2, req, ierr)
            call MPI_Waitall(2, req, MPI_STATUSES_IGNORE, ierr)
        end do
        call MPI_Request_free(req(1), ierr)
        call MPI_Request_free(req(2), ierr)
    end subroutine

    ! Bcast of 8 ints from 1, Allreduce of 3 ints with MPI_IN_PLACE,
    ! Alltoall of 2 ints per peer, Alltoallw of 1, Barrier.
    subroutine collectives()
        integer :: b(8), a(3), s(2 * nranks), r(2 * nranks), ierr, i
        integer :: counts(nranks), displs(nranks)
        HANDLE(MPI_Datatype) :: types(nranks)
        b = rank
        call MPI_Bcast(b, 8, MPI_INTEGER, 1, MPI_COMM_WORLD, ierr)
        if (b(1) /= 1) stop 4
        a = 1
        call MPI_Allreduce(MPI_IN_PLACE, a, 3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
        if (a(1) /= nranks) stop 5
        s = rank
        call MPI_Alltoall(s, 2, MPI_INTEGER, r, 2, MPI_INTEGER, MPI_COMM_WORLD, ierr)
        if (r(2 * nranks) /= nranks - 1) stop 6
        ! Alltoallw: 1 int to every peer, datatype arrays (one per peer)
        counts = 1
        do i = 1, nranks
            displs(i) = 4 * (i - 1)
            types(i) = MPI_INTEGER
        end do
        call MPI_Alltoallw(s, counts, displs, types, r, counts, displs, types, MPI_COMM_WORLD, ierr)
        if (r(nranks) /= nranks - 1) stop 8
#ifdef HT_F08
        call MPI_Barrier(MPI_COMM_WORLD)   ! ierror is OPTIONAL in mpi_f08
#else
        call MPI_Barrier(MPI_COMM_WORLD, ierr)
#endif
    end subroutine

    ! Test loops: 2 ints to the right, completed by MPI_Test; then 3 ints
    ! completed by MPI_Testall (MPI_STATUSES_IGNORE).
    subroutine tests()
        integer :: s(3), r(3), ierr
        HANDLE(MPI_Request) :: req(2)
        logical :: flag
        s = rank
        call MPI_Irecv(r, 2, MPI_INTEGER, mod(rank + nranks - 1, nranks), 7, MPI_COMM_WORLD, req(1), ierr)
        call MPI_Isend(s, 2, MPI_INTEGER, mod(rank + 1, nranks), 7, MPI_COMM_WORLD, req(2), ierr)
        flag = .false.
        do while (.not. flag)
            call MPI_Test(req(1), flag, MPI_STATUS_IGNORE, ierr)
        end do
        call MPI_Wait(req(2), MPI_STATUS_IGNORE, ierr)
        call MPI_Irecv(r, 3, MPI_INTEGER, mod(rank + nranks - 1, nranks), 8, MPI_COMM_WORLD, req(1), ierr)
        call MPI_Isend(s, 3, MPI_INTEGER, mod(rank + 1, nranks), 8, MPI_COMM_WORLD, req(2), ierr)
        flag = .false.
        do while (.not. flag)
            call MPI_Testall(2, req, flag, MPI_STATUSES_IGNORE, ierr)
        end do
    end subroutine

    ! One-sided, fence epochs: Put of 2 ints to the right, Get of 1 int
    ! from the left (target displacement INTEGER(KIND=MPI_ADDRESS_KIND)).
    subroutine one_sided()
        integer :: mem(4), src(2), ierr
        integer(kind=MPI_ADDRESS_KIND) :: size, disp
        HANDLE(MPI_Win) :: win
        size = 16
        disp = 0
        src = rank
        call MPI_Win_create(mem, size, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
        call MPI_Win_fence(0, win, ierr)
        call MPI_Put(src, 2, MPI_INTEGER, mod(rank + 1, nranks), disp, 2, MPI_INTEGER, win, ierr)
        call MPI_Win_fence(0, win, ierr)
        call MPI_Get(src, 1, MPI_INTEGER, mod(rank + nranks - 1, nranks), disp, 1, MPI_INTEGER, win, ierr)
        call MPI_Win_fence(0, win, ierr)
        if (src(1) /= mod(rank + nranks - 2, nranks)) stop 7
        call MPI_Win_free(win, ierr)
    end subroutine

    ! Between MPI_Pcontrol(0) and MPI_Pcontrol(1) nothing is recorded.
    subroutine paused()
        integer :: s(5), r(5), ierr
        call MPI_Pcontrol(0)
        call MPI_Sendrecv(s, 5, MPI_INTEGER, mod(rank + 1, nranks), 9, r, 5, MPI_INTEGER, &
                          mod(rank + nranks - 1, nranks), 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
        call MPI_Pcontrol(1)
    end subroutine
end module

program fmpi
    use comm
    implicit none
    integer :: ierr
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
    call ring()
    call any_source()
    call nonblocking()
    call proc_null()
    call persistent()
    call collectives()
    call tests()
    call one_sided()
    call paused()
    print '(a,i0)', 'fmpi rank ', rank
    call MPI_Finalize(ierr)
end program
