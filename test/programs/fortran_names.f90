! Fortran names: module procedures as module::procedure, the main program by
! its name, external procedures without trailing underscores.
module solver
  implicit none
contains
  subroutine smooth(x, n)
    integer, intent(in) :: n
    real(8), intent(inout) :: x(n)
    integer :: i
    do i = 2, n - 1
      x(i) = 0.5d0 * (x(i - 1) + x(i + 1))
    end do
  end subroutine smooth

  real(8) function norm(x, n)
    integer, intent(in) :: n
    real(8), intent(in) :: x(n)
    norm = sqrt(sum(x * x))
  end function norm
end module solver

subroutine report(v)
  real(8), intent(in) :: v
  print '(a,f12.6)', 'fortran_names: ', v
end subroutine report

program heat
  use solver
  implicit none
  real(8) :: x(16)
  integer :: k
  x = 1.0d0
  x(1) = 0.0d0
  do k = 1, 4
    call smooth(x, 16)
  end do
  call report(norm(x, 16))
end program heat
