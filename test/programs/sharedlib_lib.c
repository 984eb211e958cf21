int shared_square(int x);
int shared_sum_squares(int n);

__attribute__((noinline)) int shared_square(int x) { return x * x; }

int shared_sum_squares(int n)
{
    int s = 0;
    for (int i = 1; i <= n; i++)
        s += shared_square(i);
    return s;
}

/* For test/programs/throttle.c: a cheap function called n times from
 * inside the library, whose hook calls are rewritten in the library's
 * text once it is throttled. */
long shared_scaled(long x);
long shared_loop(long n);

__attribute__((noinline)) long shared_scaled(long x) { return 5 * x - 2; }

long shared_loop(long n)
{
    long s = 0;
    for (long i = 0; i < n; i++)
        s += shared_scaled(i);
    return s;
}
