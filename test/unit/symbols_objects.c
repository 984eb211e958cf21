/* Which loaded objects a scan opens (src/symbols/scan.c): the list of the
 * instrumented ones is read from the dynamic symbol tables in memory and
 * holds the executable and the objects that import the hooks, nothing
 * else: an MPI process's hundred libraries are not opened at shut-down.
 * The files' own symbol tables (ht_symbols_imports_hooks) say which those
 * are: a build whose CFLAGS instrument everything (CI's sanitizer stage)
 * instruments libsymfixture too. */
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

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

    /* The executable first, then exactly the objects whose file imports
     * the hooks: libsymhooked always, never the C library, which defines
     * them. */
    CHECK(hooked.count > 0 && strcmp(hooked.objects[0].path, all.objects[0].path) == 0);
    size_t importing = 1;
    for (size_t i = 1; i < all.count; i++) {
        int fd = open(all.objects[i].path, O_RDONLY | O_CLOEXEC);
        bool imports = fd >= 0 && ht_symbols_imports_hooks(fd);
        if (fd >= 0)
            close(fd);
        importing += imports;
        CHECK(holds(&hooked, all.objects[i].path) == imports);
    }
    CHECK_EQ_U64(hooked.count, importing);
    CHECK(importing >= 2);
    CHECK(holds(&hooked, "/libsymhooked.so"));
    CHECK(!holds(&hooked, "/libc.so.6"));

    CHECK_EQ_U64(exe.count, 1);
    CHECK(all.count > 3);

    ht_object_list_free(&all);
    ht_object_list_free(&hooked);
    ht_object_list_free(&exe);
    return CHECK_DONE();
}
