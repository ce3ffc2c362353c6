#include <math.h>
#include <stdlib.h>
#include "stats.h"

double stats_mean(const double *v, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += v[i];
    return n ? s / n : 0.0;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* BUG: ignores the even-length case */
double stats_median(double *v, size_t n)
{
    qsort(v, n, sizeof(*v), cmp);
    return v[n / 2];
}

double stats_stddev(const double *v, size_t n)
{
    double m = stats_mean(v, n), acc = 0;
    for (size_t i = 0; i < n; i++)
        acc += (v[i] - m) * (v[i] - m);
    return sqrt(acc / n);
}
