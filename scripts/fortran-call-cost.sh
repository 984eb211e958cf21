#!/bin/sh
# The added cost of a Fortran MPI call against a C one: MPI_Send to
# MPI_PROC_NULL 2 million times on one rank, from C and from Fortran
# (`use mpi`), each without and with hooktrace, best of 3 runs.
#   scripts/fortran-call-cost.sh BUILD_DIR [openmpi|mpich]
# BUILD_DIR: a configured and built hooktrace tree (libhooktrace in .libs).
# (Kept out of bench/, which has its own owner; fold in there when wanted.)
set -e
build=$(cd "${1:?usage: $0 BUILD_DIR [openmpi|mpich]}" && pwd)/.libs
mpi=${2:-openmpi}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/cost.f90" <<'EOF'
program cost
    use mpi
    integer :: i, ierr, buf(1), best
    double precision :: t, tbest
    call MPI_Init(ierr)
    tbest = 1d9
    do best = 1, 3
        t = MPI_Wtime()
        do i = 1, 2000000
            call MPI_Send(buf, 1, MPI_INTEGER, MPI_PROC_NULL, 0, MPI_COMM_WORLD, ierr)
        end do
        tbest = min(tbest, MPI_Wtime() - t)
    end do
    print '(f8.1)', tbest / 2000000 * 1d9
    call MPI_Finalize(ierr)
end program
EOF
cat > "$tmp/cost.c" <<'EOF'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    int buf[1];
    double best = 1e9;
    MPI_Init(&argc, &argv);
    for (int k = 0; k < 3; k++) {
        double t = MPI_Wtime();
        for (int i = 0; i < 2000000; i++)
            MPI_Send(buf, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
        t = MPI_Wtime() - t;
        best = t < best ? t : best;
    }
    printf("%8.1f\n", best / 2000000 * 1e9);
    MPI_Finalize();
    return 0;
}
EOF
if [ "$mpi" = mpich ]; then
    fc="mpif90.mpich -fallow-argument-mismatch"; cc=mpicc.mpich; run="mpiexec.hydra -n 1"
else
    fc=mpif90.openmpi; cc=mpicc.openmpi; run="mpirun.openmpi -n 1"
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
fi
ht="-L$build -Wl,-rpath,$build -lhooktrace"
# -lhooktrace must come before the MPI libraries the compiler wrapper appends.
$fc -O2 "$tmp/cost.f90" -o "$tmp/f_plain"
$fc -O2 "$tmp/cost.f90" -o "$tmp/f_ht" $ht
$cc -O2 "$tmp/cost.c" -o "$tmp/c_plain"
$cc -O2 "$tmp/cost.c" -o "$tmp/c_ht" $ht
cd "$tmp"
for p in c_plain c_ht f_plain f_ht; do
    printf '%-8s %s ns per MPI_Send\n' "$p" "$($run ./$p | tr -d ' ')"
done
