/* The config file: defaults, every option, and the exact message for each
 * kind of mistake (file, line, key, valid keys, suggestion). */
#include "check.h"
#include "config_testutil.h"

#include "config/config_internal.h"

#define TOP_KEYS                                                                                   \
    "off, output_directory, output_basename, sort_by, include_functions, "                         \
    "exclude_functions, filter_file, max_stack_depth, fork_children, signal_timeout_ms, outputs, mpi, trace, mpi_t, throttle, counters"

static void test_defaults(void)
{
    struct ht_config cfg;
    ht_config_defaults(&cfg);
    CHECK(!cfg.off);
    CHECK_STR(cfg.output_directory, ".");
    CHECK(cfg.output_basename == NULL);
    CHECK_EQ_U64(cfg.sort_by, HT_SORT_TIME_EXCL);
    CHECK_EQ_U64(cfg.include_functions.count, 0);
    CHECK_EQ_U64(cfg.exclude_functions.count, 0);
    CHECK_EQ_U64(cfg.max_stack_depth, 512);
    CHECK(cfg.write_logfile && cfg.write_json && cfg.write_folded && cfg.write_html);
    CHECK(!cfg.write_speedscope && !cfg.write_hatchet);
    CHECK(cfg.source_file == NULL);
    ht_config_free(&cfg);
    ht_config_free(&cfg); /* a second free is harmless */

    CHECK_STR(ht_sort_column_name(HT_SORT_TIME_EXCL), "time_excl");
    CHECK_STR(ht_sort_column_name(HT_SORT_TIME_INCL), "time_incl");
    CHECK_STR(ht_sort_column_name(HT_SORT_CALLS), "calls");
    CHECK_STR(ht_sort_column_name(HT_SORT_FUNCTION), "function");
    CHECK_STR(ht_sort_column_name(HT_SORT_STACK_ID), "stack_id");
}

static void test_empty_object(void)
{
    struct ht_config cfg;
    char err[512] = "";
    const char *path = fixture("empty_object.json");
    ht_config_defaults(&cfg);
    CHECK_EQ_U64(ht_config_load_file(path, &cfg, err, sizeof err), 0);
    CHECK_STR(err, "");
    CHECK_STR(cfg.source_file, path);
    CHECK_STR(cfg.output_directory, ".");
    CHECK_EQ_U64(cfg.max_stack_depth, 512);
    CHECK(cfg.write_logfile && cfg.write_json && cfg.write_folded);
    ht_config_free(&cfg);
}

static void test_full_file(void)
{
    struct ht_config cfg;
    char err[512] = "";
    const char *path = fixture("full.json");
    ht_config_defaults(&cfg);
    CHECK_EQ_U64(ht_config_load_file(path, &cfg, err, sizeof err), 0);
    CHECK_STR(err, "");
    CHECK(cfg.off);
    CHECK_STR(cfg.output_directory, "results/run1");
    CHECK_STR(cfg.output_basename, "solver");
    CHECK_EQ_U64(cfg.sort_by, HT_SORT_CALLS);
    CHECK_EQ_U64(cfg.include_functions.count, 2);
    CHECK_STR(cfg.include_functions.patterns[0], "^solve_");
    CHECK_STR(cfg.include_functions.patterns[1], "^MPI_");
    CHECK_EQ_U64(cfg.exclude_functions.count, 3);
    CHECK_STR(cfg.exclude_functions.patterns[0], "_helper$");
    CHECK_STR(cfg.exclude_functions.patterns[1], "^MPI_Wtime$");
    CHECK_STR(cfg.exclude_functions.patterns[2], "^solve_debug");
    CHECK_EQ_U64(cfg.max_stack_depth, 64);
    CHECK(cfg.write_logfile);
    CHECK(!cfg.write_json);
    CHECK(!cfg.write_folded);
    CHECK(cfg.write_speedscope && !cfg.write_hatchet);
    CHECK(!cfg.write_html);
    CHECK_STR(cfg.source_file, path);
    ht_config_free(&cfg);
}

static void test_each_sort_value_and_limits(void)
{
    static const char *const names[] = {"time_excl", "time_incl", "calls", "function", "stack_id"};
    for (unsigned i = 0; i < 5; i++) {
        char text[64];
        struct ht_config cfg;
        char err[512] = "";
        snprintf(text, sizeof text, "{\"sort_by\": \"%s\"}", names[i]);
        ht_config_defaults(&cfg);
        CHECK_EQ_U64(ht_config_load_file(tmp_file("sort.json", text), &cfg, err, sizeof err), 0);
        CHECK_EQ_U64(cfg.sort_by, i);
        ht_config_free(&cfg);
    }

    struct ht_config cfg;
    char err[512] = "";
    ht_config_defaults(&cfg);
    CHECK_EQ_U64(ht_config_load_file(tmp_file("min.json", "{\"max_stack_depth\": 1}"), &cfg, err,
                                     sizeof err),
                 0);
    CHECK_EQ_U64(cfg.max_stack_depth, 1);
    CHECK_EQ_U64(ht_config_load_file(tmp_file("max.json", "{\"max_stack_depth\": 1000000}"), &cfg,
                                     err, sizeof err),
                 0);
    CHECK_EQ_U64(cfg.max_stack_depth, 1000000);
    /* A later file replaces lists and strings (no leak of the first). */
    CHECK_EQ_U64(ht_config_load_file(fixture("full.json"), &cfg, err, sizeof err), 0);
    CHECK_EQ_U64(
        ht_config_load_file(
            tmp_file("again.json", "{\"include_functions\": [], \"output_directory\": \"b\"}"),
            &cfg, err, sizeof err),
        0);
    CHECK_EQ_U64(cfg.include_functions.count, 0);
    CHECK_EQ_U64(cfg.exclude_functions.count, 3);
    CHECK_STR(cfg.output_directory, "b");
    ht_config_free(&cfg);
}

