#!/usr/bin/env bash
# Soak run on a GPU machine: a chain of texel elements on 4K frames for a
# long time (texel-bench: appsrc cycles a ring of frames as a capture driver
# does, appsink takes them), with the process's host RSS and GPU memory
# sampled every 10 s. Fails when the pipeline fails, or when RSS or GPU
# memory grows between the first sample after warm-up and the last by more
# than the allowance (default 16 MiB: pools and caches reach their size in
# the first seconds; a leak of even 100 bytes a frame over 300k frames
# shows as 30 MB). texel-bench's own memory is flat after its first 2^18
# frames (it keeps a fixed sample of latencies); before that change, it
# grew by 8 bytes a frame, which soaks of 300 and 400 s showed
# (docs/reliability.md).
#
#   scripts/soak.sh BUILD_DIR [SECONDS] [FRAGMENT]
#
# Writes $OUT/soak.csv (time_s,rss_kib,gpu_mib) when OUT is set.
set -uo pipefail
build=$(cd "${1:?usage: $0 BUILD_DIR [SECONDS] [FRAGMENT]}" && pwd)
seconds="${2:-300}"
fragment="${3:-texeladjust gamma=1.3 saturation=1.2 red-gain=1.1 ! texelconvert video-direction=horiz}"
allow_kib="${SOAK_ALLOW_KIB:-16384}"
cd "$(dirname "$0")/.." || exit 2
[ -f .gstrt/env.sh ] && . .gstrt/env.sh
export GST_PLUGIN_PATH="$build/plugin${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
export GST_DEBUG="${GST_DEBUG:-*:2}"
out="${OUT:-$(mktemp -d)}"
csv="$out/soak.csv"
echo "time_s,rss_kib,gpu_mib" > "$csv"

"$build/tests/bench/texel-bench" --in NV12:3840x2160 --out NV12:3840x2160 \
  --fragment "$fragment" --seconds "$seconds" --warmup 5 \
  --label soak > "$out/soak-bench.txt" 2>&1 &
pid=$!
start=$(date +%s)
while kill -0 "$pid" 2>/dev/null; do
  rss=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null)
  gpu=$(nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits 2>/dev/null |
    awk -F', ' -v p="$pid" '$1 == p {print $2}')
  [ -n "$rss" ] && echo "$(( $(date +%s) - start )),$rss,${gpu:-}" >> "$csv"
  sleep 10
done
wait "$pid"
status=$?
cat "$out/soak-bench.txt"
echo "soak: fragment: $fragment"
# Growth from the first sample after warm-up (>= 20 s) to the last.
awk -F, -v allow="$allow_kib" '
  NR > 1 && $1 >= 20 && !first { r0 = $2; g0 = $3; t0 = $1; first = 1 }
  NR > 1 { r1 = $2; g1 = $3; t1 = $1; if ($2 > rmax) rmax = $2 }
  END {
    printf "soak: RSS %d KiB at %d s, %d KiB at %d s (max %d); GPU memory %s MiB -> %s MiB\n",
      r0, t0, r1, t1, rmax, g0, g1
    if (r1 - r0 > allow || (g1 != "" && g0 != "" && (g1 - g0) * 1024 > allow)) {
      print "soak: memory grew beyond the allowance"; exit 1
    }
  }' "$csv" || status=1
exit $status
