/* Built as libsymhooked.so with -finstrument-functions: an object that
 * imports the hooks (glibc's empty ones bind to them), for
 * test/unit/symbols_objects. */
int symhooked_function(int x);

int symhooked_function(int x)
{
    return 11 * x + 4;
}