static void test_syntax_errors(void)
{
    char expected[1024];
    const char *path = fixture("bad_syntax.json");
    struct ht_config cfg;
    char err[1024];
    ht_config_defaults(&cfg);
    CHECK_EQ_U64(ht_config_load_file(path, &cfg, err, sizeof err), (uint64_t)-1);
    snprintf(expected, sizeof expected,
             "%s:3:19: syntax error: '}' expected near '\"max_stack_depth\"'", path);
    CHECK_STR(err, expected);
    ht_config_free(&cfg);

    CHECK_STR(load_error("dup.json", "{\n  \"off\": true,\n  \"off\": false\n}\n"),
              in_tmp("dup.json:3:7: syntax error: duplicate object key near '\"off\"'"));
    CHECK_STR(load_error("trailing.json", "{\"off\": true,\n}\n"),
              in_tmp("trailing.json:2:1: syntax error: string or '}' expected near '}'"));
    CHECK_STR(load_error("empty.json", "\n"),
              in_tmp("empty.json:2:0: syntax error: unexpected token near end of file (the "
                     "file is empty; a config file with every option at its default is {})"));
    CHECK_STR(load_error("array.json", "\n[\"off\"]\n"),
              in_tmp("array.json:2: the top level must be a JSON object ({ ... }), not an array"));
    CHECK_STR(load_error("number.json", "42"),
              in_tmp("number.json:1: the top level must be a JSON object ({ ... }), not an "
                     "integer"));
}

static void test_unknown_keys(void)
{
    /* The fixture the check-program test also uses. */
    char expected[1024];
    const char *path = fixture("bad_unknown_key.json");
    struct ht_config cfg;
    char err[1024];
    ht_config_defaults(&cfg);
    CHECK_EQ_U64(ht_config_load_file(path, &cfg, err, sizeof err), (uint64_t)-1);
    snprintf(expected, sizeof expected,
             "%s:3: unknown key \"outptus\" in the top level; valid keys are: " TOP_KEYS
             " (did you mean \"outputs\"?)",
             path);
    CHECK_STR(err, expected);
    ht_config_free(&cfg);

    CHECK_STR(load_error("nested.json", "{\n  \"outputs\": {\n    \"logfile\": true,\n"
                                        "    \"jsn\": false\n  }\n}\n"),
              in_tmp("nested.json:4: unknown key \"jsn\" in \"outputs\"; valid keys are: "
                     "logfile, log_stacks, progress_after_ms, json, folded, speedscope, "
                     "hatchet, html (did you mean \"json\"?)"));
    CHECK_STR(
        load_error("far.json", "{\"colour\": true}"),
        in_tmp("far.json:1: unknown key \"colour\" in the top level; valid keys are: " TOP_KEYS));
    CHECK_STR(load_error("case.json", "{\"Off\": true}"),
              in_tmp("case.json:1: unknown key \"Off\" in the top level; valid keys are: " TOP_KEYS
                     " (did you mean \"off\"?)"));
    /* Sections that later issues add are unknown today. */
    CHECK_CONTAINS(load_error("mpi.json", "{\"mpi\": {\"log_mesages\": true}}"),
                   "unknown key \"log_mesages\" in \"mpi\"; valid keys are: log_messages, "
                   "log_ranks, rank_files, poll_interval_us, poll_max_interval_us, poll_batch, poll, "
                   "rank_times_top, rank_profiles_all (did you mean "
                   "\"log_messages\"?)");
    CHECK_CONTAINS(load_error("trace.json", "{\"trace\": {\"enable\": true}}"),
                   "unknown key \"enable\" in \"trace\"; valid keys are: enabled, folder, name, "
                   "include_functions, exclude_functions, buffer_mib, max_bytes_per_rank (did you "
                   "mean \"enabled\"?)");
    CHECK_CONTAINS(load_error("mpit.json", "{\"mpi_t\": {\"cvar\": []}}"),
                   "unknown key \"cvar\" in \"mpi_t\"; valid keys are: enabled, cvars, cvars_in_json, "
                   "pvars, pvar_classes, pvar_change, pvar_elements, read_interval_us (did you "
                   "mean \"cvars\"?)");

    /* A valid key at the wrong level says where it belongs. */
    CHECK_STR(
        load_error("level1.json", "{\"json\": false}"),
        in_tmp("level1.json:1: unknown key \"json\" in the top level; valid keys are: " TOP_KEYS
               " (\"json\" belongs in \"outputs\")"));
    CHECK_STR(load_error("level2.json", "{\"outputs\": {\n\"off\": true}}"),
              in_tmp("level2.json:2: unknown key \"off\" in \"outputs\"; valid keys are: logfile, "
                     "log_stacks, progress_after_ms, json, folded, speedscope, hatchet, html "
                     "(\"off\" belongs at the top level)"));
    /* Odd characters in a key are shown escaped, as in the file. */
    CHECK_STR(load_error("escape.json", "{\"a\\tb\\\"\": 1}"),
              in_tmp("escape.json: unknown key \"a\\u0009b\\\"\" in the top level; valid keys "
                     "are: " TOP_KEYS));
}

