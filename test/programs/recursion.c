/* Direct recursion 12 levels deep, and mutual recursion 3 rounds deep. */
#include <stdio.h>

__attribute__((noinline)) static int down(int n) { return n == 0 ? 0 : 1 + down(n - 1); }

static int pong(int n);
__attribute__((noinline)) static int ping(int n) { return n == 0 ? 0 : pong(n - 1) + 1; }
__attribute__((noinline)) static int pong(int n) { return n == 0 ? 0 : ping(n - 1) + 1; }

int main(void)
{
    int a = 0;
    for (int i = 0; i < 2; i++)
        a += down(11); /* down at depths 2..13 under main, each level called twice */
    int b = ping(5);    /* ping, pong, ping, pong, ping, pong */
    printf("recursion: %d %d\n", a, b);
    return 0;
}
