/* Calls into an instrumented shared library. */
#include <stdio.h>

int shared_square(int x);
int shared_sum_squares(int n);

int main(void)
{
    int s = 0;
    for (int i = 0; i < 7; i++)
        s += shared_square(i);    /* main;shared_square x7 */
    s += shared_sum_squares(5);   /* main;shared_sum_squares x1, ...;shared_square x5 */
    printf("sharedlib: %d\n", s);
    return 0;
}
