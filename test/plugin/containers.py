#!/usr/bin/env python3
"""The GCC plugin's rules on C++ as written (docs/plugin.md), on
test/plugin/containers.cpp built at -O1, -O2 and -O3 (max-statements=16:
the sanitizers' checks put iterator operator-(n) over the default 8 in
CI's sanitizer build; the rule under test is the calls', not the size).

A tiny function whose only calls go to constructors or destructors the
plugin left out is left out too, whichever variant the call names: a call
names the complete-object constructor (C1) or destructor (D1), which GCC
makes an alias of the base-object body (C2, D2) the plugin processed.  So
Box::end() (returns It(&h)), W2's constructor (its member's constructor)
and destructor, and libstdc++'s begin(), end(), back() and iterator
operator-(n) reach no hook: below each kept function (each has a loop)
only std::_Rb_tree_const_iterator::operator++(), which calls into
libstdc++.so, is recorded, with its exact count, and the JSON's
"uninstrumented" names the others.  The control (max-statements=0) records
them all with their exact counts."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "integration"))
from htlib import BUILDDIR, check, check_eq, finish, run  # noqa: E402

ROUNDS, N = 3, 10
MAP = "std::map<int, int, std::less<int>, std::allocator<std::pair<int const, int> > >"
TREE = ("std::_Rb_tree<int, std::pair<int const, int>, std::_Select1st<std::pair<int const, int> >, "
        "std::less<int>, std::allocator<std::pair<int const, int> > >")
VEC = "std::vector<double, std::allocator<double> >"
ROWS = "std::vector<std::vector<double, std::allocator<double> >, std::allocator<std::vector<double, std::allocator<double> > > >"
OWN = "main;own_types(int)"
WALK = "main;walk_map(%s const&)" % MAP
BACKS = "main;backs(%s&)" % ROWS
PAIRS = ("main;pairs(std::vector<std::pair<long, double>, std::allocator<std::pair<long, double> > >&, int)")
KEPT = {"main": 1, OWN: ROUNDS, WALK: ROUNDS, BACKS: ROUNDS, PAIRS: ROUNDS,
        WALK + ";std::_Rb_tree_const_iterator<std::pair<int const, int> >::operator++()": ROUNDS * N}
# What the plugin left out before it followed constructor aliases (and
# before it stopped counting the return statement: operator-(n)), with
# the calls the control records.
GONE = {
    OWN + ";Box::end()": ROUNDS * N,
    OWN + ";W2::W2(int)": ROUNDS * N,
    OWN + ";W2::~W2()": ROUNDS * N,
    WALK + ";%s::begin() const" % MAP: ROUNDS,
    WALK + ";%s::begin() const;%s::begin() const" % (MAP, TREE): ROUNDS,
    WALK + ";%s::end() const" % MAP: ROUNDS * (N + 1),
    WALK + ";%s::end() const;%s::end() const" % (MAP, TREE): ROUNDS * (N + 1),
    BACKS + ";%s::back()" % VEC: ROUNDS * N,
    BACKS + ";%s::back();%s::end()" % (VEC, VEC): ROUNDS * N,
    BACKS + ";%s::back();__gnu_cxx::__normal_iterator<double*, %s >::operator-(long) const" % (VEC, VEC): ROUNDS * N,
    BACKS + ";%s::begin()" % VEC: ROUNDS * N,
    BACKS + ";%s::end()" % VEC: ROUNDS * N,
    BACKS + ";%s::begin()" % ROWS: ROUNDS,
    BACKS + ";%s::end()" % ROWS: ROUNDS,
}
LISTED = ["Box::end()", "It::It(H*)", "W2::W2(int)", "W2::~W2()", "W::W(int)", "W::~W()",
          "%s::back()" % VEC, "%s::begin()" % VEC, "%s::end()" % VEC,
          "%s::begin() const" % MAP, "%s::end() const" % MAP,
          "__gnu_cxx::__normal_iterator<double*, %s >::operator-(long) const" % VEC]
ROOTS = (OWN, WALK, BACKS, PAIRS)


def below(p):
    """Every stack under the four kept functions, with its calls."""
    return {path: p.calls(path) for path in p.paths()
            if any(path.startswith(root + ";") for root in ROOTS)}


for level in ("O1", "O2", "O3"):
    name = "containers_" + level
    r = run(os.path.join(BUILDDIR, "test", "plugin", name))
    check_eq(r.returncode, 0, name + ": exit status")
    p = r.profile()
    for path, calls in KEPT.items():
        check_eq(p.calls(path), calls, "%s: calls of %s" % (name, path))
    kept_below = {path: calls for path, calls in KEPT.items() if path.count(";") > 1}
    check_eq(below(p), kept_below, name + ": everything recorded below the kept functions")
    listed = p.doc["uninstrumented"]["names"]
    for function in LISTED:
        check(function in listed, "%s: %s listed as uninstrumented" % (name, function))

r = run(os.path.join(BUILDDIR, "test", "plugin", "containers_all"))
check_eq(r.returncode, 0, "containers_all: exit status")
p = r.profile()
for path, calls in dict(KEPT, **GONE).items():
    check_eq(p.calls(path), calls, "containers_all: calls of %s" % path)
check_eq(p.doc["uninstrumented"], {"functions": 0, "names": [],
                                   "inlined": {"functions": 0, "sites": 0, "names": []}}, "containers_all: nothing left out")
finish()
