! abi_mismatch.c in Fortran with mpif.h (test/mpi/abi_mismatch.py).
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
  implicit none
  include 'mpif.h'
  integer :: rank, nranks, round, total, all, got, next, prev
  integer :: st(MPI_STATUS_SIZE), ierr
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
