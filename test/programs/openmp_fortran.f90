! An OpenMP loop in a module procedure (test/integration/openmp.py): its
! outlined function is named after the procedure, m::run._omp_fn.0.
module omp_names
contains
  subroutine work(i, total)
    integer, intent(in) :: i
    integer, intent(inout) :: total
    total = total + i
  end subroutine
  subroutine run(total)
    integer, intent(out) :: total
    integer :: i
    total = 0
!$omp parallel do num_threads(2) schedule(static) reduction(+:total)
    do i = 1, 100
      call work(i, total)
    end do
!$omp end parallel do
  end subroutine
end module
program omp_fortran
  use omp_names
  integer :: total
  call run(total)
  print '(a,i0)', 'openmp_fortran: ', total
end program
