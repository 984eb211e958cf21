#!/usr/bin/env python3
"""Generates the MPI wrappers from the table in routines.py.

    generate.py c OUTPUT.c        the C wrappers (MPI_Send, ...)
    generate.py fortran OUTPUT.c  the Fortran wrappers (mpi_send_, mpi_send_f08_,
                                  mpi_send_f08ts_, ...), C code with the Fortran ABI
                                  (src/fortran/generate_fortran.py)

Every wrapper follows the protocol in call.h; what differs between
routines is only what they record, given by the row's kind below.  Each kind
is a few lines of C around the PMPI call, written in terms of the
standard's parameter names, for the C and the Fortran wrappers alike."""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from routines import ROUTINES  # noqa: E402


def parse_params(params):
    """[(type, name)] from a C parameter list."""
    if params.strip() == "void":
        return []
    out = []
    for p in params.split(","):
        p = p.strip()
        if p == "...":
            out.append(("...", "..."))
            continue
        m = re.match(r"^(.*?)(\w+)\s*(\[\])?$", p)
        if not m:
            raise SystemExit("cannot parse parameter %r" % p)
        ctype = (m.group(1) + ("*" if m.group(3) else "")).strip()
        out.append((ctype, m.group(2)))
    return out


# Pieces of C per kind, one description for the C and the Fortran wrappers:
# `pre` runs before the PMPI call (after the logging check), `post` after it
# when it returned MPI_SUCCESS, `after` in any case.  `status`/`statuses`
# ask for the status(es) to be made non-IGNORE; `handles` for the request
# handles as they were before the call (MPI frees completed ones).  The code
# is written in terms of the standard's C parameter names: the Fortran
# wrappers declare those on demand, converted from the Fortran arguments
# (src/fortran/generate_fortran.py).  `fpost` replaces `post` in the Fortran
# wrappers where their arguments differ in more than handle conversion:
# arrays of Fortran request handles, and indices counted from
# HT_F_INDEX_BASE (1 in the standard).
SEND = "ht_mpi_on_send(&call, count, datatype, dest, tag, comm);"
# Completing, testing or freeing requests: those another thread made are
# claimed before the call and the rest given back after it (requests.h).
# `after` runs in any case, after `post`.
CLAIM_ONE = "MPI_Request ht_handle = *request;\nht_mpi_claim(&call, 1, &ht_handle);"
CLAIM = "ht_mpi_claim(&call, %s, ht_scratch.handles);"
RELEASE = "ht_mpi_release(&call);"
KINDS = {
    "send": dict(post=SEND),
    "recv": dict(status=True, post="ht_mpi_on_recv(&call, ht_st, comm);"),
    "sendrecv": dict(status=True, post="ht_mpi_on_send(&call, sendcount, sendtype, dest, sendtag, comm);\n"
                     "ht_mpi_on_recv(&call, ht_st, comm);"),
    "sendrecv_replace": dict(status=True, post="ht_mpi_on_send(&call, count, datatype, dest, sendtag, comm);\n"
                             "ht_mpi_on_recv(&call, ht_st, comm);"),
    "isend": dict(post="ht_mpi_on_isend(&call, count, datatype, dest, tag, comm, *request, false);"),
    "irecv": dict(post="ht_mpi_on_irecv(&call, source, comm, *request, false);"),
    "mrecv": dict(status=True, pre="MPI_Message ht_message = *message;",
                  post="ht_mpi_on_mrecv(&call, ht_message, ht_st);"),
    "imrecv": dict(pre="MPI_Message ht_message = *message;",
                   post="ht_mpi_on_imrecv(&call, ht_message, *request);"),
    "probe": dict(),
    "mprobe": dict(post="ht_mpi_on_mprobe(&call, comm, *message);"),
    "improbe": dict(post="if (*flag)\n    ht_mpi_on_mprobe(&call, comm, *message);"),
    "isendrecv": dict(post="ht_mpi_on_isendrecv(&call, sendcount, sendtype, dest, recvcount, recvtype, source, "
                           "comm, *request);"),
    "isendrecv_replace": dict(post="ht_mpi_on_isendrecv(&call, count, datatype, dest, count, datatype, source, "
                                   "comm, *request);"),
    "send_init": dict(post="ht_mpi_on_isend(&call, count, datatype, dest, tag, comm, *request, true);"),
    "recv_init": dict(post="ht_mpi_on_irecv(&call, source, comm, *request, true);"),
    # Partitioned: a persistent send or receive of every partition at once.
    "psend_init": dict(post="ht_mpi_on_isend(&call, (MPI_Count)partitions * count, datatype, dest, tag, comm, "
                            "*request, true);"),
    "precv_init": dict(post="ht_mpi_on_precv_init(&call, (MPI_Count)partitions * count, datatype, source, tag, "
                            "comm, *request);"),
    "start": dict(post="ht_mpi_on_start(&call, *request);"),
    "startall": dict(post="for (int i = 0; i < count; i++)\n    ht_mpi_on_start(&call, array_of_requests[i]);",
                     fpost="for (int i = 0; i < count; i++)\n"
                           "    ht_mpi_on_start(&call, PMPI_Request_f2c(f_array_of_requests[i]));"),
    "wait": dict(status=True, pre=CLAIM_ONE, after=RELEASE,
                 post="ht_mpi_on_done(&call, ht_handle, ht_st);"),
    "test": dict(status=True, pre=CLAIM_ONE, after=RELEASE,
                 post="if (*flag)\n    ht_mpi_on_done(&call, ht_handle, ht_st);\n"
                      "else\n    ht_mpi_on_test_pending(&call, ht_handle);"),
    "waitany": dict(pre=CLAIM % "count", after=RELEASE, status=True, handles="count",
                    post="if (*index != MPI_UNDEFINED)\n    ht_mpi_on_done(&call, ht_scratch.handles[*index], ht_st);",
                    fpost="ht_f_done_any(&call, &ht_scratch, *index, HT_F_INDEX_BASE, ht_st);"),
    "testany": dict(pre=CLAIM % "count", after=RELEASE, status=True, handles="count",
                    post="if (*flag && *index != MPI_UNDEFINED)\n"
                         "    ht_mpi_on_done(&call, ht_scratch.handles[*index], ht_st);",
                    fpost="if (*flag)\n    ht_f_done_any(&call, &ht_scratch, *index, HT_F_INDEX_BASE, ht_st);"),
    "waitall": dict(pre=CLAIM % "count", after=RELEASE, statuses="count", handles="count",
                    post="ht_mpi_on_done_all(&call, count, ht_scratch.handles, ht_sts);",
                    fpost="ht_mpi_on_done_all(&call, count, ht_scratch.handles, ht_f_scratch_statuses(&ht_scratch));"),
    "testall": dict(pre=CLAIM % "count", after=RELEASE, statuses="count", handles="count",
                    post="if (*flag)\n    ht_mpi_on_done_all(&call, count, ht_scratch.handles, ht_sts);",
                    fpost="if (*flag)\n    ht_mpi_on_done_all(&call, count, ht_scratch.handles, "
                          "ht_f_scratch_statuses(&ht_scratch));"),
    "waitsome": dict(pre=CLAIM % "incount", after=RELEASE, statuses="incount", handles="incount",
                     post="ht_mpi_on_done_some(&call, *outcount, array_of_indices, ht_scratch.handles, ht_sts);",
                     fpost="ht_f_done_some(&call, &ht_scratch, *outcount, array_of_indices, HT_F_INDEX_BASE);"),
    "testsome": dict(pre=CLAIM % "incount", after=RELEASE, statuses="incount", handles="incount",
                     post="ht_mpi_on_done_some(&call, *outcount, array_of_indices, ht_scratch.handles, ht_sts);",
                     fpost="ht_f_done_some(&call, &ht_scratch, *outcount, array_of_indices, HT_F_INDEX_BASE);"),
    # `take`: a condition under which the wrapper does not call PMPI but
    # takes the request over, as MPI_Request_free would have it (the
    # program's handle becomes MPI_REQUEST_NULL, the call succeeds): a
    # request freed with a cancel pending, whose outcome only its completion
    # tells (requests.c, ht_request_take).
    "request_free": dict(pre=CLAIM_ONE, after=RELEASE,
                         take="ht_mpi_take_request(&call, ht_handle)",
                         post="ht_mpi_on_request_free(&call, ht_handle);"),
    # Marked before the call: MPI may complete a cancelled receive inside
    # MPI_Cancel, and the owner's poll (another thread's, under MULTIPLE)
    # must not see it complete unmarked and count it as a message.  A mark
    # on a request the cancel does not reach only makes its completion ask
    # MPI_Test_cancelled.
    "cancel": dict(pre="ht_mpi_on_cancel(&call, *request);"),
}


