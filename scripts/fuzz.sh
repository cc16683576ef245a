#!/usr/bin/env bash
# Fuzzes the decoders with libFuzzer for a bounded time each, from a seed corpus made of the
# bundled fixtures. Usage: scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET…]
#   targets: gdl90 fisb capture airspace notam notamfeature events gpsd config feeds http (default: all); SECONDS default 60.
#   FUZZ_SEED=N makes a run repeatable (CI uses it).
# A crash leaves its input in fixtures/fuzz-regressions/TARGET/ (commit it: `swift test` replays
# every file there through the same target, so a fixed bug stays fixed).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(gdl90 fisb capture airspace notam notamfeature events gpsd config feeds http)

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
                perl -e "print pack('H*', '$hex')" > "$dir/uplink-$(echo -n "$hex" | md5sum | cut -c1-8)"; done
              cp fixtures/hostile/*.uplink "$dir/" ;;
    capture)  head -c 3000 fixtures/demo-flight.pcap > "$dir/pcap"; head -c 3000 fixtures/demo-flight.pcapng > "$dir/pcapng"
              head -c 1500 fixtures/fisb-sample.978 > "$dir/dump978" ;;
    airspace) cp fixtures/demo-airspace.geojson "$dir/demo" ;;
    notam)    head -c 4000 fixtures/notams-demo.json > "$dir/api"
              printf '%s' '!FDC 6/2174 ZSE OR..AIRSPACE SALEM, OR..TEMPORARY FLIGHT RESTRICTIONS WI AN AREA DEFINED AS 3NM RADIUS OF 473624N1222007W SFC-3000FT MSL 2605161300-2605161800' > "$dir/fdc"
              printf 'A0123/26 NOTAMN\nQ) KZSE/QRRCA/IV/BO/W/000/060/4458N12246W004\nA) KZSE B) 2605161200 C) 2605162000\nE) RESTRICTED AREA ACT WI AN AREA DEFINED AS 445634N1224855W-445634N1224318W-450034N1224318W\nF) SFC G) 6000FT MSL' > "$dir/icao" ;;
    notamfeature) python3 -c 'import json,sys; [print(json.dumps(f)) for f in json.load(open(sys.argv[1]))["items"]]' fixtures/hostile/notam-vertex-out-of-range.json \
                | split -l 1 - "$dir/feature-" ;;
    events)   cp fixtures/hostile/events-huge-radius.jsonl "$dir/huge" ;;
    gpsd)     printf '%s\n' '{"class":"TPV","mode":3,"time":"2026-05-16T14:00:00.000Z","lat":45.0,"lon":-123.0,"altMSL":1000.0,"speed":50.0,"track":90.0,"climb":2.0}' \
                '{"class":"TPV","mode":3,"lat":45.0,"lon":-123.0,"alt":1e300,"speed":1e308,"track":"x","climb":5e6}' > "$dir/tpv" ;;
    config)   cp deploy/gatewayd.toml "$dir/shipped" 2>/dev/null || printf '[feeds]\nhttp_port = 8090\n' > "$dir/shipped" ;;
    http)     printf 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n' > "$dir/get"
              printf 'POST /alerts HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nabcdGET / HTTP/1.0\r\n\r\n' > "$dir/pipelined" ;;
    feeds)    head -c 256 /dev/zero | tr '\0' '\177' > "$dir/sevens"; head -c 128 fixtures/demo-flight.pcap > "$dir/bytes" ;;
  esac
  cp fixtures/fuzz-regressions/"$1"/* "$dir/" 2>/dev/null || true
}

# Swift's backtracer reads other threads' stacks, which ASan reports as a second error that hides
# the first; libFuzzer prints the crash's stack itself.
export SWIFT_BACKTRACE=enable=no
status=0
for t in "${targets[@]}"; do
  seed "$t"
  mkdir -p "fixtures/fuzz-regressions/$t"
  echo "fuzz: $t for ${seconds}s" >&2
  log=$scratch/fuzz-$t.log
  if FUZZ_TARGET=$t "$bin" "$corpus/$t" ${FUZZ_SEED:+-seed=$FUZZ_SEED} -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
       -artifact_prefix="fixtures/fuzz-regressions/$t/" -print_final_stats=1 >"$log" 2>&1; then
    grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb)" "$log" | sed "s/^/fuzz: $t: /" >&2
    grep -E "cov: [0-9]+" "$log" | tail -1 | sed "s/^/fuzz: $t: last: /" >&2
  else
    status=1
    echo "fuzz: $t FOUND A CRASH: input saved under fixtures/fuzz-regressions/$t/ (see $log)" >&2
    # The failure itself (a Swift trap's message, ASan's report), then the end of the log.
    grep -m 5 -E "Fatal error|Precondition failed|Assertion failed|ERROR: (AddressSanitizer|libFuzzer)|SUMMARY:" "$log" >&2 || true
    tail -30 "$log" >&2
  fi
done
exit $status
