! abi_mismatch.c in Fortran (test/mpi/abi_mismatch.py): include 'mpif.h',
! or with -DUSE_MPI use mpi, or with -DUSE_MPI_F08 use mpi_f08.  ierror is
! optional in mpi_f08, so every call passes it in all three.
module work
  implicit none
contains
  integer function square(x)
    integer, intent(in) :: x
    square = x * x
  end function square

  integer function compute(rank)
    integer, intent(in) :: rank
    integer :: i
    compute = 0
    do i = 0, 4
      compute = compute + square(rank + i)
    end do
  end function compute
end module work

program ring
  use work
#if defined(USE_MPI_F08)
  use mpi_f08
#elif defined(USE_MPI)
  use mpi
#endif
  implicit none
#if !defined(USE_MPI_F08) && !defined(USE_MPI)
  include 'mpif.h'
#endif
  integer :: rank, nranks, round, total, all, got, next, prev, ierr
#if defined(USE_MPI_F08)
  type(MPI_Status) :: st
#else
  integer :: st(MPI_STATUS_SIZE)
#endif
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  next = mod(rank + 1, nranks)
  prev = mod(rank + nranks - 1, nranks)
  total = 0
  do round = 0, 2
    if (rank == 0) then
      call MPI_Send(compute(rank) + round, 1, MPI_INTEGER, next, 7, MPI_COMM_WORLD, ierr)
      call MPI_Recv(got, 1, MPI_INTEGER, prev, 7, MPI_COMM_WORLD, st, ierr)
    else
      call MPI_Recv(got, 1, MPI_INTEGER, prev, 7, MPI_COMM_WORLD, st, ierr)
      call MPI_Send(compute(rank) + round, 1, MPI_INTEGER, next, 7, MPI_COMM_WORLD, ierr)
    end if
    total = total + got
  end do
  call MPI_Allreduce(total, all, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  print '(a,i0,a,i0,a,i0,a,i0)', 'rank ', rank, ' of ', nranks, ': received ', total, ', sum ', all
  flush(6)
  call MPI_Finalize(ierr)
  call exit(3)
end program ring
