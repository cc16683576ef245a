#!/usr/bin/env bash
# Removes the gatewayd service and binary; keeps the configuration and the database
# (/var/lib/gatewayd: alert log, NOTAMs) unless --purge.
#   deploy/uninstall.sh [--purge] [--root DIR]
set -euo pipefail
purge=0
root=${DESTDIR:-}
root=${root%/}
while [ $# -gt 0 ]; do
  case $1 in
    --purge) purge=1; shift ;;
    --root) root=${2%/}; shift 2 ;;
    -h|--help) sed -n '2,4p' "$0"; exit 0 ;;
    *) echo "uninstall: unknown option $1" >&2; exit 2 ;;
  esac
done
if [ -z "$root" ] && [ -d /run/systemd/system ]; then
  systemctl disable --now gatewayd.service 2>/dev/null || true
fi
rm -f "$root/etc/systemd/system/gatewayd.service" "$root/usr/local/bin/gatewayd" "$root/usr/local/share/gatewayd/airports.bin"
rmdir "$root/usr/local/share/gatewayd" 2>/dev/null || true
if [ -z "$root" ] && [ -d /run/systemd/system ]; then systemctl daemon-reload; fi
if [ $purge -eq 1 ]; then
  rm -rf "$root/etc/gatewayd" "$root/var/lib/gatewayd" "$root/var/lib/private/gatewayd"
  echo "uninstall: removed gatewayd, its configuration and its data" >&2
else
  echo "uninstall: removed gatewayd; kept /etc/gatewayd and /var/lib/gatewayd (--purge removes them)" >&2
fi
