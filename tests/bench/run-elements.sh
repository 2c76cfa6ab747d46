#!/usr/bin/env bash
# Frames/s, host CPU time and latency of each case of a case file
# (default tests/bench/element-cases.txt), through texel-bench, as one
# markdown table with ratios against the first case of each group. Cases
# whose elements are not installed are listed as such, not failed.
#
#   tests/bench/run-elements.sh BUILD_DIR [CASES] [texel-bench options]
#
# SPDX-License-Identifier: LGPL-2.1-or-later
set -uo pipefail
build=$(cd "${1:?usage: $0 BUILD_DIR [CASES] [texel-bench options]}" && pwd)
shift
root=$(cd "$(dirname "$0")/../.." && pwd)
cases="$root/tests/bench/element-cases.txt"
if [ $# -gt 0 ] && [ -e "$1" ]; then cases=$(readlink -f "$1"); shift; fi
cd "$root" || exit 2
[ -f .gstrt/env.sh ] && . .gstrt/env.sh
export GST_PLUGIN_PATH="$build/plugin${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
export GST_DEBUG="${GST_DEBUG:-*:1}"
bench="$build/tests/bench/texel-bench"

echo "| group | case | frames/s | CPU ms/frame | latency median ms | vs first of group | host<->GPU MB/frame | active |"
echo "|---|---|---:|---:|---:|---:|---:|---|"
status=0
group_ref="" ; group_fps=""
while IFS='|' read -r group in out fragment; do
  group=$(echo "$group" | xargs); in=$(echo "$in" | xargs); out=$(echo "$out" | xargs)
  fragment=$(echo "$fragment" | sed 's/^ *//; s/ *$//')
  case "$group" in ''|'#'*) continue ;; esac
  line=$(timeout 300 "$bench" --in "$in" --out "$out" --fragment "$fragment" \
    --csv "$@" 2>/dev/null | tail -1)
  rc=${PIPESTATUS[0]}
  # label,input,output,status,fps,cpu,lat_med,lat_p99,frames,seconds,
  # transfer_bytes_per_frame,active
  IFS=, read -r _ _ _ st fps cpu lat _ _ _ bytes active <<< "$(echo "$line" | sed 's/"[^"]*"/X/')"
  active=$(echo "$line" | grep -o '"[^"]*"$' | tr -d '"')
  if [ "$group" != "$group_ref" ]; then group_ref=$group; group_fps=""; fi
  if [ "$st" = ok ]; then
    [ -z "$group_fps" ] && group_fps=$fps
    ratio=$(awk -v a="$fps" -v b="$group_fps" 'BEGIN { printf "%.2fx", a / b }')
    mb=$([ -n "$bytes" ] && awk -v b="$bytes" 'BEGIN { printf "%.3f", b / 1e6 }')
    echo "| $group | \`$fragment\` $in -> $out | $fps | $cpu | $lat | $ratio | $mb | $active |"
  elif [ "$rc" -eq 77 ]; then
    echo "| $group | \`$fragment\` | not installed | | | | | |"
  else
    echo "| $group | \`$fragment\` | FAILED ($st) | | | | | |"
    status=1
  fi
done < "$cases"
exit $status
