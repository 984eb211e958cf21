/* What the loaded objects say of how they were built: whether hooktrace's
 * GCC plugin compiled any of them (each unit it compiles carries a
 * non-allocated section .hooktrace.plugin, src/plugin/exclude_list.cc), and
 * whether the executable was built by clang, which cannot load it.  Read
 * from the files' section headers at shut-down, for the throttling report's
 * advice (docs/throttle.md). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <gelf.h>
#include <string.h>
#include <unistd.h>

#include "symbols/internal.h"
#include "symbols/symbols.h"

/* .comment holds one NUL-terminated string per compiler that contributed
 * ("GCC: (Debian 12.2.0-14) 12.2.0", "Debian clang version 14.0.6"). */
static bool names_clang(Elf_Scn *scn)
{
    Elf_Data *data = elf_getdata(scn, NULL);
    const char *p = data && data->d_buf ? data->d_buf : NULL;
    size_t size = p ? data->d_size : 0;
    for (size_t at = 0; at < size;) {
        const char *end = memchr(p + at, '\0', size - at);
        size_t len = end ? (size_t)(end - (p + at)) : size - at;
        if (memmem(p + at, len, "clang version", 13))
            return true;
        at += len + 1;
    }
    return false;
}

static void read_object(const char *path, bool executable, struct ht_build_marks *out)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    size_t shstrndx;
    bool clang = false;
    if (elf && elf_kind(elf) == ELF_K_ELF && elf_getshdrstrndx(elf, &shstrndx) == 0) {
        for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
            GElf_Shdr shdr;
            const char *name;
            if (!gelf_getshdr(scn, &shdr) || !(name = elf_strptr(elf, shstrndx, shdr.sh_name)))
                continue;
            if (strcmp(name, ".hooktrace.plugin") == 0)
                out->plugin = true;
            else if (executable && strcmp(name, ".comment") == 0)
                clang = names_clang(scn);
        }
    }
    /* A clang build names GCC too, through the C library's crt files. */
    if (executable)
        out->clang_built = clang;
    if (elf)
        elf_end(elf);
    close(fd);
}

void ht_symbols_build_marks(struct ht_build_marks *out)
{
    *out = (struct ht_build_marks){0};
    if (elf_version(EV_CURRENT) == EV_NONE)
        return;
    struct ht_object_list objects;
    /* The plugin's mark is in instrumented objects only. */
    ht_object_list_take(&objects, HT_LIST_INSTRUMENTED);
    for (size_t i = 0; i < objects.count; i++)
        read_object(objects.objects[i].path, i == 0, out);
    ht_object_list_free(&objects);
}
