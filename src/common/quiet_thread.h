/* A thread of hooktrace's own inside the program (the late MPI_T start,
 * the outputs written beside the JSON): every signal is blocked in it, so
 * that the program's handlers, and hooktrace's, run on the program's
 * threads only. */
#ifndef HT_COMMON_QUIET_THREAD_H
#define HT_COMMON_QUIET_THREAD_H

#include <pthread.h>
#include <stdbool.h>

/* pthread_create with every signal blocked in the new thread; the caller's
 * mask is left as it was.  False if no thread could be made. */
bool ht_quiet_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg);

#endif
