#include "check.h"
#include "stats.h"
int main(void)
{
    double v[] = {2, 4, 4, 4, 5, 5, 7, 9};
    CHECK_CLOSE(stats_stddev(v, 8), 2.0);
    return failures != 0;
}
