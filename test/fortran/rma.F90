! test/mpi/rma.c through the Fortran bindings, one source for three
! interfaces (binding.h), on 4 ranks: every one-sided operation goes from
! origin r to another rank (or itself), counted on the origin as sent.
! test/fortran/rma.py asserts the exact messages.  Every rank prints a
! checksum of its window and results.
#include "binding.h"
module onesided
#include "module_head.h"
    integer, parameter :: WIN_INTS = 256
    integer, asynchronous :: window(WIN_INTS)
contains
#include "checksum.h"

    integer function peer(k)
        integer, intent(in) :: k
        peer = mod(rank + k, nranks)
    end function

    ! Target displacements are INTEGER(KIND=MPI_ADDRESS_KIND).
    integer(kind=MPI_ADDRESS_KIND) function disp(d)
        integer, intent(in) :: d
        disp = d
    end function

    ! Active target (fences): Put 5 ints to r+1; Get 6 ints from r+2 (as 3
    ! origin elements of a 2-int contiguous type); Accumulate 4 ints to r+3;
    ! Get_accumulate 2 ints (+ 2 ints of result) to r+1; Fetch_and_op 1 int
    ! to r+2; Compare_and_swap 1 int to r+3.
    subroutine fence_ops(win)
        HANDLE(MPI_Win), intent(in) :: win
        HANDLE(MPI_Datatype) :: pair
        integer :: src(16), res(16), one, old, compare, swap, i, ierr
        call MPI_Type_contiguous(2, MPI_INTEGER, pair, ierr)
        call MPI_Type_commit(pair, ierr)
        do i = 1, 16
            src(i) = rank * 10 + i - 1
        end do
        res = 0
        call MPI_Win_fence(0, win, ierr)
        call MPI_Put(src, 5, MPI_INTEGER, peer(1), disp(0), 5, MPI_INTEGER, win, ierr)
        call MPI_Win_fence(0, win, ierr)
        call MPI_Get(res, 3, pair, peer(2), disp(0), 6, MPI_INTEGER, win, ierr)
        call MPI_Win_fence(0, win, ierr)
        call add_ints(res)
        call MPI_Accumulate(src, 4, MPI_INTEGER, peer(3), disp(8), 4, MPI_INTEGER, MPI_SUM, win, ierr)
        call MPI_Win_fence(0, win, ierr)
        call MPI_Get_accumulate(src, 2, MPI_INTEGER, res, 2, MPI_INTEGER, peer(1), disp(16), 2, MPI_INTEGER, &
                                MPI_SUM, win, ierr)
        call MPI_Win_fence(0, win, ierr)
        call add_ints(res)
        one = 1
        old = 0
        compare = 0
        swap = 99
        call MPI_Fetch_and_op(one, old, MPI_INTEGER, peer(2), disp(20), MPI_SUM, win, ierr)
        call MPI_Win_fence(0, win, ierr)
        call add_ints((/old/))
        call MPI_Compare_and_swap(swap, compare, old, MPI_INTEGER, peer(3), disp(24), win, ierr)
        call MPI_Win_fence(0, win, ierr)
        call add_ints((/old/))
        call MPI_Type_free(pair, ierr)
    end subroutine

    ! Passive target with request-based operations, each completed by
    ! MPI_Wait: Rput 7 ints to r+1; Rget 9 ints from r+2; Raccumulate 2 ints
    ! to r+3; Rget_accumulate 3 ints (+ 3 of result) to r+1.
    subroutine request_ops(win)
        HANDLE(MPI_Win), intent(in) :: win
        HANDLE(MPI_Request) :: req
        integer, asynchronous :: src(16), res(16)
        integer :: i, ierr
        do i = 1, 16
            src(i) = rank * 100 + i - 1
        end do
        res = 0
        call MPI_Win_lock_all(0, win, ierr)
        call MPI_Rput(src, 7, MPI_INTEGER, peer(1), disp(40 + 8 * rank), 7, MPI_INTEGER, win, req, ierr)
        call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
        call MPI_Win_flush_all(win, ierr)
        call MPI_Rget(res, 9, MPI_INTEGER, peer(2), disp(0), 9, MPI_INTEGER, win, req, ierr)
        call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
        call MPI_Raccumulate(src, 2, MPI_INTEGER, peer(3), disp(100), 2, MPI_INTEGER, MPI_SUM, win, req, ierr)
        call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
        call MPI_Rget_accumulate(src, 3, MPI_INTEGER, res(10:), 3, MPI_INTEGER, peer(1), disp(110), 3, &
                                 MPI_INTEGER, MPI_SUM, win, req, ierr)
        call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
        call MPI_Win_unlock_all(win, ierr)
        call add_ints(res(1:9))
    end subroutine

    ! Edge cases, fence epoch: a Put of 2 ints to the process itself counts;
    ! a Put of 0 ints to r+1 is one message of 0 bytes; a Put and an
    ! Accumulate to MPI_PROC_NULL record nothing.
    subroutine edge_ops(win)
        HANDLE(MPI_Win), intent(in) :: win
        integer :: src(4), ierr
        src = (/rank, 1, 2, 3/)
        call MPI_Win_fence(0, win, ierr)
        call MPI_Put(src, 2, MPI_INTEGER, rank, disp(200), 2, MPI_INTEGER, win, ierr)
        call MPI_Put(src, 0, MPI_INTEGER, peer(1), disp(204), 0, MPI_INTEGER, win, ierr)
        call MPI_Put(src, 4, MPI_INTEGER, MPI_PROC_NULL, disp(0), 4, MPI_INTEGER, win, ierr)
        call MPI_Accumulate(src, 4, MPI_INTEGER, MPI_PROC_NULL, disp(0), 4, MPI_INTEGER, MPI_SUM, win, ierr)
        call MPI_Win_fence(0, win, ierr)
    end subroutine

    ! A window over a communicator with the ranks reversed: target_rank is
    ! a rank of the window's group.  Put 1 int to reversed rank
    ! (rev(r) + 1) % n, which is world rank r - 1.
    subroutine sub_window()
        HANDLE(MPI_Comm) :: rev
        HANDLE(MPI_Win) :: win
        integer, asynchronous, save :: small(8)
        integer :: me, mine(1), ierr
        small = 0
        call MPI_Comm_split(MPI_COMM_WORLD, 0, nranks - rank, rev, ierr)
        call MPI_Comm_rank(rev, me, ierr)
        call MPI_Win_create(small, 32_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, rev, win, ierr)
        mine = rank
        call MPI_Win_fence(0, win, ierr)
        call MPI_Put(mine, 1, MPI_INTEGER, mod(me + 1, nranks), disp(0), 1, MPI_INTEGER, win, ierr)
        call MPI_Win_fence(0, win, ierr)
        if (small(1) /= mod(rank + 1, nranks)) stop 101
        call add_ints(small)
        call MPI_Win_free(win, ierr)
        call MPI_Comm_free(rev, ierr)
    end subroutine
end module

program frma
    use onesided
    implicit none
    HANDLE(MPI_Win) :: win
    integer :: i, ierr
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
    if (nranks /= 4) stop 2
    do i = 1, WIN_INTS
        window(i) = rank * 1000 + i - 1
    end do
    call MPI_Win_create(window, int(4 * WIN_INTS, MPI_ADDRESS_KIND), 4, MPI_INFO_NULL, MPI_COMM_WORLD, &
                        win, ierr)
    call fence_ops(win)
    call request_ops(win)
    call edge_ops(win)
    call MPI_Win_fence(0, win, ierr)
    ! Only the deterministic parts of the window: the Put target, the
    ! Accumulate and Fetch_and_op targets.
    call add_ints(window(1:28))
    call MPI_Win_free(win, ierr)
    call sub_window()
    print '(a,i0,a,i0)', 'frma rank ', rank, ': ', checksum
    call MPI_Finalize(ierr)
end program
