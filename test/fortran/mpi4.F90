! MPI 4's MPI_Isendrecv, MPI_Isendrecv_replace and MPI_Bcast_init through
! the Fortran bindings, one source for `use mpi_f08` and `include
! 'mpif.h'` (binding.h), on 4 ranks: swap() sends 5 integers to rank r+1
! from rank r-1 (MPI_Isendrecv, MPI_Wait) and 3 doubles to rank r-1 from
! rank r+1 (MPI_Isendrecv_replace, MPI_Wait); bcast_twice() starts an
! MPI_Bcast_init of 6 integers from rank 0 twice (MPI_Start, MPI_Wait)
! and frees it.  Every rank prints a checksum.  Built with
! -DHT_MPI4_yes where the library has these routines (configure's
! HT_MPI4_COMM); without, every rank says so (test/fortran/mpi4.py skips).
#include "binding.h"
module m4
#include "module_head.h"
contains
    subroutine swap()
#ifdef HT_MPI4_yes
        integer, asynchronous :: out(5), in(5)
        double precision, asynchronous :: d(3)
        integer :: ierr, left, right, i
        HANDLE(MPI_Request) :: req
        left = mod(rank + nranks - 1, nranks)
        right = mod(rank + 1, nranks)
        out = (/(100 * rank + i, i = 1, 5)/)
        in = 0
        call MPI_Isendrecv(out, 5, MPI_INTEGER, right, 1, in, 5, MPI_INTEGER, left, 1, &
                           MPI_COMM_WORLD, req, ierr)
        call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
        if (in(1) /= 100 * left + 1) stop 121
        d = (/rank + 0.5d0, rank + 1.5d0, rank + 2.5d0/)
        call MPI_Isendrecv_replace(d, 3, MPI_DOUBLE_PRECISION, left, 2, right, 2, &
                                   MPI_COMM_WORLD, req, ierr)
        call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
        if (nint(2 * d(1)) /= 2 * right + 1) stop 122
        checksum = checksum + in(5) + nint(10 * d(3))
#endif
    end subroutine

    subroutine bcast_twice()
#ifdef HT_MPI4_yes
        integer, asynchronous :: b(6)
        integer :: ierr, round, i
        HANDLE(MPI_Request) :: req
        call MPI_Bcast_init(b, 6, MPI_INTEGER, 0, MPI_COMM_WORLD, MPI_INFO_NULL, req, ierr)
        do round = 1, 2
            b = -1
            if (rank == 0) b = (/(10 * round + i, i = 1, 6)/)
            call MPI_Start(req, ierr)
            call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
            if (b(6) /= 10 * round + 6) stop 123
            checksum = checksum * 3 + b(6)
        end do
        call MPI_Request_free(req, ierr)
#endif
    end subroutine
end module

program fmpi4
    use m4
    implicit none
    integer :: ierr
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
    call swap()
    call bcast_twice()
#ifdef HT_MPI4_yes
    print '(a,i0,a,i0)', 'fmpi4 rank ', rank, ': ', checksum
#else
    print '(a,i0,a)', 'fmpi4 rank ', rank, ': no MPI 4 routines'
#endif
    call MPI_Finalize(ierr)
end program
