#!/usr/bin/env bash
# The resident case of issue #28 (item 6) with several builds of the
# plugin in one call: one NV12 frame uploaded once into CUDA memory and
# pushed again and again by imagefreeze, texelconvert to 720p RGBA in CUDA
# memory, a fakesink; nothing crosses PCIe and the kernel is small, so
# what is measured is the host's cost of a frame (and the kernel's time
# where the host is faster). run-freeze.sh's harness, but the builds and
# the frames-in-flight values interleaved round by round, with
# cudaconvertscale as the peer:
#
#   videotestsrc num-buffers=1 ! NV12 WxH ! cudaupload ! imagefreeze
#     num-buffers=N ! texelconvert frames-in-flight=F !
#     video/x-raw(memory:CUDAMemory),format=RGBA,width=1280,height=720 !
#     fakesink sync=false
#
# Each measurement runs gst-launch-1.0 twice, with N = FRAMES / 10 and
# FRAMES; frames/s and host CPU time (user + system of the whole process,
# every thread) per frame come from the differences, so start-up and
# shut-down cancel out. Every case of every build runs once a round, the
# builds' order reversed every other round; the table gives each case's
# median over the rounds and its ratio to the first build's.
#
#   tests/bench/run-resident.sh [LABEL=]PLUGIN_DIR [[LABEL=]PLUGIN_DIR ...]
#
# PLUGIN_DIR: a folder holding libgsttexel.so (a build's plugin/ folder,
# or a copy of the .so; a build folder stands for its plugin/ folder),
# chosen with GST_PLUGIN_PATH_1_0 (put before the runtime's), each with a
# registry of its own; the script checks that texelconvert loads from it.
# LABEL names the column (default: the folder's name). GStreamer comes
# from .gstrt (source .gstrt/env.sh) where the repository has one, else
# from the system. Environment (defaults in brackets):
#   FRAMES   frames of the long run [40000]
#   ROUNDS   rounds [3]
#   FIF      frames-in-flight values [0 1 3]
#   SIZES    input sizes [3840x2160 1920x1080]
#   BUDGET   seconds the rounds may take: none starts that would end
#            past it, judged by the round before [210]
# With the defaults and two builds: 2 sizes x (3 x 2 + 1) cases x 3
# rounds, each two launches, about 2.5 minutes on an H100 machine.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
set -uo pipefail

frames=${FRAMES:-40000}
rounds=${ROUNDS:-3}
fifs=${FIF:-0 1 3}
sizes=${SIZES:-3840x2160 1920x1080}
budget=${BUDGET:-210}
out_caps='video/x-raw(memory:CUDAMemory),format=RGBA,width=1280,height=720'

