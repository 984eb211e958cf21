// The 2-rank ring of test/install/prefix in C++, reporting the compiler
// its generated header recorded (test/install/check_prefix.sh).
#include <mpi.h>
#include <cstdio>

#include "ring_info.hpp"

extern "C" void exchange(int step);

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    for (int step = 0; step < 10; step++)
        exchange(step);
    MPI_Finalize();
    std::printf("ring: built by %s %s\nring: done\n", RING_CXX, RING_CXXFLAGS);
    return 0;
}
