#!/usr/bin/env bash
# The texel cases of a case file (default tests/bench/device-cases.txt)
# with two builds of the plugin in one run, alternating case by case so
# that both see the same machine state: BEFORE_PLUGIN_DIR (a folder with
# an older libgsttexel.so) and BUILD_DIR's plugin. One markdown table:
# frames/s and host CPU ms per frame of each, and after / before. Cases
# without a texel element (the peers) are left out: they do not change.
#
#   tests/bench/run-before-after.sh BUILD_DIR BEFORE_PLUGIN_DIR [CASES] [texel-bench options]
#
# SPDX-License-Identifier: LGPL-2.1-or-later
set -uo pipefail
. "$(dirname "$0")/bench-cases.sh"
before=$(cd "${2:?usage: $0 BUILD_DIR BEFORE_PLUGIN_DIR [CASES] [OPTIONS]}" && pwd) || exit 2
set -- "$1" "${@:3}"
bench_init tests/bench/device-cases.txt "$@"
bench="$build/tests/bench/texel-bench"
after="$build/plugin"

# One texel-bench run with the plugin in folder $1: "fps cpu" or "FAILED".
measure() {
  local dir=$1 in=$2 out=$3 fragment=$4 line st fps cpu
  line=$(GST_PLUGIN_PATH="$dir" GST_REGISTRY="/tmp/texel-ba-$$-$(echo "$dir" | md5sum | cut -c1-8).bin" \
    timeout 300 "$bench" --in "$in" --out "$out" --fragment "$fragment" \
    --csv "${bench_args[@]}" 2>/dev/null | tail -1)
  IFS=, read -r _ _ _ st fps cpu _ <<< "$(echo "$line" | sed 's/"[^"]*"/X/')"
  if [ "$st" = ok ]; then echo "$fps $cpu"; else echo "FAILED"; fi
}

run_case() {
  local group=$1 in=$2 out=$3 fragment=$4 b a
  case "$fragment" in *texel*) ;; *) return ;; esac
  b=$(measure "$before" "$in" "$out" "$fragment")
  a=$(measure "$after" "$in" "$out" "$fragment")
  if [ "$b" = FAILED ] || [ "$a" = FAILED ]; then
    echo "| $group | \`$fragment\` $in -> $out | ${b%% *} | | ${a%% *} | | |"
    status=1
    return
  fi
  read -r bf bc <<< "$b"
  read -r af ac <<< "$a"
  echo "| $group | \`$fragment\` $in -> $out | $bf | $bc | $af | $ac | $(awk -v a="$af" -v b="$bf" 'BEGIN { printf "%.3f", a / b }') |"
}

echo "| group | case | before frames/s | before CPU ms/frame | after frames/s | after CPU ms/frame | after / before |"
echo "|---|---|---:|---:|---:|---:|---:|"
status=0
bench_each_case "$cases" run_case
exit $status
