#!/usr/bin/env bash
# Byte-identical check of two gatewayd builds: every command that prints a capture's contents,
# on every fixture and scenario capture (and any extra capture given), stdout by md5sum and
# stderr by cmp. Used for changes that must not change behaviour (issue 39's refactor).
#
#   scripts/compare-outputs.sh OLD_GATEWAYD NEW_GATEWAYD [EXTRA_CAPTURE...]
#
# Prints one line per difference and a total; exits 1 when any output differs.
set -u
old=$1 new=$2; shift 2
cd "$(dirname "$0")/.."
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
captures=(fixtures/demo-flight.gdl90 fixtures/demo-flight.pcap fixtures/demo-flight.pcapng
          fixtures/fisb-sample.gdl90 fixtures/fisb-sample.978 fixtures/scenarios/*.pcap "$@")
commands=("decode" "decode --json" "replay" "replay --json" "replay --json --notams fixtures/notams-demo.json"
          "replay --airspace fixtures/demo-airspace.geojson" "replay --callouts" "fisb" "fisb --json")
compared=0 differ=0
for c in "${captures[@]}"; do
    for cmd in "${commands[@]}"; do
        (cd "$work" && true)
        extra=()
        case "$c" in *echo.pcap) [[ $cmd == replay* ]] && extra=(--gps fixtures/scenarios/echo.gps.jsonl);; esac
        case "$cmd" in replay*) extra+=(--no-store);; esac
        # shellcheck disable=SC2086
        "$old" $cmd "${extra[@]}" "$c" > "$work/o.out" 2> "$work/o.err"; os=$?
        # shellcheck disable=SC2086
        "$new" $cmd "${extra[@]}" "$c" > "$work/n.out" 2> "$work/n.err"; ns=$?
        compared=$((compared + 1))
        if [[ $os != "$ns" ]] || [[ $(md5sum < "$work/o.out") != $(md5sum < "$work/n.out") ]] || ! cmp -s "$work/o.err" "$work/n.err"; then
            differ=$((differ + 1))
            echo "DIFFERS: gatewayd $cmd ${extra[*]} $c (status $os → $ns)"
            diff <(head -c 2000 "$work/o.err") <(head -c 2000 "$work/n.err") | head -5
        fi
    done
done
echo "$compared comparisons of stdout (md5sum), stderr (cmp) and exit status: $differ differ"
[[ $differ == 0 ]]
