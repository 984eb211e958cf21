# Sourced by check_deb.sh and check_spack.sh: an installed hooktrace builds
# test/install/prefix's ring with Open MPI's and MPICH's mpicc, each ring
# loads the runtime library of the install (ldd), runs on 2 ranks, and its
# profile has the ring's exact calls, messages and bytes (ring_profile.py).
# check_rings HOOKTRACE LIBDIR LABEL WORK [MPIS]: HOOKTRACE the installed
# command, LIBDIR where its libraries are, LABEL for the messages, WORK a
# scratch folder, MPIS the MPIs to try (default "openmpi mpich"); returns 0
# if every ring passes.  Each ring's stderr is kept in WORK/ring-MPI/err.txt.
check_rings() {
    _ht=$1 _libdir=$2 _label=$3 _work=$4 _mpis=${5:-openmpi mpich} _status=0
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    for _mpi in $_mpis; do
        case $_mpi in
        openmpi) _mpicc=mpicc.openmpi _mpirun="mpirun.openmpi --oversubscribe -np 2" _lib=libhooktrace.so.0 ;;
        mpich) _mpicc=mpicc.mpich _mpirun="mpiexec.hydra -np 2" _lib=libhooktrace-mpich.so.0 ;;
        esac
        _dir="$_work/ring-$_mpi"
        mkdir "$_dir"
        (cd "$_dir" && "$_ht" $_mpicc -O2 -o ring "$top/test/install/prefix/main.c" \
            "$top/test/install/prefix/ring.c") || { echo "$_label, $_mpi: FAIL build"; _status=1; continue; }
        # the library of the install, found by the dynamic linker
        _found=$(cd "$_dir" && ldd ./ring | sed -n "s/.*$_lib => \([^ ]*\).*/\1/p")
        [ "$_found" = "$_libdir/$_lib" ] ||
            { echo "$_label, $_mpi: FAIL ring loads '$_found', not $_libdir/$_lib"; _status=1; }
        (cd "$_dir" && timeout 120 $_mpirun ./ring >out.txt 2>err.txt && grep -q "ring: done" out.txt) ||
            { cat "$_dir/err.txt"; echo "$_label, $_mpi: FAIL run"; _status=1; continue; }
        python3 "$top/test/install/ring_profile.py" "$_dir/ring.json" instrumented "$_label, $_mpi" ||
            _status=1
    done
    return $_status
}
