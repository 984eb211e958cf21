! The rest of test/mpi/requests.c through the Fortran bindings, one source
! for three interfaces (binding.h), on 4 ranks: the completion families
! with and without statuses, more requests than the wrappers keep on their
! stack, persistent requests, plain probes, and a message completed while
! the program computes (found by the function hooks' polling).
! test/fortran/requests.py asserts the exact messages.  Every rank prints a
! checksum of what it received.
#include "binding.h"
module reqs
    use, intrinsic :: iso_c_binding, only: c_int
#include "module_head.h"
    integer, parameter :: MAXN = 4, K = 40
    double precision :: sink = 0
    ! Sleeping in libc: no function hook runs, so nothing polls.
    interface
        integer(c_int) function usleep(us) bind(C, name="usleep")
            import :: c_int
            integer(c_int), value :: us
        end function
    end interface
contains
#include "checksum.h"

    ! Ranks 1..3 Isend r 8-byte integers to rank 0, which completes its
    ! three Irecvs with MPI_Waitany (the status says which rank).
    subroutine wait_any()
        integer(kind=8), asynchronous :: buf(MAXN, MAXN)
        HANDLE(MPI_Request) :: req(MAXN)
        integer :: r, idx, i, ierr
        STATUS_DECL(st)
        buf = 0
        if (rank == 0) then
            do r = 1, nranks - 1
                call MPI_Irecv(buf(:, r + 1), r, MPI_INTEGER8, r, 11, MPI_COMM_WORLD, req(r), ierr)
            end do
            do r = 1, nranks - 1
                call MPI_Waitany(nranks - 1, req, idx, st, ierr)
                idx = idx - FIRST_INDEX + 1
                if (idx < 1 .or. idx > nranks - 1) stop 91
                if (STATUS_SOURCE(st) /= idx .or. req(idx) /= MPI_REQUEST_NULL) stop 91
            end do
            call add_ints(int(buf(1, :)))
        else
            do i = 1, rank
                buf(i, 1) = rank * 1000 + i
            end do
            call MPI_Isend(buf(:, 1), rank, MPI_INTEGER8, 0, 11, MPI_COMM_WORLD, req(1), ierr)
            call MPI_Wait(req(1), MPI_STATUS_IGNORE, ierr)
        end if
    end subroutine

    ! All to all with Isend/Irecv: s sends 4 s + d + 1 ints to d, received
    ! from MPI_ANY_SOURCE when `any`.  Requests in pairs (recv, send) per
    ! peer, n of them.
    subroutine post_all(tag, any, out, in, req, n)
        integer, intent(in) :: tag
        logical, intent(in) :: any
        integer, asynchronous :: out(32, MAXN), in(32, MAXN)
        HANDLE(MPI_Request), intent(out) :: req(2 * MAXN)
        integer, intent(out) :: n
        integer :: p, i, ierr
        n = 0
        do p = 0, nranks - 1
            if (p == rank) cycle
            do i = 1, 32
                out(i, p + 1) = rank * 100 + p + i
            end do
            n = n + 1
            if (any) then
                call MPI_Irecv(in(:, p + 1), 32, MPI_INTEGER, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, req(n), ierr)
            else
                call MPI_Irecv(in(:, p + 1), 32, MPI_INTEGER, p, tag, MPI_COMM_WORLD, req(n), ierr)
            end if
            n = n + 1
            call MPI_Isend(out(:, p + 1), 4 * rank + p + 1, MPI_INTEGER, p, tag, MPI_COMM_WORLD, req(n), ierr)
        end do
    end subroutine

    ! MPI_Waitsome with statuses: a receive's source in its status.
    subroutine wait_some()
        integer, asynchronous :: out(32, MAXN), in(32, MAXN)
        HANDLE(MPI_Request) :: req(2 * MAXN)
        STATUS_ARRAY(st, 2 * MAXN)
        integer :: idx(2 * MAXN), n, done, outcount, i, j, ierr
        in = 0
        call post_all(12, .false., out, in, req, n)
        done = 0
        do while (done < n)
            call MPI_Waitsome(n, req, outcount, idx, st, ierr)
            if (outcount == MPI_UNDEFINED .or. outcount < 1) stop 92
            do i = 1, outcount
                j = idx(i) - FIRST_INDEX + 1
                ! odd: a receive from the j/2-th other rank
                if (mod(j, 2) == 1 .and. SOURCE_OF(st, i) /= (j - 1) / 2 + merge(1, 0, (j - 1) / 2 >= rank)) &
                    stop 93
            end do
            done = done + outcount
        end do
        call add_ints(in(1, :))
    end subroutine

    ! Wildcard receives completed by MPI_Testall with MPI_STATUSES_IGNORE:
    ! their sizes come from statuses the wrapper supplies.
    subroutine test_all()
        integer, asynchronous :: out(32, MAXN), in(32, MAXN)
        HANDLE(MPI_Request) :: req(2 * MAXN)
        integer :: n, ierr, p
        logical :: flag
        integer(kind=8) :: sum
        in = 0
        call post_all(14, .true., out, in, req, n)
        flag = .false.
        do while (.not. flag)
            call MPI_Testall(n, req, flag, MPI_STATUSES_IGNORE, ierr)
        end do
        sum = 0
        do p = 1, nranks
            sum = sum + in(1, p)
        end do
        checksum = checksum + sum
    end subroutine

    ! Ring with MPI_Testany: 3 ints from r to r+1.
    subroutine test_any()
        integer, asynchronous :: out(3), in(3)
        HANDLE(MPI_Request) :: req(2)
        integer :: done, idx, ierr
        logical :: flag
        out = (/rank, 1, 2/)
        in = 0
        call MPI_Irecv(in, 3, MPI_INTEGER, mod(rank + nranks - 1, nranks), 15, MPI_COMM_WORLD, req(1), ierr)
        call MPI_Isend(out, 3, MPI_INTEGER, mod(rank + 1, nranks), 15, MPI_COMM_WORLD, req(2), ierr)
        done = 0
        do while (done < 2)
            call MPI_Testany(2, req, idx, flag, MPI_STATUS_IGNORE, ierr)
            if (flag .and. idx /= MPI_UNDEFINED) then
                if (req(idx - FIRST_INDEX + 1) /= MPI_REQUEST_NULL) stop 94
                done = done + 1
            end if
        end do
        if (in(1) /= mod(rank + nranks - 1, nranks)) stop 95
        call add_ints(in)
    end subroutine

    ! More requests than the wrappers keep on their stack: ranks 0 <-> 1 and
    ! 2 <-> 3 exchange 40 messages of 1 int each way, completed by one
    ! MPI_Waitall of 80 requests with statuses, then 40 more each way by
    ! MPI_Waitsome with MPI_STATUSES_IGNORE.
    subroutine many()
        integer, asynchronous :: out(K), in(K)
        HANDLE(MPI_Request) :: req(2 * K)
        STATUS_ARRAY(st, 2 * K)
        integer :: idx(2 * K), partner, round, i, done, outcount, ierr
        partner = ieor(rank, 1)
        do round = 0, 1
            do i = 1, K
                out(i) = rank * 1000 + round * 100 + i
                call MPI_Irecv(in(i), 1, MPI_INTEGER, partner, 16 + round, MPI_COMM_WORLD, req(2 * i - 1), ierr)
                call MPI_Isend(out(i), 1, MPI_INTEGER, partner, 16 + round, MPI_COMM_WORLD, req(2 * i), ierr)
            end do
            if (round == 0) then
                call MPI_Waitall(2 * K, req, st, ierr)
                if (SOURCE_OF(st, 2 * K - 1) /= partner) stop 96
            else
                done = 0
                do while (done < 2 * K)
                    call MPI_Waitsome(2 * K, req, outcount, idx, MPI_STATUSES_IGNORE, ierr)
                    done = done + outcount
                end do
            end if
            if (in(K) /= partner * 1000 + round * 100 + K) stop 97
            call add_ints(in)
        end do
    end subroutine

    ! Persistent requests.  0 -> 1: Send_init of 4 ints started 4 times
    ! (MPI_Start); the first 3 waited for, the 4th freed while active; 1
    ! starts its Recv_init 4 times and frees it inactive.  2 <-> 3:
    ! Ssend_init of 6 doubles and Recv_init, both started together by
    ! MPI_Startall twice.  Rank 1 also starts a Send_init and a Recv_init
    ! with MPI_PROC_NULL twice: no messages.
    subroutine persistent()
        HANDLE(MPI_Request) :: req(2)
        integer, asynchronous :: data(4)
        double precision, asynchronous :: dout(6), din(6)
        integer :: i, other, ierr
        if (rank == 0) then
            data = (/1, 2, 3, 4/)
            call MPI_Send_init(data, 4, MPI_INTEGER, 1, 21, MPI_COMM_WORLD, req(1), ierr)
            do i = 1, 3
                call MPI_Start(req(1), ierr)
                call MPI_Wait(req(1), MPI_STATUS_IGNORE, ierr)
            end do
            call MPI_Start(req(1), ierr)
            call MPI_Request_free(req(1), ierr)
        else if (rank == 1) then
            call MPI_Recv_init(data, 4, MPI_INTEGER, 0, 21, MPI_COMM_WORLD, req(1), ierr)
            do i = 1, 4
                call MPI_Start(req(1), ierr)
                call MPI_Wait(req(1), MPI_STATUS_IGNORE, ierr)
                call add_ints(data)
            end do
            call MPI_Request_free(req(1), ierr)
            call MPI_Send_init(data, 4, MPI_INTEGER, MPI_PROC_NULL, 23, MPI_COMM_WORLD, req(1), ierr)
            call MPI_Recv_init(data, 4, MPI_INTEGER, MPI_PROC_NULL, 23, MPI_COMM_WORLD, req(2), ierr)
            do i = 1, 2
                call MPI_Startall(2, req, ierr)
                call MPI_Waitall(2, req, MPI_STATUSES_IGNORE, ierr)
            end do
            call MPI_Request_free(req(1), ierr)
            call MPI_Request_free(req(2), ierr)
        else
            other = merge(3, 2, rank == 2)
            dout = (/rank + 0d0, 1d0, 2d0, 3d0, 4d0, 5d0/)
            call MPI_Ssend_init(dout, 6, MPI_DOUBLE_PRECISION, other, 22, MPI_COMM_WORLD, req(1), ierr)
            call MPI_Recv_init(din, 6, MPI_DOUBLE_PRECISION, other, 22, MPI_COMM_WORLD, req(2), ierr)
            do i = 1, 2
                call MPI_Startall(2, req, ierr)
                call MPI_Waitall(2, req, MPI_STATUSES_IGNORE, ierr)
                if (nint(din(1)) /= other) stop 98
                call add_ints(nint(din))
            end do
            call MPI_Request_free(req(1), ierr)
            call MPI_Request_free(req(2), ierr)
        end if
    end subroutine

    ! MPI_Probe and MPI_Iprobe are nodes without messages: 2 -> 3, 10 ints
    ! probed both ways, then received.
    subroutine probes()
        integer :: ten(10), count, ierr
        logical :: flag
        STATUS_DECL(st)
        ten = rank
        if (rank == 2) then
            call MPI_Send(ten, 10, MPI_INTEGER, 3, 51, MPI_COMM_WORLD, ierr)
        else if (rank == 3) then
            call MPI_Probe(2, 51, MPI_COMM_WORLD, st, ierr)
            call MPI_Get_count(st, MPI_INTEGER, count, ierr)
            if (count /= 10) stop 99
            flag = .false.
            do while (.not. flag)
                call MPI_Iprobe(MPI_ANY_SOURCE, 51, MPI_COMM_WORLD, flag, MPI_STATUS_IGNORE, ierr)
            end do
            call MPI_Recv(ten, 10, MPI_INTEGER, 2, 51, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
            call add_ints(ten)
        end if
    end subroutine

    ! Instrumented work: its hooks poll the open requests.
    subroutine leaf(i)
        integer, intent(in) :: i
        sink = sink + i * 0.5d0
    end subroutine

    subroutine compute(n)
        integer, intent(in) :: n
        integer :: i
        do i = 1, n
            call leaf(i)
        end do
    end subroutine

    ! As overlap() in requests.c: the message has completed before the
    ! computation starts, the hooks' polling sees it during the computation,
    ! then 0.5 s pass without hooks before the program's Test/Wait.
    ! 0 -> 1: Isend, compute, MPI_Test until done; 1 receives with MPI_Recv.
    ! 2 -> 3: Isend + token, compute, MPI_Wait; 3: Irecv, token, compute,
    ! MPI_Wait.  1000 bytes each (the token is 4 bytes, tag 43).
    subroutine overlap()
        integer, asynchronous :: buf(250)
        integer :: token(1), i, ierr
        HANDLE(MPI_Request) :: req
        logical :: flag
        do i = 1, 250
            buf(i) = rank + i
        end do
        token = 0
        select case (rank)
        case (0)
            call MPI_Isend(buf, 250, MPI_INTEGER, 1, 41, MPI_COMM_WORLD, req, ierr)
            call compute(1000000)
            i = usleep(500000_c_int)
            flag = .false.
            do while (.not. flag)
                call MPI_Test(req, flag, MPI_STATUS_IGNORE, ierr)
            end do
        case (1)
            call MPI_Recv(buf, 250, MPI_INTEGER, 0, 41, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
            call add_ints(buf)
        case (2)
            call MPI_Isend(buf, 250, MPI_INTEGER, 3, 42, MPI_COMM_WORLD, req, ierr)
            call MPI_Send(token, 1, MPI_INTEGER, 3, 43, MPI_COMM_WORLD, ierr)
            call compute(1000000)
            i = usleep(500000_c_int)
            call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
        case (3)
            call MPI_Irecv(buf, 250, MPI_INTEGER, 2, 42, MPI_COMM_WORLD, req, ierr)
            call MPI_Recv(token, 1, MPI_INTEGER, 2, 43, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
            call compute(1000000)
            i = usleep(500000_c_int)
            call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
            call add_ints(buf)
        end select
    end subroutine
end module

program freq
    use reqs
    implicit none
    integer :: ierr
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
    if (nranks /= 4) stop 2
    call wait_any()
    call wait_some()
    call test_all()
    call test_any()
    call many()
    call persistent()
    call probes()
    call overlap()
    print '(a,i0,a,i0)', 'freq rank ', rank, ': ', checksum
    call MPI_Finalize(ierr)
end program
