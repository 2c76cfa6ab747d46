#!/usr/bin/env bash
# Runs on the lent GPU machine (CUDA, no GStreamer): the GPU test suite,
# compute-sanitizer over it, the capability log and a demo pipeline in both
# memory modes. Usage: scripts/gpu-check.sh BUILDDIR [quick]
# Needs .gstrt (../shared/device/prepare-runtime.sh BUILDDIR) carried along.
set -uo pipefail
b="${1:-build-gpu}"
out="${OUT:-/tmp/texel-out}"
mkdir -p "$out"
. .gstrt/env.sh
export GST_PLUGIN_PATH="$PWD/$b/plugin"
log() { echo; echo "=== $*"; }
log "device"; nvidia-smi -L
log "gst-inspect"; gst-inspect-1.0 texelconvert | head -20
for mode in staged zero-copy; do
  log "capability decision, memory-mode=$mode"
  GST_DEBUG=texel*:4 gst-launch-1.0 -q videotestsrc num-buffers=30 ! \
    video/x-raw,format=NV12,width=1920,height=1080 ! \
    texelconvert backend=cuda memory-mode=$mode ! \
    video/x-raw,format=RGBA,width=1280,height=720 ! fakesink 2>&1 |
    grep -E "CUDA device|configured|frames:|ERROR|WARN" | sed 's/.*texel/texel/' | cut -c1-400
done
log "meson test --suite gpu"
meson test -C "$b" --no-rebuild --suite gpu --print-errorlogs 2>&1 | tail -25
cp "$b/meson-logs/testlog.txt" "$out/gpu-testlog.txt" 2>/dev/null
[ "${2:-}" = quick ] && exit 0
log "compute-sanitizer memcheck"
for t in "$b"/tests/gpu/test-convert-gpu "$b"/tests/element/test-texelconvert-gpu; do
  [ -x "$t" ] || continue
  GST_DEBUG=*:1 compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 \
    "$t" > "$out/sanitizer-$(basename "$t").txt" 2>&1
  echo "$(basename "$t"): exit $? ; $(grep -E 'ERROR SUMMARY|LEAK SUMMARY' "$out/sanitizer-$(basename "$t").txt" | head -2 | tr '\n' ' ')"
done
