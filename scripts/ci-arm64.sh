#!/usr/bin/env bash
# CI: the Debian package cross-built for arm64 (a Jetson's CPU), its unit
# and element tests run under qemu-user, the package installed and its
# plugin inspected under qemu. All of it happens in a throwaway Debian
# chroot with amd64 and arm64 packages (mmdebstrap), so the host's own
# packages are untouched: adding arm64 to the host's dpkg would make apt
# want to remove its amd64 -dev packages.
#
# CPU-only: no CUDA cross toolkit (targets/aarch64-linux) is available
# here, and debian/rules turns CUDA off by itself in a cross build without
# one.
#
#   OUTDIR=out/arm64   where the .deb, the logs and the summary go
#
# The chroot's package sources are the host's own (its apt sources file is
# pasted into the chroot), so the script names no mirror.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
outdir="${OUTDIR:-$src/out/arm64}"
t0=$(date +%s)
say() { printf '== arm64: %s\n' "$*"; }

sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo
if ! command -v mmdebstrap >/dev/null 2>&1; then
  say "installing mmdebstrap"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends mmdebstrap >/dev/null
fi

suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
[ -n "$suite" ] || { echo "ci-arm64: cannot tell this distribution's release" >&2; exit 1; }
sources=""
for f in /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list; do
  if [ -s "$f" ] && grep -qE '^(deb |Types:)' "$f"; then sources=$f; break; fi
done
[ -n "$sources" ] || { echo "ci-arm64: no apt sources on this machine" >&2; exit 1; }

rm -rf "$outdir"
mkdir -p "$outdir"
work=$(mktemp -d /tmp/texel-arm64.XXXXXX)
cleanup() { $sudo rm -rf "$work"; }
trap cleanup EXIT

# The source as committed plus untracked files git does not ignore (no build
# trees), as scripts/build-deb.sh stages it.
mkdir -p "$work/src"
git ls-files -z --cached --others --exclude-standard | \
  while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done | \
  tar --null -T - -cf - | tar -xf - -C "$work/src"

# The chroot: build tools (amd64), the cross compiler, qemu-user to run
# arm64 programs without binfmt_misc, and arm64 GStreamer tools and plugins
# for the tests and gst-inspect. The build dependencies themselves are
# resolved from debian/control inside (apt-get build-dep -a arm64), which
# checks that they cross-resolve.
say "creating a $suite chroot (amd64 + arm64)"
$sudo mmdebstrap --mode=root --variant=buildd --architectures=amd64,arm64 \
  --include=crossbuild-essential-arm64,qemu-user,file,ca-certificates \
  --include=gstreamer1.0-tools:arm64,gstreamer1.0-plugins-base:arm64,gstreamer1.0-plugins-good:arm64 \
  --customize-hook='mkdir -p "$1/src" "$1/out"' \
  --customize-hook="sync-in $work/src /src" \
  --customize-hook='chroot "$1" bash /src/scripts/ci-arm64-chroot.sh || touch "$1/out/failed"' \
  --customize-hook="sync-out /out $outdir" \
  --skip=cleanup/apt --skip=cleanup/tmp \
  "$suite" "$work/root" "$sources" >"$outdir/mmdebstrap.log" 2>&1 || {
  tail -n 80 "$outdir/mmdebstrap.log"
  echo "ci-arm64: failed, log in $outdir/mmdebstrap.log" >&2
  exit 1
}
grep '^== arm64' "$outdir/mmdebstrap.log" || true
# The chroot's logs come out even when it failed (the hook never fails).
if [ -e "$outdir/failed" ] || [ ! -f "$outdir/summary.txt" ]; then
  sed -n '/^== arm64/,$p' "$outdir/mmdebstrap.log" | grep -v '^I: ' | tail -n 120
  echo "ci-arm64: failed, logs in $outdir" >&2
  exit 1
fi
cat "$outdir/summary.txt"
say "done in $(( $(date +%s) - t0 )) s"
