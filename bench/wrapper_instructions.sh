#!/bin/sh
# Instructions libhooktrace executes per MPI call, counted by callgrind
# (BENCHMARKS.md, "MPI wrappers"): bench/mpi_calls run on
# 2 Open MPI ranks under valgrind --tool=callgrind with N1 and then N2
# iterations of the 8-byte ping-pong and Allreduce (3 MPI calls per
# iteration per rank); the Ir of every function of libhooktrace (PLT stubs
# included) summed per rank, and the difference divided by (N2 - N1) * 3:
# start-up and shut-down cancel out.  Exact, so one run each suffices.
# Usage: bench/wrapper_instructions.sh MPI_CALLS_BINARY [N1 N2]
set -e
exe=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
n1=${2:-2000} n2=${3:-6000}
work=$(mktemp -d /tmp/hooktrace-cg.XXXXXX)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
ir() { # N RANK: libhooktrace's Ir
    callgrind_annotate --inclusive=no --threshold=100 "$work/cg.$1.$2" |
        awk '/libhooktrace/ { gsub(",", "", $1); s += $1 } END { print s + 0 }'
}
for n in $n1 $n2; do
    (cd "$work" && mpirun --oversubscribe -np 2 valgrind --tool=callgrind --quiet \
        --callgrind-out-file="$work/cg.$n.%q{OMPI_COMM_WORLD_RANK}" \
        "$exe" -n "$n" -r 1 -w 0 -t pp8,ar8 > /dev/null)
done
for r in 0 1; do
    a=$(ir $n1 $r) b=$(ir $n2 $r)
    echo "rank $r: $a Ir at $n1 iterations, $b at $n2: $(echo "$a $b $n1 $n2" |
        awk '{ printf "%.2f", ($2 - $1) / (($4 - $3) * 3) }') Ir per MPI call"
done
