#include "check.h"
#include "stats.h"
int main(void)
{
    double odd[] = {3, 1, 2};
    double even[] = {4, 1, 3, 2};
    CHECK_CLOSE(stats_median(odd, 3), 2.0);
    CHECK_CLOSE(stats_median(even, 4), 2.5);
    return failures != 0;
}
