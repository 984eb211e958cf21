/* Score-P filter files (src/config/region_filter.c): the rules, their
 * order, wildcards and MANGLED; every syntax error's file and line; and
 * the config key filter_file, relative to the config file's folder. */
#include "check.h"
#include "config_testutil.h"

#include "config/region_filter.h"

static int parse(struct ht_region_filter *f, const char *text, char *err, size_t errlen)
{
    err[0] = '\0';
    return ht_region_filter_parse(f, text, "f.filter", err, errlen);
}

static void test_rules(void)
{
    char err[512];
    struct ht_region_filter f;
    /* Score-P's manual's shape: later rules override earlier ones, a
     * rule's patterns span lines, comments anywhere. */
    const char *text = "# a comment line\n"
                       "SCOREP_REGION_NAMES_BEGIN\n"
                       "  EXCLUDE *   # everything\n"
                       "  INCLUDE bar foo\n"
                       "          baz\n"
                       "          main\n"
                       "  EXCLUDE MANGLED _ZN3Foo*\n"
                       "  INCLUDE ?ar_[0-9]\n"
                       "SCOREP_REGION_NAMES_END\n";
    CHECK_EQ_U64(parse(&f, text, err, sizeof err), 0);
    CHECK_STR(err, "");
    CHECK_EQ_U64(f.count, 7);
    CHECK(ht_region_filter_excludes(&f, "anything", NULL));
    CHECK(!ht_region_filter_excludes(&f, "bar", NULL));
    CHECK(!ht_region_filter_excludes(&f, "baz", NULL));
    CHECK(!ht_region_filter_excludes(&f, "main", NULL));
    CHECK(!ht_region_filter_excludes(&f, "car_7", NULL));
    CHECK(ht_region_filter_excludes(&f, "car_x", NULL));
    /* MANGLED matches the symbol name only. */
    CHECK(!ht_region_filter_excludes(&f, "foo", "foo"));
    CHECK(ht_region_filter_excludes(&f, "foo", "_ZN3Foo3runEv"));
    CHECK(ht_region_filter_excludes(&f, "Foo::run()", "_ZN3Foo3runEv"));
    CHECK(ht_region_filter_excludes(&f, "_ZN3Foo3runEv", NULL)); /* by "EXCLUDE *" */
    ht_region_filter_free(&f);

    /* No rule matches: kept.  An empty file filters nothing. */
    CHECK_EQ_U64(parse(&f, "SCOREP_REGION_NAMES_BEGIN EXCLUDE *helper* SCOREP_REGION_NAMES_END",
                       err, sizeof err), 0);
    CHECK(ht_region_filter_excludes(&f, "tiny_helper", NULL));
    CHECK(!ht_region_filter_excludes(&f, "solve", NULL));
    ht_region_filter_free(&f);
    CHECK_EQ_U64(parse(&f, "", err, sizeof err), 0);
    CHECK_EQ_U64(f.count, 0);
    CHECK(!ht_region_filter_excludes(&f, "x", NULL));

    /* File name blocks are read and counted, not applied. */
    CHECK_EQ_U64(parse(&f, "SCOREP_FILE_NAMES_BEGIN\n EXCLUDE */util/*.c a.c\n"
                           " INCLUDE */keep.c\nSCOREP_FILE_NAMES_END\n"
                           "SCOREP_REGION_NAMES_BEGIN\n EXCLUDE x\nSCOREP_REGION_NAMES_END\n",
                       err, sizeof err), 0);
    CHECK_EQ_U64(f.file_rules_ignored, 3);
    CHECK_EQ_U64(f.count, 1);
    ht_region_filter_free(&f);
}

