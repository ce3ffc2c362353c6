#include <stdio.h>
#include <string.h>
#include <stdlib.h>

static int helper(int x)
{
    int y;
    if (x > 0)
        y = x * 2;
    return y;
}

int compare(unsigned int a, int b)
{
    return a < b;
}

void format_things(const char *name, long count)
{
    char buf[8];
    printf("%d things named %s\n", count, name);
    sprintf(buf, "%s-%ld", name, count);
    puts(buf);
}

int maybe(int flag)
{
    if (flag)
        return 1;
}

int main(void)
{
    int unused;
    char *p = malloc(4);
    int arr[3];
    if (p = NULL)
        return 1;
    for (int i = 0; i <= 3; i++)
        arr[i] = i;
    format_things("x", 3);
    printf("%d %d %d\n", helper(1), compare(1, -1), maybe(0));
    return arr[0];
}
