! Throttling in a Fortran MPI program (test/fortran/throttle.py), in the
! shape of a NAS-style solver: every rank calls sweep 10 times, and each
! sweep calls four tiny subroutines 20,000 times, so that each is throttled
! at its 100,001st call (default min_calls), on the 6th sweep's first
! iteration, and makes 99,999 calls more that hooktrace no longer sees.
module hot_kernels
  implicit none
contains
  subroutine add_one(x)
    double precision, intent(inout) :: x
    x = x + 1.0d0
  end subroutine add_one

  subroutine scale(x)
    double precision, intent(inout) :: x
    x = x * 0.5d0
  end subroutine scale

  subroutine shift(x)
    double precision, intent(inout) :: x
    x = x - 0.25d0
  end subroutine shift

  subroutine clip(x)
    double precision, intent(inout) :: x
    if (x > 100.0d0) x = 100.0d0
  end subroutine clip

  subroutine sweep(x, n)
    double precision, intent(inout) :: x
    integer, intent(in) :: n
    integer :: i
    do i = 1, n
      call add_one(x)
      call scale(x)
      call shift(x)
      call clip(x)
    end do
  end subroutine sweep
end module hot_kernels

program fthrottle
  use mpi
  use hot_kernels
  implicit none
  integer :: ierr, rank, step
  double precision :: x, total
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  x = dble(rank)
  do step = 1, 10
    call sweep(x, 20000)
  end do
  call MPI_Allreduce(x, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  print '(a,i0,a,f10.6)', 'rank ', rank, ': ', total
  call MPI_Finalize(ierr)
end program fthrottle
