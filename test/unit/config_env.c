/* The start-up path: HOOKTRACE_OFF, HOOKTRACE_CONFIG and
 * HOOKTRACE_OUTPUT_DIRECTORY. */
#include "check.h"
#include "config_testutil.h"

static void clear_env(void)
{
    unsetenv("HOOKTRACE_OFF");
    unsetenv("HOOKTRACE_CONFIG");
    unsetenv("HOOKTRACE_OUTPUT_DIRECTORY");
}

static void test_nothing_set(void)
{
    struct ht_config cfg;
    char err[512] = "";
    clear_env();
    CHECK_EQ_U64(ht_config_from_environment(&cfg, err, sizeof err), 0);
    CHECK(!cfg.off);
    CHECK_STR(cfg.output_directory, ".");
    CHECK(cfg.source_file == NULL);
    ht_config_free(&cfg);
}

static void test_off_values(void)
{
    static const char *const on[] = {"1", "true", "TRUE", "Yes", "on", "ON"};
    static const char *const ignored[] = {"0", "false", "False", "no", "NO", "off", ""};

    clear_env();
    /* Off wins and the file is not read at all, not even to fail. */
    setenv("HOOKTRACE_CONFIG", in_tmp("does-not-exist.json"), 1);
    for (size_t i = 0; i < sizeof on / sizeof on[0]; i++) {
        struct ht_config cfg;
        char err[512] = "";
        setenv("HOOKTRACE_OFF", on[i], 1);
        CHECK_EQ_U64(ht_config_from_environment(&cfg, err, sizeof err), 0);
        CHECK(cfg.off);
        CHECK(cfg.source_file == NULL);
        CHECK_STR(err, "");
        ht_config_free(&cfg);
    }

    unsetenv("HOOKTRACE_CONFIG");
    for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++) {
        struct ht_config cfg;
        char err[512] = "";
        setenv("HOOKTRACE_OFF", ignored[i], 1);
        CHECK_EQ_U64(ht_config_from_environment(&cfg, err, sizeof err), 0);
        CHECK(!cfg.off);
        ht_config_free(&cfg);
    }

    /* An ignored value still lets the file turn profiling off. */
    setenv("HOOKTRACE_OFF", "0", 1);
    setenv("HOOKTRACE_CONFIG", tmp_file("off.json", "{\"off\": true}"), 1);
    {
        struct ht_config cfg;
        char err[512] = "";
        CHECK_EQ_U64(ht_config_from_environment(&cfg, err, sizeof err), 0);
        CHECK(cfg.off);
        ht_config_free(&cfg);
    }

    setenv("HOOKTRACE_OFF", "maybe", 1);
    {
        struct ht_config cfg;
        char err[512] = "";
        CHECK_EQ_U64(ht_config_from_environment(&cfg, err, sizeof err), (uint64_t)-1);
        CHECK_STR(err, "HOOKTRACE_OFF=\"maybe\" is not understood: set it to 1, true, yes or on "
                       "to turn profiling off, or to 0, false, no, off or nothing to leave it on");
        ht_config_free(&cfg);
    }
    clear_env();
}

static void test_config_file(void)
{
    struct ht_config cfg;
    char err[1024] = "";
    char expected[1024];
    clear_env();

    setenv("HOOKTRACE_CONFIG", in_tmp("missing.json"), 1);
    CHECK_EQ_U64(ht_config_from_environment(&cfg, err, sizeof err), (uint64_t)-1);
    snprintf(expected, sizeof expected,
             "%s: cannot read the config file named by HOOKTRACE_CONFIG: No such file or "
             "directory",
             in_tmp("missing.json"));
    CHECK_STR(err, expected);
    ht_config_free(&cfg);

    /* The file's messages come through unchanged. */
    setenv("HOOKTRACE_CONFIG", tmp_file("bad.json", "{\n\"sort_by\": \"calls\",\n\"outptus\": {}}"),
           1);
    CHECK_EQ_U64(ht_config_from_environment(&cfg, err, sizeof err), (uint64_t)-1);
    CHECK_CONTAINS(err, "bad.json:3: unknown key \"outptus\" in the top level; valid keys are: ");
    ht_config_free(&cfg);

    const char *good =
        tmp_file("good.json", "{\"output_directory\": \"from-file\", \"sort_by\": \"function\"}");
    setenv("HOOKTRACE_CONFIG", good, 1);
    CHECK_EQ_U64(ht_config_from_environment(&cfg, err, sizeof err), 0);
    CHECK_STR(cfg.source_file, good);
    CHECK_STR(cfg.output_directory, "from-file");
    CHECK_EQ_U64(cfg.sort_by, HT_SORT_FUNCTION);
    ht_config_free(&cfg);

    /* The environment's folder is applied after the file. */
    setenv("HOOKTRACE_OUTPUT_DIRECTORY", "/scratch/me", 1);
    CHECK_EQ_U64(ht_config_from_environment(&cfg, err, sizeof err), 0);
    CHECK_STR(cfg.output_directory, "/scratch/me");
    CHECK_EQ_U64(cfg.sort_by, HT_SORT_FUNCTION);
    ht_config_free(&cfg);

    /* Empty values count as unset. */
    setenv("HOOKTRACE_CONFIG", "", 1);
    setenv("HOOKTRACE_OUTPUT_DIRECTORY", "", 1);
    CHECK_EQ_U64(ht_config_from_environment(&cfg, err, sizeof err), 0);
    CHECK(cfg.source_file == NULL);
    CHECK_STR(cfg.output_directory, ".");
    ht_config_free(&cfg);

    /* Without a file. */
    unsetenv("HOOKTRACE_CONFIG");
    setenv("HOOKTRACE_OUTPUT_DIRECTORY", "out", 1);
    CHECK_EQ_U64(ht_config_from_environment(&cfg, err, sizeof err), 0);
    CHECK_STR(cfg.output_directory, "out");
    ht_config_free(&cfg);
    clear_env();
}

