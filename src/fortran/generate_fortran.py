"""The Fortran wrappers, generated from the same rows as the C ones
(src/mpi/routines.py) and the same description of what each kind records
(KINDS in src/mpi/generate.py); used by generate.py's `fortran` target.

Each row becomes, in C with the Fortran calling convention (every argument
by reference, a trailing INTEGER ierror), one wrapper per flavour of
binding (FLAVOURS below), each calling that binding's own profiling entry:
- mpif.h / `use mpi`: one function exported under every name the MPI
  libraries export (mpi_send, mpi_send_, mpi_send__, MPI_SEND) as aliases,
  calling pmpi_send_;
- under HT_FORTRAN_F08, Open MPI's `use mpi_f08` layer: mpi_send_f08_
  calling pmpi_send_f08_, with the same arguments (a TYPE(MPI_Comm) is a
  struct holding the INTEGER handle; ierror is OPTIONAL, i.e. may be NULL);
- under HT_FORTRAN_F08TS, MPICH's `use mpi_f08` layer: mpi_send_f08ts_
  calling pmpir_send_f08ts_ for a routine with a choice buffer, which
  arrives as an array descriptor (TYPE(*), DIMENSION(..)), and
  mpi_wait_f08_ calling pmpir_wait_f08_ for the others.
The library does the binding itself (sentinels, LOGICALs, status
conversion stay exactly MPI's); around the call we record what the C
wrapper records, from C values obtained through the *_f2c functions.

Routines not wrapped in Fortran are listed in FORTRAN_SKIP with the reason.
"""

import re

# MPI_Pcontrol is variadic in C and has no ierror in Fortran: handwritten
# in src/fortran/support.c.
FORTRAN_SKIP = {"MPI_Pcontrol": "handwritten"}


def has_buffer(params):
    return any(t.replace("const", "").replace(" ", "") == "void*" for t, _ in params)


# How each binding names its entries (low: "mpi_send"; buffer: whether the
# routine has a choice buffer), whether its buffers are array descriptors,
# and the first index its Wait/Test any/some report (HT_F08_INDEX_BASE:
# configure found 0 for MPICH 4.0's mpi_f08, pmodels/mpich#5763).
FLAVOURS = [
    dict(guard=None, export=lambda low, buffer: "ht_f_" + low,
         pmpi=lambda low, buffer: "p" + low + "_", descriptors=False, base="1"),
    dict(guard="HT_FORTRAN_F08", export=lambda low, buffer: low + "_f08_",
         pmpi=lambda low, buffer: "p" + low + "_f08_", descriptors=False, base="HT_F08_INDEX_BASE"),
    dict(guard="HT_FORTRAN_F08TS", export=lambda low, buffer: low + ("_f08ts_" if buffer else "_f08_"),
         pmpi=lambda low, buffer: "pmpir" + low[3:] + ("_f08ts_" if buffer else "_f08_"),
         descriptors=True, base="HT_F08_INDEX_BASE"),
]

F2C = {"MPI_Comm": "PMPI_Comm_f2c", "MPI_Datatype": "PMPI_Type_f2c", "MPI_Op": "PMPI_Op_f2c",
       "MPI_Win": "PMPI_Win_f2c", "MPI_Request": "PMPI_Request_f2c", "MPI_Message": "PMPI_Message_f2c"}


def fortran_type(ctype):
    """The C type of the Fortran argument (all by reference)."""
    base = ctype.replace("const", "").replace(" ", "")
    if base in ("void*",):
        return "void *"
    if base in ("MPI_Aint", "MPI_Aint*"):
        return "MPI_Aint *"
    if base == "MPI_Count":  # INTEGER(KIND=MPI_COUNT_KIND)
        return "MPI_Count *"
    if base.startswith(("int", "MPI_Comm", "MPI_Datatype", "MPI_Op", "MPI_Win", "MPI_Request",
                        "MPI_Message", "MPI_Status", "MPI_Info")):
        return "MPI_Fint *"
    raise SystemExit("no Fortran binding for C type %r" % ctype)


