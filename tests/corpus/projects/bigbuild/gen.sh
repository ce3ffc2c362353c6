#!/usr/bin/env bash
# Generates N C modules (default 420) under gen/, each with a real -Wall warning,
# plus one module with a real compile error, for a long build log.
set -euo pipefail
cd "$(dirname "$0")"
n=${1:-420}
rm -rf gen && mkdir -p gen
for i in $(seq -w 1 "$n"); do
  cat > "gen/mod_$i.c" <<C
#include <stdio.h>

int mod_${i}_compute(int x)
{
    int scratch_$i;
    int result = x * $((10#$i));
    return result;
}
C
done
cat > gen/mod_broken.c <<'C'
#include <stdio.h>

int mod_broken_compute(int x)
{
    return x + undeclared_offset;
}
C
