#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "stats.h"

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--sleep") == 0) {
        sleep(5);
        return 0;
    }
    double v[64];
    int n = 0;
    for (int i = 1; i < argc && n < 64; i++)
        v[n++] = atof(argv[i]);
    printf("mean=%.3f\n", stats_mean(v, n));
    return 0;
}
