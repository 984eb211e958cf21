"""The Fortran wrappers, generated from the same rows as the C ones
(src/mpi/routines.py); used by src/mpi/generate.py's `fortran` target.

Each row becomes, in C with the Fortran calling convention (every argument
by reference, a trailing INTEGER ierror):
- one wrapper for mpif.h / `use mpi`, exported under every name the MPI
  library exports (mpi_send, mpi_send_, mpi_send__, MPI_SEND) as aliases,
  which calls the library's own profiling entry (pmpi_send_);
- under HT_FORTRAN_F08 (Open MPI's `use mpi_f08` layer, whose entries take
  the same arguments: a TYPE(MPI_Comm) is a struct holding the INTEGER
  handle, ierror is OPTIONAL, i.e. may be NULL) one wrapper mpi_send_f08_
  calling pmpi_send_f08_.
The library does the binding itself (sentinels, LOGICALs, status
conversion stay exactly MPI's); around the call we record what the C
wrapper records, from C values obtained through the *_f2c functions.

Routines not wrapped in Fortran are listed in FORTRAN_SKIP with the reason.
"""

import re

# MPI_Pcontrol is variadic in C and has no ierror in Fortran: handwritten
# in src/fortran/support.c.
FORTRAN_SKIP = {"MPI_Pcontrol": "handwritten"}

SEND = "ht_mpi_on_send(&call, count, datatype, dest, tag, comm);"
# What each kind records, in terms of the C parameter names (converted from
# the Fortran arguments f_<name> on demand: only names the code uses) or of
# the Fortran arguments themselves.  status / handles as in generate.py.
FKINDS = {
    "send": dict(post=SEND),
    "recv": dict(status=True, post="ht_mpi_on_recv(&call, ht_st, comm);"),
    "sendrecv": dict(status=True, post="ht_mpi_on_send(&call, sendcount, sendtype, dest, sendtag, comm);\n"
                     "ht_mpi_on_recv(&call, ht_st, comm);"),
    "sendrecv_replace": dict(status=True, post="ht_mpi_on_send(&call, count, datatype, dest, sendtag, comm);\n"
                             "ht_mpi_on_recv(&call, ht_st, comm);"),
    "isend": dict(post="ht_mpi_on_isend(&call, count, datatype, dest, tag, comm, *request, false);"),
    "irecv": dict(post="ht_mpi_on_irecv(&call, source, comm, *request, false);"),
    "mrecv": dict(status=True, pre="MPI_Message ht_message = PMPI_Message_f2c(*f_message);",
                  post="ht_mpi_on_mrecv(&call, ht_message, ht_st);"),
    "imrecv": dict(pre="MPI_Message ht_message = PMPI_Message_f2c(*f_message);",
                   post="ht_mpi_on_imrecv(&call, ht_message, *request);"),
    "probe": dict(),
    "mprobe": dict(post="ht_mpi_on_mprobe(&call, comm, PMPI_Message_f2c(*f_message));"),
    "improbe": dict(post="if (*f_flag)\n    ht_mpi_on_mprobe(&call, comm, PMPI_Message_f2c(*f_message));"),
    "send_init": dict(post="ht_mpi_on_isend(&call, count, datatype, dest, tag, comm, *request, true);"),
    "recv_init": dict(post="ht_mpi_on_irecv(&call, source, comm, *request, true);"),
    "start": dict(post="ht_mpi_on_start(&call, *request);"),
    "startall": dict(post="for (int i = 0; i < *f_count; i++)\n"
                          "    ht_mpi_on_start(&call, PMPI_Request_f2c(f_array_of_requests[i]));"),
    # The handle as it was before the call: MPI frees a completed one.
    "wait": dict(status=True, pre="MPI_Request ht_handle = PMPI_Request_f2c(*f_request);",
                 post="ht_mpi_on_done(&call, ht_handle, ht_st);"),
    "test": dict(status=True, pre="MPI_Request ht_handle = PMPI_Request_f2c(*f_request);",
                 post="if (*f_flag)\n    ht_mpi_on_done(&call, ht_handle, ht_st);\nelse\n    ht_mpi_on_test_pending(&call, ht_handle);"),
    # Fortran indices are 1-based; one out of range (a binding's bug) is
    # not followed.
    "waitany": dict(status=True, handles="f_count",
                    post="if (*f_index >= 1 && *f_index <= *f_count)\n"
                         "    ht_mpi_on_done(&call, ht_scratch.handles[*f_index - 1], ht_st);"),
    "testany": dict(status=True, handles="f_count",
                    post="if (*f_flag && *f_index >= 1 && *f_index <= *f_count)\n"
                         "    ht_mpi_on_done(&call, ht_scratch.handles[*f_index - 1], ht_st);"),
    "waitall": dict(statuses="f_array_of_statuses", handles="f_count",
                    post="ht_mpi_on_done_all(&call, count, ht_scratch.handles, ht_f_scratch_statuses(&ht_scratch));"),
    "testall": dict(statuses="f_array_of_statuses", handles="f_count",
                    post="if (*f_flag)\n    ht_mpi_on_done_all(&call, count, ht_scratch.handles, "
                         "ht_f_scratch_statuses(&ht_scratch));"),
    "waitsome": dict(statuses="f_array_of_statuses", handles="f_incount",
                     post="ht_f_done_some(&call, &ht_scratch, *f_outcount, f_array_of_indices);"),
    "testsome": dict(statuses="f_array_of_statuses", handles="f_incount",
                     post="ht_f_done_some(&call, &ht_scratch, *f_outcount, f_array_of_indices);"),
    "request_free": dict(pre="MPI_Request ht_handle = PMPI_Request_f2c(*f_request);",
                         post="ht_mpi_on_request_free(&call, ht_handle);"),
    "cancel": dict(post="ht_mpi_on_cancel(&call, *request);"),
}

