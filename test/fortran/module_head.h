! The specification part every test module starts with (cpp, #include
! "module_head.h" after `module name` and any other use statements, in a
! source that includes binding.h first): the MPI interface binding.h chose,
! the rank and size in MPI_COMM_WORLD (the main program sets them), and the
! checksum of what the rank received, which most programs print at the end
! (checksum.h).
    USE_MPI
    implicit none
#ifdef HT_MPIF_H
    include 'mpif.h'
#endif
    integer :: rank, nranks
    integer(kind=8) :: checksum = 0
