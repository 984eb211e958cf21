/* The function index (function_index.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "output/function_index.h"

bool ht_function_index_init(struct ht_function_index *fi, size_t nstacks)
{
    size_t size = 16;
    while (size < 2 * nstacks)
        size *= 2;
    fi->mask = size - 1;
    fi->count = 0;
    fi->keys = calloc(size, sizeof *fi->keys);
    fi->values = malloc(size * sizeof *fi->values);
    fi->list = malloc((nstacks ? nstacks : 1) * sizeof *fi->list);
    return fi->keys && fi->values && fi->list;
}

void ht_function_index_free(struct ht_function_index *fi)
{
    free(fi->keys);
    free(fi->values);
    free(fi->list);
}

static uint64_t hash_string(uint64_t h, const char *s)
{
    for (; s && *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3u; /* FNV-1a */
    return h;
}

static bool same_function(const struct ht_function *a, const struct ht_function *b)
{
    if (a == b)
        return true;
    if (a->line != b->line || strcmp(a->name, b->name) != 0)
        return false;
    if (!a->file || !b->file)
        return a->file == b->file;
    return strcmp(a->file, b->file) == 0;
}

int ht_function_index_of(struct ht_function_index *fi, const struct ht_function *f)
{
    uint64_t h = hash_string(hash_string(0xcbf29ce484222325u, f->name), f->file) ^ f->line;
    size_t slot = (size_t)(h * 0x9E3779B97F4A7C15u) & fi->mask;
    while (fi->keys[slot] && !same_function(fi->keys[slot], f))
        slot = (slot + 1) & fi->mask;
    if (!fi->keys[slot]) {
        fi->keys[slot] = f;
        fi->values[slot] = fi->count;
        fi->list[fi->count++] = f;
    }
    return fi->values[slot];
}

static void json_chars(FILE *out, const char *s)
{
    const unsigned char *c = (const unsigned char *)s;
    while (*c) {
        const unsigned char *run = c;
        while (*c && *c != '"' && *c != '\\' && *c >= 0x20)
            c++;
        fwrite(run, 1, (size_t)(c - run), out);
        if (!*c)
            break;
        if (*c == '"' || *c == '\\')
            fprintf(out, "\\%c", *c);
        else
            fprintf(out, "\\u%04x", *c);
        c++;
    }
}

void ht_output_json_string(FILE *out, const char *s)
{
    ht_output_json_string_suffixed(out, s, "");
}

void ht_output_json_string_suffixed(FILE *out, const char *s, const char *suffix)
{
    fputc('"', out);
    json_chars(out, s);
    json_chars(out, suffix);
    fputc('"', out);
}