def conversion(ctype, name, flavour, types_of="HT_F_TYPES_PEERS"):
    """C declaration of <name>, the C value of Fortran argument f_<name>."""
    base = ctype.replace("const", "").replace(" ", "")
    f = "f_" + name
    if base == "void*":
        if flavour["descriptors"]:
            f = "ht_f_desc_addr(%s)" % f
        return "void *%s = ht_f_buf(%s);" % (name, f)
    if base == "int":
        return "int %s = (int)*%s;" % (name, f)
    if base == "int*":   # flags, counts, arrays of counts: MPI_Fint is int here
        return "const int *%s = (const int *)%s;" % (name, f)
    if base in ("MPI_Aint", "MPI_Count"):
        return "%s %s = *%s;" % (base, name, f)
    if base == "MPI_Aint*":
        return "const MPI_Aint *%s = %s;" % (name, f)
    if base in F2C:
        return "%s %s = %s(*%s);" % (base, name, F2C[base], f)
    if base == "MPI_Datatype*":
        # After comm (converted first, see wrapper()); NULL: nothing recorded.
        # With MPI_IN_PLACE sendtypes is ignored (and may be a short array):
        # not read.
        init = "ht_f_types_init(&ht_t_%s, %s, comm, %s)" % (name, f, types_of)
        if name == "sendtypes":
            init = "sendbuf == MPI_IN_PLACE ? ht_t_%s.local : %s" % (name, init)
            init = "(ht_t_%s.heap = NULL, %s)" % (name, init)
        return ("struct ht_f_types ht_t_%s;\nconst MPI_Datatype *%s = %s;" % (name, name, init))
    if base in ("MPI_Request*", "MPI_Message*"):
        # One handle, converted where the code uses it: before the call for
        # the handle the program passed, after it for the one MPI returned.
        t = base[:-1]
        return "%s ht_c_%s = %s(*%s);\n%s *%s = &ht_c_%s;" % (t, name, F2C[t], f, t, name, name)
    raise SystemExit("cannot convert %s %s" % (ctype, name))


def foreign_call(flavour, export, pmpi, fparams, args):
    """The call a wrapper passes on to when the process's MPI is not this
    build's (src/mpi/abi.c).  mpif.h's pmpi_send_ is every library's name,
    bound to the program's library as the C PMPI routines are; an mpi_f08
    entry's profiling name is the library's own (pmpi_wait_f08_ in Open
    MPI, pmpir_wait_f08_ in MPICH), while its entry name may be both's
    (mpi_wait_f08_): the program's own definition, found as the C
    wrappers find theirs (ht_mpi_foreign_entry)."""
    if not flavour["guard"]:
        return "%s(%s);" % (pmpi, args)
    return "((void (*)(%s))ht_mpi_foreign_entry(&ht_next_%s, \"%s\"))(%s);" % (fparams, export, export, args)


def entry_name(flavour, export, name):
    """The name a program calls the wrapper by (the mpif.h flavour's
    implementation is internal: its gfortran alias)."""
    return export if flavour["guard"] else name.lower() + "_"


def next_slot(flavour, export):
    return "" if not flavour["guard"] else "static ht_mpi_entry ht_next_%s;\n" % export


def uses(code, name):
    return re.search(r"(?<![\w.>])%s\b" % re.escape(name), code) is not None


def fortran_names(name):
    low = name.lower()
    return [low, low + "_", low + "__", name.upper()]


