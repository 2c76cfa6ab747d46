#!/usr/bin/env bash
# gst-texel benchmarks in one call on the GPU machine: the device, its
# host <-> device bandwidth and the frame rates that allows
# (texel-bandwidth), then every implementation on the standard cases
# (texel-bench --matrix). Progress goes to stderr as it runs; the report
# goes to $OUT/bench.md when OUT is set, and is printed last, so the tables
# end the output.
#
#   tests/bench/run-bench.sh BUILD_DIR [texel-bench options, e.g. --seconds 2]
#
# The GPU machine has no GStreamer of its own: the runtime carried in .gstrt
# is used (.gstrt/env.sh), with the plugin from BUILD_DIR/plugin. Without
# .gstrt (a dry run elsewhere) the system's GStreamer is used.
#
# About 2 minutes: 20 cases of 1 s warm-up + 3 s measured, plus set-up.
#
# SPDX-License-Identifier: LGPL-2.1-or-later
set -uo pipefail

if [ $# -lt 1 ] || [ ! -d "$1" ]; then
  echo "usage: $0 BUILD_DIR [texel-bench options]" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
shift
root=$(cd "$(dirname "$0")/../.." && pwd)
# env.sh may name paths relative to the repository root.
cd "$root" || exit 2

bandwidth=$build/tests/bench/texel-bandwidth
bench=$build/tests/bench/texel-bench
if [ ! -x "$bench" ]; then
  echo "$bench is not built (ninja -C $build tests/bench/texel-bench)" >&2
  exit 2
fi

if [ -f .gstrt/env.sh ]; then
  # shellcheck source=/dev/null
  . .gstrt/env.sh
else
  echo "no .gstrt/env.sh: using the system's GStreamer" >&2
fi
export GST_PLUGIN_PATH="$build/plugin${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
# GStreamer reads the _1_0 variable instead of the plain one when it is set.
if [ -n "${GST_PLUGIN_PATH_1_0:-}" ]; then
  export GST_PLUGIN_PATH_1_0="$build/plugin:$GST_PLUGIN_PATH_1_0"
fi
# A registry of our own, so a stale one can never hide a rebuilt plugin.
if [ -z "${GST_REGISTRY_1_0:-}${GST_REGISTRY:-}" ]; then
  export GST_REGISTRY_1_0="$build/bench-registry.bin"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out_dir=${OUT:-$work}
report=$out_dir/bench.md
log=$out_dir/bench-log.txt

# The element's own account (texel* logs its copy statistics at the end of
# each stream) goes to a file when there is somewhere to keep it.
if [ -n "${OUT:-}" ]; then
  export GST_DEBUG="${GST_DEBUG:-texel*:4,*:2}"
  export GST_DEBUG_FILE="$OUT/gst-debug.log"
  export GST_DEBUG_NO_COLOR=1
else
  export GST_DEBUG="${GST_DEBUG:-*:2}"
fi

describe_machine() {
  echo "# gst-texel benchmark run"
  echo
  echo "$(date -u '+%Y-%m-%d %H:%M UTC')," \
    "$(git -C "$root" describe --always --dirty 2>/dev/null || echo 'no git')"
  echo
  echo '```'
  if command -v nvidia-smi >/dev/null; then
    nvidia-smi -L 2>&1
    # The link's generation drops when idle: "max" is what it can do.
    nvidia-smi --format=csv --query-gpu=name,driver_version,pcie.link.gen.current,\
pcie.link.gen.max,pcie.link.width.current,pcie.link.width.max 2>&1
  else
    echo "nvidia-smi: not available"
  fi
  echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')," \
    "$(nproc) cores"
  if command -v gst-inspect-1.0 >/dev/null; then
    gst-inspect-1.0 --version | sed -n 2p
    for element in texelconvert cudaconvertscale videoconvertscale; do
      # Not --exists: it also asks for at least GStreamer's own version.
      if gst-inspect-1.0 "$element" >/dev/null 2>&1; then
        echo "$element: found"
      else
        echo "$element: MISSING"
      fi
    done
  fi
  echo '```'
  echo
}

describe_machine > "$report"

# texel-bandwidth: 77 means no GPU; the matrix still runs (its CPU rows).
if [ -x "$bandwidth" ]; then
  echo "texel-bandwidth: measuring the link..." >&2
  timeout 120 "$bandwidth" > "$work/bandwidth.md" 2> >(tee -a "$log" >&2)
  bandwidth_status=$?
  { cat "$work/bandwidth.md"; echo; } >> "$report"
  if [ $bandwidth_status -ne 0 ] && [ $bandwidth_status -ne 77 ]; then
    echo "texel-bandwidth failed (exit $bandwidth_status)" |
      tee -a "$report" >&2
  fi
else
  echo "texel-bandwidth is not built (CUDA disabled?)" | tee -a "$report" >&2
  bandwidth_status=0
fi

echo "texel-bench --matrix $*" >&2
timeout 420 "$bench" --matrix "$@" > "$work/matrix.md" 2> >(tee -a "$log" >&2)
bench_status=$?
{
  echo "## Frames through each implementation"
  echo
  echo "tests/bench/texel-bench --matrix $*"
  echo
  cat "$work/matrix.md"
  if [ $bench_status -ne 0 ]; then
    echo
    echo "texel-bench failed (exit $bench_status)"
  fi
} >> "$report"

# What comes back from the machine is limited in size: keep both ends.
if [ -n "${OUT:-}" ] && [ -f "$GST_DEBUG_FILE" ] &&
  [ "$(stat -c %s "$GST_DEBUG_FILE")" -gt 8000000 ]; then
  { head -c 4000000 "$GST_DEBUG_FILE"; echo; echo "[... cut ...]"
    tail -c 4000000 "$GST_DEBUG_FILE"; } > "$work/debug.log"
  mv "$work/debug.log" "$GST_DEBUG_FILE"
fi

echo >&2
cat "$report"
[ "$bench_status" -eq 0 ] &&
  { [ "$bandwidth_status" -eq 0 ] || [ "$bandwidth_status" -eq 77 ]; }
