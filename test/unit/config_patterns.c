/* Pattern lists (src/config/patterns.c): plain names looked up in a table
 * must match exactly as regexec would; the limits on real regular
 * expressions and their exact messages; and trace.name, which must be a
 * plain file name (it is a folder inside trace.folder that is replaced). */
#include <regex.h>

#include "check.h"
#include "config_testutil.h"

#include "config/config_internal.h"
#include "config/patterns.h"

/* Each pattern, as a one-pattern exclude list, against each name: the
 * table's answer must be regexec's. */
static void test_plain_matches_like_regexec(void)
{
    static const char *const patterns[] = {"", "^", "$", "^$", "solve", "^solve", "solve$",
                                           "^solve$", "MPI_", "^MPI_Send$", "e_s", "x", "::",
                                           "std::vector<int>", "^main", "n$", "a-b", "~"};
    static const char *const names[] = {"solve", "solver", "resolve", "solve_all", "main",
                                        "MPI_Send", "MPI_Sendrecv", "PMPI_Send", "",
                                        "std::vector<int>::size", "a-b", "domain", "x~y"};
    for (size_t p = 0; p < sizeof patterns / sizeof patterns[0]; p++) {
        CHECK(ht_pattern_is_plain(patterns[p]));
        regex_t re;
        CHECK_EQ_U64(regcomp(&re, patterns[p], REG_EXTENDED | REG_NOSUB), 0);
        struct ht_pattern_set *set = ht_pattern_set_new(1);
        CHECK_EQ_U64(ht_pattern_set_add(set, patterns[p]), 0);
        for (size_t n = 0; n < sizeof names / sizeof names[0]; n++) {
            bool expected = regexec(&re, names[n], 0, NULL, 0) == 0;
            if (ht_pattern_set_matches(set, names[n]) != expected) {
                fprintf(stderr, "pattern \"%s\", name \"%s\": regexec says %d\n", patterns[p],
                        names[n], expected);
                CHECK(0);
            }
        }
        ht_pattern_set_free(set);
        regfree(&re);
    }
    /* Not plain: each has an operator, or ^ or $ inside. */
    static const char *const regexes[] = {"a.b", "a*", "a+", "a?", "(a)", "[a]", "a|b", "a{2}",
                                          "a\\.b", "a^b", "a$b", "^^a", "a$$", "}"};
    for (size_t i = 0; i < sizeof regexes / sizeof regexes[0]; i++)
        CHECK(!ht_pattern_is_plain(regexes[i]));
}

/* A list mixing both kinds: the profile's filter answers for each. */
static void test_mixed_list(void)
{
    struct ht_config cfg;
    char err[1024];
    ht_config_defaults(&cfg);
    const char *path = tmp_file("mixed.json", "{\"exclude_functions\": [\"^MPI_\", \"helper$\", "
                                              "\"^main$\", \"a.c\", \"x|y\", \"tiny\"]}");
    CHECK_EQ_U64(ht_config_load_file(path, &cfg, err, sizeof err), 0);
    CHECK_EQ_U64(cfg.exclude_functions.count, 6);
    CHECK_EQ_U64(cfg.exclude_functions.nregex, 2); /* a.c and x|y */
    CHECK_STR(cfg.exclude_functions.patterns[3], "a.c");
    static const char *const out[] = {"io_helper", "main", "abc", "axc", "y", "tiny2"};
    static const char *const in[] = {"PMPI_Send", "helpers", "main2", "ac", "solve"};
    for (size_t i = 0; i < sizeof out / sizeof out[0]; i++)
        CHECK(!ht_config_function_kept(&cfg, out[i]));
    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++)
        CHECK(ht_config_function_kept(&cfg, in[i]));
    /* ^MPI_ matches MPI_Send, but an MPI routine is never filtered out
     * (docs/filter.md). */
    CHECK(ht_regex_list_matches(&cfg.exclude_functions, "MPI_Send"));
    CHECK(!ht_regex_list_matches(&cfg.exclude_functions, "PMPI_Send"));
    CHECK(ht_config_function_kept(&cfg, "MPI_Send"));
    CHECK(!ht_config_function_filtered_out(&cfg, "MPI_Send", "MPI_Send"));
    ht_config_free(&cfg);
}

