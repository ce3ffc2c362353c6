#!/bin/sh
# A worker that logs a few lines and then dies on a missing setting.
echo "INFO  inventory worker 0.9.1 starting"
i=1
while [ $i -le 12 ]; do
  echo "INFO  processed batch $i (25 items)"
  i=$((i + 1))
done
echo "WARN  queue 'default' is 80% full"
if [ -z "$BROKER_URL" ]; then
  echo "ERROR BROKER_URL is not set; cannot connect to the message broker" >&2
  exit 3
fi
echo "INFO  connected to $BROKER_URL"
