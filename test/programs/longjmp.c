/* longjmp out of three instrumented frames, and siglongjmp out of a signal
 * handler; calls made afterwards must be attributed to main, not to the
 * abandoned frames.  after() has a bigger frame than outer(), so its stack
 * address alone cannot tell that outer() was left. */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static jmp_buf env;
static sigjmp_buf sigenv;

__attribute__((noinline)) static void thrower(void) { longjmp(env, 1); }
__attribute__((noinline)) static void middle(void) { thrower(); }
__attribute__((noinline)) static void outer(void) { middle(); }

__attribute__((noinline)) static void after(void)
{
    volatile char big[512];
    memset((char *)big, 'a', sizeof big);
    printf("longjmp: after %c\n", big[511]);
}

__attribute__((noinline)) static void on_signal(int sig) { (void)sig; siglongjmp(sigenv, 1); }
__attribute__((noinline)) static void raiser(void) { raise(SIGUSR1); }

int main(void)
{
    for (int i = 0; i < 4; i++) {
        if (setjmp(env) == 0)
            outer();
        after(); /* main;after x4 */
    }
    signal(SIGUSR1, on_signal);
    if (sigsetjmp(sigenv, 1) == 0)
        raiser(); /* main;raiser;on_signal */
    after();
    return 0;
}