static void test_mpi_section(void)
{
    struct ht_config cfg;
    char err[1024];
    ht_config_defaults(&cfg);
    CHECK(cfg.mpi.log_messages);
    CHECK(cfg.mpi.log_ranks.all && ht_rank_set_contains(&cfg.mpi.log_ranks, 7));
    CHECK(!cfg.mpi.rank_files.all && !ht_rank_set_contains(&cfg.mpi.rank_files, 0));
    CHECK_EQ_U64(cfg.mpi.poll_interval_us, 50);
    CHECK_EQ_U64(cfg.mpi.poll_max_interval_us, 10000);
    CHECK_EQ_U64(cfg.mpi.poll_batch, 1);
    CHECK(cfg.mpi.poll);
    CHECK_EQ_U64(cfg.mpi.rank_times_top, 16);
    const char *path = tmp_file("mpi_ok.json",
                                 "{\"mpi\": {\"log_messages\": false, \"log_ranks\": [0, 3],\n"
                                 " \"rank_files\": \"all\", \"poll_interval_us\": 0, \"poll_batch\": 16,\n"
                                 " \"poll_max_interval_us\": 300, \"rank_times_top\": 0}}");
    CHECK_EQ_U64(ht_config_load_file(path, &cfg, err, sizeof err), 0);
    CHECK(!cfg.mpi.log_messages);
    CHECK_EQ_U64(cfg.mpi.log_ranks.count, 2);
    CHECK(ht_rank_set_contains(&cfg.mpi.log_ranks, 3) && !ht_rank_set_contains(&cfg.mpi.log_ranks, 1));
    CHECK(cfg.mpi.rank_files.all);
    CHECK_EQ_U64(cfg.mpi.poll_interval_us, 0);
    CHECK_EQ_U64(cfg.mpi.poll_max_interval_us, 300);
    CHECK_EQ_U64(cfg.mpi.poll_batch, 16);
    CHECK_EQ_U64(cfg.mpi.rank_times_top, 0);
    ht_config_free(&cfg);
    CHECK_STR(load_error("top.json", "{\"mpi\": {\"rank_times_top\": 257}}"),
              in_tmp("top.json:1: \"mpi.rank_times_top\" must be an integer from 0 to 256, not "
                     "257"));

    CHECK_STR(load_error("ranks1.json", "{\"mpi\": {\"log_ranks\": \"some\"}}"),
              in_tmp("ranks1.json:1: \"mpi.log_ranks\" must be \"all\", \"none\" or an array of "
                     "ranks (integers >= 0), not \"some\""));
    CHECK_STR(load_error("ranks2.json", "{\"mpi\": {\"rank_files\": [0,\n -1]}}"),
              in_tmp("ranks2.json:2: \"mpi.rank_files\"[1] must be a rank (an integer >= 0), not -1"));
    CHECK_STR(load_error("ranks3.json", "{\"mpi\": {\"rank_files\": 3}}"),
              in_tmp("ranks3.json:1: \"mpi.rank_files\" must be \"all\", \"none\" or an array of "
                     "ranks (integers >= 0), not an integer"));
}

/* outputs.log_stacks: default 100, 0 allowed (every stack), never negative. */
static void test_log_stacks(void)
{
    struct ht_config cfg;
    char err[1024];
    ht_config_defaults(&cfg);
    CHECK_EQ_U64(cfg.log_stacks, 100);
    const char *path = tmp_file("log_stacks.json", "{\"outputs\": {\"log_stacks\": 0}}");
    CHECK_EQ_U64(ht_config_load_file(path, &cfg, err, sizeof err), 0);
    CHECK_EQ_U64(cfg.log_stacks, 0);
    CHECK(cfg.write_logfile);
    ht_config_free(&cfg);
    CHECK_STR(load_error("log_stacks_neg.json", "{\"outputs\": {\"log_stacks\": -5}}"),
              in_tmp("log_stacks_neg.json:1: \"outputs.log_stacks\" must be an integer from 0 to "
                     "1000000000, not -5"));
}

