! A main program without a `program` statement: gfortran's MAIN__ is all
! there is to call it (test/integration/fortran_main.py): 3 calls of thrice.
integer :: i, s
s = 0
do i = 1, 3
  s = s + thrice(i)
end do
print '(a,i0)', 'program_unnamed: ', s
contains
integer function thrice(x)
  integer, intent(in) :: x
  thrice = 3 * x
end function thrice
end