def pattern_argument(ctype, name):
    """How a collective or one-sided pattern function takes a routine's
    argument: arrays of counts as struct ht_counts (int, or MPI_Count in a
    large-count routine), displacements not at all (never read), the rest
    as they are."""
    if name.endswith("displs"):
        return None
    if name.endswith("counts"):
        base = ctype.replace("const", "").replace(" ", "")
        return "ht_counts_%s(%s)" % ("large" if base == "MPI_Count*" else "int", name)
    return name


def kind_spec(row):
    """What a row's wrapper records (KINDS), the collective and one-sided
    kinds calling their pattern function with every argument but the
    request and a persistent collective's info (pattern_argument), and the
    request (or MPI_REQUEST_NULL for a blocking form).  A persistent
    collective marks the call first: its request is registered inactive,
    for MPI_Start (record.h)."""
    kind = row["kind"]
    if kind not in ("coll", "rma"):
        return KINDS[kind]
    params = [(t, n) for t, n in parse_params(row["params"]) if n not in ("...", "request", "info")]
    args = [a for a in (pattern_argument(t, n) for t, n in params) if a is not None]
    has_request = any(n == "request" for _, n in parse_params(row["params"]))
    post = "ht_%s_%s(&call, %s, %s);" % (
        kind, row[kind], ", ".join(args), "*request" if has_request else "MPI_REQUEST_NULL")
    if row.get("persistent"):
        post = "call.persistent = true;\n" + post
    return dict(post=post)


