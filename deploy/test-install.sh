#!/usr/bin/env bash
# Installs into a temporary root twice (idempotence), checks files and that an edited
# configuration survives, verifies the unit with systemd-analyze, uninstalls keeping data.
#   deploy/test-install.sh [BINARY]   (default .build/debug/gatewayd)
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/debug/gatewayd}
[ -x "$binary" ] || swift build --product gatewayd >&2
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
fail() { echo "test-install: FAIL: $*" >&2; exit 1; }
deploy/install.sh --binary "$binary" --root "$root" 2>/dev/null
echo '# edited by the user' >> "$root/etc/gatewayd/gatewayd.toml"
mkdir -p "$root/var/lib/gatewayd" && echo data > "$root/var/lib/gatewayd/gateway.sqlite"
deploy/install.sh --binary "$binary" --root "$root" 2>/dev/null
[ -x "$root/usr/local/bin/gatewayd" ] || fail "binary missing"
grep -q 'edited by the user' "$root/etc/gatewayd/gatewayd.toml" || fail "second install overwrote the configuration"
[ -f "$root/etc/gatewayd/gatewayd.toml.default" ] || fail "new default not set aside"
cmp -s deploy/gatewayd.service "$root/etc/systemd/system/gatewayd.service" || fail "unit differs"
if command -v systemd-analyze >/dev/null; then
  sed "s#/usr/local/bin/gatewayd#$root/usr/local/bin/gatewayd#" deploy/gatewayd.service > "$root/gatewayd.service"
  out=$(systemd-analyze verify "$root/gatewayd.service" 2>&1 || true)
  [ -z "$out" ] || fail "systemd-analyze verify: $out"
fi
deploy/uninstall.sh --root "$root" 2>/dev/null
[ ! -e "$root/usr/local/bin/gatewayd" ] || fail "binary left behind"
[ -f "$root/var/lib/gatewayd/gateway.sqlite" ] || fail "uninstall removed the data"
deploy/uninstall.sh --root "$root" --purge 2>/dev/null
[ ! -e "$root/var/lib/gatewayd" ] || fail "--purge kept the data"
echo "test-install: ok (installed twice, configuration kept, unit verified, data kept until --purge)"
