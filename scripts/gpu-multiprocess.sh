#!/usr/bin/env bash
# Several processes on one GPU at once: the same pipeline run alone, then N
# copies at the same time, in each memory mode. Every process must succeed
# and write exactly the bytes the lone run wrote (the GPU path is
# deterministic; sharing the GPU must not change a bit).
#
#   scripts/gpu-multiprocess.sh BUILD_DIR [N]     (default 4)
set -uo pipefail
build=$(cd "${1:?usage: $0 BUILD_DIR [N]}" && pwd)
n="${2:-4}"
cd "$(dirname "$0")/.." || exit 2
[ -f .gstrt/env.sh ] && . .gstrt/env.sh
export GST_PLUGIN_PATH="$build/plugin${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0

run_one() {  # MODE OUTPUT
  gst-launch-1.0 -q videotestsrc num-buffers=300 pattern=ball ! \
    video/x-raw,format=NV12,width=1920,height=1080 ! \
    texeladjust backend=cuda memory-mode="$1" gamma=1.4 saturation=1.3 ! \
    texelconvert backend=cuda memory-mode="$1" method=bicubic ! \
    video/x-raw,format=RGBA,width=1280,height=720 ! filesink location="$2"
}

for mode in staged zero-copy; do
  run_one "$mode" "$work/alone.raw" || { echo "$mode: the lone run failed"; status=1; continue; }
  ref=$(md5sum < "$work/alone.raw")
  pids=()
  for i in $(seq "$n"); do
    run_one "$mode" "$work/p$i.raw" &
    pids+=($!)
  done
  ok=0
  for i in $(seq "$n"); do
    if wait "${pids[$((i - 1))]}" && [ "$(md5sum < "$work/p$i.raw")" = "$ref" ]; then
      ok=$((ok + 1))
    fi
  done
  echo "memory-mode=$mode: $ok of $n concurrent processes succeeded with output identical to the lone run ($(stat -c %s "$work/alone.raw") bytes each)"
  [ "$ok" -eq "$n" ] || status=1
done
exit $status