static void test_counters(void)
{
    struct ht_config cfg;
    char err[1024];
    ht_config_defaults(&cfg);
    CHECK_EQ_U64(cfg.counters.count, 0);
    const char *path = tmp_file("counters.json",
                                "{\"counters\": [\"PAPI_TOT_INS\", \"sde:::X::y\"]}");
    CHECK_EQ_U64(ht_config_load_file(path, &cfg, err, sizeof err), 0);
    CHECK_EQ_U64(cfg.counters.count, 2);
    CHECK_STR(cfg.counters.items[0], "PAPI_TOT_INS");
    CHECK_STR(cfg.counters.items[1], "sde:::X::y");
    ht_config_free(&cfg);
    CHECK_EQ_U64(cfg.counters.count, 0);
    CHECK_STR(load_error("counters_str.json", "{\"counters\": \"PAPI_TOT_INS\"}"),
              in_tmp("counters_str.json:1: \"counters\" must be an array of strings, not a string"
                     " (for one write [\"PAPI_TOT_INS\"])"));
    CHECK_STR(load_error("counters_num.json", "{\"counters\": [\"a\", 3]}"),
              in_tmp("counters_num.json:1: \"counters\"[1] must be an event name (a string), not"
                     " an integer"));
    CHECK_STR(load_error("counters_empty.json", "{\"counters\": [\"\"]}"),
              in_tmp("counters_empty.json:1: \"counters\"[0] must be an event name, not \"\""));
    CHECK_STR(load_error("counters_nine.json",
                         "{\"counters\": [\"a\",\"b\",\"c\",\"d\",\"e\",\"f\",\"g\",\"h\",\"i\"]}"),
              in_tmp("counters_nine.json:1: \"counters\" names 9 entries; at most 8 are allowed"));
}

static void test_trace_section(void)
{
    struct ht_config cfg;
    char err[1024];
    ht_config_defaults(&cfg);
    CHECK(!cfg.trace.enabled);
    CHECK(cfg.trace.folder == NULL && cfg.trace.name == NULL);
    CHECK_EQ_U64(cfg.trace.buffer_mib, 16);
    CHECK(ht_config_function_traced(&cfg, "anything"));
    const char *path = tmp_file("trace_ok.json",
                                "{\"trace\": {\"enabled\": true, \"folder\": \"t/x\", \"name\": \"run1\",\n"
                                " \"include_functions\": [\"^solve\"], \"exclude_functions\": [\"_fast$\"],\n"
                                " \"buffer_mib\": 1}}");
    CHECK_EQ_U64(ht_config_load_file(path, &cfg, err, sizeof err), 0);
    CHECK(cfg.trace.enabled);
    CHECK_STR(cfg.trace.folder, "t/x");
    CHECK_STR(cfg.trace.name, "run1");
    CHECK_EQ_U64(cfg.trace.buffer_mib, 1);
    CHECK_EQ_U64(cfg.trace.max_bytes_per_rank, 1073741824);
    /* The one default, with trace mode on or not. */
    CHECK_EQ_U64(cfg.throttle.min_calls, 1000);
    CHECK(ht_config_function_traced(&cfg, "solve_all"));
    CHECK(!ht_config_function_traced(&cfg, "solve_fast"));
    CHECK(!ht_config_function_traced(&cfg, "main"));
    /* The trace lists leave the profile's alone. */
    CHECK(ht_config_function_kept(&cfg, "main"));
    ht_config_free(&cfg);

    ht_config_defaults(&cfg);
    path = tmp_file("trace_bound.json", "{\"trace\": {\"enabled\": true, \"max_bytes_per_rank\": "
                    "4611686018427387904}, \"throttle\": {\"min_calls\": 100000}}");
    CHECK_EQ_U64(ht_config_load_file(path, &cfg, err, sizeof err), 0);
    CHECK_EQ_U64(cfg.trace.max_bytes_per_rank, 4611686018427387904ull);
    CHECK_EQ_U64(cfg.throttle.min_calls, 100000);
    ht_config_free(&cfg);
    ht_config_defaults(&cfg);
    path = tmp_file("trace_nobound.json", "{\"trace\": {\"max_bytes_per_rank\": 0}}");
    CHECK_EQ_U64(ht_config_load_file(path, &cfg, err, sizeof err), 0);
    CHECK_EQ_U64(cfg.trace.max_bytes_per_rank, 0);
    CHECK_EQ_U64(cfg.throttle.min_calls, 1000); /* the default, in trace mode or not */
    ht_config_free(&cfg);
    CHECK_STR(load_error("trace4.json", "{\"trace\": {\"max_bytes_per_rank\": -1}}"),
              in_tmp("trace4.json:1: \"trace.max_bytes_per_rank\" must be an integer from 0 to "
                     "4611686018427387904, not -1"));
    CHECK_STR(load_error("trace5.json", "{\"trace\": {\"max_bytes_per_rank\": \"1G\"}}"),
              in_tmp("trace5.json:1: \"trace.max_bytes_per_rank\" must be an integer >= 0, not a "
                     "string"));
    CHECK_STR(load_error("trace1.json", "{\"trace\": {\"buffer_mib\": 0}}"),
              in_tmp("trace1.json:1: \"trace.buffer_mib\" must be an integer from 1 to 65536, not 0"));
    CHECK_STR(load_error("trace2.json", "{\"trace\": {\"name\": \"a/b\"}}"),
              in_tmp("trace2.json:1: \"trace.name\" must be a file name without '/', not \"a/b\"; "
                     "put the directory in \"output_directory\""));
    CHECK_STR(load_error("trace3.json", "{\"trace\": {\"enabled\": \"yes\"}}"),
              in_tmp("trace3.json:1: \"trace.enabled\" must be true or false, not a string"));
}

