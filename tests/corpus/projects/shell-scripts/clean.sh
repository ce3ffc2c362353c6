#!/bin/sh
set -eu

dir="${1:-.}"
find "$dir" -name '*.tmp' -type f -delete
printf 'cleaned %s\n' "$dir"
