#include "check.h"
#include "stats.h"
int main(void)
{
    double v[] = {1, 2, 3, 4};
    CHECK_CLOSE(stats_mean(v, 4), 2.5);
    CHECK_CLOSE(stats_mean(v, 0), 0.0);
    return failures != 0;
}