/* A list of text patterns written as JSON: "p0", "p1", ... */
static char *json_list(const char *key, size_t n, const char *fmt)
{
    size_t cap = 64 + n * 32;
    char *text = malloc(cap);
    size_t pos = 0;
    pos += (size_t)snprintf(text + pos, cap - pos, "{\"%s\": [", key);
    for (size_t i = 0; i < n; i++) {
        pos += (size_t)snprintf(text + pos, cap - pos, "%s\"", i ? ", " : "");
        pos += (size_t)snprintf(text + pos, cap - pos, fmt, i);
        pos += (size_t)snprintf(text + pos, cap - pos, "\"");
    }
    snprintf(text + pos, cap - pos, "]}");
    return text;
}

static void test_limits(void)
{
    /* 1000 regular expressions are accepted, the 1001st is not; plain
     * names do not count. */
    char *ok = json_list("exclude_functions", 1000, "^f%zu_.*");
    CHECK_STR(load_error("regex_1000.json", ok), "");
    free(ok);
    char *over = json_list("exclude_functions", 1001, "^f%zu_.*");
    CHECK_STR(load_error("regex_1001.json", over),
              in_tmp("regex_1001.json:1: \"exclude_functions\"[1000]: too many regular "
                     "expressions in one list: at most 1000 (plain names, \"^name\", \"name$\" "
                     "and \"^name$\" are not counted)"));
    free(over);
    char *plain = json_list("include_functions", 5000, "^f%zu$");
    CHECK_STR(load_error("plain_5000.json", plain), "");
    free(plain);

    /* glibc copies the operand of + and {m,n}: found by the fuzzer, 80
     * '+' in a row took 1.4 GB in regcomp (test/fuzz/corpus/config). */
    CHECK_EQ_U64((uint64_t)ht_pattern_regex_size("^a{1,100}$"), 103);
    CHECK_EQ_U64((uint64_t)ht_pattern_regex_size("(ab){3}"), 10);
    CHECK(ht_pattern_regex_size("a+++++++++++++++++++++++++++++++") > 1e9);
    CHECK_STR(load_error("plusses.json", "{\"exclude_functions\": [\"^er++++++++++++++++$\"]}"),
              in_tmp("plusses.json:1: \"exclude_functions\"[0]: regular expression "
                     "\"^er++++++++++++++++$\" has two repetition operators in a row (at offset "
                     "4), which POSIX leaves undefined; write one"));
    /* A back-reference is matched by backtracking: one "\1" pattern cost
     * 11 s at exit (issue 23).  Inside brackets "\1" is two characters. */
    CHECK_STR(load_error("backref.json", "{\"exclude_functions\": [\"^(a+)b\\\\1$\"]}"),
              in_tmp("backref.json:1: \"exclude_functions\"[0]: regular expression "
                     "\"^(a+)b\\\\1$\" has a back-reference (\\1 at offset 6), which is matched "
                     "by backtracking and can take seconds per name; back-references are not "
                     "accepted"));
    CHECK_EQ_U64(ht_pattern_back_reference("x(y)\\9"), 4);
    CHECK_EQ_U64(ht_pattern_back_reference("[\\1]x"), (uint64_t)-1);
    CHECK_EQ_U64(ht_pattern_back_reference("a\\\\1"), (uint64_t)-1);
    /* The fuzzer's second and third finds: regcomp spent minutes in its
     * epsilon closure (test/fuzz/corpus/config/regress-regcomp-*.json);
     * the third stayed under the size limit. */
    CHECK_STR(load_error("eclosure.json", "{\"exclude_functions\": [\n"
                                          "\"^e++?++++++poll_interval_us++++++++++++$\"]}"),
              in_tmp("eclosure.json:2: \"exclude_functions\"[0]: regular expression "
                     "\"^e++?++++++poll_interval_us++++++++++++$\" has two repetition operators "
                     "in a row (at offset 3), which POSIX leaves undefined; write one"));
    CHECK(ht_pattern_regex_size("^e++?++++++poll_interval_us+++++xclud+++++++$") < 1000);
    CHECK_EQ_U64(ht_pattern_stacked_repetition("^e++?++++++poll_interval_us+++++xclud+++++++$"),
                 3);
    CHECK_EQ_U64(ht_pattern_stacked_repetition("a*?"), 2);
    CHECK_EQ_U64(ht_pattern_stacked_repetition("a{2}+"), 4);
    CHECK_EQ_U64(ht_pattern_stacked_repetition("(a+)+[+*]\\++x{2}"), (uint64_t)-1);
    CHECK(ht_pattern_regex_size("((((((((((a+)+)+)+)+)+)+)+)+)+)+") > 1000);
    CHECK_STR(load_error("nested.json",
                         "{\"include_functions\": [\"x\",\n \"((a{1,99}){1,99}){1,99}\"]}"),
              in_tmp("nested.json:2: \"include_functions\"[1]: regular expression "
                     "\"((a{1,99}){1,99}){1,99}\" is too complex: its repetitions (+, {m,n}) "
                     "would expand to more than 1000 elements"));
    CHECK_STR(load_error("fine.json", "{\"include_functions\": [\"(a{1,30}){1,30}\", \"((a+)+)+\"]}"),
              "");
    CHECK_STR(load_error("big1000.json", "{\"include_functions\": [\"a{1,1001}\"]}"),
              in_tmp("big1000.json:1: \"include_functions\"[0]: regular expression "
                     "\"a{1,1001}\" is too complex: its repetitions (+, {m,n}) would expand to "
                     "more than 1000 elements"));
    /* Ten near the size limit are accepted (a{1,990}x9: 994), the eleventh
     * is not: the squares add up past the list's budget. */
    char *ten = json_list("exclude_functions", 10, "a{1,990}x%zu");
    CHECK_STR(load_error("ten.json", ten), "");
    free(ten);
    char *eleven = json_list("exclude_functions", 11, "a{1,990}x%zu");
    CHECK_STR(load_error("eleven.json", eleven),
              in_tmp("eleven.json:1: \"exclude_functions\"[10]: the regular expressions of this "
                     "list are too complex together (their repetitions would take more than "
                     "about 100 MB); use plain names where you can"));
    free(eleven);
}

