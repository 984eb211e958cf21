"""hooktrace's LLVM plugin (src/plugin/hooktrace_llvm.cpp,
docs/clang.md): test/plugin/clang_lulesh.cpp, a LULESH-shaped program, built with
`hooktrace clang++` and the plugin at -O1, -O2 and -O3 with -fopenmp (run
with 1 and 4 threads), at -O2 without OpenMP, with -flto, at -O0, and at
-O2 with -hooktrace-inlined-hooks=keep (every inlined copy keeps its hooks:
the control); the reference output from a plain clang++ build.

Every build: exit status and stdout as the plain build's, and at -O1, -O2
and -O3 the same functions out of line as the plain build at that level
(the hooks are hidden from clang's inliner).  Whatever clang inlined, the
same tree: every driver (LeapFrog > LagrangeNodal >
CalcForceForNodes > CalcVolumeForceForElems, ...) and kernel once per step
(CalcEnergyForElems twice), each OpenMP region named after its kernel
(CalcQForElems(Domain&) [clone ._omp_fn.0], as GCC names it) under the
kernel on thread 0 and the root of every other thread of the team, nothing
named .omp_outlined, none for glibc's extern inline atoi; under each
region, on each thread, its helpers with
exactly the calls of the elements that thread ran (static schedule:
elements / threads per step), elements x steps over the threads.  The leaf
helpers (HourglassForce, SumNodes, ElemVolume, EnergyTerm) are counted
stacks, "inlined", with no time, listed in "uninstrumented"."inlined"; the
ones with a loop of unknown trips (SmoothQ) or a call that stays a call
(PressureCheck) keep their hooks; the one-line accessor Neighbours is
tiny: no stack, listed as uninstrumented.  The hook calls and the counted
calls add up to the profile's "overhead" figures, and the keep build
records through hooks exactly the calls the default build counts.
Skipped where there is no clang++, no libomp or no LLVM plugin."""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from htlib import BUILDDIR, SRCDIR, check, check_eq, finish, run  # noqa: E402
from omplib import per_thread, roots  # noqa: E402
from prefixlib import Prefix, sanitized, skip  # noqa: E402

if not shutil.which("clang++"):
    skip("no clang++ on the PATH (Debian: apt-get install clang)")
if sanitized():
    skip("the library is built with sanitizers, whose GCC runtime a program clang builds without them cannot load")
if not os.path.exists(os.path.join(BUILDDIR, "hooktrace_llvm.so")):
    skip("no LLVM plugin built (configure needs llvm-config-14 and LLVM 14's headers: apt-get install llvm-14-dev)")
