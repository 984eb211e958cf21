! The GCC plugin's Fortran test program (test/plugin/plugin.py): a module
! function small enough to be left out, a subroutine with a loop that is
! kept, and an external function that is left out too.
module grid
  implicit none
contains
  pure function square(x) result(y)
    real(8), intent(in) :: x
    real(8) :: y
    y = x * x
  end function square

  subroutine sum_squares(n, s)
    integer, intent(in) :: n
    real(8), intent(out) :: s
    integer :: i
    s = 0
    do i = 1, n
      s = s + square(real(i, 8))
    end do
  end subroutine sum_squares
end module grid

function halve(x) result(y)
  real(8), intent(in) :: x
  real(8) :: y
  y = x / 2
end function halve

program tiny_module
  use grid
  implicit none
  real(8) :: s, halve
  integer :: k
  do k = 1, 4
    call sum_squares(10, s)
  end do
  print '(f8.1)', halve(s)
end program tiny_module
