! Shared by the Fortran test programs (cpp, #include "binding.h"): one
! source for three interfaces.  Built with -DHT_F08 for `use mpi_f08`,
! -DHT_MPIF_H for `include 'mpif.h'`, otherwise `use mpi`.  Each module
! then starts with #include "module_head.h" (USE_MPI, implicit none,
! mpif.h if chosen, rank, nranks, checksum); checksum.h and buffers.h hold
! the procedures the modules share.
#ifdef HT_F08
#define USE_MPI use mpi_f08
#define HANDLE(kind) type(kind)
#define STATUS_DECL(name) type(MPI_Status) :: name
#define STATUS_SOURCE(name) name%MPI_SOURCE
#define STATUS_ARRAY(name, n) type(MPI_Status) :: name(n)
#define SOURCE_OF(name, i) name(i)%MPI_SOURCE
! The first index MPI_Waitany, Testany, Waitsome and Testsome return: 1,
! but 0 in MPICH 4.0's mpi_f08 (configure's HT_F08_INDEX_BASE, docs/fortran.md).
#define FIRST_INDEX HT_F08_INDEX_BASE
#else
#ifdef HT_MPIF_H
#define USE_MPI
#else
#define USE_MPI use mpi
#endif
#define HANDLE(kind) integer
#define STATUS_DECL(name) integer :: name(MPI_STATUS_SIZE)
#define STATUS_SOURCE(name) name(MPI_SOURCE)
#define STATUS_ARRAY(name, n) integer :: name(MPI_STATUS_SIZE, n)
#define SOURCE_OF(name, i) name(MPI_SOURCE, i)
#define FIRST_INDEX 1
#endif
