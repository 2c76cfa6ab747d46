#!/usr/bin/env bash
# Frames/s and host CPU time per frame of each case of a case file
# (default tests/bench/device-cases.txt) with frames already on the GPU
# and a harness much lighter than texel-bench's: one frame goes up once
# through cudaupload and imagefreeze pushes it again and again, in one
# streaming thread, into the case's elements and a fakesink:
#
#   videotestsrc num-buffers=1 ! INPUT ! cudaupload ! imagefreeze
#     num-buffers=N ! FRAGMENT ! OUTPUT (memory:CUDAMemory) ! fakesink
#
# Each case runs gst-launch-1.0 twice, with N = FRAMES / 10 and FRAMES;
# the figures come from the differences between the two runs (wall time,
# user + system CPU time), so start-up and shut-down cancel out. The
# harness line of device-cases.txt (identity) measures imagefreeze and
# fakesink alone. One markdown table, ratios against the first case of
# each group; cases whose elements are missing are listed as such.
#
#   tests/bench/run-freeze.sh BUILD_DIR [CASES] [FRAMES]   (FRAMES: 100000)
#
# tests/bench/run-resident.sh runs the same harness for several builds
# interleaved (texelconvert NV12 -> 720p RGBA, frames-in-flight 0, 1, 3).
#
# SPDX-License-Identifier: LGPL-2.1-or-later
set -uo pipefail
# shellcheck source=tests/bench/bench-cases.sh
. "$(dirname "$0")/bench-cases.sh"
bench_init tests/bench/device-cases.txt "$@"
frames=${bench_args[0]:-100000}

# CAPS "FORMAT:WxH" -> "format=FORMAT,width=W,height=H"
caps_fields() {
  local format=${1%%:*} size=${1#*:}
  echo "format=$format,width=${size%x*},height=${size#*x}"
}

# Runs one pipeline of N frames; prints "wall user+system" in seconds, or
# nothing when it fails.
run_once() {
  local n=$1 in=$2 out=$3 fragment=$4 t status
  local TIMEFORMAT='%R %U %S'
  # shellcheck disable=SC2086 # the fragment is gst-launch syntax
  t=$( { time gst-launch-1.0 -q videotestsrc num-buffers=1 ! \
    "video/x-raw,$(caps_fields "$in"),framerate=30/1" ! cudaupload ! \
    "video/x-raw(memory:CUDAMemory)" ! imagefreeze num-buffers="$n" ! \
    $fragment ! "video/x-raw(memory:CUDAMemory),$(caps_fields "$out")" ! \
    fakesink sync=false >/dev/null 2>&1; } 2>&1 )
  status=$?
  [ "$status" -eq 0 ] || return "$status"
  echo "$t" | awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }'
}

for tool in gst-launch-1.0 gst-inspect-1.0; do
  command -v $tool >/dev/null || { echo "SKIP: no $tool"; exit 77; }
done
for element in cudaupload imagefreeze; do
  gst-inspect-1.0 "$element" >/dev/null 2>&1 || {
    echo "SKIP: no $element"; exit 77; }
done

# One case: two runs, one table row.
run_case() {
  local group=$1 in=$2 out=$3 fragment=$4 missing="" element short long
  local fps cpu
  for element in $(echo "$fragment" | tr '!' '\n' | awk '{ print $1 }'); do
    case "$element" in *'/'*) continue ;; esac
    gst-inspect-1.0 "$element" >/dev/null 2>&1 || missing=$element
  done
  if [ -n "$missing" ]; then
    echo "| $group | \`$fragment\` | not installed ($missing) | | |"
    return
  fi
  short=$(run_once $((frames / 10)) "$in" "$out" "$fragment") &&
    long=$(run_once "$frames" "$in" "$out" "$fragment")
  if [ -z "${short:-}" ] || [ -z "${long:-}" ]; then
    echo "| $group | \`$fragment\` | FAILED | | |"
    status=1
    return
  fi
  # Under a quarter of a second between the two runs, the difference is
  # mostly noise (the harness line runs at about a million frames/s).
  read -r fps cpu <<< "$(awk -v s="$short" -v l="$long" -v n="$frames" '
    BEGIN { split (s, a, " "); split (l, b, " "); d = n - n / 10;
      if (b[1] - a[1] < 0.25) { print "-"; exit }
      printf "%.0f %.2f\n", d / (b[1] - a[1]), (b[2] - a[2]) * 1e6 / d }')"
  if [ "$fps" = - ]; then
    echo "| $group | \`$fragment\` $in -> $out | too fast to time at $frames frames | | |"
    return
  fi
  bench_group_ratio "$group" "$fps"
  echo "| $group | \`$fragment\` $in -> $out | $fps | $cpu | $bench_ratio |"
}

echo "| group | case | frames/s | CPU us/frame | vs first of group |"
echo "|---|---|---:|---:|---:|"
status=0
bench_each_case "$cases" run_case
exit $status
