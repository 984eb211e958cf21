! hooktrace's regions for Fortran (docs/regions.md):
!
!     use hooktrace
!     call hooktrace_region_begin("solve")
!     ...
!     call hooktrace_region_end("solve")
!     call hooktrace_phase("solve")     ! a named phase, until the next
!
! The module holds interfaces only, so it needs no object file; a program
! without the module (mpif.h-era code) makes the same calls, and gfortran
! passes the name's length after it either way.  Trailing blanks are not
! part of a name.
module hooktrace
  implicit none
  interface
    subroutine hooktrace_region_begin(name)
      character(len=*), intent(in) :: name
    end subroutine hooktrace_region_begin
    subroutine hooktrace_region_end(name)
      character(len=*), intent(in) :: name
    end subroutine hooktrace_region_end
    subroutine hooktrace_phase(name)
      character(len=*), intent(in) :: name
    end subroutine hooktrace_phase
  end interface
end module hooktrace
