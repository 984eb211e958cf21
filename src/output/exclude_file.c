/* The exact exclusions a run suggests for what it throttled
 * (docs/throttle.md): the throttled functions' ELF symbol names, written one
 * a line into <profile>.exclude beside the profile, which the GCC plugin
 * takes as -fplugin-arg-hooktrace_gcc-exclude-file=<that file>; and what the
 * logfile and the JSON say about it, which depends on whether the build
 * used the plugin and whether it could have. */
#define _GNU_SOURCE
#include "config.h" /* HT_HAVE_GCC_PLUGIN */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/output.h"

#define PLUGIN_OPTION "-fplugin-arg-hooktrace_gcc-exclude-file="

/* The display names of the throttled functions, each once. */
static const char **throttled_names(const struct ht_profile *p, size_t *n)
{
    const char **names = malloc((p->nstacks + 1) * sizeof *names);
    *n = 0;
    if (!names)
        return NULL;
    for (size_t i = 0; i < p->nstacks; i++) {
        if (!p->stacks[i].throttled)
            continue;
        size_t k = 0;
        while (k < *n && strcmp(names[k], p->stacks[i].function->name) != 0)
            k++;
        if (k == *n)
            names[(*n)++] = p->stacks[i].function->name;
    }
    return names;
}

void ht_output_exclude_prepare(const struct ht_profile *p, struct ht_run_info *run, const char *dir,
                               const char *basename, char *path, size_t len)
{
    run->exclude_file = NULL;
    run->exclude_symbols = (struct ht_name_list){0};
    run->build = (struct ht_build_marks){0};
    size_t n;
    const char **names = throttled_names(p, &n);
    /* Both read the section headers or symbol tables of every instrumented
     * object (src/symbols/scan.c): only when they are used. */
    if (names && n > 0)
        ht_symbols_build_marks(&run->build);
    if (!names || n == 0 || ht_symbols_linkage_names(names, n, &run->exclude_symbols) != 0 ||
        run->exclude_symbols.count == 0) {
        free(names);
        return;
    }
    free(names);
    /* Absolute, for a compile line run from another folder. */
    char cwd[PATH_MAX];
    if (dir[0] == '/' || !getcwd(cwd, sizeof cwd))
        snprintf(path, len, "%s/%s.exclude", dir, basename);
    else
        snprintf(path, len, "%s/%s/%s.exclude", cwd, strcmp(dir, ".") == 0 ? "" : dir, basename);
    /* "cwd//name" from "." reads as it is meant; keep it tidy all the same. */
    char *twice = strstr(path, "//");
    if (twice)
        memmove(twice, twice + 1, strlen(twice));
    run->exclude_file = path;
}

int ht_output_exclude_write(FILE *f, const struct ht_run_info *run)
{
    fprintf(f, "# The functions hooktrace throttled in a run of %s, by their symbol names.\n"
               "# Compiled with hooktrace's GCC plugin and " PLUGIN_OPTION "<this file>,\n"
               "# exactly these functions lose their hooks (docs/throttle.md).\n",
            run->executable ? run->executable : "the program");
    for (size_t i = 0; i < run->exclude_symbols.count; i++)
        fprintf(f, "%s\n", run->exclude_symbols.names[i]);
    return 0;
}

/* The advice after the throttling lines of the logfile. */
void ht_output_logfile_exclude(FILE *out, const struct ht_run_info *run)
{
    const char *indent = "                 ";
    if (!run->exclude_file)
        return;
#ifdef HT_HAVE_GCC_PLUGIN
    if (run->build.plugin) {
        fprintf(out, "%stheir rewritten calls still cost some speed; to remove them, recompile with\n"
                     "%s" PLUGIN_OPTION "%s\n", indent, indent, run->exclude_file);
    } else if (run->build.clang_built) {
        fprintf(out, "%stheir rewritten calls still cost some speed; built with clang, which cannot load"
                     " hooktrace's GCC plugin,\n%sno exact exclusion can be given (GCC's"
                     " -finstrument-functions-exclude-function-list matches parts of names);\n"
                     "%sclang's -finstrument-functions-after-inlining keeps inlined copies free of hooks\n",
                indent, indent, indent);
    } else {
        fprintf(out, "%stheir rewritten calls still cost some speed; to remove them, compile with GCC"
                     " and hooktrace's plugin\n%s(the `hooktrace` compiler prefix, or"
                     " `pkg-config --variable=instrument_flags hooktrace`), which also leaves tiny"
                     " functions out, adding\n%s" PLUGIN_OPTION "%s\n",
                indent, indent, indent, run->exclude_file);
    }
#else
    fprintf(out, "%stheir rewritten calls still cost some speed; hooktrace was built without its GCC"
                 " plugin, so no exact exclusion\n%scan be given (GCC's"
                 " -finstrument-functions-exclude-function-list matches parts of names)\n",
            indent, indent);
#endif
}

void ht_output_exclude_json(json_t *obj, const struct ht_run_info *run)
{
    json_object_set_new(obj, "plugin_used", json_boolean(run->build.plugin));
    json_object_set_new(obj, "exclude_file", json_string(run->exclude_file ? run->exclude_file : ""));
    json_t *names = json_array();
    for (size_t i = 0; i < run->exclude_symbols.count; i++)
        json_array_append_new(names, json_string(run->exclude_symbols.names[i]));
    json_object_set_new(obj, "exclude_symbols", names);
}
