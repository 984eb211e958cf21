! `program main`: gfortran calls it MAIN__ in DWARF as well (the name
! "main" is its generated C entry point), so the profile must take the
! program's name from its `program` statement (test/integration/fortran_main.py):
! 4 calls of twice.
program main
  implicit none
  integer :: i, s
  s = 0
  do i = 1, 4
    s = s + twice(i)
  end do
  print '(a,i0)', 'program_main: ', s
contains
  integer function twice(x)
    integer, intent(in) :: x
    twice = 2 * x
  end function twice
end program main
