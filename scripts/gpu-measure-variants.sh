#!/usr/bin/env bash
# On the GPU machine: texelconvert 4K NV12 -> 720p RGBA (system memory in and
# out) with each band count and number of frames in flight, for
# docs/performance.md. Usage: scripts/gpu-measure-variants.sh BUILDDIR
set -u
b="$1"
. .gstrt/env.sh
export GST_PLUGIN_PATH="$PWD/$b/plugin"
bench="$b/tests/bench/texel-bench"
for mode in staged zero-copy; do
  for fif in 0 1 2; do
    for bands in 1 2 4 8; do
      [ "$mode" = zero-copy ] && [ "$bands" != 1 ] && continue
      GST_TEXEL_BANDS=$bands "$bench" --in NV12:3840x2160 --out RGBA:1280x720 \
        --seconds 2 --csv --label "$mode fif=$fif bands=$bands" \
        --fragment "texelconvert memory-mode=$mode frames-in-flight=$fif" 2>/dev/null | tail -1
    done
  done
done
