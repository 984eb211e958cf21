/* The MPI's own mpi.h, and every routine and variable it declares (its
 * MPI_ routines aside, which libhooktrace defines) made a weak reference:
 * src/common/weak_mpi/weak_refs.py writes the list from that mpi.h at build time.  So
 * libhooktrace needs no MPI library (no DT_NEEDED on one) and loads into a
 * process without it, or with another MPI, and binds to its MPI like
 * before where that MPI is loaded (docs/compile.md, "A library without MPI
 * dependency").  Every file of the library that includes <mpi.h> gets this
 * one first: its folder comes before the MPI's in the include path
 * (HT_LIB_CPPFLAGS).  It lives on the ground floor because every floor
 * that talks to MPI includes it, and test/mpi_weak.sh fails the check on a
 * strong reference that slips through. */
#ifndef HT_COMMON_WEAK_MPI_H
#define HT_COMMON_WEAK_MPI_H
#include_next <mpi.h>
#include "src/common/weak_mpi/weak_refs.h"
#endif