work = tempfile.mkdtemp(prefix="hooktrace-clang-lulesh-")
SOURCE = os.path.join(SRCDIR, "test", "plugin", "clang_lulesh.cpp")
probe = subprocess.run(["clang++", "-fopenmp", "-O2", SOURCE, "-o", os.path.join(work, "probe")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
if probe.returncode != 0:
    shutil.rmtree(work, ignore_errors=True)
    skip("clang++ -fopenmp does not build the program: no libomp (Debian: apt-get install libomp-14-dev): "
         + probe.stdout.strip()[-300:])

prefix = Prefix(llvm_plugin=True)
ELEMENTS, STEPS = 64, 5
ARGS = [str(ELEMENTS), str(STEPS)]
ENV = {"OMP_DYNAMIC": "false", "OMP_WAIT_POLICY": "passive"}


def build(argv, exe, what):
    proc = prefix.compile(argv + ["-o", os.path.join(work, exe)])
    check_eq((proc.returncode, proc.stderr), (0, ""), "%s: builds" % what)
    return os.path.join(work, exe)


def bodies(exe):
    """The functions exe holds out of line; a region's (clang's name
    .omp_outlined..N, the plugin's KERNEL._omp_fn.N) as "region"."""
    nm = subprocess.run(["nm", "--defined-only", exe], stdout=subprocess.PIPE, universal_newlines=True).stdout
    names = sorted(line.split()[2] for line in nm.splitlines() if len(line.split()) == 3 and line.split()[1] in "tTW")
    return sorted("region" if name.startswith(".omp_outlined.") or "._omp_fn." in name else name
                  for name in names if not name.startswith("hooktrace") and "__hooktrace" not in name)


def output(exe, threads):
    return subprocess.run([exe] + ARGS, env=dict(os.environ, OMP_NUM_THREADS=str(threads), **ENV),
                          stdout=subprocess.PIPE, universal_newlines=True).stdout


# Each driver and kernel by its path on thread 0, with its calls.
LEAP = "main;LeapFrog(Domain&)"
NODAL = LEAP + ";LagrangeNodal(Domain&)"
FORCES = NODAL + ";CalcForceForNodes(Domain&)"
VOLUME = FORCES + ";CalcVolumeForceForElems(Domain&)"
ACCEL = NODAL + ";CalcAccelerationForNodes(Domain&)"
ELEMS = LEAP + ";LagrangeElements(Domain&)"
LAGRANGE = ELEMS + ";CalcLagrangeElements(Domain&)"
KINEMATICS = LAGRANGE + ";CalcKinematicsForElems(Domain&)"
QS = ELEMS + ";CalcQForElems(Domain&)"
EOS = ELEMS + ";EvalEOSForElems(Domain&)"
ENERGY = EOS + ";CalcEnergyForElems(Domain&, double)"
DRIVERS = {LEAP: STEPS, NODAL: STEPS, FORCES: STEPS, VOLUME: STEPS, ACCEL: STEPS, ELEMS: STEPS, LAGRANGE: STEPS,
           KINEMATICS: STEPS, QS: STEPS, EOS: STEPS, ENERGY: 2 * STEPS}
KERNELS = (VOLUME, ACCEL, KINEMATICS, QS, ENERGY)
# The helpers each kernel's loop calls once per element: counted (leaf
# copies) or hooked (a loop of unknown trips, a call that stays a call).
COUNTED, HOOKED = "counted", "hooked"
HELPERS = {VOLUME: {"HourglassForce(double const*, double const*, double)": COUNTED,
                    "SumNodes(double const*)": COUNTED},
           ACCEL: {},
           KINEMATICS: {"ElemVolume(double const*, double const*, double const*)": COUNTED},
           QS: {"SmoothQ(double const*, int, int, int)": HOOKED},
           ENERGY: {"EnergyTerm(double, double, double, double, double)": COUNTED,
                    "PressureCheck(double, long*)": HOOKED}}
TINY = "Neighbours(Domain const&)"


def kernel_name(path):
    return path.split(";")[-1]


def region_name(path):
    return kernel_name(path) + " [clone ._omp_fn.0]"


def check_run(exe, what, threads, reference, openmp=True, mode="default"):
    """Runs exe and checks its profile; returns (hook calls, counted calls).
    mode: "default"; "keep", every inlined copy hooked; "O0", nothing
    inlined and nothing tiny (the library's std::vector accessors are
    stacks of their own, left out of the comparison)."""
    what = "%s/%d" % (what, threads)
    hooks_only = mode != "default"
    r = run(exe, ARGS, env=dict(ENV, OMP_NUM_THREADS=str(threads)))
    check_eq((r.returncode, r.stdout, r.stderr), (0, reference, ""), what + ": exit status and output")
    p = r.profile()
    stacks = p.doc["stacks"]
    check_eq([s["function"] for s in stacks if ".omp" in s["function"]], [], what + ": no .omp_outlined name")
    # glibc's extern inline atoi (available_externally), inlined into main:
    # not instrumented, as GCC leaves it.
    check_eq([s["function"] for s in stacks if s["function"] == "atoi"], [], what + ": no stack for glibc's atoi")
    for path, calls in DRIVERS.items():
        check_eq(per_thread(p, path), {0: calls}, what + ": " + kernel_name(path) + " on thread 0")
    workers = range(1, threads) if openmp else range(0)
    step_paths = {path for path in p.paths() if path.startswith(LEAP) and
                  not (mode == "O0" and "std::" in path)}
    expected_paths = set(DRIVERS)
    per_element = ELEMENTS // threads if openmp else ELEMENTS
    for kernel in KERNELS:
        calls = DRIVERS[kernel]
        # The helpers' stacks: under the region on every thread of the
        # team (thread 0's under the kernel), under the kernel without
        # OpenMP.
        if openmp:
            region = kernel + ";" + region_name(kernel)
            expected_paths.add(region)
            check_eq(per_thread(p, region), {0: calls}, what + ": the region of " + kernel_name(kernel) + " on thread 0")
            check_eq(per_thread(p, region_name(kernel)), {w: calls for w in workers},
                     what + ": the region of " + kernel_name(kernel) + " on the other threads")
            places = [(region, 0)] + [(region_name(kernel), w) for w in workers]
        else:
            places = [(kernel, 0)]
        helpers = dict(HELPERS[kernel])
        if mode == "O0" and kernel == QS:
            helpers[TINY] = HOOKED
        for helper, kind in helpers.items():
            expected_paths.add(places[0][0] + ";" + helper)
            for place, thread in places:
                path = place + ";" + helper
                check_eq(per_thread(p, path).get(thread), calls * per_element,
                         "%s: %s on thread %d (its elements x calls of the kernel)" % (what, path, thread))
                s = p.stack(path) if p.has(path) else {}
                counted = kind == COUNTED and not hooks_only
                check_eq(bool(s.get("inlined")), counted, "%s: %s %s" % (what, path, "counted" if counted else "hooked"))
                if counted:
                    check_eq((s.get("time_incl_s"), s.get("time_excl_s")), (0, 0), what + ": no time for " + path)
    check_eq(sorted(step_paths), sorted(expected_paths), what + ": the stacks of the steps on thread 0, nothing else")
    if openmp:
        check_eq(roots(p), {0: {"main"}, **{w: {region_name(k) for k in KERNELS} for w in workers}},
                 what + ": roots per thread")
    listed = p.doc["uninstrumented"]
    if mode != "O0":
        check_eq([s["function"] for s in stacks if s["function"] == TINY], [], what + ": the tiny accessor has no stack")
        check(TINY in listed["names"], what + ": %s listed as uninstrumented: %r" % (TINY, listed["names"]))
    counted_names = sorted(h for k in KERNELS for h, kind in HELPERS[k].items() if kind == COUNTED)
    # Each helper is inlined at one site, its element loop's; without
    # OpenMP the loop of CalcEnergyForElems, called twice, is inlined at
    # both calls, with EnergyTerm in it.
    sites = {name: 2 if not openmp and name.startswith("EnergyTerm") else 1 for name in counted_names}
    check_eq([n for n in listed["inlined"]["names"] if n["name"] in counted_names],
             [] if hooks_only else [{"name": name, "sites": sites[name]} for name in counted_names],
             what + ": the counted helpers listed as inlined, with their sites")
    hooked = sum(s["calls"] for s in stacks if not s.get("inlined"))
    inlined = sum(s["calls"] for s in stacks if s.get("inlined"))
    check_eq(p.doc["overhead"]["calls"], hooked, what + ": hook calls recorded = calls of the stacks not counted")
    check_eq(p.doc["overhead"]["inlined_calls"], inlined, what + ": counted calls = calls of the counted stacks")
    check_eq(sum(s["calls"] for s in stacks if s.get("inlined") and s["function"] in counted_names),
             0 if hooks_only else sum(DRIVERS[k] * ELEMENTS for k in KERNELS for kind in HELPERS[k].values()
                                      if kind == COUNTED),
             what + ": the helpers' counted calls over the threads")
    return hooked, inlined


reference = output(build(["clang++", "-O2", "-fopenmp", SOURCE], "plain", "clang++ -O2 -fopenmp"), 1)
check(reference.startswith("clang_lulesh: %d elements, %d steps: " % (ELEMENTS, STEPS)), "plain: output %r" % reference)
check_eq(output(os.path.join(work, "plain"), 4), reference, "plain: the same output with 4 threads")

for level in ("-O1", "-O2", "-O3"):
    exe = build(["hooktrace", "clang++", level, "-fopenmp", SOURCE], "omp" + level, "hooktrace clang++ " + level)
    # The hooks are hidden from the inliner: it inlines what it inlines
    # in the plain build.
    plain = build(["clang++", level, "-g", "-fopenmp", SOURCE], "plain" + level, "clang++ " + level)
    check_eq(bodies(exe), bodies(plain), "omp%s: the functions out of line, as in the plain build" % level)
    for threads in (1, 4):
        default = check_run(exe, "omp" + level, threads, reference)

exe = build(["hooktrace", "clang++", "-O2", "-fopenmp", "-flto", SOURCE], "omp_lto", "hooktrace clang++ -O2 -flto")
check_run(exe, "omp_lto", 4, reference)
exe = build(["hooktrace", "clang++", "-O0", "-fopenmp", SOURCE], "omp_O0", "hooktrace clang++ -O0")
check_run(exe, "omp_O0", 4, reference, mode="O0")

serial_reference = output(build(["clang++", "-O2", "-Wno-unknown-pragmas", SOURCE], "plain_serial",
                                "clang++ -O2 (no OpenMP)"), 1)
exe = build(["hooktrace", "clang++", "-O2", "-Wno-unknown-pragmas", SOURCE], "serial", "hooktrace clang++ -O2 (no OpenMP)")
check_run(exe, "serial", 1, serial_reference, openmp=False)

# The control: every inlined copy keeps its hooks; the calls the default
# build counts are hook calls, exactly.
exe = build(["hooktrace", "clang++", "-O2", "-fopenmp", "-mllvm", "-hooktrace-inlined-hooks=keep", SOURCE],
            "omp_keep", "hooktrace clang++ -O2 -hooktrace-inlined-hooks=keep")
default = check_run(os.path.join(work, "omp-O2"), "omp-O2", 4, reference)
kept = check_run(exe, "omp_keep", 4, reference, mode="keep")
check_eq(kept[0] - default[0], default[1], "keep: records through hooks exactly the calls the default counts")

shutil.rmtree(work, ignore_errors=True)
finish()
