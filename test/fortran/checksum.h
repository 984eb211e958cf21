! Module procedures shared by the test modules (cpp, #include "checksum.h"
! after `contains`; module_head.h declares the checksum): what a rank
! received, added to its checksum.

    ! Integers as they are.
    subroutine add_ints(a)
        integer, intent(in) :: a(:)
        integer :: i
        do i = 1, size(a)
            checksum = mod(checksum * 31 + int(a(i), 8), 1000000007_8)
        end do
    end subroutine

    ! Doubles (multiples of 1/4) as 4 x.
    subroutine add_dbls(a)
        double precision, intent(in) :: a(:)
        integer :: i
        do i = 1, size(a)
            checksum = mod(checksum * 31 + nint(4 * a(i), 8), 1000000007_8)
        end do
    end subroutine