static void test_wrong_types(void)
{
    CHECK_STR(
        load_error("depth_str.json", "{\n  \"max_stack_depth\": \"deep\"\n}"),
        in_tmp("depth_str.json:2: \"max_stack_depth\" must be an integer >= 1, not a string"));
    CHECK_STR(load_error("depth_quoted.json", "{\"max_stack_depth\": \"512\"}"),
              in_tmp("depth_quoted.json:1: \"max_stack_depth\" must be an integer >= 1, not a "
                     "string (write 512 without quotes)"));
    CHECK_STR(load_error("depth_real.json", "{\"max_stack_depth\": 2.5}"),
              in_tmp("depth_real.json:1: \"max_stack_depth\" must be an integer >= 1, not a real "
                     "number (2.5)"));
    CHECK_STR(load_error("off_str.json", "{\"off\": \"true\"}"),
              in_tmp("off_str.json:1: \"off\" must be true or false, not a string (write true "
                     "without quotes)"));
    CHECK_STR(load_error("off_int.json", "{\"off\": 1}"),
              in_tmp("off_int.json:1: \"off\" must be true or false, not an integer"));
    CHECK_STR(
        load_error("nested_type.json",
                   "{\n  \"outputs\": {\n    \"logfile\": false,\n    \"json\": null\n  }\n}"),
        in_tmp("nested_type.json:4: \"outputs.json\" must be true or false, not null"));
    CHECK_STR(load_error("outputs_bool.json", "{\"outputs\": false}"),
              in_tmp("outputs_bool.json:1: \"outputs\" must be an object with the keys logfile, "
                     "log_stacks, progress_after_ms, json, folded, speedscope, hatchet, html, not "
                     "a boolean"));
    CHECK_STR(load_error("dir_int.json", "{\"output_directory\": 7}"),
              in_tmp("dir_int.json:1: \"output_directory\" must be a string, not an integer"));
    CHECK_STR(load_error("sort_int.json", "{\"sort_by\": 1}"),
              in_tmp("sort_int.json:1: \"sort_by\" must be one of \"time_excl\", \"time_incl\", "
                     "\"calls\", \"function\", \"stack_id\", not an integer"));
    CHECK_STR(load_error("incl_str.json", "{\"include_functions\": \"^main$\"}"),
              in_tmp("incl_str.json:1: \"include_functions\" must be an array of strings (regular "
                     "expressions), not a string (for one pattern write [\"^main$\"])"));
    CHECK_STR(load_error("incl_obj.json", "{\"include_functions\": {}}"),
              in_tmp("incl_obj.json:1: \"include_functions\" must be an array of strings (regular "
                     "expressions), not an object"));
    CHECK_STR(load_error("incl_elem.json", "{\"include_functions\": [\"a\",\n  3]}"),
              in_tmp("incl_elem.json:2: \"include_functions\"[1] must be a string (a regular "
                     "expression), not an integer"));
}

static void test_bad_values(void)
{
    CHECK_STR(load_error("sort.json", "{\n\n  \"sort_by\": \"time_exc\"}"),
              in_tmp("sort.json:3: \"sort_by\" must be one of \"time_excl\", \"time_incl\", "
                     "\"calls\", \"function\", \"stack_id\", not \"time_exc\" (did you mean "
                     "\"time_excl\"?)"));
    CHECK_STR(load_error("sort2.json", "{\"sort_by\": \"name\"}"),
              in_tmp("sort2.json:1: \"sort_by\" must be one of \"time_excl\", \"time_incl\", "
                     "\"calls\", \"function\", \"stack_id\", not \"name\""));
    CHECK_STR(
        load_error("zero.json", "{\"max_stack_depth\": 0}"),
        in_tmp("zero.json:1: \"max_stack_depth\" must be an integer from 1 to 1000000, not 0"));
    CHECK_STR(
        load_error("neg.json", "{\"max_stack_depth\": -5}"),
        in_tmp("neg.json:1: \"max_stack_depth\" must be an integer from 1 to 1000000, not -5"));
    CHECK_STR(load_error("big.json", "{\"max_stack_depth\": 1000001}"),
              in_tmp("big.json:1: \"max_stack_depth\" must be an integer from 1 to 1000000, not "
                     "1000001"));
    CHECK_STR(load_error("huge.json", "{\"max_stack_depth\": 99999999999}"),
              in_tmp("huge.json:1: \"max_stack_depth\" must be an integer from 1 to 1000000, not "
                     "99999999999"));
    CHECK_STR(load_error("base_empty.json", "{\"output_basename\": \"\"}"),
              in_tmp("base_empty.json:1: \"output_basename\" must not be empty; leave it out to "
                     "name the files after the executable"));
    CHECK_STR(load_error("base_slash.json", "{\"output_basename\": \"out/run\"}"),
              in_tmp("base_slash.json:1: \"output_basename\" must be a file name without '/', not "
                     "\"out/run\"; put the directory in \"output_directory\""));
    /* ".." made the files "...json", "...log": hidden, named like the
     * parent folder; a 300-byte name made every file fail at exit with
     * "File name too long" (issue 23). */
    CHECK_STR(load_error("base_dotdot.json", "{\"output_basename\": \"..\"}"),
              in_tmp("base_dotdot.json:1: \"output_basename\" must be a plain file name, not "
                     "\"..\" (the files would be hidden and named like the folder itself or its "
                     "parent)"));
    CHECK_STR(load_error("base_dot.json", "{\"output_basename\": \".\"}"),
              in_tmp("base_dot.json:1: \"output_basename\" must be a plain file name, not "
                     "\".\" (the files would be hidden and named like the folder itself or its "
                     "parent)"));
    {
        char doc[400], name[301];
        memset(name, 'n', 300);
        name[300] = '\0';
        snprintf(doc, sizeof doc, "{\"output_basename\": \"%s\"}", name);
        CHECK_STR(load_error("base_long.json", doc),
                  in_tmp("base_long.json:1: \"output_basename\" is 300 bytes long: at most 128, so "
                         "that every file name made from it (rank, concurrent-run suffix, "
                         "\".speedscope.json\") stays within the file system's limit of 255 "
                         "bytes"));
        name[128] = '\0'; /* the longest accepted */
        snprintf(doc, sizeof doc, "{\"output_basename\": \"%s\"}", name);
        CHECK_STR(load_error("base_128.json", doc), "");
    }
    CHECK_STR(load_error("dir_empty.json", "{\"output_directory\": \"\"}"),
              in_tmp("dir_empty.json:1: \"output_directory\" must not be empty; use \".\" for the "
                     "current directory"));
}

