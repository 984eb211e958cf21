/* Built as libdlclosefix.so: loaded, called and closed by
 * test/programs/dlclose_main.c.  test/integration/dlclose.py expects
 * dlc_alpha on line 8 and dlc_beta on line 13. */
int dlc_alpha(int x);
int dlc_beta(int x);

__attribute__((noinline)) int
dlc_alpha(int x)
{
    return 3 * x + 1;
}

__attribute__((noinline)) int dlc_beta(int x)
{
    return x * x - 2;
}
