/* Benchmark hook library: hooks that do nothing.  The kernel linked against
 * it pays only the two calls (through the PLT, as with libhooktrace) that
 * -finstrument-functions adds to every function. */
#define NOINSTR __attribute__((no_instrument_function))
#define EXPORT __attribute__((visibility("default")))

EXPORT NOINSTR void __cyg_profile_func_enter(void *function, void *call_site);
EXPORT NOINSTR void __cyg_profile_func_exit(void *function, void *call_site);

EXPORT NOINSTR void __cyg_profile_func_enter(void *function, void *call_site)
{
    (void)function;
    (void)call_site;
}

EXPORT NOINSTR void __cyg_profile_func_exit(void *function, void *call_site)
{
    (void)function;
    (void)call_site;
}
