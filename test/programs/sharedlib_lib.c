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
