/* Which loaded objects a scan opens (src/symbols/scan.c): the list of the
 * instrumented ones is read from the dynamic symbol tables in memory and
 * holds the executable and the objects that import the hooks, nothing
 * else: an MPI process's hundred libraries are not opened at shut-down. */
#include <stdbool.h>
#include <string.h>

#include "unit/check.h"
#include "symbols/internal.h"

int symlib_function(int x);
int symhooked_function(int x);

static bool holds(const struct ht_object_list *l, const char *suffix)
{
    size_t n = strlen(suffix);
    for (size_t i = 0; i < l->count; i++) {
        size_t len = strlen(l->objects[i].path);
        if (len >= n && strcmp(l->objects[i].path + len - n, suffix) == 0)
            return true;
    }
    return false;
}

int main(void)
{
    /* Both libraries are needed (a linker with --as-needed drops one
     * that is not called). */
    CHECK(symlib_function(1) == 4);
    CHECK(symhooked_function(1) == 15);

    struct ht_object_list all, hooked, exe;
    ht_object_list_take(&all, HT_LIST_ALL);
    ht_object_list_take(&hooked, HT_LIST_INSTRUMENTED);
    ht_object_list_take(&exe, HT_LIST_EXECUTABLE);

    CHECK(holds(&all, "/libsymfixture.so"));
    CHECK(holds(&all, "/libsymhooked.so"));
    CHECK(holds(&all, "/libc.so.6"));

    /* The executable first, then only libsymhooked: libsymfixture and the
     * C library define or ignore the hooks, they do not import them. */
    CHECK_EQ_U64(hooked.count, 2);
    CHECK(hooked.count > 0 && strcmp(hooked.objects[0].path, all.objects[0].path) == 0);
    CHECK(holds(&hooked, "/libsymhooked.so"));
    CHECK(!holds(&hooked, "/libsymfixture.so"));
    CHECK(!holds(&hooked, "/libc.so.6"));

    CHECK_EQ_U64(exe.count, 1);
    CHECK(all.count > 3);

    ht_object_list_free(&all);
    ht_object_list_free(&hooked);
    ht_object_list_free(&exe);
    return CHECK_DONE();
}