static void test_errors(void)
{
    char err[512];
    struct ht_region_filter f;
    CHECK_EQ_U64(parse(&f, "EXCLUDE foo\n", err, sizeof err), (uint64_t)-1);
    CHECK_STR(err, "f.filter:1: \"EXCLUDE\" outside a SCOREP_REGION_NAMES_BEGIN ... "
                   "SCOREP_REGION_NAMES_END block");
    CHECK_EQ_U64(f.count, 0);
    CHECK_EQ_U64(parse(&f, "SCOREP_REGION_NAMES_BEGIN\n\n  foo\nSCOREP_REGION_NAMES_END\n", err,
                       sizeof err), (uint64_t)-1);
    CHECK_STR(err, "f.filter:3: pattern \"foo\" before any EXCLUDE or INCLUDE");
    CHECK_EQ_U64(parse(&f, "SCOREP_REGION_NAMES_BEGIN\n EXCLUDE\n INCLUDE x\n"
                           "SCOREP_REGION_NAMES_END\n", err, sizeof err), (uint64_t)-1);
    CHECK_STR(err, "f.filter:2: EXCLUDE with no pattern after it");
    CHECK_EQ_U64(parse(&f, "SCOREP_REGION_NAMES_BEGIN\n INCLUDE x\n EXCLUDE MANGLED\n"
                           "SCOREP_REGION_NAMES_END\n", err, sizeof err), (uint64_t)-1);
    CHECK_STR(err, "f.filter:3: EXCLUDE MANGLED with no pattern after it");
    CHECK_EQ_U64(parse(&f, "SCOREP_REGION_NAMES_BEGIN\n EXCLUDE x\n", err, sizeof err),
                 (uint64_t)-1);
    CHECK_STR(err, "f.filter:1: SCOREP_REGION_NAMES_BEGIN has no SCOREP_REGION_NAMES_END");
    CHECK_EQ_U64(parse(&f, "SCOREP_REGION_NAMES_BEGIN\n EXCLUDE x\nSCOREP_FILE_NAMES_END\n", err,
                       sizeof err), (uint64_t)-1);
    CHECK_STR(err, "f.filter:3: SCOREP_FILE_NAMES_END inside the block opened at line 1, which "
                   "SCOREP_REGION_NAMES_END closes");
    CHECK_EQ_U64(parse(&f, "SCOREP_REGION_NAMES_BEGIN\n EXCLUDE x\nSCOREP_REGION_NAMES_END\nx\n",
                       err, sizeof err), (uint64_t)-1);
    CHECK_STR(err, "f.filter:4: \"x\" outside a SCOREP_REGION_NAMES_BEGIN ... "
                   "SCOREP_REGION_NAMES_END block");
    CHECK_EQ_U64(ht_region_filter_load(&f, "/nonexistent/f.filter", err, sizeof err),
                 (uint64_t)-1);
    CHECK_STR(err, "/nonexistent/f.filter: cannot read the filter file: No such file or directory");
}

/* The config key: a path relative to the config file's folder, the
 * filter's error after the config's own file, line and key, and the
 * rules applied to the output's names (MPI routines never). */
static void test_config_key(void)
{
    char err[1024];
    struct ht_config cfg;
    tmp_file("ok.filter", "SCOREP_REGION_NAMES_BEGIN\n EXCLUDE *helper* MPI_*\n"
                          " INCLUDE keep_helper\nSCOREP_REGION_NAMES_END\n");
    const char *ok = tmp_file("ok.json", "{\n  \"filter_file\": \"ok.filter\"\n}\n");
    ht_config_defaults(&cfg);
    CHECK_EQ_U64(ht_config_load_file(ok, &cfg, err, sizeof err), 0);
    CHECK_EQ_U64(cfg.region_filter.count, 3);
    CHECK(!ht_config_function_kept(&cfg, "tiny_helper"));
    CHECK(ht_config_function_kept(&cfg, "keep_helper"));
    CHECK(ht_config_function_kept(&cfg, "solve"));
    CHECK(ht_config_function_kept(&cfg, "MPI_Send"));
    CHECK(ht_config_function_filtered_out(&cfg, "tiny_helper", "tiny_helper"));
    CHECK(!ht_config_function_filtered_out(&cfg, "MPI_Send", "MPI_Send"));
    ht_config_free(&cfg);

    tmp_file("bad.filter", "SCOREP_REGION_NAMES_BEGIN\n EXCLUDE\nSCOREP_REGION_NAMES_END\n");
    const char *bad = tmp_file("bad.json", "{\n  \"max_stack_depth\": 10,\n"
                                           "  \"filter_file\": \"bad.filter\"\n}\n");
    ht_config_defaults(&cfg);
    CHECK_EQ_U64(ht_config_load_file(bad, &cfg, err, sizeof err), (uint64_t)-1);
    char expected[1024];
    snprintf(expected, sizeof expected,
             "%s:3: \"filter_file\": %s/bad.filter:2: EXCLUDE with no pattern after it", bad,
             tmp_dir);
    CHECK_STR(err, expected);
    ht_config_free(&cfg);
}

