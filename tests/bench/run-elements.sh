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
# shellcheck source=tests/bench/bench-cases.sh
. "$(dirname "$0")/bench-cases.sh"
bench_init tests/bench/element-cases.txt "$@"
bench="$build/tests/bench/texel-bench"

# One case: a texel-bench run, one table row.
run_case() {
  local group=$1 in=$2 out=$3 fragment=$4 line rc st fps cpu lat bytes active
  local mb
  line=$(timeout 300 "$bench" --in "$in" --out "$out" --fragment "$fragment" \
    --csv "${bench_args[@]}" 2>/dev/null | tail -1)
  rc=${PIPESTATUS[0]}
  # label,input,output,status,fps,cpu,lat_med,lat_p99,frames,seconds,
  # transfer_bytes_per_frame,active
  IFS=, read -r _ _ _ st fps cpu lat _ _ _ bytes active <<< "$(echo "$line" | sed 's/"[^"]*"/X/')"
  active=$(echo "$line" | grep -o '"[^"]*"$' | tr -d '"')
  if [ "$st" = ok ]; then
    bench_group_ratio "$group" "$fps"
    mb=$([ -n "$bytes" ] && awk -v b="$bytes" 'BEGIN { printf "%.3f", b / 1e6 }')
    echo "| $group | \`$fragment\` $in -> $out | $fps | $cpu | $lat | $bench_ratio | $mb | $active |"
  elif [ "$rc" -eq 77 ]; then
    echo "| $group | \`$fragment\` | not installed | | | | | |"
  else
    echo "| $group | \`$fragment\` | FAILED ($st) | | | | | |"
    status=1
  fi
}

echo "| group | case | frames/s | CPU ms/frame | latency median ms | vs first of group | host<->GPU MB/frame | active |"
echo "|---|---|---:|---:|---:|---:|---:|---|"
status=0
bench_each_case "$cases" run_case
exit $status
