! The Fortran side of `make bench-fortran` (bench/fortran_cost.py): the same
! MPI calls, loops, timing and output as its C twin bench/fortran_calls_c.c
! (MPI_Send of one 8-byte integer to MPI_PROC_NULL, an 8-byte MPI_Allreduce,
! MPI_SUM, on MPI_COMM_WORLD), through `use mpi`, or `use mpi_f08` when built
! with -DHT_F08.  Prints
!   test=send calls=N ns_per_call=X cpu_share=S reps=R
! Usage: fortran_calls_{f90,f08}_* [ITERATIONS [REPS]]  (defaults 500000, 5)
program fortran_calls
#ifdef HT_F08
    use mpi_f08
#else
    use mpi
#endif
    implicit none
    integer, parameter :: max_reps = 64, tag = 17
    integer(kind=8) :: sbuf(1), rbuf(1)
    integer :: n, reps, r, ierr
    double precision :: ns(max_reps, 2), share(max_reps, 2)
    character(len=32) :: arg

    sbuf = 1
    n = 500000
    reps = 5
    if (command_argument_count() >= 1) then
        call get_command_argument(1, arg)
        read (arg, *) n
    end if
    if (command_argument_count() >= 2) then
        call get_command_argument(2, arg)
        read (arg, *) reps
    end if
    reps = max(1, min(max_reps, reps))

    call MPI_Init(ierr)
    call send_loop(n / 10 + 1, ns(1, 1), share(1, 1))
    call allreduce_loop(n / 10 + 1, ns(1, 2), share(1, 2))
    do r = 1, reps
        call send_loop(n, ns(r, 1), share(r, 1))
        call allreduce_loop(n, ns(r, 2), share(r, 2))
    end do
    write (*, '(a,i0,a,f0.2,a,f0.2,a,i0)') 'test=send calls=', n, ' ns_per_call=', &
        median(ns(1:reps, 1)), ' cpu_share=', minval(share(1:reps, 1)), ' reps=', reps
    write (*, '(a,i0,a,f0.2,a,f0.2,a,i0)') 'test=ar8 calls=', n, ' ns_per_call=', &
        median(ns(1:reps, 2)), ' cpu_share=', minval(share(1:reps, 2)), ' reps=', reps
    call MPI_Finalize(ierr)

contains

    subroutine send_loop(calls, ns_per_call, cpu_share)
        integer, intent(in) :: calls
        double precision, intent(out) :: ns_per_call, cpu_share
        double precision :: t
        real :: c0, c1
        integer :: i, e
        call cpu_time(c0)
        t = MPI_Wtime()
        do i = 1, calls
            call MPI_Send(sbuf, 1, MPI_INTEGER8, MPI_PROC_NULL, tag, MPI_COMM_WORLD, e)
        end do
        t = MPI_Wtime() - t
        call cpu_time(c1)
        ns_per_call = t / calls * 1d9
        cpu_share = (c1 - c0) / t
    end subroutine

    subroutine allreduce_loop(calls, ns_per_call, cpu_share)
        integer, intent(in) :: calls
        double precision, intent(out) :: ns_per_call, cpu_share
        double precision :: t
        real :: c0, c1
        integer :: i, e
        call cpu_time(c0)
        t = MPI_Wtime()
        do i = 1, calls
            call MPI_Allreduce(sbuf, rbuf, 1, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD, e)
        end do
        t = MPI_Wtime() - t
        call cpu_time(c1)
        ns_per_call = t / calls * 1d9
        cpu_share = (c1 - c0) / t
    end subroutine

    ! The median of x (sorted in a copy: insertion sort, at most 64 values).
    double precision function median(x)
        double precision, intent(in) :: x(:)
        double precision :: s(size(x)), v
        integer :: i, j, k
        s = x
        do i = 2, size(s)
            v = s(i)
            j = i - 1
            do while (j >= 1)
                if (s(j) <= v) exit
                s(j + 1) = s(j)
                j = j - 1
            end do
            s(j + 1) = v
        end do
        k = size(s)
        if (mod(k, 2) == 1) then
            median = s(k / 2 + 1)
        else
            median = (s(k / 2) + s(k / 2 + 1)) / 2
        end if
    end function
end program
