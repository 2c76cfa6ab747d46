#!/usr/bin/env bash
# For the first Jetson user (issue #17): on a Jetson, builds gst-texel,
# runs its tests (the GPU suite included), runs the NVMM pipelines that
# only a Jetson can run (its camera when one answers, else videotestsrc
# through nvvidconv into NVMM; NVIDIA's encoder where present) and prints
# a short markdown report to paste into an issue; also written to
# REPORT (default jetson-report.md).
#
#   scripts/jetson-check.sh [--install] [--build-dir DIR] [--frames N]
#
# --install    run scripts/install-deps.sh first (needs sudo/root)
# --build-dir  where to build (default build-jetson)
# --frames     frames per pipeline (default 300)
#
# On a machine that is not a Jetson it says so, reports what it finds and
# runs only the build and the tests (the pipelines need NVIDIA's Jetson
# elements). Exit status: 0 when everything that ran passed, 1 otherwise.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
builddir=build-jetson frames=300 install=no
report=${REPORT:-jetson-report.md}
while [ $# -gt 0 ]; do
  case $1 in
    --install) install=yes ;;
    --build-dir) builddir=$2; shift ;;
    --frames) frames=$2; shift ;;
    *) echo "usage: $0 [--install] [--build-dir DIR] [--frames N]" >&2; exit 2 ;;
  esac
  shift
done
logdir="$builddir-logs"
mkdir -p "$logdir"
status=0
lines=()
add() { lines+=("$*"); }

# What the machine is.
model=$(tr -d '\0' < /proc/device-tree/model 2>/dev/null || echo "not a device-tree machine")
is_jetson=no
[ -f /etc/nv_tegra_release ] && is_jetson=yes
l4t=$(head -n 1 /etc/nv_tegra_release 2>/dev/null || echo none)
jetpack=$(dpkg-query -W -f '${Version}' nvidia-jetpack 2>/dev/null || echo "not installed as a package")
. scripts/cuda-path.sh 2>/dev/null || true
cuda=$(nvcc --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\).*/\1/p')
gst=$(gst-launch-1.0 --version 2>/dev/null | sed -n 's/.*version \([0-9.]*\).*/\1/p' | head -n 1)
add "| machine | $model ($(uname -m)) |"
add "| L4T | $l4t |"
add "| JetPack | $jetpack |"
add "| CUDA (nvcc) | ${cuda:-none} |"
add "| GStreamer | ${gst:-none} |"
add "| Meson | $(meson --version 2>/dev/null || echo none) |"
add "| gst-texel | $(git describe --always --dirty 2>/dev/null || echo unknown) |"

# Build and tests.
if [ $install = yes ]; then
  bash scripts/install-deps.sh > "$logdir/install.log" 2>&1 || status=1
fi
if { [ -d "$builddir" ] || meson setup "$builddir" > "$logdir/setup.log" 2>&1; } \
    && ninja -C "$builddir" > "$logdir/build.log" 2>&1; then
  add "| build | ok $(grep -E '^ +CUDA ' "$logdir/setup.log" 2>/dev/null | head -n 1 | xargs) |"
  meson test -C "$builddir" --no-rebuild --print-errorlogs --num-processes 2 \
    > "$logdir/test.log" 2>&1 || status=1
  add "| tests | $(grep -E '^(Ok|Fail|Skipped|Timeout):' "$logdir/test.log" | tr -s ' ' | tr '\n' ' ') |"
  grep -E '^ *[0-9]+/[0-9]+ .*(FAIL|TIMEOUT|SKIP)' "$logdir/test.log" \
    | sed 's/^/    /' > "$logdir/test-not-ok.txt"
else
  add "| build | FAILED: see $logdir/setup.log, $logdir/build.log |"
  status=1
fi

