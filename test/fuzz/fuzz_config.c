/* libFuzzer target: one input is one config file, checked by the very
 * code the runtime and hooktrace-check-config use (ht_config_parse_text:
 * jansson, the option tables, the messages and the line locator), then
 * the function filters are asked about a few names, which runs the
 * pattern matchers.  Built by scripts/fuzz.sh; docs/fuzzing.md. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "config/config_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = {"main", "solve", "MPI_Send", "std::vector<int>::size",
                                        "", "a", "__libc_start_main", "foo_bar_baz"};
    /* The reader hands the parser a NUL-terminated copy; so does this. */
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    struct ht_config cfg;
    char err[2048];
    ht_config_defaults(&cfg);
    if (ht_config_parse_text("fuzz.json", text, size, &cfg, err, sizeof err) == 0) {
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
            (void)ht_config_function_kept(&cfg, names[i]);
            (void)ht_config_function_traced(&cfg, names[i]);
            (void)ht_config_function_never_throttled(&cfg, names[i]);
        }
    } else if (memchr(err, '\0', sizeof err) == NULL) {
        abort(); /* a message must stay terminated, however long */
    }
    ht_config_free(&cfg);
    free(text);
    return 0;
}
