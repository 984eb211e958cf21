"""C++ names demangled; Fortran module procedures as module::procedure, the
main program by its name, no trailing underscores."""
import os
from htlib import *

r = run(program("cxx_names"))
check_eq(r.returncode, 0, "C++ exit status")
p = r.profile()
expect_calls(p, {
    "main;geometry::Grid::Grid(int)": 1,
    "main;geometry::Grid::relax(int)": 5,
    "main;geometry::Grid::sum() const": 1,
    "main;double twice<double>(double)": 1,
    "main;int twice<int>(int)": 2,
})

fortran = program("fortran_names")
if os.path.exists(fortran):
    r = run(fortran)
    check_eq(r.returncode, 0, "Fortran exit status")
    p = r.profile()
    root = "main;heat" if p.has("main;heat") else "heat"
    expect_calls(p, {
        root: 1,
        root + ";solver::smooth": 4,
        root + ";solver::norm": 1,
        root + ";report": 1,
    })
    check(not any("MAIN__" in path or path.endswith("_") for path in p.paths()),
          "no MAIN__ and no trailing underscores: %s" % sorted(p.paths()))
else:
    print("Fortran disabled: Fortran names not checked")
finish()
