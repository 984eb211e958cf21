! The main program shown by its own name, heat_demo, never as gfortran's
! MAIN__ (test/integration/fortran_main.py serially, test/fortran/heat_demo.py
! on 2 ranks with -DHT_WITH_MPI): 10 calls of heat_solver::step and of the
! external subroutine clamp, one of heat_solver::energy and one of the
! external subroutine show_energy.
module heat_solver
  implicit none
contains
  subroutine step(u, n)
    integer, intent(in) :: n
    real(8), intent(inout) :: u(n)
    integer :: i
    do i = 2, n - 1
      u(i) = 0.25d0 * u(i - 1) + 0.5d0 * u(i) + 0.25d0 * u(i + 1)
    end do
  end subroutine step

  real(8) function energy(u, n)
    integer, intent(in) :: n
    real(8), intent(in) :: u(n)
    energy = sum(u * u)
  end function energy
end module heat_solver

subroutine clamp(u, n)
  integer, intent(in) :: n
  real(8), intent(inout) :: u(n)
  u = min(max(u, 0.0d0), 1.0d0)
end subroutine clamp

subroutine show_energy(e)
  real(8), intent(in) :: e
  print '(a,f10.6)', 'heat_demo: ', e
end subroutine show_energy

program heat_demo
  use heat_solver
#ifdef HT_WITH_MPI
  use mpi
#endif
  implicit none
  real(8) :: u(32), e, total
  integer :: k, rank, ierr
#ifdef HT_WITH_MPI
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
#else
  rank = 0
  ierr = 0
#endif
  u = 0.0d0
  u(16) = 1.0d0
  do k = 1, 10
    call step(u, 32)
    call clamp(u, 32)
  end do
  e = energy(u, 32)
  total = e
#ifdef HT_WITH_MPI
  call MPI_Allreduce(e, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
#endif
  if (rank == 0) call show_energy(total)
#ifdef HT_WITH_MPI
  call MPI_Finalize(ierr)
#endif
end program heat_demo
