#!/usr/bin/env bash
# Installs gatewayd as a systemd service. Idempotent: run it again after an upgrade.
#   deploy/install.sh [--binary PATH] [--root DIR]
# --binary: the gatewayd to install (default: .build/release/gatewayd, built if missing).
# --root:   install under DIR instead of / (packaging, tests; DESTDIR=DIR works too);
#           systemctl is skipped then.
# The default configuration (and an empty, chmod 600 /etc/gatewayd/environment for FAA API
# credentials) is installed only if none exists; the database is never touched.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=""
root=${DESTDIR:-}
root=${root%/}
while [ $# -gt 0 ]; do
  case $1 in
    --binary) binary=$2; shift 2 ;;
    --root) root=${2%/}; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "install: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
if [ -z "$binary" ]; then
  binary=.build/release/gatewayd
  if [ ! -x "$binary" ]; then
    echo "install: building $binary (swift build -c release --static-swift-stdlib)" >&2
    swift build -c release --static-swift-stdlib --product gatewayd >&2
  fi
fi
[ -x "$binary" ] || { echo "install: $binary is not an executable" >&2; exit 1; }
if [ -z "$root" ] && [ "$(id -u)" -ne 0 ]; then echo "install: run as root (sudo deploy/install.sh)" >&2; exit 1; fi

install -d "$root/usr/local/bin" "$root/etc/gatewayd" "$root/etc/systemd/system"
install -m 0755 "$binary" "$root/usr/local/bin/gatewayd"
install -m 0644 deploy/gatewayd.service "$root/etc/systemd/system/gatewayd.service"
# The airport table (data/README.md): the logbook's departure and arrival, notams fetch --near KSLE.
install -d "$root/usr/local/share/gatewayd"
install -m 0644 data/airports.bin "$root/usr/local/share/gatewayd/airports.bin"
if [ -e "$root/etc/gatewayd/gatewayd.toml" ]; then
  echo "install: keeping the existing /etc/gatewayd/gatewayd.toml (the new default is /etc/gatewayd/gatewayd.toml.default)" >&2
  install -m 0644 deploy/gatewayd.toml "$root/etc/gatewayd/gatewayd.toml.default"
else
  install -m 0644 deploy/gatewayd.toml "$root/etc/gatewayd/gatewayd.toml"
fi
if [ ! -e "$root/etc/gatewayd/environment" ]; then
  install -m 0600 /dev/null "$root/etc/gatewayd/environment"
  printf '%s\n' '# FAA NOTAM API credentials for the service (root only; systemd reads this file):' \
    '# FAA_CLIENT_ID=...' '# FAA_CLIENT_SECRET=...' > "$root/etc/gatewayd/environment"
fi
# Check the configuration the service will read (not possible for a cross-built binary that
# cannot run on this machine: then `gatewayd config check` on the Pi does it).
if "$root/usr/local/bin/gatewayd" --help >/dev/null 2>&1; then
  "$root/usr/local/bin/gatewayd" config check --config "$root/etc/gatewayd/gatewayd.toml" >&2
else
  echo "install: $binary does not run on this machine ($(uname -m)): run 'gatewayd config check' on the target" >&2
fi

if [ -z "$root" ] && [ -d /run/systemd/system ]; then
  systemctl daemon-reload
  systemctl enable gatewayd.service >/dev/null
  systemctl restart gatewayd.service
  echo "install: gatewayd is running: journalctl -u gatewayd -f; curl -s localhost:8090/healthz" >&2
else
  echo "install: installed under ${root:-/} (systemd not started: not the live root or no systemd)" >&2
fi
