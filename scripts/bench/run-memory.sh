#!/bin/bash
# Resident memory and start time of `gatewayd run`, before and after traffic:
#   scripts/bench/run-memory.sh GATEWAYD [UDP_PORT]
# Starts `run` on loopback (no HTTP, an empty configuration, a temporary database), reads VmRSS
# once it says it listens, sends the demo flight at 100x with `gatewayd send`, reads VmHWM, stops
# it. Prints one line: resident at start, ms to listening, peak after the flight. Run it several
# times for each build, alternating, on a quiet machine.
set -euo pipefail
b=$1; port=${2:-45$((RANDOM % 90 + 10))}
cd "$(dirname "$0")/../.."
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
: > "$d/empty.toml"
start=$(date +%s%N)
"$b" run --udp-port "$port" --bind 127.0.0.1 --http-port 0 --database "$d/g.sqlite" --config "$d/empty.toml" --status-interval 0 > "$d/out" 2> "$d/err" &
pid=$!
for _ in $(seq 1 500); do grep -q "listening for GDL90" "$d/err" && break; sleep 0.01; done
listen=$(( ($(date +%s%N) - start) / 1000000 ))
sleep 0.5
rss=$(awk '/VmRSS/{print $2}' "/proc/$pid/status")
"$b" send fixtures/demo-flight.gdl90 --to "127.0.0.1:$port" --speed 100 > /dev/null 2>&1
sleep 1
hwm=$(awk '/VmHWM/{print $2}' "/proc/$pid/status")
kill -TERM "$pid"; wait "$pid" || true
echo "resident at start $(echo "scale=1; $rss/1024" | bc) MB, listening after ${listen} ms, peak after the demo flight $(echo "scale=1; $hwm/1024" | bc) MB"
