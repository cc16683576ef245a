#!/usr/bin/env bash
# The real tar1090 page reading our feed, as its users run it: tar1090's html/ served by a web
# server with our /data/ behind it (scripts/tar1090-proxy.py), a demo flight sent to the
# gateway, and a screenshot from Debian's headless chromium. tar1090 is fetched for the check
# (TAR1090_HTML=DIR to use a copy you have); none of it is kept in this repository.
#   bash scripts/check-tar1090.sh [OUT.png]        (default docs/tar1090.png)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-docs/tar1090.png}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
html=${TAR1090_HTML:-}
if [ -z "$html" ]; then
  echo "fetching tar1090 (github.com/wiedehopf/tar1090) into $work" >&2
  git clone --quiet --depth 1 https://github.com/wiedehopf/tar1090 "$work/tar1090"
  html=$work/tar1090/html
fi
swift build --product gatewayd >&2
gw=.build/debug/gatewayd
"$gw" run --bind 127.0.0.1 --udp-port 45200 --http-bind 127.0.0.1 --http-port 45201 --nmea-port 0 \
  --no-database --status-interval 0 >"$work/gatewayd.log" 2>&1 &
python3 scripts/tar1090-proxy.py "$html" http://127.0.0.1:45201 45202 2>"$work/proxy.log" &
sleep 2
"$gw" send fixtures/demo-flight.pcap --to 127.0.0.1:45200 --speed 1 >/dev/null 2>&1 &
sleep 60
curl -fsS http://127.0.0.1:45202/data/receiver.json >/dev/null || { echo "tar1090 cannot read /data/receiver.json" >&2; exit 1; }
chromium --headless --no-sandbox --disable-gpu --host-resolver-rules="MAP * ~NOTFOUND, EXCLUDE 127.0.0.1" \
  --user-data-dir="$work/chromium" --window-size=1280,860 --hide-scrollbars --virtual-time-budget=8000 \
  --screenshot="$out" http://127.0.0.1:45202/ 2>/dev/null
# tar1090 lists what it read from /data/aircraft.json: the demo flight's callsigns must be in its table.
dom=$(chromium --headless --no-sandbox --disable-gpu --host-resolver-rules="MAP * ~NOTFOUND, EXCLUDE 127.0.0.1" \
  --user-data-dir="$work/chromium" --virtual-time-budget=8000 --dump-dom http://127.0.0.1:45202/ 2>/dev/null)
grep -q "UAL123" <<<"$dom" || { echo "tar1090 shows no aircraft from the gateway" >&2; exit 1; }
# Its error box ("Problem fetching data from the server") is in the page, hidden until shown.
grep -q 'id="update_error"[^>]*display: block' <<<"$dom" && { echo "tar1090 says: problem fetching data from the server" >&2; exit 1; }
echo "tar1090 lists the gateway's aircraft; screenshot: $out"
