! Fortran fixture for the symbols unit tests: a module procedure
! (__mymod_MOD_myproc, shown as mymod::myproc) and an external subroutine
! (foo_, shown as foo).  The C test reads the definition lines below.
module mymod
  use iso_c_binding, only: c_int
  implicit none
  integer, save :: counter = 0
  ! The offsets count lines down to "subroutine myproc" and "subroutine foo".
  integer(c_int), bind(C, name="symfix_foo_line") :: foo_line = __LINE__ + 8
  integer(c_int), bind(C, name="symfix_myproc_line") :: myproc_line = __LINE__ + 2
contains
  subroutine myproc()
    counter = counter + 1
  end subroutine myproc
end module mymod

subroutine foo()
  use mymod, only: counter
  implicit none
  counter = counter + 2
end subroutine foo