def indent(code, n):
    pad = " " * n
    return "\n".join(pad + line if line else line for line in code.splitlines())


# Handles passed by value: an int in the MPICH family, a pointer in Open
# MPI.  The C wrappers take them as 64-bit words (ht_mpi_handle, the MPI
# names being the wrappers' assembler names), so that a program of the
# other ABI's handles pass through whole (src/mpi/abi.c): an int parameter
# keeps only its low 32 bits of the register, and would cut an Open MPI
# pointer.  The body sees them as the MPI types, under their own names.
BY_VALUE_HANDLES = ("MPI_Comm", "MPI_Datatype", "MPI_Op", "MPI_Win", "MPI_Info", "MPI_Request",
                    "MPI_Errhandler")


def is_handle(ctype):
    return ctype.replace("const", "").strip() in BY_VALUE_HANDLES


def wide_params(params):
    """The wrapper's own parameter list, handles as ht_mpi_handle."""
    out = []
    for t, n in params:
        if n == "...":
            out.append("...")
        elif is_handle(t):
            out.append("ht_mpi_handle ht_w_%s" % n)
        else:
            out.append(t + ("" if t.endswith("*") else " ") + n)
    return ", ".join(out) if out else "void"


def foreign_pass(name, params):
    """The call of the program's own routine when its MPI is not ours,
    with every argument as it came (the handles whole)."""
    if any(n == "..." for _, n in params):
        return None
    types = ", ".join("ht_mpi_handle" if is_handle(t) else t for t, _ in params) or "void"
    args = ", ".join(("ht_w_" + n) if is_handle(t) else n for t, n in params)
    return ("((int (*)(%s))ht_mpi_foreign_entry(&ht_pass_%s, \"P%s\"))(%s)"
            % (types, name, name, args))


