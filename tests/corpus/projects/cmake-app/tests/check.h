#include <math.h>
#include <stdio.h>
static int failures;
#define CHECK_CLOSE(actual, expected) do { \
    double a_ = (actual), e_ = (expected); \
    if (fabs(a_ - e_) > 1e-9) { \
        fprintf(stderr, "%s:%d: CHECK_CLOSE(%s, %s) failed: got %g, expected %g\n", \
                __FILE__, __LINE__, #actual, #expected, a_, e_); \
        failures++; \
    } else { printf("ok: %s\n", #actual); } \
} while (0)
