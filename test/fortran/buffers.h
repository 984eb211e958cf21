! Module procedures of the collective tests (coll.F90, nbcoll.F90,
! neighbour.F90; cpp, #include "buffers.h" after `contains` and
! "checksum.h"): fill() and take() on the module's buffers ints_a, ints_b
! (integer) and dbl_a, dbl_b (double precision), of BUF elements each.

    ! The send buffers from the rank, the receive buffers zero.
    subroutine fill()
        integer :: i
        do i = 1, BUF
            ints_a(i) = rank * 1000 + i
            dbl_a(i) = rank + i * 0.25d0
        end do
        ints_b = 0
        dbl_b = 0
    end subroutine

    ! Adds what the receive buffers hold to the checksum.
    subroutine take()
        call add_ints(ints_b)
        call add_dbls(dbl_b)
    end subroutine

    ! The arguments of an Alltoallw (test/mpi/collectives.c's), the same for
    ! sending and receiving: with peer i - 1, (rank + i - 1) % 3 + 1
    ! elements, double precision when rank + i - 1 is even, integers
    ! otherwise, at packed byte displacements of 8 bytes an element; for
    ! i = 1 .. nranks.
    subroutine alltoallw_layout(counts, displs, types)
        integer, intent(out) :: counts(:), displs(:)
        HANDLE(MPI_Datatype), intent(out) :: types(:)
        integer :: i, s, at
        at = 0
        do i = 1, nranks
            s = rank + i - 1
            counts(i) = mod(s, 3) + 1
            if (mod(s, 2) == 0) then
                types(i) = MPI_DOUBLE_PRECISION
            else
                types(i) = MPI_INTEGER
            end if
            displs(i) = at
            at = at + 8 * (mod(s, 3) + 1)
        end do
    end subroutine
