/* Prints the first line of MPI_Get_library_version's text on rank 0, for
 * the profile's metadata.mpi_library (test/mpi/metadata.py), and meets the
 * other ranks once. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) static void meet(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    meet();
    if (rank == 0) {
        static char text[MPI_MAX_LIBRARY_VERSION_STRING];
        int n = 0;
        MPI_Get_library_version(text, &n);
        text[strcspn(text, "\n")] = '\0';
        printf("%s\n", text);
    }
    MPI_Finalize();
    return 0;
}
