/* Built as libfilterdl.so, loaded with dlopen by
 * test/programs/filter_dlopen_main.c (test/integration/filter_dlopen.py):
 * a library read for excluded functions as it loads.  Its constructor
 * already calls the helper, so the library is read inside dlopen, with
 * the dynamic loader's lock held. */
unsigned long fd_helper(unsigned long i);
unsigned long fd_kept(unsigned long i);
unsigned long fd_sweep(unsigned long n);

unsigned long fd_from_init;

__attribute__((noinline)) unsigned long fd_helper(unsigned long i)
{
    return i * 3 + 1;
}

__attribute__((noinline)) unsigned long fd_kept(unsigned long i)
{
    return i ^ 5;
}

__attribute__((noinline)) unsigned long fd_sweep(unsigned long n)
{
    unsigned long s = 0;
    for (unsigned long i = 0; i < n; i++)
        s += fd_helper(i);
    for (unsigned long i = 0; i < 10; i++)
        s += fd_kept(i);
    return s;
}

__attribute__((constructor, noinline)) static void fd_init(void)
{
    for (unsigned long i = 0; i < 1000; i++)
        fd_from_init += fd_helper(i);
}