static void test_bad_regex(void)
{
    char expected[1024];
    const char *path = fixture("bad_regex.json");
    struct ht_config cfg;
    char err[1024];
    ht_config_defaults(&cfg);
    CHECK_EQ_U64(ht_config_load_file(path, &cfg, err, sizeof err), (uint64_t)-1);
    snprintf(
        expected, sizeof expected,
        "%s:5: \"exclude_functions\"[2]: invalid regular expression \"a(b\": Unmatched ( or \\(",
        path);
    CHECK_STR(err, expected);
    CHECK_EQ_U64(cfg.exclude_functions.count, 0); /* nothing half-applied */
    ht_config_free(&cfg);

    CHECK_STR(load_error("regex_inline.json", "{\"include_functions\": [\"[z-a]\"]}"),
              in_tmp("regex_inline.json:1: \"include_functions\"[0]: invalid regular expression "
                     "\"[z-a]\": Invalid range end"));
}

/* hooktrace-check-config's reading (ht_config_check_file): every problem,
 * in file order, each message as the runtime's one; the runtime's reading
 * of the same file still stops at the first. */
struct messages {
    int count;
    char text[8][1024];
};

static void collect(void *arg, const char *message)
{
    struct messages *m = arg;
    if (m->count < 8)
        snprintf(m->text[m->count], sizeof m->text[0], "%s", message);
    m->count++;
}

static void test_every_problem(void)
{
    char expected[1024];
    const char *path = fixture("bad_four.json");
    struct ht_config cfg;
    char err[1024];
    ht_config_defaults(&cfg);
    CHECK_EQ_U64(ht_config_load_file(path, &cfg, err, sizeof err), (uint64_t)-1);
    snprintf(expected, sizeof expected,
             "%s:2: \"max_stack_depth\" must be an integer >= 1, not a string (write 512 "
             "without quotes)", path);
    CHECK_STR(err, expected);
    ht_config_free(&cfg);

    struct messages m = {0};
    ht_config_defaults(&cfg);
    CHECK_EQ_U64(ht_config_check_file(path, &cfg, collect, &m), (uint64_t)-1);
    ht_config_free(&cfg);
    CHECK_EQ_U64(m.count, 4);
    CHECK_STR(m.text[0], expected);
    snprintf(expected, sizeof expected,
             "%s:4: unknown key \"poll_btach\" in \"mpi\"; valid keys are: log_messages, "
             "log_ranks, rank_files, poll_interval_us, poll_max_interval_us, poll_batch, poll, "
             "rank_times_top, rank_profiles_all (did you mean \"poll_batch\"?)", path);
    CHECK_STR(m.text[1], expected);
    snprintf(expected, sizeof expected,
             "%s:5: \"exclude_functions\"[1]: invalid regular expression \"a(b\": Unmatched ( "
             "or \\(", path);
    CHECK_STR(m.text[2], expected);
    snprintf(expected, sizeof expected,
             "%s:6: \"outputs.progress_after_ms\" must be an integer from 0 to 3600000, not -1",
             path);
    CHECK_STR(m.text[3], expected);

    /* Each bad element of a rank list and a regex list, in nested sections. */
    const char *lists = tmp_file("lists.json", "{\"mpi\": {\"log_ranks\": [-1, 2, \"x\"]},\n"
                                               " \"trace\": {\"exclude_functions\": [1, \"(\"]}}");
    m.count = 0;
    ht_config_defaults(&cfg);
    CHECK_EQ_U64(ht_config_check_file(lists, &cfg, collect, &m), (uint64_t)-1);
    ht_config_free(&cfg);
    CHECK_EQ_U64(m.count, 4);
    CHECK_STR(m.text[0], in_tmp("lists.json:1: \"mpi.log_ranks\"[0] must be a rank (an integer >= 0), not -1"));
    CHECK_STR(m.text[1], in_tmp("lists.json:1: \"mpi.log_ranks\"[2] must be a rank (an integer >= 0), not a string"));
    CHECK_STR(m.text[2], in_tmp("lists.json:2: \"trace.exclude_functions\"[0] must be a string (a regular expression), not an integer"));
    CHECK_STR(m.text[3], in_tmp("lists.json:2: \"trace.exclude_functions\"[1]: invalid regular expression \"(\": Unmatched ( or \\("));

    /* A syntax error ends the reading; a valid file gives no message. */
    m.count = 0;
    ht_config_defaults(&cfg);
    CHECK_EQ_U64(ht_config_check_file(tmp_file("syntax.json", "{\"off\": tru, \"x\": 1}"), &cfg,
                                      collect, &m), (uint64_t)-1);
    ht_config_free(&cfg);
    CHECK_EQ_U64(m.count, 1);
    m.count = 0;
    ht_config_defaults(&cfg);
    CHECK_EQ_U64(ht_config_check_file(fixture("full.json"), &cfg, collect, &m), 0);
    ht_config_free(&cfg);
    CHECK_EQ_U64(m.count, 0);
}

