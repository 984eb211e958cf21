! test/mpi/control.c through the Fortran bindings, one source for three
! interfaces (binding.h): what the configuration and MPI_Pcontrol do to a
! Fortran MPI run.  exchange() is called three times; the second call is
! between MPI_Pcontrol(0) and MPI_Pcontrol(1).  Each exchange: MPI_Sendrecv
! of 4 ints to r+1 (from r-1), MPI_Isend of 2 doubles to r-1 with
! MPI_Irecv from r+1 and MPI_Waitall, and MPI_Allreduce of 1 int.  Then
! straddle(): an Isend before a pause whose Wait is inside it.  Every rank
! prints a checksum.  MPI is started with MPI_Init_thread.
!
! Arguments: exit=N stops with status N after MPI_Finalize; nofinalize
! stops with status 0 before MPI_Finalize (after an MPI_Barrier, so every
! rank got that far).  test/fortran/control.py runs it.
#include "binding.h"
module ctl
#include "module_head.h"
    integer :: next, prev
contains
    subroutine exchange(round)
        integer, intent(in) :: round
        integer :: out(4), in(4), sum, ierr
        double precision, asynchronous :: dout(2), din(2)
        HANDLE(MPI_Request) :: req(2)
        out = (/rank, round, 2, 3/)
        in = 0
        call MPI_Sendrecv(out, 4, MPI_INTEGER, next, 1, in, 4, MPI_INTEGER, prev, 1, MPI_COMM_WORLD, &
                          MPI_STATUS_IGNORE, ierr)
        if (in(1) /= prev .or. in(2) /= round) stop 111
        dout = (/rank + 0.5d0, dble(round)/)
        din = 0
        call MPI_Irecv(din, 2, MPI_DOUBLE_PRECISION, next, 2, MPI_COMM_WORLD, req(1), ierr)
        call MPI_Isend(dout, 2, MPI_DOUBLE_PRECISION, prev, 2, MPI_COMM_WORLD, req(2), ierr)
        call MPI_Waitall(2, req, MPI_STATUSES_IGNORE, ierr)
        if (nint(2 * din(1)) /= 2 * next + 1) stop 112
        sum = 0
        call MPI_Allreduce(rank, sum, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
        if (sum /= nranks * (nranks - 1) / 2) stop 113
        checksum = checksum * 7 + in(1) + int(din(1), 8) + sum
    end subroutine

    ! A ring Isend of 1 int whose MPI_Wait happens during a pause: requests
    ! registered before a pause are forgotten, so it is not counted (the
    ! node is there).  Nothing polls between the Isend and MPI_Pcontrol(0).
    subroutine straddle()
        integer, asynchronous :: out(1)
        integer :: in(1), ierr
        HANDLE(MPI_Request) :: req
        out = rank
        in = -1
        call MPI_Isend(out, 1, MPI_INTEGER, next, 3, MPI_COMM_WORLD, req, ierr)
        call MPI_Pcontrol(0)
        call MPI_Recv(in, 1, MPI_INTEGER, prev, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
        call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
        call MPI_Pcontrol(1)
        if (in(1) /= prev) stop 114
        checksum = checksum + in(1)
    end subroutine
end module

program fcontrol
    use ctl
    implicit none
    integer :: status, i, provided, ierr
    logical :: finalize
    character(len=32) :: arg
    status = 0
    finalize = .true.
    do i = 1, command_argument_count()
        call get_command_argument(i, arg)
        if (arg(1:5) == 'exit=') read (arg(6:), *) status
        if (arg == 'nofinalize') finalize = .false.
    end do
    call MPI_Init_thread(MPI_THREAD_FUNNELED, provided, ierr)
    if (provided < MPI_THREAD_SINGLE) stop 115
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
    next = mod(rank + 1, nranks)
    prev = mod(rank + nranks - 1, nranks)
    call exchange(1)
    call MPI_Pcontrol(0)
    call exchange(2)
    call MPI_Pcontrol(1)
    call exchange(3)
    call straddle()
    ! A wrapped MPI call after the pause, as report() in control.c: where
    ! the requests of before the pause are forgotten.
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    print '(a,i0,a,i0)', 'fcontrol rank ', rank, ': ', checksum
    if (.not. finalize) stop
    call MPI_Finalize(ierr)
    if (status /= 0) stop status
end program
