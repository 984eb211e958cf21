# MPI tests (test/mpi): programs run under mpirun, checked from the JSON