plugin_dir=$(cd "$builddir/plugin" 2>/dev/null && pwd)
export GST_PLUGIN_PATH="$plugin_dir${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
caps=$(gst-inspect-1.0 texelconvert 2>/dev/null | grep -c 'memory:NVMM')
add "| texelconvert pads with memory:NVMM | ${caps:-0} caps structures |"
# The element's start line: the path and memory it chose, and whether NVMM
# is there (and if not, why).
cap_line=$(GST_DEBUG_NO_COLOR=1 GST_DEBUG=texelbase:4 gst-launch-1.0 -q \
  videotestsrc num-buffers=1 ! texelconvert ! fakesink 2>&1 \
  | grep -m 1 'INFO .*gst_texel_base_start' | sed 's/^.*> //' | head -c 400)
add "| capability line | ${cap_line:-none} |"

# One pipeline: name, then the gst-launch description. Passes when it
# reaches EOS within the time its frames need (plus slack).
run_pipeline() {
  local name=$1 desc=$2 log="$logdir/pipeline-$1.log" t0 t1 fps rc
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086 # the description is split as gst-launch wants
  GST_TEXEL_NVMM=1 GST_DEBUG="texel*:4,*:2" timeout $(( frames / 10 + 60 )) \
    gst-launch-1.0 -e $desc > "$log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  fps=$(awk -v n="$frames" -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", n / (b - a) }')
  if [ $rc -eq 0 ] && grep -q 'Got EOS' "$log"; then
    add "| $name | ok, $fps frames/s wall; $(grep -m 1 -o '[0-9]* frames: .*' "$log" | head -c 200) |"
  else
    add "| $name | FAILED (exit $rc): $(grep -m 1 -E 'ERROR|error' "$log" | head -c 200) |"
    status=1
  fi
}

has() { gst-inspect-1.0 "$1" > /dev/null 2>&1; }
if [ $is_jetson = yes ] && has nvvidconv; then
  src="videotestsrc num-buffers=$frames ! video/x-raw,width=1920,height=1080,framerate=30/1 ! nvvidconv ! video/x-raw(memory:NVMM),format=NV12"
  if has nvarguscamerasrc && [ -e /dev/video0 ]; then
    src="nvarguscamerasrc num-buffers=$frames ! video/x-raw(memory:NVMM),width=1920,height=1080,framerate=30/1,format=NV12"
    add "| source | the CSI camera (nvarguscamerasrc) |"
  else
    add "| source | videotestsrc through nvvidconv (no camera answered) |"
  fi
  run_pipeline nvmm-convert "$src ! texelconvert ! video/x-raw(memory:NVMM),format=RGBA,width=1280,height=720 ! nvvidconv ! video/x-raw,format=I420 ! fakesink"
  run_pipeline nvmm-warp-chain "$src ! texelwarp rotation=5 ! texeladjust gamma=1.2 ! texelconvert ! video/x-raw(memory:NVMM),format=NV12 ! nvvidconv ! fakesink"
  if has nvv4l2h264enc; then
    run_pipeline nvmm-encode "$src ! texelwarp model=fisheye fx=800 fy=800 ! video/x-raw(memory:NVMM),format=NV12 ! nvv4l2h264enc ! h264parse ! fakesink"
  fi
  run_pipeline system-memory "videotestsrc num-buffers=$frames ! video/x-raw,format=NV12,width=1920,height=1080 ! texelconvert ! video/x-raw,format=RGBA,width=1280,height=720 ! fakesink"
else
  add "| pipelines | not run: $([ $is_jetson = yes ] && echo 'no nvvidconv' || echo 'not a Jetson') |"
fi

{
  echo "## gst-texel on $model"
  echo
  echo "| what | result |"
  echo "|---|---|"
  printf '%s\n' "${lines[@]}"
  if [ -s "$logdir/test-not-ok.txt" ]; then
    echo
    echo "Tests not OK:"
    echo
    cat "$logdir/test-not-ok.txt"
  fi
  echo
  echo "Logs: $logdir/ (attach pipeline-*.log and test.log when something failed)."
} | tee "$report"
exit $status
