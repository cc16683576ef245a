#!/usr/bin/env bash
# The Debian package of gatewayd, for amd64 or arm64 (64-bit Raspberry Pi OS):
#
#   deploy/build-deb.sh [--arch amd64|arm64] [--binary PATH] [--version X.Y.Z] [--out DIR]
#
# --arch     the package's architecture (default: this machine's, dpkg --print-architecture)
# --binary   a gatewayd built with the Swift runtime linked statically (swift build -c release
#            --static-swift-stdlib, or deploy/build-pi.sh); without it the script builds one: for
#            amd64 in .build-static/, for arm64 through deploy/build-pi.sh
# --version  the package's version (default: what the binary's `gatewayd --version` prints, the
#            one source of truth, GatewayVersion.swift)
# --out      where the package goes (default: dist/)
#
# The package: /usr/bin/gatewayd; the airport table in /usr/share/gatewayd/; the hardened unit
# as /lib/systemd/system/gatewayd.service; /etc/gatewayd/gatewayd.toml (a conffile); the man page
# and bash, zsh and fish completions made from the commands' own help; copyright and changelog.
# lintian's report follows (when lintian is installed).
# Depends are read off the binary (readelf: its libraries and the highest glibc symbol version).
# The last line printed is `deb: PATH`.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
say() { echo "build-deb: $*" >&2; }
fail() { echo "build-deb: $*" >&2; exit 1; }

arch=$(dpkg --print-architecture 2>/dev/null || echo amd64)
binary=""
version=""
out=dist
while [ $# -gt 0 ]; do
  case $1 in
    --arch) arch=${2:-}; shift 2 ;;
    --binary) binary=${2:-}; shift 2 ;;
    --version) version=${2:-}; shift 2 ;;
    --out) out=${2:-}; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) fail "unknown option $1 (see --help)" ;;
  esac
done
case $arch in
  amd64) machine="Advanced Micro Devices X86-64"; triple=x86_64 ;;
  arm64) machine="AArch64"; triple=aarch64 ;;
  *) fail "--arch $arch: give amd64 or arm64" ;;
esac
for tool in dpkg-deb readelf gzip fakeroot python3; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool is missing (apt-get install dpkg-dev binutils gzip fakeroot python3)"
done
mkdir -p "$out" 2>/dev/null && [ -w "$out" ] || fail "--out $out: cannot write there (a folder you can write, default dist/)"

# The binary: given, or built.
if [ -n "$binary" ]; then
  [ -e "$binary" ] || fail "--binary $binary: no such file"
  [ -f "$binary" ] && [ -r "$binary" ] || fail "--binary $binary: not a readable file"
elif [ "$arch" = arm64 ] && [ "$(uname -m)" != aarch64 ]; then
  say "building the arm64 binary with deploy/build-pi.sh (a cross-build; see its header)"
  binary=$(deploy/build-pi.sh | sed -n 's/^aarch64 binary: //p' | tail -n 1)
  [ -n "$binary" ] || fail "deploy/build-pi.sh did not say where the binary is"
else
  say "building gatewayd with the Swift runtime linked statically (.build-static/, a few minutes the first time)"
  swift build -c release --static-swift-stdlib --product gatewayd --scratch-path .build-static >&2
  binary=.build-static/release/gatewayd
fi
header=$(readelf -h "$binary" 2>/dev/null) || fail "$binary is not an ELF executable"
got=$(echo "$header" | sed -n 's/^ *Machine: *//p')
[ "$got" = "$machine" ] || fail "$binary is built for '$got', not $arch ($machine): give a binary of this architecture, or --arch to match it"
needed=$(readelf -d "$binary" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p')
if echo "$needed" | grep -q '^libswift\|^libFoundation\|^libdispatch'; then
  fail "$binary loads the Swift runtime from the toolchain ($(echo "$needed" | grep -m1 '^libswift\|^libFoundation\|^libdispatch')): a package cannot carry it. Build it with the runtime linked statically: swift build -c release --static-swift-stdlib (or leave out --binary)"
fi

# What it prints of itself (an arm64 binary runs here through qemu-aarch64-static when binfmt is set up).
runs() { "$binary" --version >/dev/null 2>&1; }
if [ -z "$version" ]; then
  if runs; then
    version=$("$binary" --version)
  else
    version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/TrafficGateway/GatewaySupport/GatewayVersion.swift)
    say "$binary does not run here: version $version from GatewayVersion.swift"
  fi
fi
[[ $version =~ ^[0-9][A-Za-z0-9.+~]*(-[A-Za-z0-9.+~]+)?$ ]] || fail "--version '$version' is not a Debian version (like 1.2.0, 1.2.0~rc1 or 1.2.0-2)"
# The man page and completions come from the commands' own help: from this binary when it runs
# here, else from one built for this machine from the same tree.
helper=$binary
if ! runs; then
  helper=.build/release/gatewayd
  [ -x "$helper" ] || { say "building gatewayd for this machine for the man page and completions"; swift build -c release --product gatewayd >&2; }
fi

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root=$stage/root
install -d "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/gatewayd" "$root/lib/systemd/system" "$root/etc/gatewayd" \
  "$root/usr/share/doc/skygate" "$root/usr/share/man/man1" "$root/usr/share/bash-completion/completions" \
  "$root/usr/share/zsh/vendor-completions" "$root/usr/share/fish/vendor_completions.d"
install -m 0755 "$binary" "$root/usr/bin/gatewayd"
# Stripped (Debian policy): with a strip that knows the architecture.
stripped=no
for tool in llvm-strip "$triple-linux-gnu-strip" strip; do
  if command -v "$tool" >/dev/null 2>&1 && "$tool" --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/gatewayd" 2>/dev/null; then stripped=$tool; break; fi