def c_wrapper(row):
    """The wrapper's declaration (assembler name: the MPI routine's), its
    foreign pass-through slot and its definition."""
    name = row["name"]
    params = parse_params(row["params"])
    handles = [(t, n) for t, n in params if is_handle(t)]
    head = "HT_EXPORT int ht_w_%s(%s)" % (name, wide_params(params))
    decl = '%s __asm__("%s");\n' % (head, name)
    if row["kind"] != "pcontrol":
        decl += "static ht_mpi_entry ht_pass_%s;\n" % name
    body = c_wrapper_body(row, head)
    if handles:
        unwrap = "".join("\n    %s %s = (%s)ht_w_%s;" % (t.replace("const", "").strip(), n,
                                                         t.replace("const", "").strip(), n)
                         for t, n in handles)
        body = body.replace("\n{", "\n{" + unwrap, 1)
    return decl + body


def c_wrapper_body(row, proto):
    name, kind = row["name"], row["kind"]
    params = parse_params(row["params"])
    names = [n for _, n in params if n != "..."]
    args = ", ".join(names)

    # MPI_Init and MPI_Session_init start the job (src/mpi/job.c), MPI_Finalize
    # and MPI_Session_finalize end it: the same wrapper, one function apart.
    if kind in ("init", "session_init"):
        after = "ht_mpi_after_init()" if kind == "init" else "ht_mpi_after_session_init()"
        return """%s
{
    if (ht_mpi_fortran_env)  /* called by the Fortran binding we wrapped */
        return P%s(%s);
    /* Another MPI's program (abi.c): nothing of ours may touch MPI. */
    if (!ht_mpi_abi_matches_at("%s"))
        return %s;
    struct ht_mpi_call call;
    bool node = HT_MPI_CALL_BEGIN_NODE(&call, %s);
    int rc = P%s(%s);
    /* Our own start-up (MPI_T's takes 0.2 to 0.9 s) inside MPI_Init's
     * node: its time is MPI_Init's, not the caller's exclusive time. */
    if (rc == MPI_SUCCESS)
        %s;
    if (node) {
        ht_mpi_call_returned(&call);
        ht_mpi_call_end(&call);
    }
    return rc;
}
""" % (proto, name, args, name, foreign_pass(name, params), name, name, args, after)
    if kind in ("finalize", "session_finalize"):
        before = "ht_mpi_before_finalize()" if kind == "finalize" else "ht_mpi_before_session_finalize()"
        return """%s
{
    if (ht_mpi_fortran_env)  /* called by the Fortran binding we wrapped */
        return P%s(%s);
    if (!ht_mpi_abi_matches())  /* another MPI's program, as in MPI_Init */
        return %s;
    struct ht_mpi_call call;
    bool node = HT_MPI_CALL_BEGIN_NODE(&call, %s);
    /* Collective when it ends the job: every rank merges its profile,
     * logging or not. */
    %s;
    int rc = P%s(%s);
    if (node) {
        ht_mpi_call_returned(&call);
        ht_mpi_call_end(&call);
    }
    return rc;
}
""" % (proto, name, args, foreign_pass(name, params), name, before, name, args)
    if kind == "abort":
        return """%s
{
    if (ht_mpi_fortran_env)  /* called by the Fortran binding we wrapped */
        return P%s(comm, errorcode);
    if (!ht_mpi_abi_matches()) {  /* another MPI's program: no node, no MPI */
        ht_mpi_before_abort(errorcode);
        return %s;
    }
    /* PMPI_Abort does not return: the call is recorded as made and done,
     * and this rank's partial profile written, before it. */
    struct ht_mpi_call call;
    if (HT_MPI_CALL_BEGIN_NODE(&call, %s)) {
        ht_mpi_call_returned(&call);
        ht_mpi_call_end(&call);
    }
    ht_mpi_before_abort(errorcode);
    return P%s(comm, errorcode);
}
""" % (proto, name, foreign_pass(name, params), name, name)
    if kind == "pcontrol":
        return """%s
{
    if (ht_mpi_abi_matches())
        ht_mpi_pcontrol(level);
    return PMPI_Pcontrol(level);
}
""" % proto

    spec = kind_spec(row)

    call_args = list(names)
    pre, after = [], []
    if spec.get("status"):
        pre.append("MPI_Status ht_status;\nMPI_Status *ht_st = status == MPI_STATUS_IGNORE ? &ht_status : status;")
        call_args = ["ht_st" if a == "status" else a for a in call_args]
    if spec.get("handles"):
        count = spec["handles"]
        statuses = "array_of_statuses" if spec.get("statuses") else "MPI_STATUSES_IGNORE"
        pre.append("struct ht_scratch ht_scratch;\n"
                   "if (!ht_scratch_init(&ht_scratch, %s, array_of_requests, %s)) {\n"
                   "    ht_mpi_call_abandon(&call);\n"
                   "    return P%s(%s);\n}" % (count, statuses, name, args))
        after.append("ht_scratch_free(&ht_scratch);")
        if spec.get("statuses"):
            pre.append("MPI_Status *ht_sts = ht_scratch.statuses;")
            call_args = ["ht_sts" if a == "array_of_statuses" else a for a in call_args]
    if spec.get("pre"):
        pre.append(spec["pre"])
    if spec.get("after"):
        after.insert(0, spec["after"])

    body = ["struct ht_mpi_call call;",
            "if (!HT_MPI_CALL_BEGIN(&call, %s)) {" % name,
            "    if (HT_UNLIKELY(ht_mpi_foreign))  /* another MPI's program (abi.c) */",
            "        return %s;" % foreign_pass(name, params),
            "    return P%s(%s);" % (name, args),
            "}"]
    body += pre
    if spec.get("take"):
        body.append("int rc;\nif (%s) {\n    *request = MPI_REQUEST_NULL;\n    rc = MPI_SUCCESS;\n"
                    "} else {\n    rc = P%s(%s);\n}" % (spec["take"], name, ", ".join(call_args)))
    else:
        body.append("int rc = P%s(%s);" % (name, ", ".join(call_args)))
    body.append("ht_mpi_call_returned(&call);")
    if spec.get("post"):
        body.append("if (rc == MPI_SUCCESS) {\n%s\n}" % indent(spec["post"], 4))
    body += after
    body.append("ht_mpi_call_end(&call);")
    body.append("return rc;")
    return "%s\n{\n%s\n}\n" % (proto, indent("\n".join(body), 4))