static void test_trace_names(void)
{
    CHECK_STR(load_error("name_dotdot.json", "{\"trace\": {\"name\": \"..\"}}"),
              in_tmp("name_dotdot.json:1: \"trace.name\" must be a plain file name, not \"..\": "
                     "the archive's folder would be \"trace.folder\" itself or its parent"));
    CHECK_STR(load_error("name_dot.json", "{\"trace\": {\n\"name\": \".\"}}"),
              in_tmp("name_dot.json:2: \"trace.name\" must be a plain file name, not \".\": the "
                     "archive's folder would be \"trace.folder\" itself or its parent"));
    CHECK_STR(load_error("name_up.json", "{\"trace\": {\"name\": \"../x\"}}"),
              in_tmp("name_up.json:1: \"trace.name\" must be a file name without '/', not "
                     "\"../x\"; put the directory in \"output_directory\""));
    CHECK_STR(load_error("name_empty.json", "{\"trace\": {\"name\": \"\"}}"),
              in_tmp("name_empty.json:1: \"trace.name\" must not be empty; leave it out to name "
                     "the files after the executable"));
    CHECK_STR(load_error("name_ctrl.json", "{\"trace\": {\"name\": \"a\\tb\"}}"),
              in_tmp("name_ctrl.json:1: \"trace.name\" must be a file name without control "
                     "characters, not \"a\\u0009b\""));
    CHECK_STR(load_error("name_del.json", "{\"trace\": {\"name\": \"a\\u007fb\"}}"),
              in_tmp("name_del.json:1: \"trace.name\" must be a file name without control "
                     "characters, not \"a\x7f" "b\""));
    CHECK_STR(load_error("name_nul.json", "{\"trace\": {\"name\": \"a\\u0000b\"}}"),
              in_tmp("name_nul.json:1:29: syntax error: \\u0000 is not allowed without "
                     "JSON_ALLOW_NUL near '\"a\\u0000b\"'"));
    /* Names that only look odd are fine. */
    CHECK_STR(load_error("name_dots.json", "{\"trace\": {\"name\": \"...\"}}"), "");
    CHECK_STR(load_error("name_hidden.json", "{\"trace\": {\"name\": \".run\"}}"), "");
    CHECK_STR(load_error("name_space.json", "{\"trace\": {\"name\": \"run 1\"}}"), "");
}

int main(void)
{
    test_plain_matches_like_regexec();
    test_mixed_list();
    test_limits();
    test_trace_names();
    tmp_cleanup();
    return CHECK_DONE();
}
