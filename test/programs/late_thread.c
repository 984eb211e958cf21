/* A detached thread keeps calling functions while main returns: its tree is
 * read while it runs, and its calls after the profile are ignored. */
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static volatile unsigned long spins;

__attribute__((noinline)) static void spin(void) { spins++; }

__attribute__((noinline)) static void *spinner(void *arg)
{
    (void)arg;
    for (;;)
        spin();
    return NULL;
}

int main(void)
{
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_create(&t, &attr, spinner, NULL);
    while (spins < 100000) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    printf("late_thread: returning\n");
    return 0;
}
