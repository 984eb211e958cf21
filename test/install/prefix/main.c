/* A 2-rank ring built through the `hooktrace` compiler prefix by make,
 * Autotools and CMake (test/install/check_prefix.sh). */
#include <mpi.h>
#include <stdio.h>

void exchange(int step);

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    for (int step = 0; step < 10; step++)
        exchange(step);
    MPI_Finalize();
    printf("ring: done\n");
    return 0;
}
