#!/usr/bin/env bash
# Runs inside the amd64+arm64 chroot that scripts/ci-arm64.sh makes: the
# package cross-built for arm64 with its unit and element tests run under
# qemu-user (meson's exe_wrapper), then installed and inspected under qemu.
# Results go to /out (summary.txt, the .deb, logs).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8
say() { printf '== arm64: %s\n' "$*"; }
mkdir -p /out
cd /src

say "build dependencies for arm64 (apt-get build-dep -a arm64)"
apt-get build-dep -y -qq -a arm64 -P cross,pkg.texel.nocuda ./ >/out/build-dep.log 2>&1 || {
  tail -n 40 /out/build-dep.log; exit 1; }

# Meson's cross file for Debian's arm64 toolchain, with qemu as the wrapper
# that runs the tests. No binfmt_misc: qemu is named, not registered.
meson env2mfile --cross --debarch arm64 -o /tmp/arm64-cross.ini
sed -i "/^\[binaries\]/a exe_wrapper = ['qemu-aarch64']" /tmp/arm64-cross.ini
export DH_MESON_CROSS_FILE=/tmp/arm64-cross.ini
# GStreamer scans plugins in a child process it execs; under qemu without
# binfmt_misc that child cannot start, so the scan runs in-process.
export GST_REGISTRY_FORK=no

# Without the pkg.texel.nocuda profile: debian/rules must turn CUDA off by
# itself for a cross build (dpkg-buildpackage -d, since the CUDA build
# dependencies of a native build are not installed).
say "dpkg-buildpackage -a arm64 (tests under qemu)"
if ! dpkg-buildpackage -aarm64 -Pcross -d -b -us -uc >/out/build.log 2>&1; then
  tail -n 30 /out/build.log
  # The failing tests' own output, from meson's log.
  log=obj-aarch64-linux-gnu/meson-logs/testlog.txt
  [ -f "$log" ] && cp "$log" /out/ && python3 - obj-aarch64-linux-gnu/meson-logs/testlog.json <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["result"] not in ("OK", "SKIP", "EXPECTEDFAIL"):
        print(f"--- {r['name']}: {r['result']}")
        print("\n".join((r.get("stdout") or "").splitlines()[-40:]))
PY
  exit 1
fi
grep -E 'CPU-only plugin|CUDA +: ' /out/build.log | head -n 3 || true
deb=$(ls /gstreamer1.0-texel_*_arm64.deb)
cp "$deb" /out/
plugin=obj-aarch64-linux-gnu/plugin/libgsttexel.so
file -L "$plugin" | tee /out/plugin-file.txt
grep -q 'ARM aarch64' /out/plugin-file.txt || { echo "FAIL: $plugin is not an arm64 library" >&2; exit 1; }

# How many tests ran under qemu: all skipped does not count.
python3 - obj-aarch64-linux-gnu/meson-logs/testlog.json >/out/tests.txt <<'PY'
import json, sys
counts = {"OK": 0, "FAIL": 0, "SKIP": 0}
names = []
for line in open(sys.argv[1]):
    r = json.loads(line)
    key = "OK" if r["result"] in ("OK", "EXPECTEDFAIL") else "SKIP" if r["result"] == "SKIP" else "FAIL"
    counts[key] += 1
    names.append(f"{r['name']}: {r['result']}")
print("\n".join(names))
print(f"arm64 tests under qemu: {counts['OK']} passed, {counts['FAIL']} failed, {counts['SKIP']} skipped")
sys.exit(0 if counts["OK"] > 0 and counts["FAIL"] == 0 else 1)
PY
cat /out/tests.txt

say "installing $(basename "$deb") and inspecting it under qemu"
apt-get install -y -qq "$deb" >/out/install.log 2>&1 || { tail -n 40 /out/install.log; exit 1; }
unset GST_PLUGIN_PATH GST_PLUGIN_PATH_1_0
export GST_REGISTRY_1_0=/tmp/arm64-registry.bin
file -L /usr/bin/gst-inspect-1.0 | grep -q 'ARM aarch64' || { echo "FAIL: gst-inspect-1.0 is not the arm64 one" >&2; exit 1; }
qemu-aarch64 /usr/bin/gst-inspect-1.0 texel >/out/inspect.txt 2>&1 || { cat /out/inspect.txt; exit 1; }
found=$(sed -n 's/^  \([a-z0-9_]*\): .*/\1/p' /out/inspect.txt)
missing=""
for page in docs/elements/*.md; do
  e=$(basename "$page" .md)
  echo "$found" | grep -qx "$e" || missing="$missing $e"
done
[ -z "$missing" ] || { cat /out/inspect.txt; echo "FAIL: not in the arm64 plugin:$missing" >&2; exit 1; }
qemu-aarch64 /usr/bin/gst-launch-1.0 -q videotestsrc num-buffers=3 \
  ! video/x-raw,format=NV12,width=320,height=240 ! texelconvert \
  ! video/x-raw,format=RGBA,width=160,height=120 ! fakesink >/out/launch.txt 2>&1 || {
  cat /out/launch.txt; echo "FAIL: texelconvert pipeline under qemu" >&2; exit 1; }
{
  tail -n 1 /out/tests.txt
  echo "arm64 gst-inspect-1.0 texel (installed package, under qemu): $(echo $found | wc -w) elements: $(echo $found)"
  echo "arm64 gst-launch-1.0 videotestsrc ! texelconvert ! fakesink under qemu: ok"
} | tee /out/summary.txt
