#!/usr/bin/env bash
# A flat apt repository of skygate packages, for any static web server (a club's, GitHub Pages):
#
#   deploy/build-apt-repo.sh DIR DEB [DEB...]
#
# DIR gets the packages, Packages(.gz), Release signed (InRelease, Release.gpg) and the public
# half of the signing key, skygate-archive-keyring.gpg. The key is the one named
# "skygate archive signing key" in GnuPG's home (GNUPGHOME, else ~/.gnupg); when there is none,
# one is made there (ed25519, no passphrase: keep that home safe, it signs what pilots install).
# Publishing a newer version: run it again with the packages to serve (older ones may stay).
# On the Pi:
#   sudo curl -o /usr/share/keyrings/skygate-archive-keyring.gpg URL/skygate-archive-keyring.gpg
#   echo "deb [signed-by=/usr/share/keyrings/skygate-archive-keyring.gpg] URL/ ./" | sudo tee /etc/apt/sources.list.d/skygate.list
#   sudo apt update && sudo apt install skygate
set -euo pipefail
say() { echo "build-apt-repo: $*" >&2; }
fail() { echo "build-apt-repo: $*" >&2; exit 1; }
[ $# -ge 2 ] || fail "usage: deploy/build-apt-repo.sh DIR DEB [DEB...] (see the header of this script)"
dir=$1; shift
for tool in dpkg-scanpackages apt-ftparchive gpg gzip; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool is missing (apt-get install dpkg-dev apt-utils gnupg)"
done
mkdir -p "$dir" 2>/dev/null && [ -w "$dir" ] || fail "$dir: cannot write there"
for deb in "$@"; do
  [ -f "$deb" ] || fail "$deb: no such package"
  [ "$(dpkg-deb -f "$deb" Package 2>/dev/null)" = skygate ] || fail "$deb: not a skygate package"
  cp -f "$deb" "$dir/"
done
uid="skygate archive signing key"
if ! gpg --batch --list-secret-keys "$uid" >/dev/null 2>&1; then
  say "no key '$uid' in ${GNUPGHOME:-~/.gnupg}: making one (ed25519, no passphrase)"
  gpg --batch --passphrase '' --quick-gen-key "$uid <maintainers@skygate.invalid>" ed25519 sign never 2>/dev/null ||
    fail "gpg could not make a signing key in ${GNUPGHOME:-~/.gnupg}"
fi
cd "$dir"
dpkg-scanpackages --multiversion . /dev/null 2>/dev/null > Packages
gzip -9nkf Packages
apt-ftparchive -o APT::FTPArchive::Release::Origin=skygate -o APT::FTPArchive::Release::Label=skygate \
  -o APT::FTPArchive::Release::Suite=stable -o APT::FTPArchive::Release::Codename=stable \
  -o "APT::FTPArchive::Release::Architectures=$(dpkg-scanpackages . /dev/null 2>/dev/null | sed -n 's/^Architecture: //p' | sort -u | tr '\n' ' ')" \
  -o APT::FTPArchive::Release::Description="gatewayd, the GDL90 traffic and airspace gateway" release . > Release.new
mv Release.new Release
rm -f InRelease Release.gpg
gpg --batch --yes --local-user "$uid" --clearsign -o InRelease Release
gpg --batch --yes --local-user "$uid" --armor --detach-sign -o Release.gpg Release
gpg --batch --yes --export "$uid" > skygate-archive-keyring.gpg
say "$(grep -c '^Package: ' Packages) package(s): $(sed -n 's/^Version: //p' Packages | sort -uV | tr '\n' ' ')signed by $(gpg --batch --with-colons --list-keys "$uid" | awk -F: '/^fpr/{print $10; exit}')"
echo "repository: $(pwd)"
