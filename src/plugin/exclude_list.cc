/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Exact exclusions for the GCC plugin (docs/plugin.md, docs/throttle.md).
 *
 * A run that throttles functions writes their assembler names, one a line,
 * into <profile>.exclude; compiled with exclude-file=<that file>, exactly
 * those functions lose their hooks, listed in .hooktrace.uninstrumented like
 * the tiny ones so that the profile names them.  GCC's own
 * -finstrument-functions-exclude-function-list cannot do this: it matches
 * its entries as substrings of a name without template arguments and splits
 * them at commas, so it excludes other functions, or none.
 *
 * Every unit compiled with the plugin also gets a one-byte non-allocated
 * section, .hooktrace.plugin, which the linker keeps and concatenates: the
 * run looks for it to suggest the plugin only to builds that did not use it.
 * It is a top-level asm statement, so that under -flto it travels with the
 * code to the link-time compile. */
#include "gcc-plugin.h"

#include "tree.h"
#include "cgraph.h"
#include "diagnostic-core.h"
#include "stringpool.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <string>

#include "exclude_list.h"

namespace {

/* The names read, as identifiers: GCC keeps one identifier per spelling,
 * so a function's DECL_ASSEMBLER_NAME is in the set by pointer. */
hash_set<tree> *excluded;

/* What GCC, and the .exclude file, write as an assembler name: letters,
 * digits, _ . $ (C, C++ mangled, Fortran).  Anything else (a space, a
 * parenthesis, a template's <>) is a display name given by mistake. */
bool assembler_name_p(const std::string &s)
{
    if (s.empty())
        return false;
    for (char c : s)
        if (!ISALNUM(c) && c != '_' && c != '.' && c != '$')
            return false;
    return true;
}

std::string trimmed(const std::string &s)
{
    size_t b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos)
        return "";
    size_t e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

bool read_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        error("hooktrace plugin: cannot read exclude-file %qs: %s", path, xstrerror(errno));
        return false;
    }
    std::string line;
    unsigned number = 0;
    bool ok = true;
    int c;
    do {
        c = getc(f);
        if (c != '\n' && c != EOF) {
            line += (char)c;
            continue;
        }
        if (c == EOF && line.empty())
            break;
        number++;
        size_t hash = line.find('#');
        std::string name = trimmed(hash == std::string::npos ? line : line.substr(0, hash));
        line.clear();
        if (name.empty())
            continue;
        if (!assembler_name_p(name)) {
            error("hooktrace plugin: exclude-file %qs, line %u: %qs is not an assembler name "
                  "(one mangled name a line, as in the file a hooktrace run writes)",
                  path, number, name.c_str());
            ok = false;
            continue;
        }
        excluded->add(get_identifier(name.c_str()));
    } while (c != EOF);
    if (ferror(f)) {
        error("hooktrace plugin: cannot read exclude-file %qs: %s", path, xstrerror(errno));
        ok = false;
    }
    fclose(f);
    return ok;
}

void mark_unit(void *, void *)
{
    static const char text[] = "\t.pushsection .hooktrace.plugin,\"\",@progbits\n\t.byte 1\n\t.popsection";
    symtab->finalize_toplevel_asm(build_string((int)sizeof text - 1, text));
}

} // namespace

int ht_exclude_argument(const char *key, const char *value)
{
    if (strcmp(key, "exclude-file") != 0)
        return 0;
    if (!value || !*value) {
        error("hooktrace plugin: exclude-file takes a file name (exclude-file=PATH)");
        return -1;
    }
    if (!excluded)
        excluded = new hash_set<tree>;
    return read_file(value) ? 1 : -1;
}

bool ht_exclude_active(void)
{
    return excluded && excluded->elements() > 0;
}

bool ht_exclude_listed(tree decl)
{
    return excluded && excluded->contains(DECL_ASSEMBLER_NAME(decl));
}

void ht_exclude_register(const char *plugin_name)
{
    register_callback(plugin_name, PLUGIN_START_UNIT, mark_unit, NULL);
}
