/* longjmp out of three instrumented frames; calls made afterwards must be
 * attributed to main, not to the abandoned frames. */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf env;

__attribute__((noinline)) static void thrower(void) { longjmp(env, 1); }
__attribute__((noinline)) static void middle(void) { thrower(); }
__attribute__((noinline)) static void outer(void) { middle(); }
__attribute__((noinline)) static void after(void) { printf("longjmp: after\n"); }

int main(void)
{
    for (int i = 0; i < 4; i++) {
        if (setjmp(env) == 0)
            outer();
        after(); /* main;after x4 */
    }
    return 0;
}
