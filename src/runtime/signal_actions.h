/* The program's own action for each signal hooktrace holds (signal_actions.c),
 * shared by the interposers' entry (ht_signals_program_action) and the
 * handler (signals.c). */
#ifndef HT_RUNTIME_SIGNAL_ACTIONS_H
#define HT_RUNTIME_SIGNAL_ACTIONS_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

#define HT_SIGNALS_WATCHED 3
extern const int ht_signals_watched[HT_SIGNALS_WATCHED];

/* Index of sig among the watched ones, or -1. */
int ht_signals_slot(int sig);

/* hooktrace's handler in the kernel (signals.c). */
void ht_signals_on_signal(int sig, siginfo_t *info, void *context);

/* The process the recorded actions belong to: set at start-up and in a
 * fork child's set-up.  A vfork child (or a child of _Fork, or of a fork
 * before its set-up) shares or copies them but must not change them. */
void ht_signals_set_owner(void);
pid_t ht_signals_owner(void);

/* At start-up: hold slot's signal, whose action now is `now` (SIG_DFL). */
bool ht_signals_hold(unsigned slot, const struct sigaction *now);
/* The death path: the kernel's action becomes SIG_DFL for good. */
void ht_signals_release(unsigned slot);

/* The program's action as the kernel would report it, read atomically
 * against a concurrent change (async-signal-safe); *seq names the version,
 * for ht_signals_reset_once.  foreign: a process other than the owner,
 * which gives up waiting for a writer that may not exist in it. */
void ht_signals_read(unsigned slot, struct sigaction *out, unsigned *seq, bool foreign);

/* SA_RESETHAND: the program's handler becomes SIG_DFL, once per version
 * seq.  False when the action changed since seq was read (another thread's
 * delivery reset it, or the program set another): read it again. */
bool ht_signals_reset_once(unsigned slot, unsigned seq);

/* In a fork child: a writer that was interrupted by the fork in another
 * thread no longer exists. */
void ht_signals_after_fork(void);

#endif