def wrapper(row, params, spec, flavour, export, pmpi, indent):
    """One wrapper function: `export` calls `pmpi` (both Fortran ABI)."""
    name = row["name"]
    fparams = ["%s%s" % (fortran_type(t), "f_" + n) for t, n in params] + ["MPI_Fint *ierr"]
    fargs = ["f_" + n for _, n in params]
    decl = "void %s(%s)" % (export, ", ".join(fparams))
    ext = "extern void %s(%s);\n#pragma weak %s\n" % (pmpi, ", ".join(fparams), pmpi)

    pre, post_conv, after = [], [], []
    call_args = list(fargs)
    pre_code = spec.get("pre", "")
    post_code = spec.get("fpost", spec.get("post", "")).replace("HT_F_INDEX_BASE", flavour["base"])
    type_arrays = [(t, n) for t, n in params if t.replace(" ", "") == "constMPI_Datatype*"]
    for t, n in params:
        if (t, n) in type_arrays:
            continue
        if uses(pre_code, n):
            pre.append(conversion(t, n, flavour))
        elif uses(post_code, n):
            post_conv.append(conversion(t, n, flavour))
    if type_arrays:
        # One datatype per peer: converted once comm is, and freed after.
        neighbor = "eighbor_" in name
        for t, n in type_arrays:
            of = ("HT_F_TYPES_DESTINATIONS" if n.startswith("send") else "HT_F_TYPES_SOURCES") \
                if neighbor else "HT_F_TYPES_PEERS"
            post_conv.append(conversion(t, n, flavour, of))
        post_code = "if (%s) {\n%s\n}\n%s" % (
            " && ".join(n for _, n in type_arrays), indent(post_code, 4),
            "\n".join("ht_f_types_free(&ht_t_%s);" % n for _, n in type_arrays))
    if spec.get("status"):
        # Never let MPI write into the MPI_STATUS_IGNORE sentinel: our own array.
        pre.append("MPI_Fint ht_fstatus[HT_F_STATUS_SIZE];\n"
                   "MPI_Fint *ht_fst = ht_f_status_ignored(f_status) ? ht_fstatus : f_status;")
        call_args = ["ht_fst" if a == "f_status" else a for a in call_args]
        post_conv.append("MPI_Status ht_status, *ht_st = &ht_status;\nPMPI_Status_f2c(ht_fst, ht_st);")
    if spec.get("handles"):
        statuses = "f_array_of_statuses" if spec.get("statuses") else "NULL"
        pre.append("struct ht_f_scratch ht_scratch;\n"
                   "if (!ht_f_scratch_init(&ht_scratch, *f_%s, f_array_of_requests, %s)) {\n"
                   "    ht_mpi_call_abandon(&call);\n"
                   "    %s(%s);\n    return;\n}" % (spec["handles"], statuses, pmpi,
                                                      ", ".join(fargs + ["ierr"])))
        after.append("ht_f_scratch_free(&ht_scratch);")
        if spec.get("statuses"):
            call_args = ["ht_scratch.fstatuses" if a == statuses else a for a in call_args]
    if pre_code:
        pre.append(pre_code)
    if spec.get("after"):
        after.insert(0, spec["after"])

    passed = ", ".join(fargs + ["ierr"])
    body = ["struct ht_mpi_call call;",
            "if (!HT_MPI_CALL_BEGIN(&call, %s)) {" % name]
    if flavour["guard"]:
        body += ["    if (HT_UNLIKELY(ht_mpi_foreign))",
                 "        " + foreign_call(flavour, export, pmpi, ", ".join(fparams), passed),
                 "    else",
                 "        %s(%s);" % (pmpi, passed)]
    else:
        body.append("    %s(%s);" % (pmpi, passed))
    body += ["    return;", "}",
            "/* ierror is OPTIONAL in mpi_f08: we need the code either way. */",
            "MPI_Fint ht_ierr_local, *ht_ierr = ierr ? ierr : &ht_ierr_local;"]
    body += pre
    if spec.get("take"):
        # As the C wrapper (generate.py): the program's handle becomes
        # MPI_REQUEST_NULL and the call succeeds.
        body.append("if (%s) {\n    *f_request = PMPI_Request_c2f(MPI_REQUEST_NULL);\n"
                    "    *ht_ierr = MPI_SUCCESS;\n} else {\n    %s(%s);\n}"
                    % (spec["take"], pmpi, ", ".join(call_args + ["ht_ierr"])))
    else:
        body.append("%s(%s);" % (pmpi, ", ".join(call_args + ["ht_ierr"])))
    body.append("ht_mpi_call_returned(&call);")
    post = "\n".join(post_conv + ([post_code] if post_code else []))
    if post:
        body.append("if (*ht_ierr == MPI_SUCCESS) {\n%s\n}" % indent(post, 4))
    else:
        body.append("(void)ht_ierr;")
    body += after
    body.append("ht_mpi_call_end(&call);")
    return (ext + next_slot(flavour, export) + "HT_EXPORT %s\n{\n%s\n}\n" % (decl, indent("\n".join(body), 4)),
            ", ".join(fparams))


