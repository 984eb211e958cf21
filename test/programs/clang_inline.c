/* Built by test/integration/clang.py with `hooktrace clang -O2`: the
 * helpers clang inlines lose their hooks (-finstrument-functions-after-
 * inlining), the functions kept out of line keep theirs with exact call
 * counts, and the output is the same as without hooktrace. */
#include <stdio.h>

static long sink;

/* Inlined at -O2: no node in the profile. */
static inline long square(long x)
{
    return x * x;
}

static long add_squares(long a, long b)
{
    return square(a) + square(b);
}

/* 5 calls from main, 100 inlined add_squares each. */
__attribute__((noinline)) static long accumulate(int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += add_squares(i, i + 1);
    return s;
}

/* 8 calls from main, each 1 + depth calls deep: 8 x 11 in all. */
__attribute__((noinline)) static void descend(int depth)
{
    if (depth > 0)
        descend(depth - 1);
    __atomic_fetch_add(&sink, depth, __ATOMIC_RELAXED);
}

/* Called through a pointer, 3 times. */
__attribute__((noinline)) static long twice(long v)
{
    return add_squares(v, 0) * 2;
}

int main(int argc, char **argv)
{
    (void)argv;
    long total = 0;
    for (int k = 0; k < 5; k++)
        total += accumulate(100 + k);
    for (int k = 0; k < 8; k++)
        descend(10);
    long (*volatile fn)(long) = twice;
    for (int k = 0; k < 3; k++)
        total += fn(k + argc);
    printf("clang_inline: %ld %ld\n", total, sink);
    return 0;
}
