# hooktrace's Spack package (docs/install.md, "Spack").  Add this folder as a
# Spack repository (`spack repo add spack-repo`) and give Spack the release
# tarball (`make dist`) through a mirror; test/install/check_spack.sh does
# both, offline, against external MPIs and libraries.
from spack.package import *


class Hooktrace(AutotoolsPackage):
    """Call-stack profiler for MPI programs: -finstrument-functions hooks,
    PMPI wrappers for C, Fortran and mpi_f08, per-call-stack messages, OTF2
    traces and an analyzer."""

    # The project has no public address yet: .invalid says so.  A mirror
    # holding hooktrace/hooktrace-VERSION.tar.gz serves the tarball.
    homepage = "https://hooktrace.invalid"
    url = "https://hooktrace.invalid/hooktrace-0.1.0.tar.gz"

    license("BSD-3-Clause")

    # No release is published yet: install the `make dist` tarball from a
    # mirror with --no-checksum (docs/install.md).
    version("0.1.0")

    variant("openmpi", default=True, description="Build libhooktrace for Open MPI")
    variant("mpich", default=False, description="Build libhooktrace-mpich for MPICH")
    variant("papi", default=True, description="Read PAPI counters per call stack")
    variant(
        "gcc_plugin",
        default=True,
        description="Build the GCC plugin that keeps tiny and inlined functions cheap",
    )
    variant("fortran", default=True, description="Fortran wrappers (mpif.h, use mpi, mpi_f08)")
    variant(
        "otf2",
        default=True,
        description="Trace mode (OTF2 archives) and hooktrace-analyze; without it the "
        "profile is the same and trace mode is refused with a message",
    )

    conflicts("~openmpi ~mpich", msg="hooktrace needs at least one MPI: +openmpi or +mpich")
    conflicts("+gcc_plugin", when="%clang", msg="the GCC plugin needs GCC")

    depends_on("pkgconfig", type="build")
    depends_on("openmpi", when="+openmpi")
    depends_on("mpich", when="+mpich")
    depends_on("elfutils")
    depends_on("libdwarf")
    depends_on("jansson")
    depends_on("otf2@3:", when="+otf2")
    depends_on("papi", when="+papi")

    def configure_args(self):
        mpis = [m for m in ("openmpi", "mpich") if self.spec.satisfies("+" + m)]
        args = ["--with-mpi=" + ",".join(mpis), "--disable-llvm-plugin"]
        args += self.with_or_without("papi")
        args += self.enable_or_disable("gcc-plugin", variant="gcc_plugin")
        args += self.enable_or_disable("fortran")
        args += self.with_or_without("otf2")
        return args