F2C = {"MPI_Comm": "PMPI_Comm_f2c", "MPI_Datatype": "PMPI_Type_f2c", "MPI_Op": "PMPI_Op_f2c",
       "MPI_Win": "PMPI_Win_f2c", "MPI_Request": "PMPI_Request_f2c", "MPI_Message": "PMPI_Message_f2c"}


def fortran_type(ctype):
    """The C type of the Fortran argument (all by reference)."""
    base = ctype.replace("const", "").replace(" ", "")
    if base in ("void*",):
        return "void *"
    if base in ("MPI_Aint", "MPI_Aint*"):
        return "MPI_Aint *"
    if base.startswith(("int", "MPI_Comm", "MPI_Datatype", "MPI_Op", "MPI_Win", "MPI_Request",
                        "MPI_Message", "MPI_Status")):
        return "MPI_Fint *"
    raise SystemExit("no Fortran binding for C type %r" % ctype)


def conversion(ctype, name, types_of="HT_F_TYPES_PEERS"):
    """C declaration of <name>, the C value of Fortran argument f_<name>."""
    base = ctype.replace("const", "").replace(" ", "")
    f = "f_" + name
    if base == "void*":
        return "void *%s = ht_f_buf(%s);" % (name, f)
    if base == "int":
        return "int %s = (int)*%s;" % (name, f)
    if base == "int*":   # arrays of counts/displacements: MPI_Fint is int here
        return "const int *%s = (const int *)%s;" % (name, f)
    if base == "MPI_Aint":
        return "MPI_Aint %s = *%s;" % (name, f)
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
        t = base[:-1]
        return "%s ht_c_%s = %s(*%s);\n%s *%s = &ht_c_%s;" % (t, name, F2C[t], f, t, name, name)
    raise SystemExit("cannot convert %s %s" % (ctype, name))


def uses(code, name):
    return re.search(r"(?<![\w.>])%s\b" % re.escape(name), code) is not None


def fortran_names(name):
    low = name.lower()
    return [low, low + "_", low + "__", name.upper()]


