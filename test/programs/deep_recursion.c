/* One recursion N levels deep (N from argv[1], default 100000): a profile
 * with N + 1 stacks, each one level deeper than its caller. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static long descend(long n)
{
    return n == 0 ? 0 : 1 + descend(n - 1);
}

int main(int argc, char **argv)
{
    long depth = argc > 1 ? atol(argv[1]) : 100000;
    /* descend(depth - 1) makes `depth` calls: levels 2 .. depth + 1 under main */
    printf("deep_recursion: %ld\n", descend(depth - 1) + 1);
    return 0;
}
