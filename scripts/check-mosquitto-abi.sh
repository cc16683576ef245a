#!/usr/bin/env bash
# Sources/CMosquitto declares libmosquitto's functions itself (it is loaded with dlopen, so a build
# needs no header). This compiles cmosquitto.c against the real /usr/include/mosquitto.h, where a
# _Static_assert per function fails on any prototype that differs from ours.
#   bash scripts/check-mosquitto-abi.sh
set -euo pipefail
cd "$(dirname "$0")/.."
header=/usr/include/mosquitto.h
if [ ! -f "$header" ]; then
  echo "check-mosquitto-abi: SKIPPED (no $header; apt install libmosquitto-dev)"
  exit 0
fi
source=Sources/CMosquitto/cmosquitto.c
${CC:-cc} -DSKYGATE_CHECK_HEADER -fsyntax-only -Wall -Wextra -Werror -I Sources/CMosquitto/include "$source"
# One X(name) per function in the FUNCTIONS list, each checked by the compile above.
count=$(sed -n '/^#define FUNCTIONS(X)/,/^$/p' "$source" | grep -o 'X([a-z0-9_]*)' | wc -l)
version=$(awk '/^#define LIBMOSQUITTO_(MAJOR|MINOR|REVISION) / { v = v (v == "" ? "" : ".") $3 } END { print v }' "$header")
echo "check-mosquitto-abi: $count prototypes match libmosquitto $version's header"
