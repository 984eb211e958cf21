! abi_mismatch.c in Fortran with use mpi_f08 (test/mpi/abi_mismatch.py).
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
  use mpi_f08
  use work
  implicit none
  integer :: rank, nranks, round, total, all, got, next, prev
  type(MPI_Status) :: st
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)
  next = mod(rank + 1, nranks)
  prev = mod(rank + nranks - 1, nranks)
  total = 0
  do round = 0, 2
    if (rank == 0) then
      call MPI_Send(compute(rank) + round, 1, MPI_INTEGER, next, 7, MPI_COMM_WORLD)
      call MPI_Recv(got, 1, MPI_INTEGER, prev, 7, MPI_COMM_WORLD, st)
    else
      call MPI_Recv(got, 1, MPI_INTEGER, prev, 7, MPI_COMM_WORLD, st)
      call MPI_Send(compute(rank) + round, 1, MPI_INTEGER, next, 7, MPI_COMM_WORLD)
    end if
    total = total + got
  end do
  call MPI_Allreduce(total, all, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call MPI_Barrier(MPI_COMM_WORLD)
  print '(a,i0,a,i0,a,i0,a,i0)', 'rank ', rank, ' of ', nranks, ': received ', total, ', sum ', all
  flush(6)
  call MPI_Finalize()
  call exit(3)
end program ring
