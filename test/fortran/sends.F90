! The rest of test/mpi/p2p.c through the Fortran bindings, one source for
! three interfaces (binding.h), on 4 ranks: MPI_PROC_NULL with every
! routine, messages of 0 bytes, derived datatypes, Sendrecv and
! Sendrecv_replace, the send modes (buffered, synchronous, ready, and their
! non-blocking forms), a split communicator and an inter-communicator
! (peers are world ranks), and a send to the process itself.
! test/fortran/sends.py asserts the exact messages.  Every rank prints a
! checksum of what it received.
#include "binding.h"
module sends
#ifdef HT_F08
    use, intrinsic :: iso_c_binding, only: c_ptr
#endif
#include "module_head.h"
    integer :: next, prev
contains
#include "checksum.h"

    ! Every routine with MPI_PROC_NULL: nodes, no message at all.
    subroutine proc_null()
        integer :: buf(5), in(5), ierr
        HANDLE(MPI_Request) :: req(2)
        STATUS_DECL(st)
        buf = 1
        call MPI_Send(buf, 5, MPI_INTEGER, MPI_PROC_NULL, 3, MPI_COMM_WORLD, ierr)
        call MPI_Recv(in, 5, MPI_INTEGER, MPI_PROC_NULL, 3, MPI_COMM_WORLD, st, ierr)
        if (STATUS_SOURCE(st) /= MPI_PROC_NULL) stop 71
        call MPI_Sendrecv(buf, 5, MPI_INTEGER, MPI_PROC_NULL, 3, in, 5, MPI_INTEGER, MPI_PROC_NULL, 3, &
                          MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
        call MPI_Isend(buf, 5, MPI_INTEGER, MPI_PROC_NULL, 3, MPI_COMM_WORLD, req(1), ierr)
        call MPI_Irecv(in, 5, MPI_INTEGER, MPI_PROC_NULL, 3, MPI_COMM_WORLD, req(2), ierr)
        call MPI_Waitall(2, req, MPI_STATUSES_IGNORE, ierr)
    end subroutine

    ! One message of 0 bytes 0 -> 1 (blocking) and one 2 -> 3 (non-blocking).
    subroutine zero_bytes()
        integer :: dummy(1), count, ierr
        HANDLE(MPI_Request) :: req
        STATUS_DECL(st)
        dummy = 0
        count = -1
        select case (rank)
        case (0)
            call MPI_Send(dummy, 0, MPI_INTEGER, 1, 4, MPI_COMM_WORLD, ierr)
        case (1)
            call MPI_Recv(dummy, 0, MPI_INTEGER, 0, 4, MPI_COMM_WORLD, st, ierr)
            call MPI_Get_count(st, MPI_INTEGER, count, ierr)
            if (count /= 0) stop 72
        case (2)
            call MPI_Isend(dummy, 0, MPI_BYTE, 3, 4, MPI_COMM_WORLD, req, ierr)
            call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
        case (3)
            call MPI_Irecv(dummy, 0, MPI_BYTE, 2, 4, MPI_COMM_WORLD, req, ierr)
            call MPI_Wait(req, st, ierr)
            call MPI_Get_count(st, MPI_BYTE, count, ierr)
            if (count /= 0) stop 73
        end select
    end subroutine

    ! Derived datatypes: bytes are count x type size (not extent).
    ! 1 -> 2: 2 x vector(4 blocks of 3 ints, stride 5) = 96 bytes, received
    !         as 1 x contiguous(24 ints);
    ! 3 -> 0: 3 x contiguous(5 doubles) = 120 bytes, received as 15 doubles.
    subroutine derived()
        HANDLE(MPI_Datatype) :: vec, ints24, dbl5
        integer :: src(40), dst(24), i, ierr
        double precision :: dsrc(15), ddst(15)
        call MPI_Type_vector(4, 3, 5, MPI_INTEGER, vec, ierr)
        call MPI_Type_commit(vec, ierr)
        call MPI_Type_contiguous(24, MPI_INTEGER, ints24, ierr)
        call MPI_Type_commit(ints24, ierr)
        call MPI_Type_contiguous(5, MPI_DOUBLE_PRECISION, dbl5, ierr)
        call MPI_Type_commit(dbl5, ierr)
        select case (rank)
        case (1)
            do i = 1, 40
                src(i) = i - 1
            end do
            call MPI_Send(src, 2, vec, 2, 5, MPI_COMM_WORLD, ierr)
        case (2)
            call MPI_Recv(dst, 1, ints24, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
            if (dst(4) /= 5 .or. dst(13) /= 18) stop 74   ! the second vector starts at extent 18
            call add_ints(dst)
        case (3)
            do i = 1, 15
                dsrc(i) = (i - 1) * 0.5d0
            end do
            call MPI_Send(dsrc, 3, dbl5, 0, 5, MPI_COMM_WORLD, ierr)
        case (0)
            call MPI_Recv(ddst, 15, MPI_DOUBLE_PRECISION, 3, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
            call add_dbls(ddst)
        end select
        call MPI_Type_free(vec, ierr)
        call MPI_Type_free(ints24, ierr)
        call MPI_Type_free(dbl5, ierr)
    end subroutine

    ! Sendrecv: 3 doubles to r+1 from r-1; Sendrecv_replace: 5 ints to r-1
    ! from r+1.
    subroutine sendrecv()
        double precision :: out(3), in(3)
        integer :: buf(5), i, ierr
        out = (/rank + 0d0, rank + 0.25d0, rank + 0.5d0/)
        call MPI_Sendrecv(out, 3, MPI_DOUBLE_PRECISION, next, 6, in, 3, MPI_DOUBLE_PRECISION, prev, 6, &
                          MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
        if (nint(in(1)) /= prev) stop 75
        call add_dbls(in)
        do i = 1, 5
            buf(i) = rank * 10 + i - 1
        end do
        call MPI_Sendrecv_replace(buf, 5, MPI_INTEGER, prev, 7, next, 7, MPI_COMM_WORLD, &
                                  MPI_STATUS_IGNORE, ierr)
        if (buf(1) /= next * 10) stop 76
        call add_ints(buf)
    end subroutine

    ! The send modes, 0 -> 3: Bsend 2 ints, Ssend 4 ints, Rsend 6 ints into
    ! an Irecv posted before the barrier; then their non-blocking forms,
    ! each completed by MPI_Wait: Ibsend 1 int, Issend 3 ints, Irsend 5 ints
    ! (into a second Irecv posted before the barrier).
    subroutine send_modes()
        integer :: data(6), in_b(2), in_s(4), in_ib(1), in_is(3), size, ierr
        integer, asynchronous :: in_r(6), in_ir(5)
        character, allocatable :: attached(:)
        HANDLE(MPI_Request) :: req_r, req_ir, req
#ifdef HT_F08
        type(c_ptr) :: detached
#else
        integer(kind=MPI_ADDRESS_KIND) :: detached   ! room for an address
#endif
        data = (/7, 8, 9, 10, 11, 12/)
        req_r = MPI_REQUEST_NULL
        req_ir = MPI_REQUEST_NULL
        if (rank == 3) then
            call MPI_Irecv(in_r, 6, MPI_INTEGER, 0, 73, MPI_COMM_WORLD, req_r, ierr)
            call MPI_Irecv(in_ir, 5, MPI_INTEGER, 0, 76, MPI_COMM_WORLD, req_ir, ierr)
        end if
        call MPI_Barrier(MPI_COMM_WORLD, ierr)
        if (rank == 0) then
            size = 3 * 4 + 2 * MPI_BSEND_OVERHEAD
            allocate(attached(size))
            call MPI_Buffer_attach(attached, size, ierr)
            call MPI_Bsend(data, 2, MPI_INTEGER, 3, 71, MPI_COMM_WORLD, ierr)
            call MPI_Ssend(data, 4, MPI_INTEGER, 3, 72, MPI_COMM_WORLD, ierr)
            call MPI_Rsend(data, 6, MPI_INTEGER, 3, 73, MPI_COMM_WORLD, ierr)
            call MPI_Ibsend(data, 1, MPI_INTEGER, 3, 74, MPI_COMM_WORLD, req, ierr)
            call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
            call MPI_Issend(data, 3, MPI_INTEGER, 3, 75, MPI_COMM_WORLD, req, ierr)
            call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
            call MPI_Irsend(data, 5, MPI_INTEGER, 3, 76, MPI_COMM_WORLD, req, ierr)
            call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
            call MPI_Buffer_detach(detached, size, ierr)
            deallocate(attached)
        else if (rank == 3) then
            call MPI_Recv(in_b, 2, MPI_INTEGER, 0, 71, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
            call MPI_Recv(in_s, 4, MPI_INTEGER, 0, 72, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
            call MPI_Wait(req_r, MPI_STATUS_IGNORE, ierr)
            call MPI_Recv(in_ib, 1, MPI_INTEGER, 0, 74, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
            call MPI_Recv(in_is, 3, MPI_INTEGER, 0, 75, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
            call MPI_Wait(req_ir, MPI_STATUS_IGNORE, ierr)
            call add_ints(in_b)
            call add_ints(in_s)
            call add_ints(in_r)
            call add_ints(in_ib)
            call add_ints(in_is)
            call add_ints(in_ir)
        end if
    end subroutine

    ! A split communicator whose ranks are not the world ranks: by parity,
    ! keys reversed, so {0,2} has 2 as sub-rank 0 and {1,3} has 3.  Sub-rank
    ! 0 sends 7 ints to sub-rank 1; sub-rank 1 answers with 1 int received
    ! with MPI_ANY_SOURCE; then sub-rank 0 Isends 2 doubles to a wildcard
    ! Irecv that is still pending when the receiver frees the communicator.
    subroutine subcomm()
        HANDLE(MPI_Comm) :: half
        HANDLE(MPI_Request) :: req
        integer :: sub, seven(7), one(1), i, ierr
        double precision, asynchronous :: two(2)
        STATUS_DECL(st)
        call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), -rank, half, ierr)
        call MPI_Comm_rank(half, sub, ierr)
        one = rank
        two = (/rank + 0d0, 0.5d0/)
        if (sub == 0) then
            do i = 1, 7
                seven(i) = rank + i - 1
            end do
            call MPI_Send(seven, 7, MPI_INTEGER, 1, 8, half, ierr)
            call MPI_Recv(one, 1, MPI_INTEGER, MPI_ANY_SOURCE, 9, half, st, ierr)
            if (STATUS_SOURCE(st) /= 1 .or. one(1) /= rank - 2) stop 77
            call add_ints(one)
            call MPI_Isend(two, 2, MPI_DOUBLE_PRECISION, 1, 10, half, req, ierr)
            call MPI_Comm_free(half, ierr)
            call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
        else
            call MPI_Recv(seven, 7, MPI_INTEGER, 0, 8, half, MPI_STATUS_IGNORE, ierr)
            if (seven(1) /= rank + 2) stop 78
            call add_ints(seven)
            call MPI_Send(one, 1, MPI_INTEGER, 0, 9, half, ierr)
            call MPI_Irecv(two, 2, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, 10, half, req, ierr)
            call MPI_Comm_free(half, ierr)
            call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
            if (nint(two(1)) /= rank + 2) stop 79
            call add_dbls(two)
        end if
    end subroutine

    ! An inter-communicator between {0,1} and {2,3}: remote ranks are ranks
    ! of the other group.  0 -> 2 and 1 -> 3: 3 ints each (received with
    ! MPI_ANY_SOURCE); then 2 -> 1 and 3 -> 0: 5 characters each.
    subroutine intercomm()
        HANDLE(MPI_Comm) :: local, inter
        integer :: me, three(3), ierr
        character :: five(5)
        logical :: low
        STATUS_DECL(st)
        low = rank < nranks / 2
        call MPI_Comm_split(MPI_COMM_WORLD, merge(1, 0, low), rank, local, ierr)
        call MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, merge(nranks / 2, 0, low), 123, inter, ierr)
        call MPI_Comm_rank(inter, me, ierr)
        three = (/rank, 1, 2/)
        five = (/'a', 'b', 'c', 'd', achar(rank)/)
        if (low) then
            call MPI_Send(three, 3, MPI_INTEGER, me, 11, inter, ierr)
            call MPI_Recv(five, 5, MPI_CHARACTER, 1 - me, 12, inter, MPI_STATUS_IGNORE, ierr)
            if (iachar(five(5)) /= nranks / 2 + 1 - me) stop 80
            call add_ints(iachar(five))
        else
            call MPI_Recv(three, 3, MPI_INTEGER, MPI_ANY_SOURCE, 11, inter, st, ierr)
            if (STATUS_SOURCE(st) /= me .or. three(1) /= me) stop 81
            call add_ints(three)
            call MPI_Send(five, 5, MPI_CHARACTER, 1 - me, 12, inter, ierr)
        end if
        call MPI_Comm_free(inter, ierr)
        call MPI_Comm_free(local, ierr)
    end subroutine

    ! A send to the process itself is a real message: 3 ints, Isend + Recv.
    subroutine self_send()
        integer, asynchronous :: out(3)
        integer :: in(3), ierr
        HANDLE(MPI_Request) :: req
        out = (/rank, 5, 6/)
        call MPI_Isend(out, 3, MPI_INTEGER, rank, 13, MPI_COMM_WORLD, req, ierr)
        call MPI_Recv(in, 3, MPI_INTEGER, rank, 13, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
        call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
        if (in(1) /= rank) stop 82
        call add_ints(in)
    end subroutine
end module

program fsends
    use sends
    implicit none
    integer :: ierr
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
    if (nranks /= 4) stop 2
    next = mod(rank + 1, nranks)
    prev = mod(rank + nranks - 1, nranks)
    call proc_null()
    call zero_bytes()
    call derived()
    call sendrecv()
    call send_modes()
    call subcomm()
    call intercomm()
    call self_send()
    print '(a,i0,a,i0)', 'fsends rank ', rank, ': ', checksum
    call MPI_Finalize(ierr)
end program
