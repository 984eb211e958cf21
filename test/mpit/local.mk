# MPI_T tests (issue 7).