static void test_locator(void)
{
    /* The key's name inside a string value earlier in the file is not the key. */
    CHECK_STR(load_error("in_string.json",
                         "{\"output_directory\": \"\\\"sort_by\\\": here\",\n\"sort_by\": 3}"),
              in_tmp("in_string.json:2: \"sort_by\" must be one of \"time_excl\", \"time_incl\", "
                     "\"calls\", \"function\", \"stack_id\", not an integer"));
    /* The same name at another level is not the key either. */
    CHECK_STR(
        load_error("levels.json", "{\"outputs\": {\"json\": true},\n \"json\": 1}"),
        in_tmp("levels.json:2: unknown key \"json\" in the top level; valid keys are: " TOP_KEYS
               " (\"json\" belongs in \"outputs\")"));
    /* Array elements before the bad one may hold brackets and commas. */
    CHECK_STR(
        load_error("elems.json", "{\"exclude_functions\": [\"a[,]\", \"b\\\"]\",\n\n  \"(\"]}"),
        in_tmp("elems.json:3: \"exclude_functions\"[2]: invalid regular expression \"(\": "
               "Unmatched ( or \\("));
    /* A key spelled with escapes is not found: the message has no line. */
    CHECK_STR(load_error("escaped_key.json", "{\n\"\\u006fff\": 1}"),
              in_tmp("escaped_key.json: \"off\" must be true or false, not an integer"));
    /* The first problem in the file is the one reported. */
    CHECK_STR(load_error("order.json", "{\"sort_by\": \"x\",\n \"outptus\": 1}"),
              in_tmp("order.json:1: \"sort_by\" must be one of \"time_excl\", \"time_incl\", "
                     "\"calls\", \"function\", \"stack_id\", not \"x\""));
}

static void test_unreadable(void)
{
    struct ht_config cfg;
    char err[1024];
    ht_config_defaults(&cfg);
    CHECK_EQ_U64(ht_config_load_file(in_tmp("missing.json"), &cfg, err, sizeof err), (uint64_t)-1);
    CHECK_STR(err, in_tmp("missing.json: cannot read the config file: No such file or directory"));
    CHECK(cfg.source_file == NULL);
    /* A folder opens, but only a regular file is read. */
    CHECK_EQ_U64(ht_config_load_file(tmp_dir, &cfg, err, sizeof err), (uint64_t)-1);
    char expected[512];
    snprintf(expected, sizeof expected,
             "%s: cannot read the config file: it is a directory, not a regular file", tmp_dir);
    CHECK_STR(err, expected);
    ht_config_free(&cfg);
}

static void test_edit_distance(void)
{
    CHECK_EQ_U64(ht_config_edit_distance("outputs", "outputs", 2), 0);
    CHECK_EQ_U64(ht_config_edit_distance("outptus", "outputs", 2), 1);
    CHECK_EQ_U64(ht_config_edit_distance("of", "off", 2), 1);
    CHECK_EQ_U64(ht_config_edit_distance("", "ab", 2), 2);
    CHECK(ht_config_edit_distance("colour", "off", 2) > 2);
}

static void test_small_buffer(void)
{
    /* Cut short, never overrun, always terminated. */
    struct ht_config cfg;
    char err[16];
    memset(err, 'x', sizeof err);
    ht_config_defaults(&cfg);
    CHECK_EQ_U64(ht_config_load_file(fixture("bad_unknown_key.json"), &cfg, err, 12), (uint64_t)-1);
    CHECK_EQ_U64(strlen(err), 11);
    CHECK(err[12] == 'x');
    ht_config_free(&cfg);
}

