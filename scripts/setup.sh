#!/usr/bin/env bash
# Installs what building and testing skygate needs, only when it is missing, then returns.
# Used by the README's two commands and by .ci/run.
set -euo pipefail

need_apt=()
have_header() { [ -f "/usr/include/$1" ] || [ -f "/usr/include/$(uname -m)-linux-gnu/$1" ]; }
have_header sqlite3.h || need_apt+=(libsqlite3-dev)
have_header curl/curl.h || need_apt+=(libcurl4-openssl-dev)
# The voice (spoken callouts): espeak-ng renders the vocabulary, ALSA plays it; the tests play into
# a file PCM (no sound card needed). aplay (alsa-utils) and sox play and check a replay's WAV.
have_header espeak-ng/speak_lib.h || need_apt+=(libespeak-ng-dev)
[ -d "/usr/lib/$(uname -m)-linux-gnu/espeak-ng-data" ] || [ -d /usr/share/espeak-ng-data ] || need_apt+=(espeak-ng)
have_header alsa/asoundlib.h || need_apt+=(libasound2-dev)
[ -d "/usr/lib/$(uname -m)-linux-gnu/alsa-lib" ] || need_apt+=(libasound2-plugins)
command -v aplay >/dev/null 2>&1 || need_apt+=(alsa-utils)
command -v sox >/dev/null 2>&1 || need_apt+=(sox)
# The cockpit page's test drives a real headless browser (Debian's chromium).
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || need_apt+=(chromium)
# node checks that the cockpit page's script parses (node --check, in the tests and .ci/run).
command -v node >/dev/null 2>&1 || need_apt+=(nodejs)
# tshark (Wireshark's reader) checks that the flight recorder's one-file pcapng opens in it.
command -v tshark >/dev/null 2>&1 || need_apt+=(tshark)
# The Debian package (deploy/build-deb.sh, deploy/check-deb.sh): dpkg-deb and dpkg-scanpackages,
# fakeroot, lintian, apt-ftparchive and gpg for the apt repository, debootstrap for the Debian 12
# root it is installed in, man for the man page's test.
command -v dpkg-scanpackages >/dev/null 2>&1 || need_apt+=(dpkg-dev)
command -v fakeroot >/dev/null 2>&1 || need_apt+=(fakeroot)
command -v lintian >/dev/null 2>&1 || need_apt+=(lintian)
command -v apt-ftparchive >/dev/null 2>&1 || need_apt+=(apt-utils)
command -v gpg >/dev/null 2>&1 || need_apt+=(gnupg)
command -v debootstrap >/dev/null 2>&1 || need_apt+=(debootstrap)
command -v man >/dev/null 2>&1 || need_apt+=(man-db)
# GDAL (gdalinfo, gdal_translate) reads the radar pictures back with their world files in the tests.
command -v gdal_translate >/dev/null 2>&1 || need_apt+=(gdal-bin)
# The fleet (issue 43): a real mosquitto broker in the tests, its clients, and libmosquitto (the
# gateway loads libmosquitto.so.1 on first use; the header proves the shim's prototypes).
command -v mosquitto >/dev/null 2>&1 || [ -x /usr/sbin/mosquitto ] || need_apt+=(mosquitto)
command -v mosquitto_sub >/dev/null 2>&1 || need_apt+=(mosquitto-clients)
have_header mosquitto.h || need_apt+=(libmosquitto-dev)
# The forecast radar (issue 55) decodes GRIB2 with ecCodes, loaded on first use (libeccodes0).
ls /usr/lib/*/libeccodes.so.0 >/dev/null 2>&1 || need_apt+=(libeccodes0)
# Python 3 and pip for the export readers (below).
command -v python3 >/dev/null 2>&1 || need_apt+=(python3)
python3 -m pip --version >/dev/null 2>&1 || need_apt+=(python3-pip)

if [ ${#need_apt[@]} -gt 0 ]; then
  echo "setup: installing ${need_apt[*]} (apt-get)" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
      echo "setup: need root to install ${need_apt[*]}: run as root or install sudo" >&2; exit 1
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq >/dev/null || { echo "setup: apt-get update failed (no network?)" >&2; exit 1; }
  $sudo apt-get install -y -qq "${need_apt[@]}" >/dev/null || { echo "setup: apt-get install ${need_apt[*]} failed" >&2; exit 1; }
  # Debian starts the mosquitto it installs on port 1883; the tests start their own on free ports.
  case " ${need_apt[*]} " in *" mosquitto "*) $sudo systemctl disable --now mosquitto >/dev/null 2>&1 || true ;; esac
fi

# The logbook's exports are read back by the ecosystem's own readers in the tests
# (scripts/check_exports.py): gpxpy (GPX), lxml and fastkml (KML), aerofiles (IGC).
if ! python3 -c 'import gpxpy, lxml, fastkml, aerofiles' >/dev/null 2>&1; then
  echo "setup: installing gpxpy lxml fastkml aerofiles (pip, for the export round-trip test)" >&2
  python3 -m pip install --quiet --user gpxpy lxml fastkml aerofiles 2>/dev/null \
    || python3 -m pip install --quiet --user --break-system-packages gpxpy lxml fastkml aerofiles \
    || { echo "setup: pip install gpxpy lxml fastkml aerofiles failed (no network? no python3-pip?)" >&2; exit 1; }
fi

# The notifications' tests talk to a real SMTP server (aiosmtpd); the forecast radar's make their
# GRIB2 files with ecCodes' own Python bindings and check every pixel with numpy.
if ! python3 -c 'import aiosmtpd, eccodes, numpy' >/dev/null 2>&1; then
  echo "setup: installing aiosmtpd eccodes numpy (pip, for the notification and forecast tests)" >&2
  python3 -m pip install --quiet --user aiosmtpd eccodes numpy 2>/dev/null \
    || python3 -m pip install --quiet --user --break-system-packages aiosmtpd eccodes numpy \
    || { echo "setup: pip install aiosmtpd eccodes numpy failed (no network? no python3-pip?)" >&2; exit 1; }
fi

if ! command -v swift >/dev/null 2>&1; then
  if [ -x /opt/swift/usr/bin/swift ]; then
    echo "setup: swift is in /opt/swift/usr/bin but not on PATH: export PATH=/opt/swift/usr/bin:\$PATH" >&2
  else
    echo "setup: Swift 6.2 or newer is needed: on Debian 13 'apt-get install swiftlang', elsewhere the toolchain from swift.org (aarch64 and x86_64)" >&2
  fi
  exit 1
fi
version=$(swift --version 2>/dev/null | sed -n 's/.*Swift version \([0-9]*\.[0-9]*\).*/\1/p' | head -n 1)
case "$version" in
  6.[2-9]*|[7-9].*) ;;
  *) echo "setup: Swift $version found, 6.2 or newer is needed (swift-log, Hummingbird and friends require it)" >&2; exit 1 ;;
esac
