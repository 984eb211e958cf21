! The Fortran half of test/fortran/mixed.c: external subroutines (shown as
! f_ring, f_allreduce, f08_bcast) on the C program's communicator, through
! `use mpi` and `use mpi_f08`.
subroutine f_ring(comm)
    use mpi
    implicit none
    integer, intent(in) :: comm
    integer :: rank, n, ierr, out(3), in(3)
    call MPI_Comm_rank(comm, rank, ierr)
    call MPI_Comm_size(comm, n, ierr)
    out = rank
    call MPI_Sendrecv(out, 3, MPI_INTEGER, mod(rank + 1, n), 8, in, 3, MPI_INTEGER, &
                      mod(rank + n - 1, n), 8, comm, MPI_STATUS_IGNORE, ierr)
    if (in(1) /= mod(rank + n - 1, n)) stop 1
end subroutine

subroutine f_allreduce(comm)
    use mpi
    implicit none
    integer, intent(in) :: comm
    double precision :: a(2)
    integer :: ierr
    a = 1
    call MPI_Allreduce(MPI_IN_PLACE, a, 2, MPI_DOUBLE_PRECISION, MPI_SUM, comm, ierr)
end subroutine

! use mpi_f08: the INTEGER handle is the MPI_VAL of a TYPE(MPI_Comm).
subroutine f08_bcast(comm)
    use mpi_f08
    implicit none
    integer, intent(in) :: comm
    type(MPI_Comm) :: c
    integer :: rank, b(5)
    c%MPI_VAL = comm
    call MPI_Comm_rank(c, rank)
    b = rank
    call MPI_Bcast(b, 5, MPI_INTEGER, 0, c)
    if (b(5) /= 0) stop 2
end subroutine
