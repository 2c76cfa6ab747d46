#!/usr/bin/env bash
# Builds the Debian package gstreamer1.0-texel from this checkout, checks it
# with lintian, installs it into the system, checks that gst-inspect-1.0
# finds every element in the installed plugin (not in a build tree), runs a
# pipeline through it and removes it again. Needs root (or sudo) and apt.
#
#   OUTDIR=out/deb        where the staged source, .deb and logs go
#   TEXEL_DEB_CUDA=auto   auto: CUDA when nvcc is found, else CPU-only
#                         yes: fail without nvcc; no: the pkg.texel.nocuda profile
#   TEXEL_CUDA_ARCH=...   passed to debian/rules (e.g. sm_87 on a Jetson Orin)
#   KEEP_INSTALLED=1      leave the package installed at the end
#
# The CUDA toolkit is not a Debian package in main. debian/control names the
# packagings that dpkg-checkbuilddeps accepts (nvidia-cuda-toolkit from
# Debian non-free, cuda-toolkit* from NVIDIA's repository, nvidia-cuda-dev
# from JetPack). When none of them is installed but nvcc is there anyway
# (NVIDIA's .run installer, a tarball), this script checks every other
# build dependency with the pkg.texel.nocuda profile and then builds with
# dpkg-buildpackage -d. Without nvcc it builds the CPU-only package.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
outdir="${OUTDIR:-$src/out/deb}"
mode="${TEXEL_DEB_CUDA:-auto}"
cuda_home="${CUDA_HOME:-/usr/local/cuda}"
t0=$(date +%s)
say() { printf '== %s\n' "$*"; }

sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo

# 1. Tools for building and checking the package, and the build dependencies
#    from Debian main (install-deps.sh installs most already).
tools=(dpkg-dev debhelper fakeroot lintian meson ninja-build pkgconf
       libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev
       gstreamer1.0-plugins-base gstreamer1.0-tools)
missing=()
for p in "${tools[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# 2. A clean copy of the source: tracked files and untracked ones git does not
#    ignore (no build directories), so that the build cannot pick up a stale
#    build tree and dpkg-buildpackage writes its results into $outdir.
version=$(dpkg-parsechangelog -l debian/changelog -S Version)
rm -rf "$outdir"
mkdir -p "$outdir"
stage="$outdir/gst-texel-$version"
mkdir -p "$stage"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git ls-files -z --cached --others --exclude-standard | \
    while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done | \
    tar --null -T - -cf - | tar -xf - -C "$stage"
else
  tar --exclude='./build*' --exclude=./out --exclude=./.git -cf - . | tar -xf - -C "$stage"
fi

# 3. Which way past the CUDA build dependency.
nvcc=""
if [ -x "$cuda_home/bin/nvcc" ]; then nvcc="$cuda_home/bin/nvcc"
elif command -v nvcc >/dev/null 2>&1; then nvcc=$(command -v nvcc); fi
bp_args=(-us -uc -b)
cd "$stage"
if [ "$mode" = no ] || { [ "$mode" = auto ] && [ -z "$nvcc" ]; }; then
  say "building the CPU-only package (build profile pkg.texel.nocuda)"
  export DEB_BUILD_PROFILES="pkg.texel.nocuda${DEB_BUILD_PROFILES:+ $DEB_BUILD_PROFILES}"
  bp_args+=(-Ppkg.texel.nocuda)
elif dpkg-checkbuilddeps 2>/dev/null; then
  say "building with CUDA ($nvcc); the toolkit is installed as a package"
else
  [ -n "$nvcc" ] || { echo "TEXEL_DEB_CUDA=yes, but no nvcc in $cuda_home/bin or on PATH" >&2; exit 1; }
  say "building with CUDA ($nvcc, not from a package): every other build" \
      "dependency checked, then dpkg-buildpackage -d"
  dpkg-checkbuilddeps -P pkg.texel.nocuda
  bp_args+=(-d)
fi

# 4. Build.
say "dpkg-buildpackage ${bp_args[*]}"
CUDA_HOME="$cuda_home" dpkg-buildpackage "${bp_args[@]}" >"$outdir/build.log" 2>&1 || {
  tail -n 60 "$outdir/build.log"; echo "dpkg-buildpackage failed: $outdir/build.log" >&2; exit 1; }
cd "$src"
arch=$(dpkg --print-architecture)
deb="$outdir/gstreamer1.0-texel_${version}_${arch}.deb"
changes="$outdir/gst-texel_${version}_${arch}.changes"
[ -f "$deb" ] || { echo "no $deb" >&2; exit 1; }
say "built $(basename "$deb") ($(du -h "$deb" | cut -f1))"
dpkg-deb --info "$deb" | sed -n '/Package:/,$p' | grep -E '^ (Package|Version|Depends|Recommends|Suggests|Multi-Arch):'
dpkg-deb --contents "$deb" | awk '{print "   " $6}'

# 5. lintian: errors fail; warnings, info and overridden tags are listed.
say "lintian"
lintian --info --display-info --pedantic --show-overrides --fail-on error "$changes" | tee "$outdir/lintian.log"
say "lintian: $(grep -c '^E:' "$outdir/lintian.log" || true) error(s)," \
    "$(grep -c '^W:' "$outdir/lintian.log" || true) warning(s)," \
    "$(grep -c '^[IP]:' "$outdir/lintian.log" || true) info/pedantic," \
    "$(grep -c '^O:' "$outdir/lintian.log" || true) overridden"

# 6. Install into the system, check from the installed path, run, remove.
was_installed=""
dpkg -s gstreamer1.0-texel >/dev/null 2>&1 && was_installed=yes
cleanup() {
  if [ -z "${KEEP_INSTALLED:-}" ] && dpkg -s gstreamer1.0-texel >/dev/null 2>&1; then
    say "removing gstreamer1.0-texel"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get purge -y -qq gstreamer1.0-texel >/dev/null
  fi
}
trap cleanup EXIT
say "installing $(basename "$deb")"
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$deb" >/dev/null

# Nothing from the build tree: no plugin path, a registry of our own.
unset GST_PLUGIN_PATH GST_PLUGIN_PATH_1_0
tmp=$(mktemp -d)
export AUTOPKGTEST_TMP="$tmp"
say "autopkgtest inspect (installed path)"
bash debian/tests/inspect
installed=$(GST_REGISTRY_1_0="$tmp/registry.bin" gst-inspect-1.0 texel | sed -n 's/^  \([a-z0-9_]*\): .*/\1/p')
for page in docs/elements/*.md; do
  e=$(basename "$page" .md)
  echo "$installed" | grep -qx "$e" || { echo "FAIL: $e is documented but not in the installed plugin" >&2; exit 1; }
done
say "autopkgtest pipeline"
bash debian/tests/pipeline

cleanup
trap - EXIT
if [ -z "${KEEP_INSTALLED:-}" ]; then
  if GST_REGISTRY_1_0="$tmp/registry2.bin" gst-inspect-1.0 texelconvert >/dev/null 2>&1; then
    echo "FAIL: texelconvert still found after removing the package" >&2; exit 1
  fi
  say "removed; gst-inspect-1.0 no longer finds texelconvert"
  [ -n "$was_installed" ] && say "note: gstreamer1.0-texel was installed before this script ran; it is removed now"
fi
rm -rf "$tmp"
say "build-deb: ok in $(( $(date +%s) - t0 )) s ($deb)"
