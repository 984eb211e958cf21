"""The logfile's name columns keep the function's own name when a C++ name
is too long for them (test/programs/cxx_long_names.cpp): the return type
and the parameters left out, then the template arguments as <...>, then
the leading qualifiers as "...".  The stack list keeps the full names."""
from htlib import *


def table_rows(log, title):
    """[(function column, caller column)] of the table under title."""
    lines = log.split("\n")
    start = next(i for i, l in enumerate(lines) if l.startswith(title))
    header = lines[start + 2]
    fcol, ccol = header.index("function"), header.index("caller")
    rows = []
    for line in lines[start + 3:]:
        if not line.strip():
            break
        rows.append((line[fcol:ccol].rstrip(), line[ccol:].rsplit(None, 1)[0].rstrip()))
    return rows


r = run(program("cxx_long_names"))
check_eq(r.returncode, 0, "exit status")
p = r.profile()
OPERATOR = "numerics::Accumulated::operator+(numerics::Matrix<double, 4> const&) const"
TRACE = ("numerics::TypeTraits<double>::Scalar numerics::normalised_trace_of_matrix<double, 4>"
         "(numerics::Matrix<double, 4> const&)")
DIAGONAL = ("numerics::detail::DiagonalAccumulatorForSquareMatrices<numerics::Matrix<double, 4> >"
            "::accumulate_entries_of_the_diagonal(numerics::Matrix<double, 4> const&)")
expect_calls(p, {
    "main": 1,
    "main;" + OPERATOR: 3,
    "main;" + OPERATOR + ";" + TRACE: 3,
    "main;" + OPERATOR + ";" + TRACE + ";" + DIAGONAL: 3,
})

log = r.text(".log")
rows = sorted(table_rows(log, "Runtime profile, all threads"))
check_eq(rows, sorted([
    ("main", "-"),
    ("numerics::Accumulated::operator+", "main"),
    ("numerics::normalised_trace_of_matrix<double, 4>", "numerics::Accumulated::operator+"),
    ("...::accumulate_entries_of_the_diagonal", "numerics::normalised_trace_of_matrix<double, 4>"),
]), "the profile table's function and caller columns")
for name in (OPERATOR, TRACE, DIAGONAL):
    check(name in log, "the stack list has the full name " + name)
finish()