/* MPI routines are never filtered out, whatever matches them: "EXCLUDE *"
 * in a filter file, and "MPI_*" or ".*" in exclude_functions (docs/filter.md).
 * The MPI standard reserves MPI_ and PMPI_ in any case: the Fortran names
 * as compilers spell them are covered too. */
static void test_mpi_never(void)
{
    static const char *const mpi[] = {"MPI_Send", "MPI_Init", "PMPI_Send", "mpi_send_",
                                      "MPI_SEND", "mpi_send_f08", "pmpi_send__", "MPI_T_init_thread"};
    static const char *const other[] = {"MPIX_Foo", "my_MPI_Send", "MPI", "mpisend", "solve", ""};
    for (size_t i = 0; i < sizeof mpi / sizeof mpi[0]; i++)
        CHECK(ht_config_name_is_mpi(mpi[i]));
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++)
        CHECK(!ht_config_name_is_mpi(other[i]));
    CHECK(!ht_config_name_is_mpi(NULL));

    char err[1024];
    struct ht_config cfg;
    tmp_file("all.filter", "SCOREP_REGION_NAMES_BEGIN\n EXCLUDE *\nSCOREP_REGION_NAMES_END\n");
    const char *all = tmp_file("all.json", "{\"filter_file\": \"all.filter\", "
                                           "\"exclude_functions\": [\"MPI_*\", \".*\"]}");
    ht_config_defaults(&cfg);
    CHECK_EQ_U64(ht_config_load_file(all, &cfg, err, sizeof err), 0);
    for (size_t i = 0; i < sizeof mpi / sizeof mpi[0]; i++) {
        CHECK(ht_config_function_kept(&cfg, mpi[i]));
        CHECK(!ht_config_function_filtered_out(&cfg, mpi[i], mpi[i]));
    }
    for (size_t i = 0; i < sizeof other / sizeof other[0] - 1; i++) {
        CHECK(!ht_config_function_kept(&cfg, other[i]));
        CHECK(ht_config_function_filtered_out(&cfg, other[i], other[i]));
    }
    ht_config_free(&cfg);

    /* An exclude_functions entry naming one whole leaves it out of the
     * output (never rewritten); a filter file's, as in Score-P, does not. */
    tmp_file("wtime.filter", "SCOREP_REGION_NAMES_BEGIN\n EXCLUDE MPI_Send\n"
                             "SCOREP_REGION_NAMES_END\n");
    const char *named = tmp_file("named.json", "{\"filter_file\": \"wtime.filter\", "
                                               "\"exclude_functions\": [\"^MPI_Wtime$\", \"^MPI_B\"]}");
    ht_config_defaults(&cfg);
    CHECK_EQ_U64(ht_config_load_file(named, &cfg, err, sizeof err), 0);
    CHECK(!ht_config_function_kept(&cfg, "MPI_Wtime"));
    CHECK(!ht_config_function_filtered_out(&cfg, "MPI_Wtime", "MPI_Wtime"));
    CHECK(ht_config_function_kept(&cfg, "MPI_Wtime2"));
    CHECK(ht_config_function_kept(&cfg, "MPI_Barrier"));
    CHECK(ht_config_function_kept(&cfg, "MPI_Send"));
    CHECK(ht_regex_list_names(&cfg.exclude_functions, "MPI_Wtime"));
    CHECK(!ht_regex_list_names(&cfg.exclude_functions, "MPI_Barrier"));
    CHECK(!ht_regex_list_names(&cfg.exclude_functions, "MPI_B"));
    ht_config_free(&cfg);

    /* include_functions names what the output keeps: an MPI routine it
     * does not name is left out of the output (never rewritten). */
    const char *inc = tmp_file("inc.json", "{\"include_functions\": [\"^solve$\"]}");
    ht_config_defaults(&cfg);
    CHECK_EQ_U64(ht_config_load_file(inc, &cfg, err, sizeof err), 0);
    CHECK(ht_config_function_kept(&cfg, "solve"));
    CHECK(!ht_config_function_kept(&cfg, "MPI_Send"));
    CHECK(!ht_config_function_filtered_out(&cfg, "MPI_Send", "MPI_Send"));
    ht_config_free(&cfg);
}

int main(void)
{
    test_rules();
    test_errors();
    test_config_key();
    test_mpi_never();
    tmp_cleanup();
    return CHECK_DONE();
}
