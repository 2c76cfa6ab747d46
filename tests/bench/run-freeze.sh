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
# SPDX-License-Identifier: LGPL-2.1-or-later
set -uo pipefail
build=$(cd "${1:?usage: $0 BUILD_DIR [CASES] [FRAMES]}" && pwd)
shift
root=$(cd "$(dirname "$0")/../.." && pwd)
cases="$root/tests/bench/device-cases.txt"
if [ $# -gt 0 ] && [ -e "$1" ]; then cases=$(readlink -f "$1"); shift; fi
frames=${1:-100000}
cd "$root" || exit 2
[ -f .gstrt/env.sh ] && . .gstrt/env.sh
export GST_PLUGIN_PATH="$build/plugin${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
export GST_DEBUG="${GST_DEBUG:-*:1}"

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
  [ $status -eq 0 ] || return $status
  echo "$t" | awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }'
}

for tool in gst-launch-1.0 gst-inspect-1.0; do
  command -v $tool >/dev/null || { echo "SKIP: no $tool"; exit 77; }
done
for element in cudaupload imagefreeze; do
  gst-inspect-1.0 "$element" >/dev/null 2>&1 || {
    echo "SKIP: no $element"; exit 77; }
done

echo "| group | case | frames/s | CPU us/frame | vs first of group |"
echo "|---|---|---:|---:|---:|"
status=0
group_ref="" ; group_fps=""
while IFS='|' read -r group in out fragment; do
  group=$(echo "$group" | xargs); in=$(echo "$in" | xargs); out=$(echo "$out" | xargs)
  fragment=$(echo "$fragment" | sed 's/^ *//; s/ *$//')
  case "$group" in ''|'#'*) continue ;; esac
  if [ "$group" != "$group_ref" ]; then group_ref=$group; group_fps=""; fi
  missing=""
  for element in $(echo "$fragment" | tr '!' '\n' | awk '{ print $1 }'); do
    case "$element" in *'/'*) continue ;; esac
    gst-inspect-1.0 "$element" >/dev/null 2>&1 || missing=$element
  done
  if [ -n "$missing" ]; then
    echo "| $group | \`$fragment\` | not installed ($missing) | | |"
    continue
  fi
  short=$(run_once $((frames / 10)) "$in" "$out" "$fragment") &&
    long=$(run_once "$frames" "$in" "$out" "$fragment")
  if [ -z "${short:-}" ] || [ -z "${long:-}" ]; then
    echo "| $group | \`$fragment\` | FAILED | | |"
    status=1
    continue
  fi
  # Under a quarter of a second between the two runs, the difference is
  # mostly noise (the harness line runs at about a million frames/s).
  read -r fps cpu <<< "$(awk -v s="$short" -v l="$long" -v n="$frames" '
    BEGIN { split (s, a, " "); split (l, b, " "); d = n - n / 10;
      if (b[1] - a[1] < 0.25) { print "-"; exit }
      printf "%.0f %.2f\n", d / (b[1] - a[1]), (b[2] - a[2]) * 1e6 / d }')"
  if [ "$fps" = - ]; then
    echo "| $group | \`$fragment\` $in -> $out | too fast to time at $frames frames | | |"
    continue
  fi
  [ -z "$group_fps" ] && group_fps=$fps
  ratio=$(awk -v a="$fps" -v b="$group_fps" 'BEGIN { printf "%.2fx", a / b }')
  echo "| $group | \`$fragment\` $in -> $out | $fps | $cpu | $ratio |"
done < "$cases"
exit $status