done
[ "$stripped" != no ] || say "warning: no strip for $arch found: the binary goes in unstripped"
install -m 0644 data/airports.bin "$root/usr/share/gatewayd/airports.bin"
sed 's|/usr/local/bin/gatewayd|/usr/bin/gatewayd|g; s|deploy/README.md|README.md|' deploy/gatewayd.service > "$root/lib/systemd/system/gatewayd.service"
chmod 0644 "$root/lib/systemd/system/gatewayd.service"
install -m 0644 deploy/gatewayd.toml "$root/etc/gatewayd/gatewayd.toml"
python3 scripts/manpage.py "$helper" --version "$version" | gzip -9n > "$root/usr/share/man/man1/gatewayd.1.gz"
# (bash completions are sourced, not run: no #! line)
"$helper" --generate-completion-script bash | sed '1{/^#!/d}' > "$root/usr/share/bash-completion/completions/gatewayd"
"$helper" --generate-completion-script zsh > "$root/usr/share/zsh/vendor-completions/_gatewayd"
"$helper" --generate-completion-script fish > "$root/usr/share/fish/vendor_completions.d/gatewayd.fish"
chmod 0644 "$root"/usr/share/*/completions/gatewayd "$root"/usr/share/zsh/vendor-completions/_gatewayd "$root"/usr/share/fish/vendor_completions.d/gatewayd.fish
install -m 0644 deploy/debian/copyright "$root/usr/share/doc/skygate/copyright"
date_r=$(date -R -u -d "@$(git log -1 --format=%ct 2>/dev/null || date +%s)")
# A native version (no Debian revision, as gatewayd's own) keeps its changelog as changelog.gz,
# a revised one (1.2.0-2) as changelog.Debian.gz (Debian policy 12.7).
changelog=changelog.gz
case $version in *-*) changelog=changelog.Debian.gz ;; esac
{
  echo "skygate ($version) stable; urgency=medium"
  echo
  echo "  * gatewayd $version, built from $(git rev-parse --short HEAD 2>/dev/null || echo 'a source tree')."
  echo "    The changes are the repository's history (git log) and its README."
  echo
  echo " -- skygate maintainers <maintainers@skygate.invalid>  $date_r"
} | gzip -9n > "$root/usr/share/doc/skygate/$changelog"

# Depends, from what the binary loads (readelf), and the glibc its symbols need.
glibc=$(readelf -W --dyn-syms "$binary" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -n 1)
depends=("libc6 (>= $glibc)")
for lib in $needed; do
  case $lib in
    libc.so.6|libm.so.6|ld-linux-*|libpthread.so.0|libdl.so.2|librt.so.1|libutil.so.1) ;;
    libsqlite3.so.0) depends+=("libsqlite3-0") ;;
    libasound.so.2) depends+=("libasound2") ;;
    libstdc++.so.6) depends+=("libstdc++6") ;;
    libgcc_s.so.1) depends+=("libgcc-s1") ;;
    libz.so.1) depends+=("zlib1g") ;;
    *) fail "$binary loads $lib, which this script does not know the Debian package of: add it to the list in deploy/build-deb.sh" ;;
  esac
done
size=$(du -k -s --exclude=DEBIAN "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<CONTROL
Package: skygate
Version: $version
Architecture: $arch
Maintainer: skygate maintainers <maintainers@skygate.invalid>
Installed-Size: $size
Depends: $(IFS=,; echo "${depends[*]}" | sed 's/,/, /g')
Recommends: libcurl4, libespeak-ng1, espeak-ng-data, zlib1g, libmosquitto1, libeccodes0
Section: net
Priority: optional
Homepage: https://github.com/skygate/skygate
Description: GDL90 traffic and airspace gateway for Stratux ADS-B receivers
 gatewayd listens for the GDL90 stream a Stratux (or another GDL90 receiver)
 sends on UDP port 4000, decodes it with a CRC-checked parser, fuses the
 traffic with ownship GPS and with NOTAMs kept offline in SQLite, and raises
 traffic and airspace alerts: on the terminal, on a cockpit web page, as
 spoken callouts, and in the formats EFBs and map tools already read
 (GDL90 re-broadcast, FLARM NMEA, tar1090's aircraft.json, GeoJSON).
 .
 It records what it was given and replays recordings through the same
 pipeline, and keeps a logbook of flights with KML, GPX, IGC and CSV exports.
 The package runs it as a hardened systemd service (gatewayd.service).
 .
 libcurl4 is needed to fetch NOTAMs; libespeak-ng1 and espeak-ng-data for
 the spoken callouts; libmosquitto1 to publish to a club's MQTT broker (the
 fleet): gatewayd names the package when one is missing.
CONTROL
printf '/etc/gatewayd/gatewayd.toml\n' > "$root/DEBIAN/conffiles"
(cd "$root" && find . -type f ! -path './DEBIAN/*' ! -path './etc/*' -printf '%P\n' | LC_ALL=C sort | xargs md5sum > DEBIAN/md5sums)
for script in postinst prerm postrm; do install -m 0755 "deploy/debian/$script" "$root/DEBIAN/$script"; done
deb=$out/skygate_${version}_${arch}.deb
fakeroot dpkg-deb --build -Zxz "$root" "$deb" >&2
say "$(du -h "$deb" | cut -f1) package, $size kB installed; binary $(du -h "$root/usr/bin/gatewayd" | cut -f1) (stripped by $stripped), glibc >= $glibc"
if command -v lintian >/dev/null 2>&1; then
  lintian --tag-display-limit 0 --display-info "$deb" 2>&1 | grep -v '^running with root privileges' >&2 || true
fi
echo "deb: $deb"