def wrapper(row, params, export, pmpi, indent):
    """One wrapper function: `export` calls `pmpi` (both Fortran ABI)."""
    name, kind = row["name"], row["kind"]
    fparams = ["%s%s" % (fortran_type(t), "f_" + n) for t, n in params] + ["MPI_Fint *ierr"]
    fargs = ["f_" + n for _, n in params]
    decl = "void %s(%s)" % (export, ", ".join(fparams))
    ext = "extern void %s(%s);\n" % (pmpi, ", ".join(fparams))

    if kind == "coll":
        names = [n for _, n in params]
        spec = dict(post="ht_coll_%s(&call, %s, %s);" % (
            row["coll"], ", ".join(n for n in names if n != "request"),
            "*request" if "request" in names else "MPI_REQUEST_NULL"))
    elif kind == "rma":
        names = [n for _, n in params]
        spec = dict(post="ht_rma_%s(&call, %s, %s);" % (
            row["rma"], ", ".join(n for n in names if n != "request"),
            "*request" if "request" in names else "MPI_REQUEST_NULL"))
    else:
        spec = FKINDS[kind]

    pre, post_conv, after = [], [], []
    call_args = list(fargs)
    pre_code, post_code = spec.get("pre", ""), spec.get("post", "")
    type_arrays = [(t, n) for t, n in params if t.replace(" ", "") == "constMPI_Datatype*"]
    for t, n in params:
        if (t, n) in type_arrays:
            continue
        if uses(pre_code, n):
            pre.append(conversion(t, n))
        elif uses(post_code, n):
            post_conv.append(conversion(t, n))
    if type_arrays:
        # One datatype per peer: converted once comm is, and freed after.
        neighbor = "eighbor_" in name
        for t, n in type_arrays:
            of = ("HT_F_TYPES_DESTINATIONS" if n.startswith("send") else "HT_F_TYPES_SOURCES") \
                if neighbor else "HT_F_TYPES_PEERS"
            post_conv.append(conversion(t, n, of))
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
        statuses = spec.get("statuses", "NULL")
        pre.append("struct ht_f_scratch ht_scratch;\n"
                   "if (!ht_f_scratch_init(&ht_scratch, *%s, f_array_of_requests, %s)) {\n"
                   "    ht_mpi_call_abandon(&call);\n"
                   "    %s(%s);\n    return;\n}" % (spec["handles"], statuses, pmpi,
                                                      ", ".join(fargs + ["ierr"])))
        after.append("ht_f_scratch_free(&ht_scratch);")
        if spec.get("statuses"):
            call_args = ["ht_scratch.fstatuses" if a == statuses else a for a in call_args]
    if pre_code:
        pre.append(pre_code)

    body = ["struct ht_mpi_call call;",
            "if (!HT_MPI_CALL_BEGIN(&call, %s)) {" % name,
            "    %s(%s);" % (pmpi, ", ".join(fargs + ["ierr"])),
            "    return;", "}",
            "/* ierror is OPTIONAL in mpi_f08: we need the code either way. */",
            "MPI_Fint ht_ierr_local, *ht_ierr = ierr ? ierr : &ht_ierr_local;"]
    body += pre
    body.append("%s(%s);" % (pmpi, ", ".join(call_args + ["ht_ierr"])))
    body.append("ht_mpi_call_returned(&call);")
    post = "\n".join(post_conv + ([post_code] if post_code else []))
    if post:
        body.append("if (*ht_ierr == MPI_SUCCESS) {\n%s\n}" % indent(post, 4))
    else:
        body.append("(void)ht_ierr;")
    body += after
    body.append("ht_mpi_call_end(&call);")
    return ext + "HT_EXPORT %s\n{\n%s\n}\n" % (decl, indent("\n".join(body), 4)), ", ".join(fparams)


def init_wrapper(row, export, pmpi, f08):
    name = row["name"]
    if row["kind"] == "finalize":
        return """extern void %(pmpi)s(MPI_Fint *ierr);
HT_EXPORT void %(export)s(MPI_Fint *ierr)
{
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
""" % dict(pmpi=pmpi, export=export, name=name), "MPI_Fint *ierr"
    params = "MPI_Fint *required, MPI_Fint *provided, " if name == "MPI_Init_thread" else ""
    args = "required, provided, " if params else ""
    return """extern void %(pmpi)s(%(params)sMPI_Fint *ierr);
HT_EXPORT void %(export)s(%(params)sMPI_Fint *ierr)
{
    struct ht_mpi_call call;
    bool node = HT_MPI_CALL_BEGIN_NODE(&call, %(name)s);
    MPI_Fint ht_ierr_local, *ht_ierr = ierr ? ierr : &ht_ierr_local;
    ht_mpi_fortran_env = 1;
    %(pmpi)s(%(args)sht_ierr);
    ht_mpi_fortran_env = 0;
    if (node)
        ht_mpi_call_returned(&call);
    if (*ht_ierr == MPI_SUCCESS)
        ht_mpi_after_init();
    if (node)
        ht_mpi_call_end(&call);
}
""" % dict(pmpi=pmpi, export=export, name=name, params=params, args=args), params + "MPI_Fint *ierr"


def generate_fortran(out, routines, parse_params, indent):
    out.write("/* Generated by src/mpi/generate.py fortran from src/mpi/routines.py: do not edit. */\n")
    out.write('#include "config.h"\n\n#include "fortran/fortran.h"\n'
              '#include "mpi/collectives.h"\n#include "mpi/record.h"\n#include "mpi/rma.h"\n\n')
    out.write("/* Not wrapped in Fortran: %s */\n\n" % ", ".join(
        "%s (%s)" % kv for kv in FORTRAN_SKIP.items()))
    for row in routines:
        name = row["name"]
        if name in FORTRAN_SKIP:
            continue
        low = name.lower()
        impl = "ht_f_" + low
        if row["kind"] in ("init", "finalize"):
            f77, fparams = init_wrapper(row, impl, "p" + low + "_", False)
            f08, _ = init_wrapper(row, low + "_f08_", "p" + low + "_f08_", True)
        else:
            params = parse_params(row["params"])
            f77, fparams = wrapper(row, params, impl, "p" + low + "_", indent)
            f08, _ = wrapper(row, params, low + "_f08_", "p" + low + "_f08_", indent)
        # The implementation itself is internal; the MPI names are its aliases.
        out.write(f77.replace("HT_EXPORT void " + impl, "static void " + impl))
        for alias in fortran_names(name):
            out.write('HT_EXPORT void %s(%s) __attribute__((alias("%s")));\n' % (alias, fparams, impl))
        out.write("\n#if HT_FORTRAN_F08\n%s#endif\n\n" % f08)