static void test_function_kept(void)
{
    struct ht_config cfg;
    char err[1024] = "";

    ht_config_defaults(&cfg);
    CHECK(ht_config_function_kept(&cfg, "main"));
    CHECK(ht_config_function_kept(&cfg, ""));
    CHECK(!ht_config_function_kept(&cfg, NULL));
    ht_config_free(&cfg);

    ht_config_defaults(&cfg);
    CHECK_EQ_U64(ht_config_load_file(
                     tmp_file("incl.json", "{\"include_functions\": [\"^solve_\", \"^main$\"]}"),
                     &cfg, err, sizeof err),
                 0);
    CHECK(ht_config_function_kept(&cfg, "main"));
    CHECK(ht_config_function_kept(&cfg, "solve_x"));
    CHECK(!ht_config_function_kept(&cfg, "mainloop"));
    CHECK(!ht_config_function_kept(&cfg, "x_solve_"));
    ht_config_free(&cfg);

    ht_config_defaults(&cfg);
    CHECK_EQ_U64(ht_config_load_file(
                     tmp_file("excl.json", "{\"exclude_functions\": [\"_helper$\", \"^std::\"]}"),
                     &cfg, err, sizeof err),
                 0);
    CHECK(ht_config_function_kept(&cfg, "main"));
    CHECK(!ht_config_function_kept(&cfg, "pack_helper"));
    CHECK(!ht_config_function_kept(&cfg, "std::vector<int>::push_back"));
    CHECK(ht_config_function_kept(&cfg, "helper_pack"));
    ht_config_free(&cfg);

    /* Both: included, then excluded wins. */
    ht_config_defaults(&cfg);
    CHECK_EQ_U64(ht_config_load_file(fixture("full.json"), &cfg, err, sizeof err), 0);
    CHECK(ht_config_function_kept(&cfg, "solve_step"));
    CHECK(ht_config_function_kept(&cfg, "MPI_Send"));
    CHECK(!ht_config_function_kept(&cfg, "MPI_Wtime"));
    CHECK(ht_config_function_kept(&cfg, "MPI_Wtime2"));
    CHECK(!ht_config_function_kept(&cfg, "solve_debug_dump"));
    CHECK(!ht_config_function_kept(&cfg, "solve_helper"));
    CHECK(!ht_config_function_kept(&cfg, "main"));
    ht_config_free(&cfg);

    /* Extended syntax, not basic: + and | are operators. */
    ht_config_defaults(&cfg);
    CHECK_EQ_U64(
        ht_config_load_file(tmp_file("ere.json", "{\"include_functions\": [\"^(foo|ba+r)$\"]}"),
                            &cfg, err, sizeof err),
        0);
    CHECK(ht_config_function_kept(&cfg, "foo"));
    CHECK(ht_config_function_kept(&cfg, "baaar"));
    CHECK(!ht_config_function_kept(&cfg, "(foo|ba+r)"));
    ht_config_free(&cfg);
}

int main(void)
{
    test_nothing_set();
    test_off_values();
    test_config_file();
    test_function_kept();
    tmp_cleanup();
    return CHECK_DONE();
}