def guard_of(row):
    """The condition under which a row's wrappers are compiled: the MPI 4
    routines only where the library has them (configure:
    HT_MPI_LARGE_COUNT, HT_MPI_SESSIONS, HT_MPI4_COMM); None: always."""
    guards = [g for g, on in (("HT_MPI_LARGE_COUNT", row.get("large_count")),
                              ("HT_MPI_SESSIONS", row.get("sessions")),
                              ("HT_MPI4_COMM", row.get("mpi4"))) if on]
    return " && ".join(guards) or None


def generate_c(out):
    out.write("/* Generated by src/mpi/generate.py from src/mpi/routines.py: do not edit. */\n")
    out.write('#include "config.h"\n\n#include "mpi/abi.h"\n#include "mpi/call.h"\n#include "mpi/collectives.h"\n'
              '#include "mpi/record.h"\n#include "mpi/rma.h"\n\n')
    for row in ROUTINES:
        guard = guard_of(row)
        if guard:
            out.write("#if %s\n" % guard)
        out.write(c_wrapper(row))
        if guard:
            out.write("#endif\n")
        out.write("\n")


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("c", "fortran"):
        raise SystemExit("usage: generate.py c|fortran OUTPUT")
    tmp = sys.argv[2] + ".tmp"
    with open(tmp, "w") as out:
        if sys.argv[1] == "c":
            generate_c(out)
        else:
            here = os.path.dirname(os.path.abspath(__file__))
            sys.path.insert(0, os.path.join(here, "..", "fortran"))
            from generate_fortran import generate_fortran
            # No Fortran bindings for the large-count routines (docs/mpi.md),
            # nor for the sessions routines (MPICH's call the C ones).
            rows = [row for row in ROUTINES if not row.get("large_count") and not row.get("sessions")]
            generate_fortran(out, rows, parse_params, kind_spec, indent, guard_of)
    os.replace(tmp, sys.argv[2])


if __name__ == "__main__":
    main()