static void test_throttle_section(void)
{
    struct ht_config cfg;
    char err[1024];
    ht_config_defaults(&cfg);
    CHECK(cfg.throttle.enabled && cfg.throttle.patch_code);
    CHECK_EQ_U64(cfg.throttle.min_calls, 1000);
    CHECK(cfg.throttle.budget == 0.02);
    CHECK_EQ_U64(cfg.throttle.max_ns_per_call, 0); /* not set: the threshold comes from the budget */
    CHECK_EQ_U64(cfg.throttle.never.count, 0);
    CHECK(!ht_config_function_never_throttled(&cfg, "anything"));
    const char *path = tmp_file("throttle_ok.json",
                                "{\"throttle\": {\"enabled\": true, \"min_calls\": 5000,\n"
                                " \"max_ns_per_call\": 250, \"never\": [\"^Domain::x$\", \"::leaf$\"],\n"
                                " \"patch_code\": false, \"budget\": 0.05}}");
    CHECK_EQ_U64(ht_config_load_file(path, &cfg, err, sizeof err), 0);
    CHECK(cfg.throttle.enabled && !cfg.throttle.patch_code);
    CHECK_EQ_U64(cfg.throttle.min_calls, 5000);
    CHECK_EQ_U64(cfg.throttle.max_ns_per_call, 250);
    CHECK(cfg.throttle.budget == 0.05);
    CHECK_EQ_U64(cfg.throttle.never.count, 2);
    CHECK(ht_config_function_never_throttled(&cfg, "Domain::x"));
    CHECK(ht_config_function_never_throttled(&cfg, "reqs::leaf"));
    CHECK(!ht_config_function_never_throttled(&cfg, "Domain::xd"));
    ht_config_free(&cfg);
    /* The bounds themselves, and an integer for a number. */
    ht_config_defaults(&cfg);
    path = tmp_file("throttle_budget1.json", "{\"throttle\": {\"budget\": 1}}");
    CHECK_EQ_U64(ht_config_load_file(path, &cfg, err, sizeof err), 0);
    CHECK(cfg.throttle.budget == 1.0);
    path = tmp_file("throttle_budget2.json", "{\"throttle\": {\"budget\": 0.0001}}");
    CHECK_EQ_U64(ht_config_load_file(path, &cfg, err, sizeof err), 0);
    CHECK(cfg.throttle.budget == 0.0001);
    ht_config_free(&cfg);

    CHECK_STR(load_error("throttle7.json", "{\"throttle\": {\n\n\"budget\": 0}}"),
              in_tmp("throttle7.json:3: \"throttle.budget\" must be a number from 0.0001 to 1, "
                     "not 0"));
    CHECK_STR(load_error("throttle8.json", "{\"throttle\": {\"budget\": 2}}"),
              in_tmp("throttle8.json:1: \"throttle.budget\" must be a number from 0.0001 to 1, "
                     "not 2"));
    CHECK_STR(load_error("throttle9.json", "{\"throttle\": {\"budget\": -0.02}}"),
              in_tmp("throttle9.json:1: \"throttle.budget\" must be a number from 0.0001 to 1, "
                     "not -0.02"));
    CHECK_STR(load_error("throttle10.json", "{\"throttle\": {\"budget\": 1.0000001}}"),
              in_tmp("throttle10.json:1: \"throttle.budget\" must be a number from 0.0001 to 1, "
                     "not 1.0000001000000001"));
    CHECK_STR(load_error("throttle11.json", "{\"throttle\": {\"budget\": \"0.02\"}}"),
              in_tmp("throttle11.json:1: \"throttle.budget\" must be a number from 0.0001 to 1, "
                     "not a string (write 0.02 without quotes)"));
    CHECK_STR(load_error("throttle12.json", "{\"throttle\": {\"budget\": \"2%\"}}"),
              in_tmp("throttle12.json:1: \"throttle.budget\" must be a number from 0.0001 to 1, "
                     "not a string"));
    CHECK_STR(load_error("throttle13.json", "{\"throttle\": {\"budget\": null}}"),
              in_tmp("throttle13.json:1: \"throttle.budget\" must be a number from 0.0001 to 1, "
                     "not null"));
    CHECK_STR(load_error("throttle1.json", "{\"throttle\": {\"min_calls\": 0}}"),
              in_tmp("throttle1.json:1: \"throttle.min_calls\" must be an integer from 1 to "
                     "4000000000, not 0"));
    CHECK_STR(load_error("throttle2.json", "{\"throttle\": {\n\"max_ns_per_call\": -5}}"),
              in_tmp("throttle2.json:2: \"throttle.max_ns_per_call\" must be an integer from 1 to "
                     "1000000000, not -5"));
    CHECK_STR(load_error("throttle3.json", "{\"throttle\": {\"never\": [\"(bad\"]}}"),
              in_tmp("throttle3.json:1: \"throttle.never\"[0]: invalid regular expression "
                     "\"(bad\": Unmatched ( or \\("));
    CHECK_STR(load_error("throttle4.json", "{\"throttle\": {\"enabld\": true}}"),
              in_tmp("throttle4.json:1: unknown key \"enabld\" in \"throttle\"; valid keys are: "
                     "enabled, min_calls, budget, max_ns_per_call, never, patch_code (did you mean "
                     "\"enabled\"?)"));
    CHECK_STR(load_error("throttle5.json", "{\"throttle\": true}"),
              in_tmp("throttle5.json:1: \"throttle\" must be an object with the keys enabled, "
                     "min_calls, budget, max_ns_per_call, never, patch_code, not a boolean"));
    CHECK_STR(load_error("throttle6.json", "{\"throttle\": {\"never\": \"main\"}}"),
              in_tmp("throttle6.json:1: \"throttle.never\" must be an array of strings (regular "
                     "expressions), not a string (for one pattern write [\"main\"])"));
}

int main(void)
{
    test_defaults();
    test_empty_object();
    test_full_file();
    test_each_sort_value_and_limits();
    test_syntax_errors();
    test_unknown_keys();
    test_mpi_section();
    test_log_stacks();
    test_trace_section();
    test_counters();
    test_throttle_section();
    test_wrong_types();
    test_bad_values();
    test_bad_regex();
    test_every_problem();
    test_locator();
    test_unreadable();
    test_edit_distance();
    test_small_buffer();
    tmp_cleanup();
    return CHECK_DONE();
}
