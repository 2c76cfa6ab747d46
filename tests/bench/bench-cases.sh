# shellcheck shell=bash disable=SC2034 # variables for the sourcing script
# gst-texel benchmarks: what run-elements.sh and run-freeze.sh share
# (sourced, not run).
#
# SPDX-License-Identifier: LGPL-2.1-or-later

bench_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# bench_init DEFAULT_CASES BUILD_DIR [CASES] [OPTIONS...]: sets build (the
# build folder), cases (CASES if it is a file, else DEFAULT_CASES, a path
# in the repository) and bench_args (the options), then goes to the
# repository root with the carried GStreamer runtime (.gstrt, where there
# is one) and the build's plugin.
bench_init() {
  local default=$1
  shift
  build=$(cd "${1:?usage: $0 BUILD_DIR [CASES] [OPTIONS]}" && pwd) || exit 2
  shift
  cases="$bench_root/$default"
  if [ $# -gt 0 ] && [ -e "$1" ]; then cases=$(readlink -f "$1"); shift; fi
  bench_args=("$@")
  cd "$bench_root" || exit 2
  # shellcheck disable=SC1091 # made by shared/device/prepare-runtime.sh
  [ -f .gstrt/env.sh ] && . .gstrt/env.sh
  export GST_PLUGIN_PATH="$build/plugin${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
  export GST_DEBUG="${GST_DEBUG:-*:1}"
}

# Calls HANDLER GROUP INPUT OUTPUT FRAGMENT for each case of the case file
# FILE (lines GROUP | INPUT | OUTPUT | FRAGMENT; fields trimmed; blank
# lines and # comments skipped). The handler runs in this shell, with the
# caller's standard input: the file is read on descriptor 3.
# TEXT without its leading and trailing blanks, on standard output.
bench_trim() {
  local text=$1
  text=${text#"${text%%[![:space:]]*}"}
  printf '%s' "${text%"${text##*[![:space:]]}"}"
}

bench_each_case() {
  local file=$1 handler=$2 group in out fragment
  while IFS='|' read -r group in out fragment <&3; do
    # Trimmed in the shell: a comment's apostrophe is text, not a quote.
    group=$(bench_trim "$group")
    case "$group" in ''|'#'*) continue ;; esac
    in=$(bench_trim "$in"); out=$(bench_trim "$out")
    fragment=$(bench_trim "$fragment")
    "$handler" "$group" "$in" "$out" "$fragment"
  done 3< "$file"
}

# Sets bench_ratio to FPS as a ratio ("1.23x") to the first frames/s given
# for GROUP since the group began (the first of each group is 1.00x). Call
# it in this shell, not in $(...): it remembers the group's first figure.
bench_group_group="" bench_group_fps="" bench_ratio=""
bench_group_ratio() {
  local group=$1 fps=$2
  if [ "$group" != "$bench_group_group" ] || [ -z "$bench_group_fps" ]; then
    bench_group_group=$group
    bench_group_fps=$fps
  fi
  bench_ratio=$(awk -v a="$fps" -v b="$bench_group_fps" \
    'BEGIN { printf "%.2fx", a / b }')
}
