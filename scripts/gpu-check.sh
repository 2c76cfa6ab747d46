#!/usr/bin/env bash
# Runs on the lent GPU machine (CUDA, no GStreamer): every element found,
# the capability log and a pipeline in both memory modes, the GPU test
# suite, then compute-sanitizer (memcheck with leak check over every GPU
# test program, racecheck and synccheck over the kernels that use shared
# memory), the sanitizer runs side by side.
#
#   scripts/gpu-check.sh BUILDDIR [quick]
#
# quick: the suite only, no sanitizer. Needs .gstrt
# (../shared/device/prepare-runtime.sh BUILDDIR) carried along. Logs go to
# $OUT (or /tmp/texel-out); the summary lines end the output.
set -uo pipefail
b="${1:-build-gpu}"
out="${OUT:-/tmp/texel-out}"
mkdir -p "$out"
. .gstrt/env.sh
export GST_PLUGIN_PATH="$PWD/$b/plugin"
log() { echo; echo "=== $*"; }
log "device"; nvidia-smi -L
log "elements"
for e in texelconvert texeladjust texelfilter texelwarp; do
  printf '%s: ' "$e"
  gst-inspect-1.0 "$e" >/dev/null 2>&1 && echo found || echo MISSING
done
for mode in staged zero-copy; do
  log "capability decision, memory-mode=$mode"
  GST_DEBUG=texel*:4 gst-launch-1.0 -q videotestsrc num-buffers=30 ! \
    video/x-raw,format=NV12,width=1920,height=1080 ! \
    texelconvert backend=cuda memory-mode=$mode ! \
    video/x-raw,format=RGBA,width=1280,height=720 ! fakesink 2>&1 |
    grep -E "CUDA device|configured|frames:|ERROR|WARN" | sed 's/.*texel/texel/' | cut -c1-400
done
log "meson test --suite gpu"
meson test -C "$b" --no-rebuild --suite gpu --num-processes 4 \
  --print-errorlogs > "$out/gpu-suite.txt" 2>&1
suite=$?
cp "$b/meson-logs/testlog.txt" "$out/gpu-testlog.txt" 2>/dev/null
grep -E "^ *[0-9]+/[0-9]+ |^Ok:|^Fail:|^Skipped:|^Timeout:" "$out/gpu-suite.txt"
log "every element on the GPU path"
TEXEL_TEST_BACKEND=cuda GST_PLUGIN_PATH_1_0="$GST_PLUGIN_PATH" \
  "$b/tests/element/test-every-element" 2>&1 | grep -E "Checks|:F:|:E:" ||
  suite=1
log "hostile input on the GPU path"
TEXEL_TEST_BACKEND=cuda GST_PLUGIN_PATH_1_0="$GST_PLUGIN_PATH" \
  "$b/tests/element/test-hostile" 2>&1 | grep -E "Checks|:F:|:E:" ||
  suite=1
[ "${2:-}" = quick ] && exit $suite

# One sanitizer run: TOOL NAME PROGRAM [ARGS]; its log in $out/san-TOOL-NAME.txt.
sanitize() {
  local tool=$1 name=$2 extra=()
  shift 2
  [ "$tool" = memcheck ] && extra=(--leak-check full)
  GST_DEBUG=*:1 timeout 500 compute-sanitizer --tool "$tool" "${extra[@]}" \
    --error-exitcode 9 "$@" > "$out/san-$tool-$name.txt" 2>&1
  echo "$tool $name: exit $? ; $(grep -E 'ERROR SUMMARY|LEAK SUMMARY|RACECHECK SUMMARY' \
    "$out/san-$tool-$name.txt" | head -2 | tr '\n' ' ')"
}
log "compute-sanitizer (side by side)"
t="$b/tests"
{
  for k in convert adjust filter warp; do
    sanitize memcheck "$k" "$t/gpu/test-$k-gpu" --quick &
  done
  sanitize memcheck cudamemory "$t/element/test-cudamemory-gpu" &
  GST_CHECKS=test_flush_in_flight,test_concurrent_pipelines,test_memory_paths \
    sanitize memcheck texelconvert "$t/element/test-texelconvert-gpu" &
  CK_FORK=no TEXEL_TEST_BACKEND=cuda \
    sanitize memcheck every-element "$t/element/test-every-element" &
  # NVMM: CUDA-memory surfaces, in the environment meson gives them
  # (tests/nvmm/meson.build). Not the surface arrays: with the sanitizer
  # attached NVIDIA's EGL refuses eglCreateImageKHR on the stand-in's GL
  # textures (EGL_BAD_ACCESS; H100, CUDA 13.0), so test-nvmm-egl cannot
  # run under it.
  (
    export GST_TEXEL_NVBUFSURFACE_LIBRARY="$t/nvmm/libnvbufsurface-standin.so"
    export GST_TEXEL_NVMM=1 GST_PLUGIN_PATH_1_0="$GST_PLUGIN_PATH:$t/nvmm"
    export GST_REGISTRY_1_0="$t/nvmm/registry.bin"
    GST_CHECKS=test_nvmm_in_flight,test_nvmm_passthrough \
      sanitize memcheck nvmm-gpu "$t/nvmm/test-nvmm-gpu"
  ) &
  for k in adjust filter; do
    sanitize racecheck "$k" "$t/gpu/test-$k-gpu" --quick &
  done
  sanitize synccheck filter "$t/gpu/test-filter-gpu" --quick &
  wait
} | sort
exit $suite