if [ $# -lt 1 ]; then
  sed -n '2,/^# SPDX/p' "$0" | sed 's/^# \{0,1\}//' | head -n -1
  exit 2
fi

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
# shellcheck disable=SC1091 # the GPU machine's GStreamer runtime
[ -f .gstrt/env.sh ] && . .gstrt/env.sh
export GST_DEBUG="${GST_DEBUG:-*:1}"
tmp=$(mktemp -d /tmp/texel-resident.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
# GST_PLUGIN_PATH_1_0, where set, hides GST_PLUGIN_PATH: the builds' folders
# go before whichever of the two the runtime set.
base_path=${GST_PLUGIN_PATH_1_0:-${GST_PLUGIN_PATH:-}}

for tool in gst-launch-1.0 gst-inspect-1.0; do
  command -v $tool >/dev/null || { echo "SKIP: no $tool"; exit 77; }
done

labels=() dirs=()
for arg in "$@"; do
  case "$arg" in
    *=*) label=${arg%%=*} dir=${arg#*=} ;;
    *) dir=$arg label=$(basename "$(cd "$arg" 2>/dev/null && pwd)") ;;
  esac
  dir=$(cd "$dir" 2>/dev/null && pwd) || { echo "no folder $arg" >&2; exit 2; }
  # A build folder stands for its plugin/ folder.
  [ ! -f "$dir/libgsttexel.so" ] && [ -f "$dir/plugin/libgsttexel.so" ] &&
    dir=$dir/plugin
  [ -f "$dir/libgsttexel.so" ] || { echo "no libgsttexel.so in $dir" >&2; exit 2; }
  labels+=("$label") dirs+=("$dir")
done

# The environment of build @1 (an index): its folder first in the plugin
# path, its own registry.
with_build() {
  local i=$1
  shift
  GST_PLUGIN_PATH_1_0="${dirs[$i]}${base_path:+:$base_path}" \
    GST_REGISTRY_1_0="$tmp/registry-$i.bin" "$@"
}

# Each build's registry made (outside the timed runs), and texelconvert
# checked to come from its folder.
for i in "${!dirs[@]}"; do
  file=$(with_build "$i" gst-inspect-1.0 texelconvert 2>/dev/null |
    awk '/^ *Filename/ { print $2 }')
  case "$file" in
    "${dirs[$i]}"/*) ;;
    *) echo "${labels[$i]}: texelconvert comes from '${file:-nowhere}', not ${dirs[$i]}" >&2
       exit 1 ;;
  esac
  echo "${labels[$i]}: $file ($(md5sum < "$file" | cut -c1-12))"
done
for element in cudaupload imagefreeze; do
  with_build 0 gst-inspect-1.0 "$element" >/dev/null 2>&1 || {
    echo "SKIP: no $element"; exit 77; }
done
peer=cudaconvertscale
with_build 0 gst-inspect-1.0 "$peer" >/dev/null 2>&1 || peer=""

# Each build on the GPU path (its texel-strategy message), or no figure of
# it means anything.
for i in "${!dirs[@]}"; do
  size=${sizes%% *}
  if ! with_build "$i" timeout 60 gst-launch-1.0 -m videotestsrc num-buffers=1 ! \
    "video/x-raw,format=NV12,width=${size%x*},height=${size#*x},framerate=30/1" ! \
    cudaupload ! "video/x-raw(memory:CUDAMemory)" ! imagefreeze num-buffers=10 ! \
    texelconvert ! "$out_caps" ! fakesink 2>&1 |
    grep texel-strategy | grep -q 'backend=(string)cuda'; then
    echo "${labels[$i]}: texelconvert not on the GPU path (or the pipeline failed)" >&2
    exit 1
  fi
done

# One gst-launch-1.0 of @2 frames with build @1, input size @3 (WxH),
# element fragment @4: prints "wall user+system" in seconds, or fails.
launch() {
  local i=$1 n=$2 size=$3 fragment=$4 t
  local TIMEFORMAT='%R %U %S'
  # shellcheck disable=SC2086 # the fragment is gst-launch syntax
  t=$( { time with_build "$i" timeout 120 gst-launch-1.0 -q \
    videotestsrc num-buffers=1 ! \
    "video/x-raw,format=NV12,width=${size%x*},height=${size#*x},framerate=30/1" ! \
    cudaupload ! "video/x-raw(memory:CUDAMemory)" ! \
    imagefreeze num-buffers="$n" ! $fragment ! "$out_caps" ! \
    fakesink sync=false >/dev/null 2>&1; } 2>&1 ) || return 1
  echo "$t" | awk '{ printf "%.4f %.4f\n", $1, $2 + $3 }'
}

# One measurement: "fps cpu_us_per_frame" from the short and long runs,
# or "FAILED".
measure() {
  local i=$1 size=$2 fragment=$3 short long
  if ! short=$(launch "$i" $((frames / 10)) "$size" "$fragment") ||
    ! long=$(launch "$i" "$frames" "$size" "$fragment"); then
    echo FAILED
    return
  fi
  awk -v s="$short" -v l="$long" -v n="$frames" 'BEGIN {
    split (s, a, " "); split (l, b, " "); d = n - n / 10; w = b[1] - a[1];
    if (w <= 0) { print "FAILED"; exit }
    printf "%.0f %.2f\n", d / w, (b[2] - a[2]) * 1e6 / d }'
}

# Raw results, one line a measurement: "case<TAB>build<TAB>fps cpu".
results=$tmp/results
: > "$results"
record() {
  printf '%s\t%s\t%s\n' "$1" "$2" "$3" >> "$results"
  printf '  %-28s %-12s %s\n' "$1" "$2" "$3" >&2
}

start=$SECONDS
order=("${!dirs[@]}")
done_rounds=0 round_time=0
for ((r = 1; r <= rounds; r++)); do
  # No round that would end past the budget (judged by the last one).
  if [ $r -gt 1 ] && [ $((SECONDS - start + round_time)) -gt "$budget" ]; then
    echo "a round more would pass the ${budget}s budget: $done_rounds round(s)" >&2
    break
  fi
  round_start=$SECONDS
  echo "round $r ($((SECONDS - start))s)" >&2
  for size in $sizes; do
    for f in $fifs; do
      for i in "${order[@]}"; do
        record "$size texelconvert fif=$f" "${labels[$i]}" \
          "$(measure "$i" "$size" "texelconvert frames-in-flight=$f")"
      done
    done
    if [ -n "$peer" ]; then
      record "$size $peer" "${labels[0]}" "$(measure 0 "$size" "$peer")"
    fi
  done
  # Every other round the other way round.
  mapfile -t order < <(printf '%s\n' "${order[@]}" | tac)
  done_rounds=$r round_time=$((SECONDS - round_start))
done

echo
echo "$done_rounds round(s) of $frames frames, $((SECONDS - start)) s; medians over the rounds"
echo
header="| case |" rule="|---|"
for label in "${labels[@]}"; do
  header="$header $label frames/s | $label CPU us/frame |"
  rule="$rule---:|---:|"
done
[ ${#labels[@]} -gt 1 ] && for label in "${labels[@]:1}"; do
  header="$header $label / ${labels[0]} |"
  rule="$rule---:|"
done
echo "$header"
echo "$rule"
cut -f1 "$results" | awk '!seen[$0]++' | while read -r case; do
  line="| $case |" first="" ratios=""
  for label in "${labels[@]}"; do
    # Medians of the fps and the CPU time of this case and build.
    read -r fps cpu <<< "$(awk -F'\t' -v c="$case" -v b="$label" '
      $1 == c && $2 == b && $3 != "FAILED" { split ($3, v, " ");
        n++; f[n] = v[1]; u[n] = v[2] }
      function median (a, n,   i, j, t) {
        for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) {
          t = a[j]; a[j] = a[j-1]; a[j-1] = t }
        return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2 }
      END { if (n == 0) print "- -";
            else printf "%.0f %.2f\n", median(f, n), median(u, n) }' "$results")"
    [ "$fps" = - ] && ! grep -q "^$case	$label	" "$results" && fps="" cpu=""
    line="$line ${fps} | ${cpu} |"
    if [ -z "$first" ]; then
      first=$fps
    else
      ratios="$ratios $(awk -v a="$fps" -v b="$first" 'BEGIN {
        if (a + 0 > 0 && b + 0 > 0) printf "%.2fx", a / b; else printf "" }') |"
    fi
  done
  echo "$line$ratios"
done
grep -q FAILED "$results" && { echo "(some runs FAILED: see above)"; exit 1; }
exit 0
