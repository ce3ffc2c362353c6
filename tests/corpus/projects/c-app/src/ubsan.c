#include <limits.h>
#include <stdio.h>

static int scale(int value, int factor)
{
    return value * factor;
}

static int shift(int value, int bits)
{
    return value << bits;
}

int main(int argc, char **argv)
{
    (void)argv;
    int big = INT_MAX - argc + 1;
    int arr[4] = {1, 2, 3, 4};
    int idx = 3 + argc;
    printf("scaled: %d\n", scale(big, 2));
    printf("shifted: %d\n", shift(1, 31 + argc));
    printf("arr: %d\n", arr[idx]);
    return 0;
}