def init_wrapper(row, flavour, export, pmpi):
    """MPI_Init, MPI_Init_thread, MPI_Finalize, MPI_Abort: in a process
    whose MPI is not this build's (src/mpi/abi.c, decided here first for a
    Fortran program), only passed on."""
    name = row["name"]
    if row["kind"] == "abort":
        fparams = "MPI_Fint *comm, MPI_Fint *errorcode, MPI_Fint *ierr"
        return """extern void %(pmpi)s(MPI_Fint *comm, MPI_Fint *errorcode, MPI_Fint *ierr);
#pragma weak %(pmpi)s
%(slot)sHT_EXPORT void %(export)s(MPI_Fint *comm, MPI_Fint *errorcode, MPI_Fint *ierr)
{
    if (!ht_mpi_abi_matches_at("%(entry)s")) {
        ht_mpi_before_abort((int)*errorcode);
        %(foreign)s
        return;
    }
    /* PMPI_Abort does not return: recorded as made and done, and this
     * rank's partial profile written, before it. */
    struct ht_mpi_call call;
    if (HT_MPI_CALL_BEGIN_NODE(&call, %(name)s)) {
        ht_mpi_call_returned(&call);
        ht_mpi_call_end(&call);
    }
    ht_mpi_before_abort((int)*errorcode);
    ht_mpi_fortran_env = 1;
    %(pmpi)s(comm, errorcode, ierr);
    ht_mpi_fortran_env = 0;
}
""" % dict(pmpi=pmpi, export=export, name=name, entry=entry_name(flavour, export, name), slot=next_slot(flavour, export),
           foreign=foreign_call(flavour, export, pmpi, fparams, "comm, errorcode, ierr")), fparams
    if row["kind"] == "finalize":
        return """extern void %(pmpi)s(MPI_Fint *ierr);
#pragma weak %(pmpi)s
%(slot)sHT_EXPORT void %(export)s(MPI_Fint *ierr)
{
    if (!ht_mpi_abi_matches_at("%(entry)s")) {
        %(foreign)s
        return;
    }
    struct ht_mpi_call call;
    bool node = HT_MPI_CALL_BEGIN_NODE(&call, %(name)s);
    /* Collective: every rank merges its profile, logging or not. */
    ht_mpi_before_finalize();
    ht_mpi_fortran_env = 1;
    %(pmpi)s(ierr);
    ht_mpi_fortran_env = 0;
    if (node) {
        ht_mpi_call_returned(&call);
        ht_mpi_call_end(&call);
    }
}
""" % dict(pmpi=pmpi, export=export, name=name, entry=entry_name(flavour, export, name), slot=next_slot(flavour, export),
           foreign=foreign_call(flavour, export, pmpi, "MPI_Fint *ierr", "ierr")), "MPI_Fint *ierr"
    params = "MPI_Fint *required, MPI_Fint *provided, " if name == "MPI_Init_thread" else ""
    args = "required, provided, " if params else ""
    return """extern void %(pmpi)s(%(params)sMPI_Fint *ierr);
#pragma weak %(pmpi)s
%(slot)sHT_EXPORT void %(export)s(%(params)sMPI_Fint *ierr)
{
    if (!ht_mpi_abi_matches_at("%(entry)s")) {
        %(foreign)s
        return;
    }
    struct ht_mpi_call call;
    bool node = HT_MPI_CALL_BEGIN_NODE(&call, %(name)s);
    MPI_Fint ht_ierr_local, *ht_ierr = ierr ? ierr : &ht_ierr_local;
    ht_mpi_fortran_env = 1;
    %(pmpi)s(%(args)sht_ierr);
    ht_mpi_fortran_env = 0;
    /* As the C wrapper: our start-up inside MPI_Init's node. */
    if (*ht_ierr == MPI_SUCCESS)
        ht_mpi_after_init();
    if (node) {
        ht_mpi_call_returned(&call);
        ht_mpi_call_end(&call);
    }
}
""" % dict(pmpi=pmpi, export=export, name=name, params=params, args=args,
           entry=entry_name(flavour, export, name),
           slot=next_slot(flavour, export),
           foreign=foreign_call(flavour, export, pmpi, params + "MPI_Fint *ierr", args + "ierr")), \
        params + "MPI_Fint *ierr"


def generate_fortran(out, routines, parse_params, kind_spec, indent, guard_of):
    out.write("/* Generated by src/mpi/generate.py fortran from src/mpi/routines.py: do not edit. */\n")
    out.write('#include "config.h"\n\n#include "fortran/fortran.h"\n'
              '#include "mpi/abi.h"\n#include "mpi/collectives.h"\n#include "mpi/record.h"\n'
              '#include "mpi/rma.h"\n\n')
    out.write("/* Not wrapped in Fortran: %s */\n\n" % ", ".join(
        "%s (%s)" % kv for kv in FORTRAN_SKIP.items()))
    for row in routines:
        name = row["name"]
        if name in FORTRAN_SKIP:
            continue
        low = name.lower()
        # MPI 4's routines only where the C ones are (generate.py): Open
        # MPI 4.1's Fortran has no mpi_isendrecv_ to pass on to.
        guard = guard_of(row)
        if guard:
            out.write("#if %s\n" % guard)
        environment = row["kind"] in ("init", "finalize", "abort")
        params = [] if environment else parse_params(row["params"])
        buffer = has_buffer(params)
        for flavour in FLAVOURS:
            export, pmpi = flavour["export"](low, buffer), flavour["pmpi"](low, buffer)
            if environment:
                code, fparams = init_wrapper(row, flavour, export, pmpi)
            else:
                code, fparams = wrapper(row, params, kind_spec(row), flavour, export, pmpi, indent)
            if flavour["guard"]:
                out.write("#if %s\n%s#endif\n\n" % (flavour["guard"], code))
                continue
            # The implementation itself is internal; the MPI names are its aliases.
            out.write(code.replace("HT_EXPORT void " + export, "static void " + export))
            for alias in fortran_names(name):
                out.write('HT_EXPORT void %s(%s) __attribute__((alias("%s")));\n' % (alias, fparams, export))
            out.write("\n")
        if guard:
            out.write("#endif\n\n")
