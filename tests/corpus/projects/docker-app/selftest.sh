#!/bin/sh
# Checks run at image build time; one of them fails on purpose.
echo "selftest: checking /app layout"
for f in app.sh VERSION; do
  if [ -f "/app/$f" ]; then
    echo "selftest: ok   $f"
  else
    echo "selftest: FAIL $f is missing from /app" >&2
    exit 1
  fi
done
