/* exit() three calls deep; the status must come through unchanged, and the
 * calls still in progress must appear in the profile. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static void third(void)
{
    printf("exit_deep: exiting with 3\n");
    exit(3);
}
__attribute__((noinline)) static void second(void) { third(); }
__attribute__((noinline)) static void first(void) { second(); }

__attribute__((noinline)) static void at_exit_handler(void) { fflush(stdout); }

int main(void)
{
    atexit(at_exit_handler);
    first();
    return 0;
}
