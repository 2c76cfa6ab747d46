#!/usr/bin/env bash
# Runs every pipeline of pipelines/ for a few frames on this machine, with
# the hardware it does not have swapped for stand-ins, and fails on any error
# or warning message on the bus (or a GLib critical/warning in the output).
#
#   run-pipelines.sh PIPELINES_DIR [FILE...]
#   PIPELINE_FRAMES=10   frames each pipeline runs for
#   PIPELINE_TIMEOUT=60  seconds before a pipeline counts as hung
#
# A pipeline file is a shell script whose gst-launch-1.0 line (with "\"
# continuations, shell quoting and ${VAR:-default}s, evaluated with $0 the
# file, as when it runs) is read, not run.
# Substitutions, each reported:
#   * the source and what decodes it, up to the first raw (or Bayer)
#     system-memory caps filter or texel element (nvarguscamerasrc, v4l2src, rtspsrc ! depay !
#     parse ! decoder, filesrc ! decodebin, ...) -> videotestsrc
#     num-buffers=N (is-live=true for cameras and network streams) with the
#     size and rate of the caps it replaced;
#   * display and network sinks -> fakesink; appsink, fakesink and the file
#     sinks stay as shipped, a file sink's location moved to a temporary
#     folder (so appsink's properties are tried: one that holds EOS hangs
#     the pipeline, and a hang fails it);
#   * nvvidconv / nvvideoconvert -> videoconvert; nvegltransform -> dropped;
#   * (memory:NVMM) caps features -> removed;
#   * 10 to 16-bit video/x-bayer caps (rggb10le ...) -> their 8-bit pattern
#     (rggb), the only Bayer videotestsrc makes;
#   * hardware or missing H.264 encoders -> videoconvert ! x264enc, else
#     openh264enc; with neither, the encoder and what follows -> fakesink.
# A line "# test-source: video/x-raw,width=W,height=H,framerate=F" in a file
# gives the stand-in source's size where the caps do not (RTSP, files).
# A pipeline that reads a file (filesrc) runs again on each clip of
# PIPELINE_CLIP_FORMATS, with its source and decoder as shipped: small VP9
# files in those formats (what software decoders give for 10-bit, 4:2:2
# and 4:4:4 streams), made here with vp9enc and passed as INPUT.
# Any other element that is not installed fails the pipeline: nothing is
# skipped silently.
set -uo pipefail
frames="${PIPELINE_FRAMES:-10}"
timeout_s="${PIPELINE_TIMEOUT:-60}"
clip_formats="${PIPELINE_CLIP_FORMATS:-I420_10LE I422_10LE Y444 Y444_10LE}"
[ $# -ge 1 ] || { echo "usage: $0 PIPELINES_DIR [FILE...]" >&2; exit 2; }
dir=$1; shift
if [ $# -gt 0 ]; then files=("$@"); else files=("$dir"/*.sh); fi
[ -e "${files[0]}" ] || { echo "no pipelines in $dir" >&2; exit 1; }

SOURCES=" nvarguscamerasrc nvv4l2camerasrc v4l2src libcamerasrc rtspsrc udpsrc souphttpsrc filesrc uridecodebin uridecodebin3 urisourcebin "
LIVE=" nvarguscamerasrc nvv4l2camerasrc v4l2src libcamerasrc rtspsrc udpsrc "
SINKS=" nv3dsink nveglglessink nvdrmvideosink nvoverlaysink autovideosink xvimagesink ximagesink glimagesink waylandsink kmssink fbdevsink udpsink rtspclientsink "
FILE_SINKS=" filesink multifilesink splitmuxsink "
CONVERTERS=" nvvidconv nvvideoconvert "
DROPPED=" nvegltransform "
H264_ENCODERS=" nvv4l2h264enc x264enc openh264enc omxh264enc nvh264enc vaapih264enc "
SEP=$'\x1f'

declare -A exists_cache
have() {
  if [ -z "${exists_cache[$1]:-}" ]; then
    if gst-inspect-1.0 "$1" >/dev/null 2>&1; then exists_cache[$1]=yes; else exists_cache[$1]=no; fi
  fi
  [ "${exists_cache[$1]}" = yes ]
}
in_list() { [[ "$2" == *" $1 "* ]]; }
is_caps() { [[ "$1" == */* ]]; }
seg_head() { printf '%s' "${1%%"$SEP"*}"; }
seg_text() { printf '%s' "${1//"$SEP"/ }"; }

workdir=$(mktemp -d)
trap 'rm -rf "$workdir"' EXIT

h264_encoder=""
for e in x264enc openh264enc; do have "$e" && { h264_encoder=$e; break; }; done

# The gst-launch-1.0 arguments of a pipeline file, one per line.
launch_args() {
  local text
  text=$(sed -e ':a' -e '/\\$/{N;s/\\\n//;ba}' "$1" | grep -E '^[[:space:]]*(exec[[:space:]]+)?gst-launch-1\.0([[:space:]]|$)' | head -n 1)
  [ -n "$text" ] || return 1
  text=${text#*gst-launch-1.0}
  # $0 is the pipeline file there, as when it runs: a default such as
  # ${CALIBRATION:-$(dirname "$0")/calibration/x.yaml} finds its file.
  bash -c 'set -f; eval "set -- $1" && printf "%s\n" "$@"' "$1" "$text"
}

# A file sink's segment with its location in $workdir.
file_sink() {
  local part out=() IFS=$SEP
  for part in $1; do
    [[ "$part" == location=* ]] && part="location=$workdir/$(basename "${part#location=}")"
    out+=("$part")
  done
  printf '%s' "${out[*]}"
}

# Runs pipeline file $1; with $2, a clip, as shipped from its source on:
# the clip is its INPUT.
run_one() {
  local file=$1 clip=${2:-} name tok seg segs=() cur="" notes=() i
  name=$(basename "$file")
  echo "== $name${clip:+ (INPUT=$(basename "$clip"))}"
  mapfile -t toks < <(INPUT=${clip:-${INPUT:-}} launch_args "$file") || true
  if [ ${#toks[@]} -eq 0 ]; then echo "   FAIL: no gst-launch-1.0 line in $file"; return 1; fi
  # Split into segments at "!", leaving out gst-launch's own options.
  for tok in "${toks[@]}"; do
    if [ "$tok" = "!" ]; then segs+=("$cur"); cur=""; continue; fi
    if [ -z "$cur" ] && [ ${#segs[@]} -eq 0 ] && [[ "$tok" == -* ]]; then continue; fi
    cur=${cur:+$cur$SEP}$tok
  done
  segs+=("$cur")

  # 1. The source chain.
  local head out=() w="" h="" fr="" k=1 n=${#segs[@]}
  head=$(seg_head "${segs[0]}")
  if [ -n "$clip" ]; then
    k=0
  elif in_list "$head" "$SOURCES" || ! have "$head"; then
    while [ $k -lt $n ]; do
      local hk; hk=$(seg_head "${segs[$k]}")
      if { is_caps "$hk" && [[ "$hk" == video/x-raw,* || "$hk" == video/x-raw || "$hk" == video/x-bayer,* ]]; } || [[ "$hk" == texel* ]]; then break; fi
      k=$((k + 1))
    done
    local removed=()
    for ((i = 0; i < k; i++)); do
      removed+=("$(seg_text "${segs[$i]}")")
      if is_caps "$(seg_head "${segs[$i]}")" && [ -z "$w" ]; then
        [[ "${segs[$i]}" =~ width=(\(int\))?([0-9]+) ]] && w=${BASH_REMATCH[2]}
        [[ "${segs[$i]}" =~ height=(\(int\))?([0-9]+) ]] && h=${BASH_REMATCH[2]}
        [[ "${segs[$i]}" =~ framerate=(\(fraction\))?([0-9]+/[0-9]+) ]] && fr=${BASH_REMATCH[2]}
      fi
    done
    # A "# test-source: video/x-raw,width=...,height=...,framerate=..." line
    # in the file tells what the real source delivers when its caps do not.
    local hint; hint=$(sed -n 's/^# test-source: *//p' "$file" | head -n 1)
    if [ -z "$w" ] && [ -n "$hint" ]; then
      [[ "$hint" =~ width=([0-9]+) ]] && w=${BASH_REMATCH[1]}
      [[ "$hint" =~ height=([0-9]+) ]] && h=${BASH_REMATCH[1]}
      [[ "$hint" =~ framerate=([0-9]+/[0-9]+) ]] && fr=${BASH_REMATCH[1]}
    fi
    local src="videotestsrc${SEP}num-buffers=$frames"
    in_list "$head" "$LIVE" && src+="${SEP}is-live=true"
    out+=("$src")
    # Size and rate of what was replaced; gst-launch cannot take two caps
    # filters in a row, so they join the raw caps filter that follows.
    local next="" fields=""; [ $k -lt $n ] && next=$(seg_head "${segs[$k]}")
    [[ "$next" == *width=* ]] || fields+=",width=${w:-1280}"
    [[ "$next" == *height=* ]] || fields+=",height=${h:-720}"
    [[ "$next" == *framerate=* ]] || fields+=",framerate=${fr:-30/1}"
    if [[ "$next" == video/x-raw* || "$next" == video/x-bayer* ]]; then
      local caps=$next
      # videotestsrc makes 8-bit Bayer only: a 10 to 16-bit pattern becomes
      # its 8-bit one.
      if [[ "$caps" =~ format=(\(string\))?([a-z]{4})(10|12|14|16)le ]]; then
        caps=${caps/"${BASH_REMATCH[0]}"/format=${BASH_REMATCH[2]}}
      fi
      [ "$caps$fields" != "$next" ] && notes+=("caps: $next -> $caps$fields")
      segs[$k]="$caps$fields${segs[$k]#"$next"}"
    else
      out+=("video/x-raw$fields")
    fi
    local joined; joined=$(IFS='!'; echo "${removed[*]}"); joined=${joined//!/ ! }
    notes+=("source: $joined -> $(seg_text "${out[*]}" | sed "s/ video\/x-raw/ ! video\/x-raw/")")
  else
    k=0
  fi

  # 2. Everything after it.
  for ((i = k; i < n; i++)); do
    seg=${segs[$i]}
    head=$(seg_head "$seg")
    if is_caps "$head"; then
      if [[ "$seg" == *"(memory:NVMM)"* ]]; then
        notes+=("caps: $(seg_text "$seg") -> ${seg//(memory:NVMM)/}")
        seg=${seg//(memory:NVMM)/}
      fi
      out+=("$seg")
    elif [[ "$head" == *. ]]; then
      out+=("$seg")                       # a reference to a named element
    elif in_list "$head" "$FILE_SINKS"; then
      out+=("$(file_sink "$seg")")
      notes+=("sink: $(seg_text "$seg") -> $(seg_text "$(file_sink "$seg")")")
    elif in_list "$head" "$SINKS"; then
      local sink="fakesink"
      [[ "$seg" =~ (^|$SEP)(name=[^$SEP]*) ]] && sink+="$SEP${BASH_REMATCH[2]}"
      out+=("$sink")
      [ "$head" = fakesink ] || notes+=("sink: $(seg_text "$seg") -> $(seg_text "$sink")")
    elif in_list "$head" "$CONVERTERS"; then
      out+=("videoconvert"); notes+=("converter: $(seg_text "$seg") -> videoconvert")
    elif in_list "$head" "$DROPPED"; then
      notes+=("dropped: $(seg_text "$seg")")
    elif in_list "$head" "$H264_ENCODERS" && ! { [ "$head" = "$h264_encoder" ] || { have "$head" && [[ "$head" != nv* ]]; }; }; then
      if [ -n "$h264_encoder" ]; then
        out+=("videoconvert" "$h264_encoder")
        notes+=("encoder: $(seg_text "$seg") -> videoconvert ! $h264_encoder")
      else
        local rest=() j
        for ((j = i; j < n; j++)); do rest+=("$(seg_text "${segs[$j]}")"); done
        out+=("fakesink")
        notes+=("encoder: no H.264 encoder here (x264enc, openh264enc): $(IFS='|'; echo "${rest[*]}" | sed 's/|/ ! /g') -> fakesink")
        break
      fi
    elif ! have "$head"; then
      echo "   FAIL: element '$head' is not installed and has no substitute"
      return 1
    else
      out+=("$seg")
    fi
  done

  # 3. Run it.
  local args=() first=1
  for seg in "${out[@]}"; do
    [ $first -eq 1 ] || args+=("!")
    first=0
    IFS=$SEP read -r -a parts <<<"$seg"
    args+=("${parts[@]}")
  done
  for note in "${notes[@]}"; do echo "   substituted $note"; done
  echo "   running: gst-launch-1.0 ${args[*]}"
  # gst-launch's bus messages (stdout) apart from the debug log (stderr):
  # written to one file, a debug line could land inside a message's line
  # and hide it from the count below. $log: both, for the other checks.
  local log msgs; log=$(mktemp); msgs=$(mktemp)
  local rc=0 t0 t1
  t0=$(date +%s.%N)
  # A hang (an appsink that holds EOS) is killed, and fails below.
  timeout -k 5 "$timeout_s" gst-launch-1.0 -m "${args[@]}" >"$msgs" 2>"$log.err" || rc=$?
  t1=$(date +%s.%N)
  cat "$msgs" "$log.err" >"$log"
  rm -f "$log.err"
  local problems=()
  [ $rc -eq 124 ] || [ $rc -eq 137 ] && problems+=("timed out after ${timeout_s} s")
  [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ $rc -ne 137 ] && problems+=("gst-launch-1.0 exited with $rc")
  grep -qE '\((error|warning)\):|^(ERROR|WARNING): ' "$log" && problems+=("error or warning on the bus")
  grep -qE -- '-(CRITICAL|WARNING) \*\*' "$log" && problems+=("GLib critical or warning")
  grep -q 'Got EOS from element' "$log" || problems+=("no EOS")
  local texels strategies
  texels=$(printf '%s\n' "${args[@]}" | grep -c '^texel') || true
  strategies=$(grep -c '(element): texel-strategy' "$msgs") || true
  [ "$strategies" -ge "$texels" ] || problems+=("$texels texel element(s), $strategies texel-strategy message(s)")
  if [ ${#problems[@]} -gt 0 ]; then
    echo "   FAIL: $(IFS=';'; echo "${problems[*]}")"
    grep -vE '\((state-changed|stream-status|stream-start|new-clock|async-done|latency|qos|tag|duration-changed|progress)\)' "$log" | grep -vE ' (INFO|DEBUG|LOG) ' | tail -n 40 | sed 's/^/   | /'
    rm -f "$log" "$msgs"
    return 1
  fi
  echo "   ok: $frames frames to EOS in $(awk "BEGIN { printf \"%.2f\", $t1 - $t0 }") s;" \
       "$(grep -o 'texel-strategy, backend=(string)[a-z]*, memory-mode=(string)[a-z-]*' "$log" | sed 's/(string)//g; s/texel-strategy, //' | sort | uniq -c | sed 's/^ *//' | paste -sd';' -)"
  rm -f "$log" "$msgs"
}

# A small VP9 clip of raw format $1 in $workdir; its path, or nothing where
# this machine cannot make one.
make_clip() {
  local clip="$workdir/clip-$1.webm"
  gst-launch-1.0 -q videotestsrc num-buffers="$frames" pattern=smpte ! \
    "video/x-raw,format=$1,width=320,height=180,framerate=30/1" ! \
    vp9enc deadline=1 ! webmmux ! filesink location="$clip" >/dev/null 2>&1 \
    && [ -s "$clip" ] && printf '%s' "$clip"
}

reads_file() {
  local toks
  mapfile -t toks < <(launch_args "$1") || true
  local t; for t in "${toks[@]}"; do [[ "$t" == -* ]] || { [ "$t" = filesrc ]; return; }; done
  return 1
}

status=0 failed=() runs=0 clips=()
for fmt in $clip_formats; do
  clip=$(make_clip "$fmt") || clip=""
  if [ -n "$clip" ]; then clips+=("$clip"); else
    echo "   FAIL: cannot make a $fmt clip (vp9enc, webmmux, vp9dec)"; status=1; failed+=("clip-$fmt"); fi
done
for f in "${files[@]}"; do
  runs=$((runs + 1))
  run_one "$f" || { status=1; failed+=("$(basename "$f")"); }
  reads_file "$f" || continue
  for clip in "${clips[@]}"; do
    runs=$((runs + 1))
    run_one "$f" "$clip" || { status=1; failed+=("$(basename "$f")@$(basename "$clip")"); }
  done
done
echo "== $runs run(s), ${#failed[@]} failed${failed:+: ${failed[*]}}"
exit $status
