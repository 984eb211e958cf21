! Regions from Fortran (docs/regions.md), for test/fortran/regions.py: 20
! steps, each with "exchange" around a ring MPI_Sendrecv of 4 integers and
! "compute" (opened with trailing blanks) around a loop; then the phase
! "wrap up" (with trailing blanks) and legacy(),
! which calls the same routines without the module, as mpif.h-era code
! does, around a call of work().
program fregions
  use mpi
  use hooktrace
  implicit none
  integer :: ierr, rank, nranks, s, i, right, left
  integer :: sendbuf(4), recvbuf(4)
  double precision :: acc

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  right = mod(rank + 1, nranks)
  left = mod(rank + nranks - 1, nranks)
  acc = 0
  do s = 1, 20
    sendbuf = (/ s, rank, 0, 0 /)
    call hooktrace_region_begin("exchange")
    call MPI_Sendrecv(sendbuf, 4, MPI_INTEGER, right, s, recvbuf, 4, MPI_INTEGER, left, s, &
                      MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    call hooktrace_region_end("exchange")
    call hooktrace_region_begin("compute   ")
    do i = 1, 1000
      acc = acc + dble(i * recvbuf(2)) * 1d-6
    end do
    call hooktrace_region_end("compute")
  end do
  call hooktrace_phase("wrap up  ")
  call legacy(acc)
  if (rank == 0) print '(a, f12.3)', 'fregions: ', acc
  call MPI_Finalize(ierr)
end program fregions

subroutine legacy(acc)
  double precision acc
  call hooktrace_region_begin('old style')
  call work(acc)
  call hooktrace_region_end('old style')
end subroutine legacy

subroutine work(acc)
  double precision acc
  acc = acc + 1d0
end subroutine work
