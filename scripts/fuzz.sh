#!/usr/bin/env bash
# Fuzzes the decoders with libFuzzer for a bounded time each, from a seed corpus made of the
# bundled fixtures. Usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET…]
#   targets: gdl90 fisb capture airspace (default: all); SECONDS default 60.
# A crash leaves its input in fixtures/fuzz-regressions/TARGET/ (commit it: `swift test` replays
# every file there through the same target, so a fixed bug stays fixed).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(gdl90 fisb capture airspace)

scratch=.build-fuzz
echo "fuzz: building gatewayd-fuzz with -sanitize=fuzzer,address (first build takes several minutes)" >&2
swift build -c debug --product gatewayd-fuzz --scratch-path "$scratch" \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -parse-as-library >&2
bin="$scratch/debug/gatewayd-fuzz"

corpus=$scratch/corpus
mkdir -p "$corpus"
seed() {  # seed TARGET: a few small inputs from the fixtures
  local dir=$corpus/$1; mkdir -p "$dir"
  case $1 in
    gdl90)    head -c 2048 fixtures/demo-flight.gdl90 > "$dir/demo-head"; tail -c 2048 fixtures/demo-flight.gdl90 > "$dir/demo-tail" ;;
    fisb)     grep '^+' fixtures/fisb-sample.978 | cut -d';' -f1 | tr -d '+' | head -12 | while read -r hex; do
                perl -e "print pack('H*', '$hex')" > "$dir/uplink-$(echo -n "$hex" | md5sum | cut -c1-8)"; done ;;
    capture)  head -c 3000 fixtures/demo-flight.pcap > "$dir/pcap"; head -c 3000 fixtures/demo-flight.pcapng > "$dir/pcapng"
              head -c 1500 fixtures/fisb-sample.978 > "$dir/dump978" ;;
    airspace) cp fixtures/demo-airspace.geojson "$dir/demo" ;;
  esac
  cp fixtures/fuzz-regressions/"$1"/* "$dir/" 2>/dev/null || true
}

status=0
for t in "${targets[@]}"; do
  seed "$t"
  mkdir -p "fixtures/fuzz-regressions/$t"
  echo "fuzz: $t for ${seconds}s" >&2
  log=$scratch/fuzz-$t.log
  if FUZZ_TARGET=$t "$bin" "$corpus/$t" -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
       -artifact_prefix="fixtures/fuzz-regressions/$t/" -print_final_stats=1 >"$log" 2>&1; then
    grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb)" "$log" | sed "s/^/fuzz: $t: /" >&2
    grep -E "cov: [0-9]+" "$log" | tail -1 | sed "s/^/fuzz: $t: last: /" >&2
  else
    status=1
    echo "fuzz: $t FOUND A CRASH: input saved under fixtures/fuzz-regressions/$t/ (see $log)" >&2
    tail -30 "$log" >&2
  fi
done
exit $status
