/* A C main program and Fortran subroutines (mixed_f.F90) that both call
 * MPI, on one communicator (converted with MPI_Comm_c2f): test/fortran/mixed.py
 * asserts each call is counted once, under the caller of either language. */
#include <mpi.h>
#include <stdio.h>

/* mixed_f.F90 */
void f_ring_(MPI_Fint *comm);
void f_allreduce_(MPI_Fint *comm);
void f08_bcast_(MPI_Fint *comm);

static void c_ring(MPI_Comm comm, int rank, int n)
{
    int out[2] = {rank, rank}, in[2];
    MPI_Sendrecv(out, 2, MPI_INT, (rank + 1) % n, 7, in, 2, MPI_INT, (rank + n - 1) % n, 7, comm,
                 MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
    int rank, n;
    MPI_Init(&argc, &argv);
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    MPI_Fint fcomm = MPI_Comm_c2f(comm);
    c_ring(comm, rank, n);
    f_ring_(&fcomm);
    f_allreduce_(&fcomm);
    f08_bcast_(&fcomm);
    int x = 1, sum;
    MPI_Allreduce(&x, &sum, 1, MPI_INT, MPI_SUM, comm);
    printf("mixed rank %d: %d\n", rank, sum);
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}
