! Main program of the Fortran symbols test.  The checks are in C
! (test/unit/symbols_fortran.c), which expects "program" on line 3.
program symbols_fmain
  implicit none
  interface
    subroutine run_checks() bind(C, name="symfix_fortran_checks")
    end subroutine run_checks
  end interface
  call run_checks()
end program symbols_fmain
