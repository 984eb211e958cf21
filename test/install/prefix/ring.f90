! The ring in Fortran, built WITHOUT hooktrace: `hooktrace run` preloads
! libhooktrace, whose Fortran wrappers must see the calls.
program ring
  use mpi
  implicit none
  integer :: rank, size, step, in, ierr
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  do step = 0, 9
     call MPI_Sendrecv(step, 1, MPI_INTEGER, mod(rank + 1, size), 0, in, 1, MPI_INTEGER, &
                       mod(rank + size - 1, size), 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  end do
  call MPI_Finalize(ierr)
  if (rank == 0) print '(a)', 'ring: done'
end program ring
